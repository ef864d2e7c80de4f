from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayConfig(AppConfig):
    """The game pages: the live table a player or spectator opens, and the lobby of open games
    with the house bot."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "play"
    verbose_name = _("Play")

    def ready(self) -> None:
        # Register the house bot's task in every process (Celery discovers tasks only inside a
        # worker), so that in the embedded set-up the outbox runs it eagerly instead of sending
        # it by name to nobody.
        from play import tasks  # noqa: F401
