from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    """The event store: streams, events, snapshots, the outbox, replay and audit."""

    name = "events"
    verbose_name = _("Game streams")

    def ready(self) -> None:
        # Register the outbox tasks in every process (not only inside a worker), so that in the
        # embedded set-up the outbox runs them eagerly instead of sending them to nobody.
        from events import tasks  # noqa: F401
