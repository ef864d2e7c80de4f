"""WebSocket routes of the tournaments app (mounted by herald.asgi)."""

from django.urls import path

from tournaments.consumers import TournamentConsumer

websocket_urlpatterns = [
    path("ws/tournaments/<int:pk>/", TournamentConsumer.as_asgi(), name="ws-tournament"),
]
