"""Public club pages (mounted at /clubs/): the list of clubs and each club's page."""

from django.urls import URLPattern, URLResolver, path

from tournaments import pages

app_name = "club-pages"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", pages.club_list, name="list"),
    path("<int:pk>/", pages.club_detail, name="detail"),
]
