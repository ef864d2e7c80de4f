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


def fulfils(
    action: Action,
    way: Way,
    *,
    usable: Sequence[str],
    blasons: Sequence[str],
    kings: Mapping[str, King],
    announced: str,
) -> bool:
    """Whether ``way`` is one of :func:`ways` — checked directly, without listing them all."""
    cards, jokers, used = way
    if action.kind is ActionKind.DISCARD_BLASON:
        return not cards and not jokers and len(used) == 1 and used[0] in blasons
    if not _well_formed(way, usable, blasons, kings):
        return False
    return any(_fulfils_need(need, way, usable, kings) for need in _needs(action, announced))


def _well_formed(
    way: Way, usable: Sequence[str], blasons: Sequence[str], kings: Mapping[str, King]
) -> bool:
    """Sorted, distinct cards from the usable ones; jokers are special; blasons are held."""
    cards, jokers, used = way
    if list(cards) != sorted(set(cards)) or list(jokers) != sorted(set(jokers)):
        return False
    if list(used) != sorted(used) or set(cards) & set(jokers):
        return False
    if any(c not in usable for c in (*cards, *jokers)):
        return False
    if not all(kings[j].special for j in jokers):
        return False
    return all(used.count(colour) <= blasons.count(colour) for colour in set(used))


def _fulfils_need(
    need: Mapping[str, int], way: Way, usable: Sequence[str], kings: Mapping[str, King]
) -> bool:
    cards, jokers, used = way
    if any(kings[c].colour not in need for c in cards) or any(b not in need for b in used):
        return False
    missing_total = 0
    for colour, count in need.items():
        available = sum(1 for c in usable if kings[c].colour == colour)
        real = sum(1 for c in cards if kings[c].colour == colour)
        if real != min(count, available):
            return False
        missing = count - real
        if used.count(colour) > missing:
            return False
        missing_total += missing
    return missing_total - len(used) == len(jokers)
