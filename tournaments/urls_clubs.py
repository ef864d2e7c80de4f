"""Club pages (mounted at /clubs/): the list of clubs, each club's page and its self sign-up."""

from django.urls import URLPattern, URLResolver, path

from tournaments import club_pages, pages, season_pages

app_name = "club-pages"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", pages.club_list, name="list"),
    path("<int:pk>/", pages.club_detail, name="detail"),
    path("<int:pk>/join/", club_pages.club_join, name="join"),
    path("<int:pk>/seasons/new/", season_pages.season_new, name="season-new"),
    path("<int:pk>/seasons/<int:season>/", season_pages.season_detail, name="season"),
    path("<int:pk>/seasons/<int:season>/edit/", season_pages.season_edit, name="season-edit"),
]
