from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    """Clubs, players, tournaments, rounds, tables, results and standings."""

    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # Players' display names live here; the layers below (the event store's admin and game
        # records) read them through herald.people.
        from herald.people import display_names_register
        from tournaments.selectors import display_names

        display_names_register(display_names)
