"""factory_boy factories for the tournaments tests: users, clubs, players, tournaments."""

from __future__ import annotations

from typing import Any, cast

import factory
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Club, Player, Registration, Tournament

GAME = "13-couronnes"  # 2 to 5 players: tables of 4 with some 3s or 5s


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n:03d}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club
        django_get_or_create = ("name",)

    name = factory.Sequence(lambda n: f"Club {n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    user = factory.SubFactory(UserFactory)
    display_name = factory.Sequence(lambda n: f"Player {n:03d}")
    club = factory.SubFactory(ClubFactory)


class TournamentFactory(factory.Factory):
    """A tournament made through ``services.tournament_create``, as the API would."""

    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Thursday night {n}")
    game_id = GAME
    organiser = factory.SubFactory(UserFactory)
    table_preferred = 4
    table_allowed = (3, 4, 5)
    points_by_rank = (4, 2, 1, 0, 0)
    tiebreakers = ("opponents_points", "game_score")
    bye_points = 2
    pairing_seed = "test-seed"

    @classmethod
    def _create(cls, model_class: type, **kwargs: Any) -> Tournament:
        return services.tournament_create(**kwargs)


def make_tournament(**fields: Any) -> Tournament:
    """A tournament from :class:`TournamentFactory`, typed."""
    return cast(Tournament, TournamentFactory(**fields))


def make_player(**fields: Any) -> Player:
    """A player from :class:`PlayerFactory`, typed."""
    return cast(Player, PlayerFactory(**fields))


def register_players(
    tournament: Tournament, count: int, *, checked_in: bool = True
) -> list[Registration]:
    """``count`` new players registered (and checked in) in ``tournament``."""
    return [
        services.registration_create(
            tournament=tournament, player=make_player(), seed=i + 1, checked_in=checked_in
        )
        for i in range(count)
    ]
