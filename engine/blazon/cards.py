"""Blazon's data: Element cards, Distinction cards, the Shield board and the cards' French
names, loaded per edition.

Everything is read once at import from ``engine/blazon/data/<edition>/`` and validated; a bad
file raises :class:`~engine.core.errors.EditionDataError` naming the file and the row. The rules code only sees the typed
tables built here (cards by number, requirements already parsed into clauses).
"""

from __future__ import annotations

import csv
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core.errors import EditionDataError

DATA_DIR = Path(__file__).resolve().parent / "data"

TINCTURE_TYPES = ("metal", "colour", "fur")
DEVICE_TYPES = ("division", "ordinary", "line", "charge", "arrangement", "cadency")
TYPES = TINCTURE_TYPES + DEVICE_TYPES
AUGMENTATIONS = ("fleur-de-lis", "castle", "swords", "crown", "lion")
WILD = "wild"
CATEGORIES = ("tincture", "device")
WILD_TINCTURE_SYMBOL = "tincture"  # the board symbol any tincture card fits
SYMBOLS = (*TYPES, WILD_TINCTURE_SYMBOL)
DISTINCTION_CATEGORIES = ("A", "B", "C", "D", "E")
EXPECTED_COUNTS = {"tincture": 40, "device": 80}
GRID_ROWS = (1, 2, 3)


# The one edition-data error of every game; the old name stays importable.
DataError = EditionDataError


@dataclass(frozen=True, slots=True)
class Card:
    """One Element card. ``number`` is the numeric part of its id (T001 → 1, D083 → 83)."""

    number: int
    id: str
    category: str
    type: str
    name: str
    augmentation: str
    prestige: int


@dataclass(frozen=True, slots=True)
class FrenchName:
    """A card's name in French blazon, with what the French composition needs to put it in a
    sentence (``blazon-fr.toml`` says what each key means for each type).

    ``name``: the card's French words; ``gender``: "m" or "f" (a noun); ``plural``: a charge in
    the plural; ``feminine``: a line or an arrangement's words after a feminine noun; ``count``
    and ``after``: a numbered arrangement's charges and its words after them; ``before``: the
    words of an arrangement that strews its charges.
    """

    name: str
    gender: str = ""
    plural: str = ""
    feminine: str = ""
    count: int = 0
    after: str = ""
    before: str = ""


@dataclass(frozen=True, slots=True)
class Clause:
    """One requirement clause, e.g. ``aug:castle>=3`` → kind "aug", subject "castle", n 3."""

    kind: str
    subject: str
    n: int


@dataclass(frozen=True, slots=True)
class Distinction:
    """A Distinction card: all its clauses must hold; award values for 2–3 and for 4 players."""

    id: str
    category: str
    name: str
    requirement: str
    clauses: tuple[Clause, ...]
    awards_2_3: tuple[int, ...]
    awards_4: tuple[int, ...]

    def awards(self, players: int) -> tuple[int, ...]:
        """The award spaces, left to right, for this number of players."""
        return self.awards_4 if players >= 4 else self.awards_2_3


@dataclass(frozen=True, slots=True)
class Space:
    """A space of the Shield board: its grid row (0 for the cadency space) and two symbols."""

    index: int
    name: str
    row: int
    col: int
    top: str
    bottom: str

    def symbol(self, align: int) -> str:
        """The symbol shown in alignment 0 (top) or 1 (bottom)."""
        return self.top if align == 0 else self.bottom


@dataclass(frozen=True, slots=True)
class Board:
    """The Shield board: spaces, rows, identical-tincture groups, milestones, herald tokens."""

    spaces: tuple[Space, ...]
    rows: dict[int, tuple[int, ...]]
    tincture_groups: tuple[tuple[int, ...], ...]
    milestones: tuple[int, ...]
    herald_tokens: int


@dataclass(frozen=True, slots=True)
class Edition:
    """Everything one edition brings: cards by number, distinctions by category, the board."""

    name: str
    cards: dict[int, Card]
    distinctions: dict[str, tuple[Distinction, ...]]
    distinction_by_id: dict[str, Distinction]
    board: Board
    french: dict[int, FrenchName]  # card number → its French name


def category_of_symbol(symbol: str) -> str:
    """ "tincture" for tincture symbols (metal, colour, fur, wild tincture), else "device"."""
    return "tincture" if symbol in TINCTURE_TYPES or symbol == WILD_TINCTURE_SYMBOL else "device"


# -- cards ------------------------------------------------------------------------------------


def _card_from_row(row: dict[str, str], where: str) -> Card:
    card_id = row.get("id", "")
    category, kind, aug = row.get("category"), row.get("type"), row.get("augmentation")
    if category not in CATEGORIES:
        raise DataError(f"{where}: category {category!r} is neither tincture nor device")
    allowed = TINCTURE_TYPES if category == "tincture" else DEVICE_TYPES
    if kind not in allowed:
        raise DataError(f"{where}: type {kind!r} is not a {category} type ({', '.join(allowed)})")
    if aug not in (*AUGMENTATIONS, WILD):
        raise DataError(f"{where}: augmentation {aug!r} is not one of the five or wild")
    prefix = "T" if category == "tincture" else "D"
    if len(card_id) != 4 or card_id[0] != prefix or not card_id[1:].isdigit():
        raise DataError(f"{where}: id {card_id!r} must be {prefix} and three digits")
    try:
        prestige = int(row.get("prestige", ""))
    except ValueError:
        raise DataError(f"{where}: prestige {row.get('prestige')!r} is not a number") from None
    if not 1 <= prestige <= 5:
        raise DataError(f"{where}: prestige {prestige} is outside 1..5")
    name = (row.get("name") or "").strip()
    if not name:
        raise DataError(f"{where}: the card has no name")
    return Card(int(card_id[1:]), card_id, category, str(kind), name, str(aug), prestige)


def load_cards(path: Path) -> dict[int, Card]:
    """The Element cards of a CSV file, by number, checked (40 tinctures, 80 devices, 9 types)."""
    cards: dict[int, Card] = {}
    with path.open(encoding="utf-8", newline="") as handle:
        for line, row in enumerate(csv.DictReader(handle), start=2):
            card = _card_from_row(row, f"{path.name} row {line}")
            if card.number in cards:
                raise DataError(f"{path.name} row {line}: card number {card.number} appears twice")
            cards[card.number] = card
    for category, expected in EXPECTED_COUNTS.items():
        count = sum(1 for c in cards.values() if c.category == category)
        if count != expected:
            raise DataError(f"{path.name}: {count} {category} cards, expected {expected}")
    missing = set(TYPES) - {c.type for c in cards.values()}
    if missing:
        raise DataError(f"{path.name}: no card of type {', '.join(sorted(missing))}")
    return cards


# -- distinctions -----------------------------------------------------------------------------

_COUNT_KINDS = {
    "augs-distinct",
    "aug-pairs",
    "types-distinct",
    "tinctures-distinct",
    "row-same-aug",
    "row-distinct-augs",
    "cards",
}


def parse_clause(text: str, where: str) -> Clause:
    """One clause of the requirement language (games/README.md, ruling BZ-3)."""
    text = text.strip()
    if text == "space:cadency":
        return Clause("space", "cadency", 1)
    if text.startswith("row-full:"):
        row = text.removeprefix("row-full:")
        if not row.isdigit() or int(row) not in GRID_ROWS:
            raise DataError(f"{where}: {text!r} names no row 1..3")
        return Clause("row-full", "", int(row))
    head, sep, number = text.partition(">=")
    if not sep or not number.isdigit() or int(number) < 1:
        raise DataError(f"{where}: {text!r} is not a clause of the requirement language")
    n = int(number)
    if head in _COUNT_KINDS:
        return Clause(head, "", n)
    kind, _, subject = head.partition(":")
    if kind == "aug" and subject in AUGMENTATIONS:
        return Clause("aug", subject, n)
    if kind == "type" and subject in TYPES:
        return Clause("type", subject, n)
    raise DataError(f"{where}: {text!r} is not a clause of the requirement language")


def _awards(text: str, size: int, where: str) -> tuple[int, ...]:
    try:
        values = tuple(int(part) for part in text.split())
    except ValueError:
        raise DataError(f"{where}: award list {text!r} is not numbers") from None
    if len(values) != size or any(v < 1 for v in values):
        raise DataError(f"{where}: award list {text!r} must hold {size} positive numbers")
    return values


def load_distinctions(path: Path) -> dict[str, tuple[Distinction, ...]]:
    """Distinction cards by category A–E, five each, requirements parsed into clauses."""
    by_category: dict[str, list[Distinction]] = {c: [] for c in DISTINCTION_CATEGORIES}
    seen: set[str] = set()
    with path.open(encoding="utf-8", newline="") as handle:
        for line, row in enumerate(csv.DictReader(handle), start=2):
            where = f"{path.name} row {line}"
            category = row.get("category", "")
            if category not in by_category:
                raise DataError(f"{where}: category {category!r} is not one of A–E")
            ident = row.get("id", "")
            if not ident or ident in seen:
                raise DataError(f"{where}: id {ident!r} is missing or repeated")
            seen.add(ident)
            requirement = row.get("requirement", "")
            clauses = tuple(parse_clause(part, where) for part in requirement.split(";"))
            by_category[category].append(
                Distinction(
                    id=ident,
                    category=category,
                    name=row.get("name", "").strip() or ident,
                    requirement=requirement,
                    clauses=clauses,
                    awards_2_3=_awards(row.get("awards_2_3", ""), 2, where),
                    awards_4=_awards(row.get("awards_4", ""), 3, where),
                )
            )
    for category, cards in by_category.items():
        if len(cards) != 5:
            raise DataError(f"{path.name}: category {category} has {len(cards)} cards, not 5")
    return {category: tuple(cards) for category, cards in by_category.items()}


# -- board ------------------------------------------------------------------------------------


def _space(index: int, raw: Any, where: str) -> Space:
    if not isinstance(raw, dict):
        raise DataError(f"{where}: space {index} is not an object")
    for key in ("top", "bottom"):
        if raw.get(key) not in SYMBOLS:
            raise DataError(f"{where}: space {index} {key} symbol {raw.get(key)!r} is unknown")
    row, col = raw.get("row"), raw.get("col")
    if not isinstance(row, int) or not isinstance(col, int) or row not in (0, *GRID_ROWS):
        raise DataError(f"{where}: space {index} needs a row 0..3 and a column")
    return Space(index, str(raw.get("name")), row, col, raw["top"], raw["bottom"])


def load_board(path: Path) -> Board:
    """The Shield board: 9 grid spaces in 3 rows and a cadency space (row 0)."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    spaces = tuple(_space(i, s, path.name) for i, s in enumerate(raw.get("spaces", [])))
    names = {s.name: s.index for s in spaces}
    if len(spaces) != 10 or len(names) != 10:
        raise DataError(f"{path.name}: the board needs 10 spaces with distinct names")
    rows = {r: tuple(s.index for s in spaces if s.row == r) for r in GRID_ROWS}
    if any(len(members) != 3 for members in rows.values()):
        raise DataError(f"{path.name}: each of rows 1..3 needs three spaces")
    try:
        groups = tuple(
            tuple(names[name] for name in group) for group in raw["identical_tincture_groups"]
        )
    except KeyError as exc:
        raise DataError(
            f"{path.name}: identical-tincture group names unknown space {exc}"
        ) from None
    return Board(
        spaces=spaces,
        rows=rows,
        tincture_groups=groups,
        milestones=tuple(int(m) for m in raw["milestones"]),
        herald_tokens=int(raw["herald_tokens"]),
    )


# -- French names -----------------------------------------------------------------------------

#: The keys an entry of each type takes (``name`` always), and those it must have.
_FRENCH_KEYS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    **dict.fromkeys(
        ("metal", "colour", "fur", "division"), (frozenset({"name"}), frozenset({"name"}))
    ),
    "line": (frozenset({"name", "feminine"}), frozenset({"name"})),
    "ordinary": (frozenset({"name", "gender"}), frozenset({"name", "gender"})),
    "cadency": (frozenset({"name", "gender"}), frozenset({"name", "gender"})),
    "charge": (frozenset({"name", "gender", "plural"}), frozenset({"name", "gender", "plural"})),
    "arrangement": (
        frozenset({"name", "count", "after", "feminine", "before"}),
        frozenset({"name"}),
    ),
}
GENDERS = ("m", "f")


def _french_entry(raw: Any, kind: str, where: str) -> FrenchName:
    """One entry of ``blazon-fr.toml``: a string (the name alone) or a table of its keys."""
    fields = {"name": raw} if isinstance(raw, str) else raw
    if not isinstance(fields, dict):
        raise DataError(f"{where}: is neither words nor a table")
    allowed, required = _FRENCH_KEYS[kind]
    if set(fields) - allowed or required - set(fields):
        raise DataError(
            f"{where}: a {kind} takes {', '.join(sorted(allowed))} "
            f"(needs {', '.join(sorted(required))}), not {', '.join(sorted(fields))}"
        )
    words = {k: v for k, v in fields.items() if k != "count"}
    if any(not isinstance(v, str) or not v.strip() for v in words.values()):
        raise DataError(f"{where}: every key but count holds words")
    if fields.get("gender", "m") not in GENDERS:
        raise DataError(f"{where}: gender {fields['gender']!r} is neither m nor f")
    count = fields.get("count", 0)
    if not isinstance(count, int) or isinstance(count, bool) or count == 1 or count < 0:
        raise DataError(f"{where}: count {count!r} is not a number of charges (2 or more)")
    if kind == "arrangement" and bool(count) != bool(fields.get("after")):
        raise DataError(f"{where}: a numbered arrangement has a count and its words after")
    if fields.get("before") and (count or fields.get("feminine")):
        raise DataError(f"{where}: an arrangement that strews its charges has no count")
    return FrenchName(**fields)


def load_french(path: Path, cards: dict[int, Card]) -> dict[int, FrenchName]:
    """The French name of every card, by number, from the entries of ``path`` by type and
    English name; every card's name needs one, and every entry a card."""
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    entries: dict[tuple[str, str], FrenchName] = {}
    for kind, names in raw.items():
        if kind not in TYPES or not isinstance(names, dict):
            raise DataError(f"{path.name}: [{kind}] is not a card type ({', '.join(TYPES)})")
        for name, entry in names.items():
            entries[kind, name] = _french_entry(entry, kind, f"{path.name}: [{kind}] {name!r}")
    wanted = {(c.type, c.name) for c in cards.values()}
    missing, unused = sorted(wanted - set(entries)), sorted(set(entries) - wanted)
    if missing:
        raise DataError(f"{path.name}: no French name for {_listed(missing)}")
    if unused:
        raise DataError(f"{path.name}: no card is named {_listed(unused)}")
    return {number: entries[card.type, card.name] for number, card in cards.items()}


def _listed(keys: list[tuple[str, str]]) -> str:
    return ", ".join(f"[{kind}] {name!r}" for kind, name in keys)


def load_edition(name: str) -> Edition:
    """Load and validate one edition's four data files."""
    folder = DATA_DIR / name
    cards = load_cards(folder / "cards.csv")
    distinctions = load_distinctions(folder / "distinctions.csv")
    return Edition(
        name=name,
        cards=cards,
        distinctions=distinctions,
        distinction_by_id={d.id: d for group in distinctions.values() for d in group},
        board=load_board(folder / "board.json"),
        french=load_french(folder / "blazon-fr.toml", cards),
    )


EDITIONS: dict[str, Edition] = {"reconstructed-1": load_edition("reconstructed-1")}
