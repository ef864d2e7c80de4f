"""WebSocket routes of the events app (mounted by herald.asgi)."""

from django.urls import path

from events.consumers import StreamConsumer

websocket_urlpatterns = [
    path("ws/games/<uuid:stream_id>/", StreamConsumer.as_asgi(), name="ws-game"),
]
