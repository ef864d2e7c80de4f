"""The game pages (mounted at /games/): the lobby of open games (``play:lobby``, its fragment,
the set-up form and the seat actions) and each stream's table (``play:table``, ``play:fragment``)
and replay (``play:replay``)."""

from django.urls import URLPattern, path

from play import views

app_name = "play"

urlpatterns: list[URLPattern] = [
    path("", views.lobby, name="lobby"),
    path("lobby-fragment", views.lobby_fragment, name="lobby-fragment"),
    path("new/<slug:game_id>/", views.lobby_new, name="lobby-new"),
    *(
        path(
            f"open/<int:pk>/{action}",
            views.lobby_action,
            {"action": action},
            name=f"lobby-{action}",
        )
        for action in views.LOBBY_ACTIONS
    ),
    path("<uuid:stream>/", views.table, name="table"),
    path("<uuid:stream>/fragment", views.fragment, name="fragment"),
    path("<uuid:stream>/replay", views.replay, name="replay"),
]
