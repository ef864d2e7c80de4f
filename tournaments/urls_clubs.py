"""Club pages (mounted at /clubs/): the list of clubs, each club's page and its self sign-up."""

from django.urls import URLPattern, URLResolver, path

from tournaments import club_pages, pages

app_name = "club-pages"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", pages.club_list, name="list"),
    path("<int:pk>/", pages.club_detail, name="detail"),
    path("<int:pk>/join/", club_pages.club_join, name="join"),
]
