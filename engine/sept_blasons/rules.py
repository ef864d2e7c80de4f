"""Pure rules of Les 7 Blasons: who wins a trick (7B-2) and what a round scores (7B-3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.sept_blasons.cards import RANKS_PER_COLOUR
from engine.sept_blasons.state import Played, Token

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
        value = card_value(trick, card)
        if value is not None:
            holders.setdefault(value, []).append(card.position)
    looked_at = sorted(holders, reverse=True)
    if tie_rule == STRICT:
        looked_at = looked_at[:2]
    for value in looked_at:
        if len(holders[value]) == 1:
            return holders[value][0]
    return None


@dataclass(frozen=True)
class ColourScore:
    """One line of a round's score: a colour's card points times its counted tokens."""

    colour: int
    card_points: int
    tokens: int
    points: int


def colour_scores(cards: Sequence[int], front: Sequence[Token], own: int,
                  players: int) -> list[ColourScore]:  # fmt: skip
    """Per colour: the card values of that colour in the tricks × face-up tokens of it (7B-3).

    Own-colour and face-down tokens count for nothing; the malandrin (rank 0) scores 0.
    """
    points = [0] * players
    for code in cards:
        points[code // RANKS_PER_COLOUR] += code % RANKS_PER_COLOUR
    tokens = [0] * players
    for token in front:
        if token.up and token.colour != own:
            tokens[token.colour] += 1
    return [ColourScore(c, points[c], tokens[c], points[c] * tokens[c]) for c in range(players)]


def round_score(cards: Sequence[int], front: Sequence[Token], own: int, players: int) -> int:
    """The round's score: the best colour's points only."""
    return max(line.points for line in colour_scores(cards, front, own, players))


def cards_won(tricks: Sequence[Sequence[int]]) -> list[int]:
    """Every card code in a player's tricks."""
    return [code for trick in tricks for code in trick]
