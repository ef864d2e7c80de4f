from django.apps import AppConfig


class EventsConfig(AppConfig):
    """The event store: streams, events, snapshots, the outbox, replay and audit."""

    name = "events"
    verbose_name = "Game streams"

    def ready(self) -> None:
        # Register the outbox tasks in every process (not only inside a worker), so that in the
        # embedded set-up the outbox runs them eagerly instead of sending them to nobody.
        from events import tasks  # noqa: F401
