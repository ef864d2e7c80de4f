"""A small tournament night for the live pages' tests: 8 players of 13 Couronnes (two tables
of 4), named so that their alphabetical order differs from their seeding."""

from __future__ import annotations

from typing import Any

from tests.tournaments.factories import make_player
from tournaments import services
from tournaments.models import Registration, Round, Tournament

NAMES = ["Zoé", "Yann", "Xavier", "Wanda", "Victor", "Ursule", "Théo", "Sacha"]


def register_named(tournament: Tournament, names: list[str] = NAMES) -> list[Registration]:
    """One checked-in registration per name (the player's account is ``<name>`` lowercased)."""
    registrations = []
    for seed, name in enumerate(names, start=1):
        player = make_player(display_name=name, club=tournament.club)
        registrations.append(
            services.registration_create(
                tournament=tournament, player=player, seed=seed, checked_in=True
            )
        )
    return registrations


def publish_round(tournament: Tournament, organiser: Any) -> Round:
    """Pair, confirm and release the next round, as the console does."""
    draft = services.round_pair_next(tournament=tournament, by=organiser, force=True)
    services.round_confirm(round_=draft)
    return services.round_release(round_=draft, by=organiser)


def finish_round(round_: Round) -> None:
    """Every played table of ``round_`` gets a result (seat order is finishing order)."""
    for table in round_.tables.filter(is_bye=False):
        seats = table.seats.count()
        services.result_enter(table=table, by=None, ranks=list(range(1, seats + 1)))
