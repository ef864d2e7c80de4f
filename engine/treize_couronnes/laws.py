"""Which cards and tokens fulfil a law's action: the exact list of ways, without duplicates.

A way is ``(cards, jokers, blasons)``: real cards of the asked colours, special cards standing
in for missing cards of any colour, and blason tokens standing in for missing cards of their
colour (ruling 13C-1). A stand-in replaces a *missing* card only: a player must use as many of
their own cards of a colour as the law asks for (or all they have), and stand-ins fill the rest.
That keeps the list short and follows the rulebook's words ("to replace 1 missing card").
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import combinations, product

from engine.treize_couronnes.cards import ANNOUNCED, COLOURS, PAIR, Action, ActionKind, King

Way = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]


def ways(
    action: Action,
    usable: Sequence[str],
    blasons: Sequence[str],
    kings: Mapping[str, King],
    announced: str,
) -> list[Way]:
    """Every distinct way to carry out a reveal/discard ``action`` with ``usable`` cards
    (hand cards not revealed yet this turn) and the player's ``blasons``, sorted."""
    if action.kind is ActionKind.DISCARD_BLASON:
        return [((), (), (colour,)) for colour in sorted(set(blasons))]
    found: set[Way] = set()
    for need in _needs(action, announced):
        found.update(_ways_for(need, usable, blasons, kings))
    return sorted(found)


def _needs(action: Action, announced: str) -> Iterator[dict[str, int]]:
    """The colour counts the action may mean: a pair may be of any colour."""
    (colour, count), *rest = action.need
    if colour == PAIR:
        for each in COLOURS:
            yield {each: count}
    elif colour == ANNOUNCED:
        if announced:
            yield {announced: count}
    else:
        yield dict([(colour, count), *rest])


def _ways_for(
    need: Mapping[str, int],
    usable: Sequence[str],
    blasons: Sequence[str],
    kings: Mapping[str, King],
) -> Iterator[Way]:
    by_colour = {colour: [c for c in usable if kings[c].colour == colour] for colour in need}
    missing = {colour: need[colour] - min(need[colour], len(by_colour[colour])) for colour in need}
    real_choices = [combinations(by_colour[c], need[c] - missing[c]) for c in need]
    token_choices = list(_blason_choices(missing, blasons))
    specials = [c for c in usable if kings[c].special]
    for picked in product(*real_choices):
        cards = tuple(sorted(card for group in picked for card in group))
        spare = [c for c in specials if c not in cards]
        for used in token_choices:
            jokers_needed = sum(missing.values()) - len(used)
            for jokers in combinations(spare, jokers_needed):
                yield cards, jokers, used


def _blason_choices(missing: Mapping[str, int], held: Sequence[str]) -> Iterable[tuple[str, ...]]:
    """Each multiset of held blasons that fills some of the missing cards of their colour."""
    ranges = [range(min(missing[c], held.count(c)) + 1) for c in missing]
    for counts in product(*ranges):
        yield tuple(sorted(c for c, n in zip(missing, counts, strict=True) for _ in range(n)))
