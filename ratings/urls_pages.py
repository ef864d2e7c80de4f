"""Public ratings pages (mounted at /ratings/)."""

from django.urls import URLPattern, URLResolver, path

from ratings import pages

app_name = "rating-pages"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", pages.index, name="index"),
    path("<int:pool_id>/", pages.leaderboard, name="leaderboard"),
    path("<int:pool_id>/players/<int:player_id>/", pages.player_history, name="player-history"),
]
