"""The game pages (mounted at /games/): url names ``play:table``, ``play:fragment``
and ``play:replay``."""

from django.urls import URLPattern, path

from play import views

app_name = "play"

urlpatterns: list[URLPattern] = [
    path("<uuid:stream>/", views.table, name="table"),
    path("<uuid:stream>/fragment", views.fragment, name="fragment"),
    path("<uuid:stream>/replay", views.replay, name="replay"),
]
