"""The organiser's console, mounted at /tournaments/<id>/console/ in the
``tournament-pages`` namespace (see ``tournaments.console``). Each part adds its own lines."""

from django.urls import URLPattern, URLResolver, path

from tournaments.console import hub, screen, setup

urlpatterns: list[URLPattern | URLResolver] = [
    path("", hub.hub, name="console"),
    path("screen/timer/", screen.timer, name="console-screen-timer"),
    path("screen/timer/fragment", screen.timer_fragment, name="console-screen-timer-fragment"),
    # setup: settings, registration, the join link and its poster
    path("settings/", setup.settings, name="console-setup-settings"),
    path("players/", setup.players, name="console-setup-players"),
    path("players/add/", setup.player_add, name="console-setup-player-add"),
    path("players/import/", setup.players_import, name="console-setup-import"),
    path(
        "players/<int:reg>/<str:action>/",
        setup.registration_action,
        name="console-setup-registration",
    ),
    path("join-link/", setup.join_link_renew, name="console-setup-join-renew"),
    path("poster/", setup.poster, name="console-setup-poster"),
]
