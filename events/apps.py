from django.apps import AppConfig


class EventsConfig(AppConfig):
    """The event store: streams, events, snapshots, the outbox, replay and audit."""

    name = "events"
    verbose_name = "Game streams"
