"""Elimination and knockout brackets, and the rounds drawn from them.

A stage's bracket is rebuilt, never edited: the seeds stored with it, then every confirmed
result of its tables applied by the pure layer. ``Stage.bracket`` keeps the latest picture
(``Bracket.to_json()``) for pages to draw.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext

from tournaments import pairing, selectors
from tournaments.errors import InvalidInput, WrongState
from tournaments.models import Format, Result, Round, Stage, Table, Tournament
from tournaments.services._common import BRACKET_FORMATS
from tournaments.services.pairing_bridge import table_with_seats


def bracket_seeds(tournament: Tournament, number: int) -> list[int]:
    """Active players in seeding order: seeded ones first (1 is strongest), then by entry."""
    regs = selectors.active_registrations(tournament, number)
    return [r.id for r in sorted(regs, key=lambda r: (r.seed == 0, r.seed, r.id))]


def bracket_build(stage: Stage, seeds: Sequence[int]) -> pairing.Bracket:
    """The stage's empty bracket for ``seeds`` (best first), in the stage's format."""
    tournament = stage.tournament
    try:
        if stage.format == Format.SINGLE_ELIMINATION:
            return pairing.single_elimination(seeds)
        if stage.format == Format.DOUBLE_ELIMINATION:
            return pairing.double_elimination(seeds)
        size = tournament.table_preferred
        return pairing.knockout(seeds, table_size=size, advance=stage.advance or size // 2)
    except pairing.PairingError as exc:
        raise InvalidInput(str(exc)) from None


def _finishing_order(table: Table, result: Result, advance: int) -> list[int]:
    """Registration ids, best first; refused when a tie straddles the places that go on."""
    seats = [s.registration_id for s in table.seats.order_by("seat")]
    ranked = sorted(zip(result.ranks, seats, strict=True))
    if len(ranked) > advance and ranked[advance - 1][0] == ranked[advance][0]:
        raise InvalidInput(
            gettext(
                "Table {number} of round {number2} is tied at the place that decides who "
                "goes on: the organiser must enter a result without that tie."
            ).format(number=table.number, number2=table.round.number)
        )
    return [reg for _, reg in ranked]


def bracket_current(*, stage: Stage) -> pairing.Bracket | None:
    """The stage's bracket with every confirmed result applied (None for a paired stage)."""
    if stage.format not in BRACKET_FORMATS or not stage.bracket:
        return None
    bracket = bracket_build(stage, stage.bracket["meta"]["seeds"])
    results: dict[str, list[int]] = {}
    tables = Table.objects.filter(
        round__stage=stage, round__state__in=selectors.LIVE_STATES, is_bye=False
    ).exclude(match_id="")
    for table in tables.select_related("round"):
        result = selectors.table_confirmed_result(table)
        if result is not None:
            advance = bracket.match(table.match_id).advance
            results[table.match_id] = _finishing_order(table, result, advance)
    try:
        return pairing.bracket_advance(bracket, results)
    except pairing.PairingError as exc:
        raise InvalidInput(str(exc)) from None


def _playable(match: pairing.Match) -> bool:
    filled = all(e is not None or i in match.bye_slots for i, e in enumerate(match.slots))
    return filled and match.result is None and not match.is_bye


def round_from_bracket(
    tournament: Tournament, stage: Stage, number: int, *, attempt: int, by: AbstractBaseUser | None
) -> Round:
    """A round of every bracket match whose entrants are known and that has no table yet."""
    if not stage.bracket:
        stage.bracket = bracket_build(stage, bracket_seeds(tournament, number)).to_json()
    bracket = bracket_current(stage=stage)
    if bracket is None:
        raise WrongState(gettext("The stage {name} has no bracket.").format(name=repr(stage.name)))
    stage.bracket = bracket.to_json()
    stage.save(update_fields=["bracket"])
    tabled = set(
        Table.objects.filter(round__stage=stage)
        .exclude(round__state=Round.State.SUPERSEDED)
        .values_list("match_id", flat=True)
    )
    ready = [m for m in bracket.matches if _playable(m) and m.id not in tabled]
    if not ready:
        champion = pairing.bracket_champion(bracket)
        names = selectors.registration_names(tournament)
        if champion is not None:
            raise WrongState(
                gettext("The bracket is complete: {names} won it.").format(names=names[champion])
            )
        raise WrongState(gettext("No bracket match is ready: the matches left wait for results."))
    round_ = Round.objects.create(
        tournament=tournament,
        stage=stage,
        number=number,
        attempt=attempt,
        quality={"matches": float(len(ready))},
        created_by=by if by is not None and by.is_authenticated else None,
    )
    regs = {reg.id: reg for reg in tournament.registrations.all()}
    for table_number, match in enumerate(ready, start=1):
        table = table_with_seats(round_, table_number, match.entrants, regs, is_bye=False)
        table.match_id = match.id
        table.save(update_fields=["match_id"])
    return round_


def bracket_round_entrants(round_: Round) -> set[int]:
    """Registration ids the bracket seats in ``round_``'s matches."""
    bracket = bracket_current(stage=round_.stage)
    if bracket is None:
        return set()
    ids = round_.tables.exclude(match_id="").values_list("match_id", flat=True)
    return {e for match_id in ids for e in bracket.match(match_id).entrants}
