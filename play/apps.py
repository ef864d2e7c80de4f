from django.apps import AppConfig


class PlayConfig(AppConfig):
    """The game pages: the table a player or spectator opens (issue 15 makes it live)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "play"
