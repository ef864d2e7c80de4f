"""The one factory that picks a pairing algorithm from plain options."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tournaments.pairing.draw import quality, read_round
from tournaments.pairing.round_robin import round_robin
from tournaments.pairing.swiss import swiss
from tournaments.pairing.types import Entrant, History, Pairing, PairingError, TableRule

FORMATS = ("swiss", "round_robin")

#: Every option each format understands, with its default. Unknown keys are refused.
#:
#: * ``avoid_repeats`` — keep entrants who already shared a table apart while possible
#:   (off: plain slices of the score order).
#: * ``balance_seats`` — give each entrant the seats they used least (Hungarian method);
#:   off: seats in a seeded random order.
#: * ``search_budget`` — how much work the repeat repair may do before settling for a repeat
#:   (swap trials; the exact search on fields of up to 64 gets ten times as many steps, the
#:   seeded tabu search six times as many swap trials).
#: * ``rounds`` — round robin: how many rounds the event has, so the rounds left are planned
#:   together; 0: as many as could be free of repeats.
FORMAT_OPTIONS: Mapping[str, Mapping[str, object]] = {
    "swiss": {
        "avoid_repeats": True,
        "balance_seats": True,
        "search_budget": 20_000,
    },
    "round_robin": {
        "balance_seats": True,
        "search_budget": 20_000,
        "rounds": 0,
    },
}


def pair_round(
    fmt: str,
    entrants: Sequence[Entrant],
    history: History,
    rule: TableRule,
    *,
    round_number: int,
    seed: str,
    options: Mapping[str, object] | None = None,
) -> Pairing:
    """Draw one round of format ``fmt`` for the active ``entrants``.

    ``round_number`` is 1-based; ``seed`` makes the draw reproducible (same inputs, same draw,
    whatever the order of ``entrants``). Byes go first, only as many as the table sizes need,
    to the entrants with the fewest byes and then the fewest points. Swiss then seats the rest
    by score (tables of two by weighted matching, larger tables greedily, repairing repeats by
    swaps, then if a repeat is left by an exact search on fields of up to 64 and a seeded tabu
    search around the tables with a repeat); round robin seats everyone against new opponents.
    Raises :class:`PairingError` with a sentence a person reads when the draw cannot be made.

    >>> field = [Entrant(1, points=3), Entrant(2, points=3), Entrant(3), Entrant(4)]
    >>> pairs = TableRule(preferred=2, allowed=(2,))
    >>> draw = pair_round("swiss", field, History(), pairs, round_number=2, seed="doc")
    >>> sorted(sorted(table) for table in draw.tables)
    [[1, 2], [3, 4]]
    >>> again = pair_round("swiss", field, History(((1, 2),)), pairs, round_number=2, seed="doc")
    >>> sorted(sorted(table) for table in again.tables), again.quality["repeat_pairs"]
    ([[1, 3], [2, 4]], 0.0)
    """
    resolved = resolve_options(fmt, options)
    state = read_round(entrants, history, rule, round_number=round_number, seed=seed)
    if not entrants:
        return Pairing(tables=(), byes=(), quality=quality(state, [], []))
    if fmt == "swiss":
        return swiss(state, resolved)
    return round_robin(state, round_number, resolved)


def resolve_options(fmt: str, options: Mapping[str, object] | None) -> dict[str, object]:
    """The format's defaults overlaid with ``options``; unknown formats or keys are refused."""
    if fmt not in FORMAT_OPTIONS:
        raise PairingError(f"Unknown pairing format {fmt!r}; choose one of {', '.join(FORMATS)}.")
    declared = FORMAT_OPTIONS[fmt]
    unknown = sorted(set(options or {}) - set(declared))
    if unknown:
        raise PairingError(
            f"Unknown option(s) for {fmt} pairing: {', '.join(unknown)}; "
            f"known options are {', '.join(sorted(declared))}."
        )
    resolved = {**declared, **(options or {})}
    for key, value in resolved.items():
        _check_option(fmt, key, value, declared[key])
    return resolved


def _check_option(fmt: str, key: str, value: object, default: object) -> None:
    """An option must have the type of its default (and a budget cannot be negative)."""
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise PairingError(f"The {fmt} option {key} must be true or false, not {value!r}.")
    elif isinstance(default, int) and (
        isinstance(value, bool) or not isinstance(value, int) or value < 0
    ):
        raise PairingError(f"The {fmt} option {key} must be a whole number of 0 or more.")
