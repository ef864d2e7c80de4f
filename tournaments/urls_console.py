"""The organiser's console, mounted at /tournaments/<id>/console/ in the
``tournament-pages`` namespace (see ``tournaments.console``). Each part adds its own lines."""

from django.urls import URLPattern, URLResolver, path

from tournaments.console import hub, results

urlpatterns: list[URLPattern | URLResolver] = [
    path("", hub.hub, name="console"),
    path("results/", results.results, name="console-results"),
    path("results/live/", results.results_live, name="console-results-live"),
    path("results/reopen/", results.reopen, name="console-results-reopen"),
    path(
        "results/tables/<int:table_pk>/enter/", results.result_enter, name="console-results-enter"
    ),
    path(
        "results/tables/<int:table_pk>/decide/<int:result_pk>/",
        results.result_decide,
        name="console-results-decide",
    ),
    path("results/slips/<int:number>/", results.slips, name="console-results-slips"),
]
