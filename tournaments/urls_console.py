"""The organiser's console, mounted at /tournaments/<id>/console/ in the
``tournament-pages`` namespace (see ``tournaments.console``). Each part adds its own lines."""

from django.urls import URLPattern, URLResolver, path

from tournaments.console import hub

urlpatterns: list[URLPattern | URLResolver] = [
    path("", hub.hub, name="console"),
]
