from django.apps import AppConfig


class RatingsConfig(AppConfig):
    """TrueSkill pools, ratings, verification and disputes."""

    name = "ratings"
