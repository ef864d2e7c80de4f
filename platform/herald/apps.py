from django.apps import AppConfig


class HeraldConfig(AppConfig):
    """The project's own small app: health checks and the worker heartbeat."""

    name = "herald"
    verbose_name = "Herald platform"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Register the platform's tasks in every process, as the other apps do.
        from herald import schema, tasks  # noqa: F401
