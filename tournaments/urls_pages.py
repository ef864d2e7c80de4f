"""Printable pages and CSV exports (mounted at /tournaments/)."""

from django.urls import URLPattern, URLResolver, include, path

from tournaments import club_pages, pages, report_pages

app_name = "tournament-pages"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", pages.index, name="index"),
    path("<int:pk>/", pages.overview, name="overview"),
    path("<int:pk>/console/", include("tournaments.urls_console")),
    path("<int:pk>/standings/", pages.standings, name="standings"),
    path("<int:pk>/invitations/", club_pages.invitations, name="invitations"),
    path("<int:pk>/bracket/", pages.bracket, name="bracket"),
    path("<int:pk>/standings.csv", pages.standings_csv, name="standings-csv"),
    path("<int:pk>/pairings/<int:number>/", pages.pairings_by_table, name="pairings"),
    path(
        "<int:pk>/pairings/<int:number>/by-name/", pages.pairings_by_name, name="pairings-by-name"
    ),
    path("<int:pk>/pairings/<int:number>.csv", pages.pairings_csv, name="pairings-csv"),
    path("<int:pk>/tables/<int:table_pk>/report/", report_pages.report, name="table-report"),
    path(
        "<int:pk>/tables/<int:table_pk>/report/live/",
        report_pages.report_live,
        name="table-report-live",
    ),
]
