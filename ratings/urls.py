"""API routes of the ratings app (mounted under /api/v1/)."""

from django.urls import URLPattern, URLResolver, path

from ratings import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("ratings/pools", views.PoolListView.as_view(), name="rating-pools"),
    path(
        "ratings/pools/<int:pool_id>/leaderboard",
        views.LeaderboardView.as_view(),
        name="rating-leaderboard",
    ),
    path(
        "ratings/pools/<int:pool_id>/players/<str:username>/history",
        views.HistoryView.as_view(),
        name="rating-history",
    ),
    path("ratings/players/<str:username>", views.PlayerRatingsView.as_view(), name="rating-player"),
    path(
        "ratings/pools/<int:pool_id>/recompute",
        views.PoolRecomputeView.as_view(),
        name="rating-recompute",
    ),
    path("ratings/recomputes", views.RecomputeListView.as_view(), name="rating-recomputes"),
    path(
        "ratings/recomputes/<int:job_id>",
        views.RecomputeDetailView.as_view(),
        name="rating-recompute-job",
    ),
    path(
        "ratings/streams/<uuid:stream_id>/verification",
        views.VerificationView.as_view(),
        name="rating-verification",
    ),
    path("disputes", views.DisputeListView.as_view(), name="disputes"),
    path("disputes/<int:dispute_id>", views.DisputeDetailView.as_view(), name="dispute"),
    path("disputes/<int:dispute_id>/ruling", views.RulingView.as_view(), name="dispute-ruling"),
]
