"""API routes of the tournaments app (mounted under /api/v1/)."""

from django.urls import URLPattern, URLResolver, path

from tournaments import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("tournaments", views.TournamentListView.as_view(), name="tournament-list"),
    path("tournaments/<int:pk>", views.TournamentDetailView.as_view(), name="tournament-detail"),
    path(
        "tournaments/<int:pk>/finish",
        views.TournamentFinishView.as_view(),
        name="tournament-finish",
    ),
    path(
        "tournaments/<int:pk>/registrations",
        views.RegistrationListView.as_view(),
        name="registration-list",
    ),
    path(
        "tournaments/<int:pk>/registrations/import",
        views.RegistrationImportView.as_view(),
        name="registration-import",
    ),
    path(
        "registrations/<int:pk>/check-in",
        views.RegistrationCheckInView.as_view(),
        name="registration-check-in",
    ),
    path(
        "registrations/<int:pk>/drop",
        views.RegistrationDropView.as_view(),
        name="registration-drop",
    ),
    path("tournaments/<int:pk>/rounds", views.RoundListView.as_view(), name="round-list"),
    path("tournaments/<int:pk>/stages", views.StageListView.as_view(), name="stage-list"),
    path("tournaments/<int:pk>/groups", views.GroupsView.as_view(), name="groups"),
    path("tournaments/<int:pk>/standings", views.StandingsView.as_view(), name="standings"),
    path("rounds/<int:pk>", views.RoundDetailView.as_view(), name="round-detail"),
    path("rounds/<int:pk>/repair", views.RoundRepairView.as_view(), name="round-repair"),
    path("rounds/<int:pk>/confirm", views.RoundConfirmView.as_view(), name="round-confirm"),
    path("rounds/<int:pk>/release", views.RoundReleaseView.as_view(), name="round-release"),
    path("rounds/<int:pk>/tables", views.RoundTablesView.as_view(), name="round-tables"),
    path("tables/<int:pk>", views.TableDetailView.as_view(), name="table-detail"),
    path("tables/<int:pk>/results", views.TableResultsView.as_view(), name="table-results"),
    path(
        "tables/<int:pk>/results/from-stream",
        views.TableResultFromStreamView.as_view(),
        name="table-result-from-stream",
    ),
    path("results/<int:pk>/confirm", views.ResultConfirmView.as_view(), name="result-confirm"),
    path("results/<int:pk>/disagree", views.ResultDisagreeView.as_view(), name="result-disagree"),
    path(
        "tables/<int:pk>/results/events",
        views.TableResultEventsView.as_view(),
        name="table-result-events",
    ),
]
