"""API routes of the tournaments app (mounted under /api/v1/)."""

from django.urls import URLPattern, URLResolver, path

from tournaments import api

urlpatterns: list[URLPattern | URLResolver] = [
    path("tournaments", api.TournamentListView.as_view(), name="tournament-list"),
    path("tournaments/<int:pk>", api.TournamentDetailView.as_view(), name="tournament-detail"),
    path(
        "tournaments/<int:pk>/finish", api.TournamentFinishView.as_view(), name="tournament-finish"
    ),
    path(
        "tournaments/<int:pk>/registrations",
        api.RegistrationListView.as_view(),
        name="registration-list",
    ),
    path(
        "tournaments/<int:pk>/registrations/import",
        api.RegistrationImportView.as_view(),
        name="registration-import",
    ),
    path(
        "registrations/<int:pk>/check-in",
        api.RegistrationCheckInView.as_view(),
        name="registration-check-in",
    ),
    path(
        "registrations/<int:pk>/drop", api.RegistrationDropView.as_view(), name="registration-drop"
    ),
    path("tournaments/<int:pk>/rounds", api.RoundListView.as_view(), name="round-list"),
    path("tournaments/<int:pk>/stages", api.StageListView.as_view(), name="stage-list"),
    path("tournaments/<int:pk>/groups", api.GroupsView.as_view(), name="groups"),
    path("tournaments/<int:pk>/standings", api.StandingsView.as_view(), name="standings"),
    path("rounds/<int:pk>", api.RoundDetailView.as_view(), name="round-detail"),
    path("rounds/<int:pk>/repair", api.RoundRepairView.as_view(), name="round-repair"),
    path("rounds/<int:pk>/confirm", api.RoundConfirmView.as_view(), name="round-confirm"),
    path("rounds/<int:pk>/release", api.RoundReleaseView.as_view(), name="round-release"),
    path("rounds/<int:pk>/tables", api.RoundTablesView.as_view(), name="round-tables"),
    path("tables/<int:pk>", api.TableDetailView.as_view(), name="table-detail"),
    path("tables/<int:pk>/results", api.TableResultsView.as_view(), name="table-results"),
    path(
        "tables/<int:pk>/results/from-stream",
        api.TableResultFromStreamView.as_view(),
        name="table-result-from-stream",
    ),
    path("results/<int:pk>/confirm", api.ResultConfirmView.as_view(), name="result-confirm"),
]
