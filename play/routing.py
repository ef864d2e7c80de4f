"""WebSocket routes of the play app (mounted by herald.asgi)."""

from django.urls import path

from play.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/games/<uuid:stream_id>/table/", TableConsumer.as_asgi(), name="ws-table"),
]
