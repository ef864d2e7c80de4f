from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Clubs, players, tournaments, rounds, tables, results and standings."""

    name = "tournaments"
