"""factory_boy factories for the tournaments tests: users, clubs, players, tournaments."""

from __future__ import annotations

from typing import Any, cast

import factory
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Club, ClubMembership, Player, Registration, Round, Tournament

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
        skip_postgeneration_save = True  # the membership hook leaves the player as it is

    user = factory.SubFactory(UserFactory)
    display_name = factory.Sequence(lambda n: f"Player {n:03d}")
    club = factory.SubFactory(ClubFactory)

    @factory.post_generation
    def membership(obj: Player, create: bool, extracted: Any, **kwargs: Any) -> None:
        """A player listed under a club is a member of it, as ``services.player_create`` makes."""
        if create and obj.club is not None:
            ClubMembership.objects.get_or_create(club=obj.club, user=obj.user)


class TournamentFactory(factory.Factory):
    """A tournament made through ``services.tournament_create``, as the API would, for a club
    its organiser organises (the role is given here: only a club's organisers create)."""

    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Thursday night {n}")
    game_id = GAME
    organiser = factory.SubFactory(UserFactory)
    club = factory.SubFactory(ClubFactory)
    table_preferred = 4
    table_allowed = (3, 4, 5)
    points_by_rank = (4, 2, 1, 0, 0)
    tiebreakers = ("opponents_points", "game_score")
    bye_points = 2
    pairing_seed = "test-seed"

    @classmethod
    def _create(cls, model_class: type, **kwargs: Any) -> Tournament:
        if kwargs.get("club") is not None:
            services.club_member_add(
                club=kwargs["club"], user=kwargs["organiser"], role="organiser"
            )
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


def publish(round_: Round) -> Round:
    """Confirm ``round_`` (a draft) and publish it: only then do the players see it."""
    return services.round_release(round_=services.round_confirm(round_=round_))
