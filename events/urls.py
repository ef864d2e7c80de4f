"""API routes of the events app (mounted under /api/v1/), as API.md lists them."""

from django.urls import URLPattern, URLResolver, path

from events import views

urlpatterns: list[URLPattern | URLResolver] = [
    path("games", views.GameListView.as_view(), name="games"),
    path("streams", views.StreamListView.as_view(), name="streams"),
    path("streams/<uuid:stream_id>", views.StreamDetailView.as_view(), name="stream"),
    path("streams/<uuid:stream_id>/view", views.StreamViewView.as_view(), name="stream-view"),
    path("streams/<uuid:stream_id>/moves", views.MoveView.as_view(), name="stream-moves"),
    path("streams/<uuid:stream_id>/events", views.EventListView.as_view(), name="stream-events"),
    path("streams/<uuid:stream_id>/audit", views.AuditView.as_view(), name="stream-audit"),
    path("streams/<uuid:stream_id>/record", views.RecordView.as_view(), name="stream-record"),
    path("streams/<uuid:stream_id>/verify", views.VerifyView.as_view(), name="stream-verify"),
]
