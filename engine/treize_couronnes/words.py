"""The words of 13 Couronnes that sentences are built with, each translatable (colours,
tokens, reward parts), and each King's law in words (:func:`action_text`, :func:`reward_text`:
what the table draws beside the law's icons). The data's own codes stay the keys; cards keep
their ids."""

from __future__ import annotations

from engine.core.text import Text, _
from engine.treize_couronnes.cards import ANNOUNCED, KINGS, PAIR, Action, ActionKind, King, Reward

#: The four colours.
COLOUR_WORDS: dict[str, Text] = {
    "blue": _("blue"),
    "orange": _("orange"),
    "green": _("green"),
    "purple": _("purple"),
}
#: A token (a guard or a colour's blason) and "none" (the token let go).
TOKEN_WORDS: dict[str, Text] = {**COLOUR_WORDS, "guard": _("guard"), "none": _("none")}
#: The parts of a reward (``Reward.kind``).
REWARD_WORDS: dict[str, Text] = {
    "crowns": _("crowns"),
    "guard": _("guard"),
    "blason": _("blason"),
    "steal-crowns": _("steal-crowns"),
    "steal-cards": _("steal-cards"),
    "hole": _("hole"),
}


def word(words: dict[str, Text], key: str) -> Text | str:
    """``key`` in words, or as it is when it is not one of them (a malformed move's value)."""
    return words.get(key) or key


# -- the laws in words: what a King asks (its action) and what it gives (its reward) ---------
# A card's colour agrees with "card" in French (une carte bleue): each colour has its own
# card words, singular and plural, rather than an adjective put beside a noun.
CARD_WORDS: dict[str, tuple[Text, Text]] = {
    "blue": (_("blue card"), _("blue cards")),
    "orange": (_("orange card"), _("orange cards")),
    "green": (_("green card"), _("green cards")),
    "purple": (_("purple card"), _("purple cards")),
}


def cards_words(colour: str, count: int) -> Text | str:
    """``count`` cards of ``colour`` as a noun phrase without the number ("blue cards")."""
    one, many = CARD_WORDS.get(colour, (colour, colour))
    return one if count == 1 else many


def action_text(action: Action, announced: str = "") -> Text:
    """What a law asks, in words: ``reveal 1 blue card and 1 orange card``.

    >>> str(action_text(Action(ActionKind.REVEAL, (("blue", 4),))))
    'reveal 4 blue cards'
    """
    kind = action.kind
    if kind is ActionKind.ONCE_MOST:
        return _(
            "have strictly more {cards} than each opponent, and reveal them",
            cards=cards_words(action.colour, 2),
        )
    if kind is ActionKind.ONCE_FEWEST_CROWNS:
        return _("have strictly fewer crowns than each opponent")
    if kind is ActionKind.ONCE_HAND_4:
        return _("have exactly 4 cards in hand")
    if kind is ActionKind.DISCARD_BLASON:
        return _("discard 1 blason")
    (colour, count), *rest = action.need
    if colour == PAIR:
        return _("reveal 2 cards of the same colour")
    if colour == ANNOUNCED:
        if announced:
            return _("reveal 1 {card}, the announced colour", card=cards_words(announced, 1))
        return _("reveal 1 card of the colour announced when this King was played")
    verb = "reveal" if kind is ActionKind.REVEAL else "discard"
    if not rest:
        return _cards_sentence(verb, count, cards_words(colour, count))
    return _several_colours(verb, [colour, *(c for c, _n in rest)])


def _cards_sentence(verb: str, count: int, cards: Text | str) -> Text:
    if verb == "reveal":
        return _("reveal {count} {cards}", count=count, cards=cards)
    return _("discard {count} {cards}", count=count, cards=cards)


def _several_colours(verb: str, colours: list[str]) -> Text:
    """One card of each colour: two or three colours (the edition has no law with more)."""
    cards = [cards_words(c, 1) for c in colours]
    if verb == "reveal" and len(cards) == 2:
        return _("reveal 1 {first} and 1 {second}", first=cards[0], second=cards[1])
    if verb == "reveal":
        return _(
            "reveal 1 {first}, 1 {second} and 1 {third}", first=cards[0], second=cards[1],
            third=cards[2],
        )  # fmt: skip
    if len(cards) == 2:
        return _("discard 1 {first} and 1 {second}", first=cards[0], second=cards[1])
    return _(
        "discard 1 {first}, 1 {second} and 1 {third}", first=cards[0], second=cards[1],
        third=cards[2],
    )  # fmt: skip


def reward_part_text(reward: Reward) -> Text:
    """One part of a reward in words: ``2 crowns``, ``steal 1 crown from an opponent``.

    >>> str(reward_part_text(Reward("crowns", 2)))
    '2 crowns'
    """
    kind, n = reward.kind, reward.amount
    if kind == "crowns":
        return _("1 crown") if n == 1 else _("{count} crowns", count=n)
    if kind == "guard":
        return _("1 guard") if n == 1 else _("{count} guards", count=n)
    if kind == "blason":
        return _("1 blason of the colour of your choice")
    if kind == "steal-crowns":
        if n == 1:
            return _("steal 1 crown from an opponent")
        return _("steal {count} crowns from opponents", count=n)
    if kind == "steal-cards":
        if n == 1:
            return _("steal 1 card at random from an opponent")
        return _("steal {count} cards at random from opponents", count=n)
    return _("the reward of the King beneath, seen through the hole")


def reward_text(rewards: tuple[Reward, ...]) -> Text:
    """A whole reward in words, its parts in order (``1 crown and 1 guard``); a reward with
    no part (a hole over nothing) in words too."""
    parts = [reward_part_text(r) for r in rewards]
    if not parts:
        return _("no reward")
    return _joined(parts)


def _joined(parts: list[Text]) -> Text:
    if len(parts) == 1:
        return parts[0]
    return _("{first} and {second}", first=parts[0], second=_joined(parts[1:]))


# -- a card in a sentence --------------------------------------------------------------------


def king_text(king: King, announced: str = "") -> Text:
    """A King in a sentence, by its colour and its law: ``the blue King (reveal 2 blue cards →
    1 crown)``; a special card says it is a joker. The edition's id ("B07") is no word of the
    table's."""
    words = {
        "colour": word(COLOUR_WORDS, king.colour),
        "action": action_text(king.action, announced),
        "reward": reward_text(king.rewards),
    }
    if king.special:
        return _("the {colour} King, joker ({action} → {reward})", **words)
    return _("the {colour} King ({action} → {reward})", **words)


def card_words(card_id: str) -> Text | str:
    """A card of any edition named in words from its id (the id itself when no edition has it,
    a malformed move's value)."""
    for kings in KINGS.values():
        king = kings.get(card_id)
        if king is not None:
            return king_text(king)
    return card_id
