"""The King cards of 13 Couronnes, loaded from ``data/<edition>.csv`` and checked at import.

Each row is one King: its colour, its law written in the law language of
docs/rules/13-couronnes.md ("Components and the law language": an action and a reward), and
three flags: ``special`` (a joker), ``hole`` (the reward of the King beneath shows through) and
``first`` (the 1st King, in power at the start). The law is parsed ONCE here into typed :class:`Action` and :class:`Reward` values;
a row that does not parse raises :class:`~engine.core.errors.EditionDataError` naming the file, the row and the card.

>>> KINGS["reconstructed-1"]["B04"].law
'reveal:blue*4 -> crowns:4'
"""

from __future__ import annotations

import csv
import enum
from dataclasses import dataclass
from pathlib import Path

from engine.core.errors import EditionDataError

COLOURS: tuple[str, ...] = ("blue", "orange", "green", "purple")
DATA_DIR = Path(__file__).parent / "data"
EDITIONS: tuple[str, ...] = ("reconstructed-1",)
COLUMNS = ("id", "colour", "action", "reward", "special", "hole", "first")


# The one edition-data error of every game; the old name stays importable.
EditionError = EditionDataError


class ActionKind(enum.Enum):
    """What a law asks of the player."""

    REVEAL = "reveal"  # reveal the listed cards (fixed colours, a pair, or the announced colour)
    DISCARD = "discard"  # discard the listed cards
    DISCARD_BLASON = "discard-blason"  # discard one blason token of any colour
    ONCE_MOST = "once-most"  # strictly more cards of a colour than each opponent
    ONCE_FEWEST_CROWNS = "once-fewest-crowns"  # strictly fewer crowns than each opponent
    ONCE_HAND_4 = "once-hand-exactly-4"  # exactly 4 cards in hand


PAIR = "pair"  # ``Action.colours`` marker: 2 cards of one colour of the player's choice
ANNOUNCED = "announced"  # ``Action.colours`` marker: 1 card of the announced colour


@dataclass(frozen=True, slots=True)
class Action:
    """A parsed action. ``need`` maps colour -> number of cards (or PAIR / ANNOUNCED -> n)."""

    kind: ActionKind
    need: tuple[tuple[str, int], ...] = ()
    colour: str = ""  # the colour of ``once:most-<colour>``

    @property
    def once(self) -> bool:
        """True for the laws usable once per turn."""
        return self.kind in _ONCE_KINDS


_ONCE_KINDS = frozenset(
    {ActionKind.ONCE_MOST, ActionKind.ONCE_FEWEST_CROWNS, ActionKind.ONCE_HAND_4}
)

REWARD_KINDS = ("crowns", "guard", "blason", "steal-crowns", "steal-cards", "hole")


@dataclass(frozen=True, slots=True)
class Reward:
    """One part of a reward: ``kind`` (one of REWARD_KINDS) and how many (0 for ``hole``)."""

    kind: str
    amount: int


@dataclass(frozen=True, slots=True)
class King:
    """One King card of an edition."""

    id: str
    colour: str
    action: Action
    rewards: tuple[Reward, ...]
    special: bool
    hole: bool
    first: bool
    law: str  # the law as written in the data file, "action -> reward"


def parse_action(text: str) -> Action:
    """The typed action of a law, or ValueError saying what is wrong.

    >>> parse_action("reveal:blue+orange").need
    (('blue', 1), ('orange', 1))
    >>> parse_action("discard:orange*2").kind.value
    'discard'
    """
    verb, _, rest = text.partition(":")
    if verb == "once":
        return _parse_once(rest)
    if verb not in ("reveal", "discard"):
        raise ValueError(f"unknown action {text!r} (expected reveal:, discard: or once:)")
    if verb == "discard" and rest == "blason*1":
        return Action(ActionKind.DISCARD_BLASON)
    kind = ActionKind.REVEAL if verb == "reveal" else ActionKind.DISCARD
    if rest == "pair" and kind is ActionKind.REVEAL:
        return Action(kind, ((PAIR, 2),))
    if rest == "announced*1" and kind is ActionKind.REVEAL:
        return Action(kind, ((ANNOUNCED, 1),))
    return Action(kind, _parse_cards(rest, text))


def _parse_cards(rest: str, text: str) -> tuple[tuple[str, int], ...]:
    if "*" in rest:
        colour, _, count = rest.partition("*")
        if colour not in COLOURS or not count.isdigit() or int(count) < 1:
            raise ValueError(f"bad card list {rest!r} in {text!r} (expected <colour>*<n>)")
        return ((colour, int(count)),)
    colours = rest.split("+")
    if any(c not in COLOURS for c in colours) or len(set(colours)) != len(colours):
        raise ValueError(f"bad card list {rest!r} in {text!r} (expected distinct colours a+b)")
    return tuple((colour, 1) for colour in colours)


def _parse_once(rest: str) -> Action:
    if rest == "fewest-crowns":
        return Action(ActionKind.ONCE_FEWEST_CROWNS)
    if rest == "hand-exactly-4":
        return Action(ActionKind.ONCE_HAND_4)
    if rest.startswith("most-") and rest[5:] in COLOURS:
        return Action(ActionKind.ONCE_MOST, colour=rest[5:])
    raise ValueError(f"unknown once-per-turn action 'once:{rest}'")


def parse_reward(text: str) -> tuple[Reward, ...]:
    """The typed parts of a reward, or ValueError saying what is wrong.

    >>> parse_reward("crowns:1+guard:1")
    (Reward(kind='crowns', amount=1), Reward(kind='guard', amount=1))
    """
    if text == "hole":
        return (Reward("hole", 0),)
    parts = []
    for part in text.split("+"):
        kind, _, amount = part.partition(":")
        if kind not in REWARD_KINDS or kind == "hole" or not amount.isdigit() or int(amount) < 1:
            raise ValueError(f"bad reward part {part!r} in {text!r}")
        parts.append(Reward(kind, int(amount)))
    return tuple(parts)


def _flag(value: str, column: str) -> bool:
    if value not in ("yes", "no"):
        raise ValueError(f"column {column!r} must be yes or no, not {value!r}")
    return value == "yes"


def _king_from_row(row: dict[str, str]) -> King:
    rewards = parse_reward(row["reward"])
    hole = _flag(row["hole"], "hole")
    if hole != (rewards == (Reward("hole", 0),)):
        raise ValueError("a hole King must have the reward 'hole', and only a hole King")
    if row["colour"] not in COLOURS:
        raise ValueError(f"unknown colour {row['colour']!r}; colours: {', '.join(COLOURS)}")
    return King(
        id=row["id"],
        colour=row["colour"],
        action=parse_action(row["action"]),
        rewards=rewards,
        special=_flag(row["special"], "special"),
        hole=hole,
        first=_flag(row["first"], "first"),
        law=f"{row['action']} -> {row['reward']}",
    )


def load_edition(path: Path) -> dict[str, King]:
    """Every King of one card list, by id, after checking each row and the whole list."""
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if tuple(reader.fieldnames or ()) != COLUMNS:
            raise EditionError(f"{path.name}: the columns must be {', '.join(COLUMNS)}")
        kings: dict[str, King] = {}
        for number, row in enumerate(reader, start=2):
            name = row.get("id") or "?"
            try:
                king = _king_from_row(row)
            except (ValueError, TypeError, AttributeError) as exc:
                raise EditionError(f"{path.name}, row {number} (card {name}): {exc}") from None
            if king.id in kings:
                raise EditionError(f"{path.name}, row {number}: card {king.id} is listed twice")
            kings[king.id] = king
    _check_whole_list(path.name, kings)
    return kings


def _check_whole_list(name: str, kings: dict[str, King]) -> None:
    if len(kings) != 52:
        raise EditionError(f"{name}: the deck must have 52 King cards, not {len(kings)}")
    firsts = [k.id for k in kings.values() if k.first]
    if len(firsts) != 1:
        raise EditionError(f"{name}: exactly one card must be the 1st King, not {firsts}")
    if kings[firsts[0]].hole:
        raise EditionError(f"{name}: the 1st King {firsts[0]} cannot be a hole King")


KINGS: dict[str, dict[str, King]] = {
    edition: load_edition(DATA_DIR / f"{edition}.csv") for edition in EDITIONS
}
FIRST_KING: dict[str, str] = {
    edition: next(k.id for k in kings.values() if k.first) for edition, kings in KINGS.items()
}
