"""The words of Blazon that sentences are built with, each translatable: decks, piles,
alignments, element types and symbols. Card names stay the cards' own (heraldic terms)."""

from __future__ import annotations

from engine.core.text import Text, _

#: Each deck, its discard pile and a card drawn from it, in words.
DECK_NAMES = {"tincture": _("the tincture deck"), "device": _("the device deck")}
DISCARD_NAMES = {"tincture": _("the tincture discard pile"), "device": _("the device discard pile")}
CARD_KINDS = {"tincture": _("a tincture card"), "device": _("a device card")}
SYMBOL_KINDS = {"tincture": _("a tincture symbol"), "device": _("a device symbol")}
#: The two alignments of a card on the shield.
ALIGN_WORDS = {"top": _("top"), "bottom": _("bottom")}
#: An element card's type, with its article ("Or is a metal").
TYPE_WORDS: dict[str, Text] = {
    "arrangement": _("an arrangement"),
    "cadency": _("a cadency mark"),
    "charge": _("a charge"),
    "colour": _("a colour"),
    "division": _("a division"),
    "fur": _("a fur"),
    "line": _("a line"),
    "metal": _("a metal"),
    "ordinary": _("an ordinary"),
}
#: A space's symbol (an element type, or the wild tincture).
SYMBOL_WORDS: dict[str, Text] = {
    "arrangement": _("arrangement"),
    "cadency": _("cadency"),
    "charge": _("charge"),
    "colour": _("colour"),
    "division": _("division"),
    "fur": _("fur"),
    "line": _("line"),
    "metal": _("metal"),
    "ordinary": _("ordinary"),
    "tincture": _("tincture"),
}


def word(words: dict[str, Text], key: str) -> Text | str:
    """``key`` in words, or as it is when it is not one of them."""
    return words.get(key) or key
