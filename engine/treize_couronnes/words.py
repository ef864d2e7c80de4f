"""The words of 13 Couronnes that sentences are built with, each translatable (colours,
tokens, reward parts). The data's own codes stay the keys; cards and laws keep their ids."""

from __future__ import annotations

from engine.core.text import Text, _

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
