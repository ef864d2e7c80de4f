from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    """TrueSkill pools, ratings, verification and disputes."""

    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        # Celery discovers tasks only inside a worker; importing them here registers them in
        # every process, so the outbox finds ``ratings.verify_game`` (and runs it eagerly in
        # the embedded set-up) instead of sending it by name to nobody.
        from ratings import tasks  # noqa: F401
