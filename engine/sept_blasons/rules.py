"""Pure rules of Les 7 Blasons: who wins a trick (7B-2). What a round scores (7B-3) is in
``scoring``."""

from __future__ import annotations

from collections.abc import Sequence

from engine.sept_blasons.state import Played

CASCADE, STRICT = "cascade", "strict"


def card_value(trick: Sequence[Played], card: Played) -> int | None:
    """The value a played card competes with: the printed value it carries, or None.

    The malandrin's own value ``*`` is 0, lower than every number.
    """
    if card.value_from is None:
        return None
    return trick[card.value_from].rank


def trick_winner(trick: Sequence[Played], tie_rule: str) -> int | None:
    """The play position that wins the trick, or None when the ties leave nobody.

    Equal values cancel. Cascade (7B-2): the highest value held by exactly one card wins.
    Strict: only the highest value and, if it is tied, the next lower one are looked at.
    """
    holders: dict[int, list[int]] = {}
    for card in trick:
        source = card.value_from  # card_value, written out: asked for every card of a trick
        if source is not None:
            value = trick[source].rank
            if value in holders:
                holders[value].append(card.position)
            else:
                holders[value] = [card.position]
    looked_at = sorted(holders, reverse=True)
    if tie_rule == STRICT:
        looked_at = looked_at[:2]
    for value in looked_at:
        if len(holders[value]) == 1:
            return holders[value][0]
    return None
