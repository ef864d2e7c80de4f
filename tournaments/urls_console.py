"""The organiser's console, mounted at /tournaments/<id>/console/ in the
``tournament-pages`` namespace (see ``tournaments.console``). Each part adds its own lines."""

from django.urls import URLPattern, URLResolver, path

from tournaments.console import hub, screen

urlpatterns: list[URLPattern | URLResolver] = [
    path("", hub.hub, name="console"),
    path("screen/timer/", screen.timer, name="console-screen-timer"),
    path("screen/timer/fragment", screen.timer_fragment, name="console-screen-timer-fragment"),
]
