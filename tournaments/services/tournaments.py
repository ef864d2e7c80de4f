"""Creating a tournament, changing its settings, finishing it."""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext

import engine
from engine.core import Option
from tournaments import live, pairing
from tournaments.errors import InvalidInput, WrongState
from tournaments.games import game_facts, game_options
from tournaments.models import (
    Club,
    Format,
    LateEntryAward,
    Round,
    Stage,
    TableMode,
    Tournament,
)
from tournaments.services._common import BRACKET_FORMATS, bounded, full_clean
from tournaments.services.permissions import check_may_create, check_organiser
from tournaments.services.registrations import waitlist_promote
from tournaments.services.results import tournament_winner
from tournaments.services.rounds import tournament_set_table_mode

#: The refusal of an unknown late-entry award (``{input}`` is the value sent); the API's too.
LATE_ENTRY_AWARD_REFUSAL = (
    'There is no late entry award "{input}": choose none (0 points), bye (the bye points) or '
    "half_bye (half the bye points) for each round a late entrant missed."
)


#: The tie-breakers a new tournament uses unless told otherwise, in order.
DEFAULT_TIEBREAKERS = ("opponents_points", "game_score")


@dataclass(frozen=True)
class TournamentDefaults:
    """What :func:`tournament_create` fills in for a game and format when it is not told:
    the create forms (the console's and the admin's) start from these values."""

    game_id: str
    game_name: str
    format: str
    min_players: int
    max_players: int
    table_preferred: int
    table_allowed: tuple[int, ...]
    points_by_rank: tuple[float, ...]
    tiebreakers: tuple[str, ...]
    bye_points: float
    late_entry_award: str
    dispute_window_minutes: int
    spectator_delay: int
    editions: tuple[str, ...]
    edition: str
    options: Mapping[str, Any]
    option_specs: tuple[Option, ...]


def _two_player(format: str) -> bool:
    return format in (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION)


def tournament_defaults(*, game_id: str, format: str = "swiss") -> TournamentDefaults:
    """The settings a tournament of ``game_id`` in ``format`` gets by default (a read: it
    writes nothing). :class:`InvalidInput` for an unknown game or format."""
    facts = game_facts(game_id)
    _check_format(format)
    preferred = 2 if _two_player(format) else facts.preferred_table
    allowed = (
        [2]
        if _two_player(format)
        else _table_allowed(facts.min_players, facts.max_players, preferred, None)
    )
    points = _points_by_rank(None, max(allowed))
    return TournamentDefaults(
        game_id=facts.id,
        game_name=facts.name,
        format=format,
        min_players=facts.min_players,
        max_players=facts.max_players,
        table_preferred=preferred,
        table_allowed=tuple(allowed),
        points_by_rank=tuple(points),
        tiebreakers=DEFAULT_TIEBREAKERS,
        bye_points=points[0],
        late_entry_award="none",
        dispute_window_minutes=30,
        spectator_delay=0,
        editions=facts.editions,
        edition=facts.editions[0] if facts.editions else "",
        options=game_options(facts.id, None),
        option_specs=tuple(engine.get(facts.id).options),
    )


def _check_format(format: str) -> None:
    if format not in Format.values:
        raise InvalidInput(
            gettext("Unknown format {format}; formats: {join}.").format(
                format=repr(format), join=", ".join(Format.values)
            )
        )


@transaction.atomic
def tournament_create(
    *,
    name: str,
    game_id: str,
    organiser: AbstractBaseUser,
    club: Club | None = None,
    edition: str = "",
    options: Mapping[str, Any] | None = None,
    format: str = "swiss",
    table_preferred: int | None = None,
    table_allowed: Sequence[int] | None = None,
    points_by_rank: Sequence[float] | None = None,
    tiebreakers: Sequence[str] = DEFAULT_TIEBREAKERS,
    bye_points: float | None = None,
    late_entry_award: str = "none",
    dispute_window_minutes: int = 30,
    rounds_planned: int | None = None,
    pairing_seed: str = "",
    spectator_delay: int = 0,
    check_in_opens_at: datetime | None = None,
    check_in_closes_at: datetime | None = None,
    player_cap: int | None = None,
    cut_top: int | None = None,
    table_mode: str = "herald",
) -> Tournament:
    """A tournament in registration, with one stage; sizes and points default from the game
    (:func:`tournament_defaults`), and a fresh join link.

    ``organiser`` creates it: an organiser of ``club``, or staff (the only ones who create a
    tournament with no club). ``cut_top`` is how many players a ``stages`` tournament's cut
    sends on to its bracket (kept on its groups stage, for the cut)."""
    check_may_create(organiser, club)
    facts = game_facts(game_id)
    if edition and edition not in facts.editions:
        raise InvalidInput(
            gettext("{name} has no edition {edition}; editions: {join}.").format(
                name=facts.name, edition=repr(edition), join=", ".join(facts.editions)
            )
        )
    _check_format(format)
    two_player = _two_player(format)
    if two_player and (table_preferred or 2) != 2:
        raise InvalidInput(gettext("Single and double elimination brackets are for tables of 2."))
    preferred = table_preferred or (2 if two_player else facts.preferred_table)
    if two_player and not table_allowed:
        table_allowed = [2]
    _check_check_in_window(check_in_opens_at, check_in_closes_at)
    allowed = _table_allowed(facts.min_players, facts.max_players, preferred, table_allowed)
    points = _points_by_rank(points_by_rank, max(allowed))
    tournament = Tournament(
        name=name.strip(),
        club=club,
        game_id=facts.id,
        edition=edition,
        options=game_options(facts.id, options),
        format=format,
        table_preferred=preferred,
        table_allowed=allowed,
        points_by_rank=points,
        tiebreakers=_tiebreakers(tiebreakers),
        bye_points=points[0] if bye_points is None else _bye_points(bye_points),
        late_entry_award=_late_entry_award(late_entry_award),
        dispute_window_minutes=dispute_window_minutes,
        rounds_planned=rounds_planned,
        pairing_seed=pairing_seed or secrets.token_hex(8),
        status=Tournament.Status.REGISTRATION,
        spectator_delay=spectator_delay,
        table_mode=_table_mode(table_mode),
        check_in_opens_at=check_in_opens_at,
        check_in_closes_at=check_in_closes_at,
        player_cap=_player_cap(player_cap),
        join_token=_new_join_token(),
    )
    full_clean(tournament)
    tournament.save()
    tournament.organisers.add(organiser)
    # A "stages" tournament opens with Swiss groups; stage_cut adds the bracket after them.
    first = "swiss" if format == Format.STAGES else format
    Stage.objects.create(
        tournament=tournament,
        order=1,
        name="Groups" if format == Format.STAGES else "Main",
        format=first,
        rounds_planned=rounds_planned,
        cut_top=_cut_top(cut_top) if format == Format.STAGES else None,
    )
    return tournament


def tournament_tables_and_points(
    *,
    game_id: str,
    format: str,
    table_preferred: int | None,
    table_allowed: Sequence[int] | None,
    points_by_rank: Sequence[float] | None,
) -> tuple[int, list[int], list[float]]:
    """The preferred table size, the allowed sizes and the points by place a tournament of
    ``game_id`` takes, checked and defaulted as :func:`tournament_create` does (for a form
    that stores them itself: the admin's)."""
    facts = game_facts(game_id)
    _check_format(format)
    preferred = table_preferred or (2 if _two_player(format) else facts.preferred_table)
    allowed = _table_allowed(facts.min_players, facts.max_players, preferred, table_allowed)
    return preferred, allowed, _points_by_rank(points_by_rank, max(allowed))


def _cut_top(top: int | None) -> int | None:
    if top is not None and top < 2:
        raise InvalidInput(gettext("A cut sends at least 2 players to the bracket."))
    return top


def _table_allowed(low: int, high: int, preferred: int, allowed: Sequence[int] | None) -> list[int]:
    sizes = (
        sorted(set(allowed))
        if allowed
        else [s for s in (preferred - 1, preferred, preferred + 1) if low <= s <= high]
    )
    outside = [s for s in sizes if not low <= s <= high]
    if outside or not low <= preferred <= high:
        raise InvalidInput(
            gettext(
                "This game is for {low} to {high} players: a table of {value} cannot play it."
            ).format(low=low, high=high, value=(outside or [preferred])[0])
        )
    if preferred not in sizes:
        raise InvalidInput(
            gettext(
                "The preferred table size {preferred} must be one of the allowed sizes."
            ).format(preferred=preferred)
        )
    if high >= 2 and sizes == [1]:
        raise InvalidInput(gettext("Tables of one player are byes, not tables."))
    return sizes


def _points_by_rank(points: Sequence[float] | None, largest: int) -> list[float]:
    if points is None:
        return [float(p) for p in range(largest - 1, -1, -1)]
    if not points:
        raise InvalidInput(gettext("Points by rank need at least one value (the winner's points)."))
    values = [bounded(p, "Points by rank") for p in points]
    if any(a < b for a, b in itertools.pairwise(values)):
        raise InvalidInput(
            gettext("Points by rank must not grow with the rank: 1st place earns the most.")
        )
    return values


def _bye_points(value: float) -> float:
    return bounded(value, "Bye points")


def _tiebreakers(names: Sequence[str]) -> list[str]:
    unknown = [n for n in names if n not in pairing.TIEBREAKERS]
    if unknown:
        raise InvalidInput(
            gettext("Unknown tie-breaker {unknown}; choose from {join}.").format(
                unknown=repr(unknown[0]), join=", ".join(pairing.TIEBREAKERS)
            )
        )
    if len(set(names)) != len(names):
        raise InvalidInput(gettext("A tie-breaker is listed twice."))
    return list(names)


def _late_entry_award(value: str) -> str:
    if value not in LateEntryAward.values:
        raise InvalidInput(LATE_ENTRY_AWARD_REFUSAL.format(input=value))
    return value


@transaction.atomic
def tournament_update(
    *,
    tournament: Tournament,
    name: str | None = None,
    table_preferred: int | None = None,
    table_allowed: Sequence[int] | None = None,
    points_by_rank: Sequence[float] | None = None,
    tiebreakers: Sequence[str] | None = None,
    bye_points: float | None = None,
    late_entry_award: str | None = None,
    dispute_window_minutes: int | None = None,
    rounds_planned: int | None = None,
    spectator_delay: int | None = None,
) -> Tournament:
    """Change the settings an organiser may change at any time. Standings are recomputed from
    the results, so new points, tie-breakers or a new late-entry award apply to every round;
    new table sizes apply from the next draw. The game, its options and the format are fixed
    at creation."""
    facts = game_facts(tournament.game_id)
    if table_preferred is not None or table_allowed is not None:
        preferred = table_preferred or tournament.table_preferred
        allowed = table_allowed or tournament.table_allowed
        tournament.table_allowed = _table_allowed(
            facts.min_players, facts.max_players, preferred, allowed
        )
        tournament.table_preferred = preferred
    if points_by_rank is not None:
        tournament.points_by_rank = _points_by_rank(points_by_rank, max(tournament.table_allowed))
    if tiebreakers is not None:
        tournament.tiebreakers = _tiebreakers(tiebreakers)
    changes = {
        "name": name.strip() if name is not None else None,
        "bye_points": None if bye_points is None else _bye_points(bye_points),
        "late_entry_award": None
        if late_entry_award is None
        else _late_entry_award(late_entry_award),
        "dispute_window_minutes": dispute_window_minutes,
        "rounds_planned": rounds_planned,
        "spectator_delay": spectator_delay,
    }
    for field, value in changes.items():
        if value is not None:
            setattr(tournament, field, value)
    full_clean(tournament)
    tournament.save()
    if rounds_planned is not None:  # the first (paired) stage's copy follows, as created
        tournament.stages.filter(order=1).exclude(format__in=BRACKET_FORMATS).update(
            rounds_planned=rounds_planned
        )
    live.announce(tournament.id, "status")
    return tournament


def _new_join_token() -> str:
    return secrets.token_urlsafe(16)


def _player_cap(cap: int | None) -> int | None:
    if cap is not None and not 2 <= cap <= 10_000:
        raise InvalidInput(
            gettext("A player cap is between 2 and 10,000 players (or none), not {cap}.").format(
                cap=cap
            )
        )
    return cap


def _check_check_in_window(opens_at: datetime | None, closes_at: datetime | None) -> None:
    if opens_at is not None and closes_at is not None and closes_at <= opens_at:
        raise InvalidInput(gettext("Check-in must close after it opens."))


def _table_mode(mode: str) -> str:
    if mode not in TableMode.values:
        raise InvalidInput(
            gettext("Tables play {choices}, not {mode}.").format(
                choices=" or ".join(repr(v) for v in TableMode.values), mode=repr(mode)
            )
        )
    return mode


@transaction.atomic
def tournament_settings_save(
    *,
    tournament: Tournament,
    by: AbstractBaseUser | None,
    check_in_opens_at: datetime | None,
    check_in_closes_at: datetime | None,
    player_cap: int | None,
    table_mode: str | None = None,
    **changes: Any,
) -> Tournament:
    """The console's settings page: what :func:`tournament_update` changes (``changes``),
    plus the check-in window and the player cap, which may also be emptied (None). A raised
    (or removed) cap promotes waitlisted players into the places it frees. A new
    ``table_mode`` applies as :func:`tournament_set_table_mode` says (next draws, and a round
    not yet published)."""
    check_organiser(by, tournament, "change its settings")
    _check_check_in_window(check_in_opens_at, check_in_closes_at)
    if table_mode is not None and table_mode != tournament.table_mode:
        tournament_set_table_mode(tournament=tournament, mode=_table_mode(table_mode), by=by)
    tournament = Tournament.objects.select_for_update(of=("self",)).get(pk=tournament.pk)
    tournament_update(tournament=tournament, **changes)
    tournament.check_in_opens_at = check_in_opens_at
    tournament.check_in_closes_at = check_in_closes_at
    tournament.player_cap = _player_cap(player_cap)
    tournament.save(update_fields=["check_in_opens_at", "check_in_closes_at", "player_cap"])
    waitlist_promote(tournament=tournament)
    live.announce(tournament.id, "registrations")
    return tournament


@transaction.atomic
def tournament_join_token_renew(*, tournament: Tournament, by: AbstractBaseUser | None) -> str:
    """A new join link for ``tournament``: the old link (and its printed QR code) stops
    working. Returns the new token."""
    check_organiser(by, tournament, "renew its join link")
    tournament.join_token = _new_join_token()
    tournament.save(update_fields=["join_token"])
    return tournament.join_token


def tournament_finish(*, tournament: Tournament) -> Tournament:
    """Close the tournament: no more rounds or registrations."""
    if tournament.rounds.filter(state=Round.State.DRAFT).exists():
        raise WrongState(
            gettext("A round is still a draft: confirm it or re-pair it before finishing.")
        )
    tournament.status = Tournament.Status.FINISHED
    tournament.winner = tournament_winner(tournament)[:250]
    tournament.save(update_fields=["status", "winner"])
    live.announce(tournament.id, "status")
    return tournament
