"""A club tournament played by bots: organiser steps through tournaments' services, moves
through the game API, as a person at a table would send them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rest_framework.test import APIClient

from engine.core import Rng
from events.models import Stream
from tournaments import services as tournaments
from tournaments.models import Player, Round, Tournament

GAME = "13-couronnes"
OPTIONS = {"max_turns": 3}  # short games: about ten moves each


def club_players(count: int, *, club_names: Sequence[str] = ("Nord", "Sud")) -> list[Player]:
    clubs = [tournaments.club_get_or_create(name=name) for name in club_names]
    return [
        tournaments.player_create(
            username=f"bot{index:02d}",
            display_name=f"Bot {index:02d}",
            club=clubs[index % len(clubs)],
        )
        for index in range(count)
    ]


def tournament_start(players: Sequence[Player], organiser: Any) -> Tournament:
    tournament = tournaments.tournament_create(
        name="Bots' night",
        game_id=GAME,
        organiser=organiser,
        club=players[0].club,
        options=OPTIONS,
        table_preferred=4,
        table_allowed=[4],
        rounds_planned=2,
        pairing_seed="bots-night",
    )
    for player in players:
        tournaments.registration_create(tournament=tournament, player=player, checked_in=True)
    return tournament


def round_open(tournament: Tournament, organiser: Any) -> Round:
    """Pair, confirm and release the next round: its tables' streams are opened."""
    drawn = tournaments.round_pair_next(tournament=tournament, by=organiser)
    confirmed = tournaments.round_confirm(round_=drawn)
    return tournaments.round_release(round_=confirmed)


def round_streams(round_: Round) -> list[Stream]:
    ids = round_.tables.filter(is_bye=False).values_list("stream_id", flat=True)
    return list(Stream.objects.filter(pk__in=list(ids)))


def play_through_api(stream: Stream, *, seed: str) -> None:
    """Each seated bot asks for its view and posts one of its legal moves, until the end."""
    clients: dict[int, APIClient] = {}
    for seat in stream.seats.select_related("user"):
        client = APIClient()
        client.force_authenticate(seat.user)
        clients[seat.seat] = client
    rng = Rng(f"{seed}/{stream.pk}")
    for step in range(10_000):
        view = clients[0].get(f"/api/v1/streams/{stream.pk}/view").json()
        if view["status"] == "finished" or not view["to_act"]:
            return
        seat = view["to_act"][0]
        mine = clients[seat].get(f"/api/v1/streams/{stream.pk}/view").json()
        move = rng.choice(mine["legal_moves"])
        posted = clients[seat].post(
            f"/api/v1/streams/{stream.pk}/moves",
            {"move": move, "expected_version": mine["version"]},
            format="json",
            HTTP_IDEMPOTENCY_KEY=f"{stream.pk}-{step}",
        )
        assert posted.status_code == 201, posted.json()
    raise AssertionError(f"stream {stream.pk} did not end")
