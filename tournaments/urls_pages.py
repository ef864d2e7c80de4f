"""Printable pages and CSV exports (mounted at /tournaments/)."""

from django.urls import URLPattern, URLResolver, include, path

from tournaments import club_pages, live_pages, pages, report_pages
from tournaments.console import setup

app_name = "tournament-pages"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", pages.index, name="index"),
    path("new/", setup.tournament_new, name="new"),
    path("<int:pk>/", pages.overview, name="overview"),
    path("<int:pk>/join/<str:token>/", setup.join, name="join"),
    path("<int:pk>/check-in/", setup.check_in, name="check-in"),
    path("<int:pk>/console/", include("tournaments.urls_console")),
    path("<int:pk>/standings/", pages.standings, name="standings"),
    path("<int:pk>/invitations/", club_pages.invitations, name="invitations"),
    path("<int:pk>/bracket/", pages.bracket, name="bracket"),
    path("<int:pk>/bracket/fragment/", pages.bracket_fragment, name="bracket-fragment"),
    path("<int:pk>/standings.csv", pages.standings_csv, name="standings-csv"),
    path("<int:pk>/pairings/<int:number>/", pages.pairings_by_table, name="pairings"),
    path(
        "<int:pk>/pairings/<int:number>/by-name/", pages.pairings_by_name, name="pairings-by-name"
    ),
    path("<int:pk>/pairings/<int:number>.csv", pages.pairings_csv, name="pairings-csv"),
    # The live pages: the projector, and the fragments that redraw the live regions.
    path("<int:pk>/screen", live_pages.screen, name="screen"),
    path("<int:pk>/screen/", live_pages.screen),
    path("<int:pk>/screen/fragment", live_pages.screen_fragment, name="screen-fragment"),
    path("<int:pk>/rounds/fragment", live_pages.rounds_fragment, name="rounds-fragment"),
    path("<int:pk>/my-table/fragment", live_pages.my_table_fragment, name="my-table-fragment"),
    path("<int:pk>/standings/fragment", live_pages.standings_fragment, name="standings-fragment"),
    path(
        "<int:pk>/pairings/<int:number>/fragment",
        live_pages.pairings_fragment,
        name="pairings-fragment",
    ),
    path(
        "<int:pk>/pairings/<int:number>/by-name/fragment",
        live_pages.pairings_by_name_fragment,
        name="pairings-by-name-fragment",
    ),
    path("<int:pk>/tables/<int:table_pk>/report/", report_pages.report, name="table-report"),
    path(
        "<int:pk>/tables/<int:table_pk>/report/fragment",
        report_pages.report_live,
        name="table-report-live",
    ),
]
