"""What a tournament needs to know about a game: it exists, its player range, its options (and
the options in words, for the tournament pages and the lobby).

The engine registry (``engine.get``) is the truth. The preferred table size is tournament
data, not a rule of the game, so it lives here as data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import engine
from engine.core.errors import InvalidOptions, UnknownGame
from tournaments.errors import InvalidInput

#: The table size a club usually plays each game at (inside the game's player range).
PREFERRED_TABLE: Mapping[str, int] = {
    "les-7-blasons": 5,
    "blazon": 4,
    "13-couronnes": 4,
}


@dataclass(frozen=True)
class GameFacts:
    """A registered game as a tournament sees it."""

    id: str
    name: str
    min_players: int
    max_players: int
    editions: tuple[str, ...]

    @property
    def preferred_table(self) -> int:
        default = PREFERRED_TABLE.get(self.id, 4)
        return max(self.min_players, min(default, self.max_players))


def game_facts(game_id: str) -> GameFacts:
    """The registered game ``game_id``, or :class:`InvalidInput` naming the known games."""
    try:
        game = engine.get(game_id)
    except UnknownGame as exc:
        raise InvalidInput(str(exc)) from None
    return GameFacts(
        id=game.id,
        name=game.name,
        min_players=game.min_players,
        max_players=game.max_players,
        editions=tuple(game.editions),
    )


def game_name(game_id: str) -> str:
    """The name a person reads ("Les 7 Blasons" for ``les-7-blasons``); the id itself if the
    engine no longer knows the game, so an old tournament's pages still render."""
    try:
        return engine.get(game_id).name
    except UnknownGame:
        return game_id


def game_options(game_id: str, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The game's options validated with every default filled in (``InvalidInput`` if wrong)."""
    try:
        return engine.get(game_id).normalize_options(options)
    except (InvalidOptions, UnknownGame) as exc:
        raise InvalidInput(str(exc)) from None


# -- the options in words ------------------------------------------------------------------

#: Option name -> (label, help text) in the viewer's words.
OPTION_WORDS: dict[str, tuple[Any, Any]] = {
    "tie_rule": (
        _("Tied highest cards"),
        _(
            "Cascade: the highest value held by exactly one card wins. "
            "Strict: a tie on the next value too, and nobody wins."
        ),
    ),
    "variants": (_("Variants"), ""),
    "abatement": (
        _("Abatement tokens"),
        _("Each player may break one placement rule, -8 at the end if still in use."),
    ),
    "max_turns": (_("Turn limit"), _("The game ends after this many turns.")),
    "hidden_crowns": (_("Hidden crowns"), _("Players see only their own crowns.")),
}

#: (option name, value) -> the choice's words.
CHOICE_WORDS: dict[tuple[str, Any], Any] = {
    ("tie_rule", "cascade"): _("Cascade"),
    ("tie_rule", "strict"): _("Strict"),
    ("variants", 1): _("1 — the bourgeois consult tricks"),
    ("variants", 2): _("2 — the bourgeois help themselves"),
    ("variants", 3): _("3 — the bourgeois are curious (tokens)"),
    ("variants", 4): _("4 — the religieux is active"),
}


def settings_words(game_id: str, options: Mapping[str, Any] | None) -> list[str]:
    """The options that differ from the game's defaults, in words ("Variants: 1, 3"); none for
    a game the engine no longer knows."""
    try:
        declared = engine.get(game_id).options
    except UnknownGame:
        return []
    words = []
    for option in declared:
        value = (options or {}).get(option.name, option.default)
        if value == option.default or (option.kind == "integer-set" and not value):
            continue
        label = str(OPTION_WORDS.get(option.name, (option.name, ""))[0])
        words.append(f"{label}: {_value_words(option.name, value)}")
    return words


def _value_words(name: str, value: Any) -> str:
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, list):
        return ", ".join(str(item) for item in value)
    return str(CHOICE_WORDS.get((name, value), value))
