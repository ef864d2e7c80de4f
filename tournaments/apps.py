from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Clubs, players, tournaments, rounds, tables, results and standings."""

    name = "tournaments"
    verbose_name = _("Tournaments")
