"""The components of Les 7 Blasons, loaded from ``data/<edition>.json`` and validated at import.

A card is identified by its owner's colour and its rank: rank 0 is the malandrin (value ``*``,
lower than every number, scoring 0), ranks 1–7 are the manant to the bourgeois, whose value is
their rank. A card in a trick is stored as the integer ``colour * 8 + rank``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core.errors import EditionDataError

DATA_DIR = Path(__file__).with_name("data")
RANKS_PER_COLOUR = 8
MALANDRIN = 0
MANANT, MENETRIER, MAGISTRAT, RELIGIEUX, INTENDANT = 1, 2, 3, 4, 5
POWERS = ("steal", "take", "turn-up", "remove", "move", "exchange")


# The one edition-data error of every game; the old name stays importable.
DataError = EditionDataError


@dataclass(frozen=True)
class Character:
    """One of the eight characters: its rank (0 = malandrin), name, power and variant."""

    rank: int
    name: str
    power: str | None
    variant: int | None  # the power only acts when this variant is played


@dataclass(frozen=True)
class Bourgeoisie:
    """A bourgeoisie card of variants 1–3: what it lets its holder consult or take."""

    level: int
    name: str
    consult: int
    takes: int  # the rank of the character that variant 2 lets the holder take
    min_players: int


@dataclass(frozen=True)
class Edition:
    """Everything an edition fixes: colours, characters, token deal and bourgeoisie cards."""

    name: str
    colours: tuple[str, ...]
    tokens_per_colour: int
    rounds: int
    characters: tuple[Character, ...]
    deal: dict[int, tuple[int, int]]  # players -> (face down, face up)
    bourgeoisie: tuple[Bourgeoisie, ...]

    def bourgeoisie_for(self, players: int) -> tuple[Bourgeoisie, ...]:
        """The bourgeoisie cards used at this table, highest first."""
        cards = [b for b in self.bourgeoisie if players >= b.min_players]
        return tuple(sorted(cards, key=lambda b: -b.level))


def _require(condition: bool, where: str, message: str) -> None:
    if not condition:
        raise DataError(f"{where}: {message}")


def _character(row: dict[str, Any], index: int, where: str) -> Character:
    here = f"{where} characters[{index}]"
    _require(row.get("rank") == index, here, f"rank must be {index} (ranks run 0..7 in order)")
    _require(isinstance(row.get("name"), str) and bool(row["name"]), here, "needs a name")
    expected_value: Any = "*" if index == MALANDRIN else index
    _require(row.get("value") == expected_value, here, f"value must be {expected_value!r}")
    power = row.get("power")
    _require(power is None or power in POWERS, here, f"unknown power {power!r}")
    variant = row.get("variant")
    _require(variant is None or variant in (1, 2, 3, 4), here, f"unknown variant {variant!r}")
    return Character(index, row["name"], power, variant)


def _deal(rows: list[dict[str, Any]], where: str) -> dict[int, tuple[int, int]]:
    deal: dict[int, tuple[int, int]] = {}
    for index, row in enumerate(rows):
        here = f"{where} deal[{index}]"
        players, down, up = row.get("players", 0), row.get("face_down", 0), row.get("face_up", 0)
        _require(isinstance(players, int) and 3 <= players <= 7, here, "players must be 3..7")
        _require(isinstance(down, int) and isinstance(up, int), here, "needs face_down/face_up")
        _require(players not in deal, here, f"{players} players listed twice")
        deal[int(players)] = (int(down), int(up))
    _require(sorted(deal) == list(range(3, 8)), where, "deal must cover 3 to 7 players")
    return deal


def _bourgeoisie(row: dict[str, Any], index: int, names: list[str], where: str) -> Bourgeoisie:
    here = f"{where} bourgeoisie[{index}]"
    _require(row.get("level") == index + 1, here, f"level must be {index + 1}")
    _require(row.get("takes") in names, here, f"takes an unknown character {row.get('takes')!r}")
    consult = row.get("consult", 0)
    _require(isinstance(consult, int) and consult > 0, here, "consult must be a positive count")
    return Bourgeoisie(
        row["level"],
        str(row["name"]),
        int(consult),
        names.index(row["takes"]),
        int(row.get("min_players", 3)),
    )


def load_edition(name: str) -> Edition:
    """Read and validate ``data/<name>.json``; a bad file raises :class:`~engine.core.errors.EditionDataError`."""
    raw = json.loads((DATA_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return edition_from_data(name, raw)


def edition_from_data(name: str, raw: dict[str, Any]) -> Edition:
    """Validate an edition's plain data; :class:`~engine.core.errors.EditionDataError` names the faulty row."""
    where = f"{name}.json"
    colours = raw.get("colours", [])
    _require(isinstance(colours, list) and len(colours) == 7, where, "needs 7 colours")
    _require(len(set(colours)) == 7, where, "colours must be distinct")
    rows = raw.get("characters", [])
    _require(isinstance(rows, list) and len(rows) == RANKS_PER_COLOUR, where, "needs 8 characters")
    characters = tuple(_character(row, i, where) for i, row in enumerate(rows))
    names = [c.name for c in characters]
    bourgeoisie = tuple(
        _bourgeoisie(row, i, names, where) for i, row in enumerate(raw.get("bourgeoisie", []))
    )
    tokens = raw.get("tokens_per_colour", 0)
    _require(isinstance(tokens, int) and tokens > 0, where, "tokens_per_colour must be positive")
    edition = Edition(
        name, tuple(colours), tokens, int(raw.get("rounds", 3)), characters,
        _deal(raw.get("deal", []), where), bourgeoisie,
    )  # fmt: skip
    for players, (down, up) in edition.deal.items():
        _require((down + up) * players <= tokens * players, where, f"deal too big for {players}")
    return edition


STANDARD = load_edition("standard")
EDITIONS = {STANDARD.name: STANDARD}
