from django.apps import AppConfig


class PlayConfig(AppConfig):
    """The game pages: the live table a player or spectator opens, and the lobby of open games
    with the house bot."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "play"

    def ready(self) -> None:
        # Register the house bot's task in every process (Celery discovers tasks only inside a
        # worker), so that in the embedded set-up the outbox runs it eagerly instead of sending
        # it by name to nobody.
        from play import tasks  # noqa: F401
