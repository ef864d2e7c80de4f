"""Which cards and tokens fulfil a law's action: the exact list of ways, without duplicates.

A way is ``(cards, jokers, blasons)``: real cards of the asked colours, special cards standing
in for missing cards of any colour, and blason tokens standing in for cards of their colour
(ruling 13C-1). A special card replaces a *missing* card only (the rulebook: "to replace 1
missing card of any colour"): a player uses as many of their own cards of a colour as the law
still asks for once their blasons are counted (or all they have), and jokers fill the rest. A
blason "replaces 1 card of the same colour" — held or not (engine 1.3.0; ``blason_for_any``).
Before 1.3.0 a blason, too, replaced a missing card only, and games set up then keep that rule.
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
    *,
    blason_for_any: bool = True,
) -> list[Way]:
    """Every distinct way to carry out a reveal/discard ``action`` with ``usable`` cards
    (hand cards not revealed yet this turn) and the player's ``blasons``, sorted.
    ``blason_for_any=False`` is the rule before engine 1.3.0 (a blason for a missing card only).
    """
    if action.kind is ActionKind.DISCARD_BLASON:
        return [((), (), (colour,)) for colour in sorted(set(blasons))]
    found: set[Way] = set()
    for need in _needs(action, announced):
        found.update(_ways_for(need, usable, blasons, kings, blason_for_any))
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
    blason_for_any: bool,
) -> Iterator[Way]:
    by_colour = {colour: [c for c in usable if kings[c].colour == colour] for colour in need}
    caps = _blason_caps(need, by_colour, blason_for_any)
    specials = [c for c in usable if kings[c].special]
    for used in _blason_choices(caps, blasons):
        real = {c: min(need[c] - used.count(c), len(by_colour[c])) for c in need}
        jokers_needed = sum(need[c] - used.count(c) - real[c] for c in need)
        for picked in product(*(combinations(by_colour[c], real[c]) for c in need)):
            cards = tuple(sorted(card for group in picked for card in group))
            spare = [c for c in specials if c not in cards]
            for jokers in combinations(spare, jokers_needed):
                yield cards, jokers, used


def _blason_caps(
    need: Mapping[str, int], by_colour: Mapping[str, Sequence[str]], blason_for_any: bool
) -> dict[str, int]:
    """How many cards of each asked colour blasons may stand in for: all of them (1.3.0), or
    only the cards the player lacks (before)."""
    if blason_for_any:
        return dict(need)
    return {c: need[c] - min(need[c], len(by_colour[c])) for c in need}


def _blason_choices(caps: Mapping[str, int], held: Sequence[str]) -> Iterable[tuple[str, ...]]:
    """Each multiset of held blasons that stands in for up to ``caps`` cards of their colour."""
    ranges = [range(min(caps[c], held.count(c)) + 1) for c in caps]
    for counts in product(*ranges):
        yield tuple(sorted(c for c, n in zip(caps, counts, strict=True) for _ in range(n)))


def fulfils(
    action: Action,
    way: Way,
    *,
    usable: Sequence[str],
    blasons: Sequence[str],
    kings: Mapping[str, King],
    announced: str,
    blason_for_any: bool = True,
) -> bool:
    """Whether ``way`` is one of :func:`ways` — checked directly, without listing them all.

    A replay checks every law move, so the colours of the usable cards and of the way's cards
    are counted once, and a pair law is only tried in the colour the way's cards (or blasons)
    are of: any other colour's need refuses them at once (:func:`_fulfils_need`).
    """
    cards, jokers, used = way
    if action.kind is ActionKind.DISCARD_BLASON:
        return not cards and not jokers and len(used) == 1 and used[0] in blasons
    if not _well_formed(way, usable, blasons, kings):
        return False
    available = _colour_counts(usable, kings)
    real = _colour_counts(cards, kings)
    (colour, count), *_rest = action.need
    if colour == PAIR and (cards or used):
        colour = kings[cards[0]].colour if cards else used[0]
        needs: Iterable[Mapping[str, int]] = [{colour: count}] if colour in COLOURS else []
    else:
        needs = _needs(action, announced)
    return any(
        _fulfils_need(
            need, real, used, available, jokers=len(jokers), blason_for_any=blason_for_any
        )
        for need in needs
    )


def _colour_counts(cards: Iterable[str], kings: Mapping[str, King]) -> dict[str, int]:
    """How many of ``cards`` are of each colour."""
    counts: dict[str, int] = {}
    for card in cards:
        colour = kings[card].colour
        counts[colour] = counts.get(colour, 0) + 1
    return counts


def _well_formed(
    way: Way, usable: Sequence[str], blasons: Sequence[str], kings: Mapping[str, King]
) -> bool:
    """Sorted, distinct cards from the usable ones; jokers are special; blasons are held."""
    cards, jokers, used = way
    if list(cards) != sorted(set(cards)) or list(jokers) != sorted(set(jokers)):
        return False
    if list(used) != sorted(used) or set(cards) & set(jokers):
        return False
    for card in cards:
        if card not in usable:
            return False
    for joker in jokers:
        if joker not in usable or not kings[joker].special:
            return False
    return all(used.count(colour) <= blasons.count(colour) for colour in set(used))


def _fulfils_need(
    need: Mapping[str, int],
    real_by_colour: Mapping[str, int],
    used: Sequence[str],
    available_by_colour: Mapping[str, int],
    *,
    jokers: int,
    blason_for_any: bool,
) -> bool:
    """Whether the way (its cards counted by colour, its blasons ``used`` and its number of
    ``jokers``) carries out ``need`` with the usable cards counted by colour."""
    for colour in real_by_colour:
        if colour not in need:
            return False
    for blason in used:
        if blason not in need:
            return False
    missing_total = 0
    for colour, count in need.items():
        available = available_by_colour.get(colour, 0)
        real = real_by_colour.get(colour, 0)
        blasons = used.count(colour)
        cap = count if blason_for_any else count - min(count, available)
        if blasons > cap or real != min(count - blasons, available):
            return False
        missing_total += count - blasons - real
    return missing_total == jokers
