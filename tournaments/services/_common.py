"""What several sections of the services share: limits, input checks, round and stage
helpers. Private to ``tournaments.services`` (the package re-exports the public constants)."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from tournaments import selectors
from tournaments.errors import InvalidInput
from tournaments.models import Format, Table, Tournament

PAIRED_FORMATS = {Format.SWISS: "swiss", Format.ROUND_ROBIN: "round_robin"}
BRACKET_FORMATS = {"single_elimination", "double_elimination", "knockout"}

#: The largest points, bye points or game score (either sign). Plenty for any game, and far
#: from where sums of them stop being exact or overflow to infinity in the standings.
POINTS_LIMIT = 1_000_000


def bounded(value: float, what: str) -> float:
    """``value`` as a float, refused when it is not a number or beyond ``POINTS_LIMIT``."""
    number = float(value)
    if not math.isfinite(number) or abs(number) > POINTS_LIMIT:
        raise InvalidInput(
            gettext(
                "{what} must be numbers between -{POINTS_LIMIT:,} and {POINTS_LIMIT:,}, "
                "not {value}."
            ).format(what=what, POINTS_LIMIT=POINTS_LIMIT, value=repr(value))
        )
    return number


def full_clean(instance: Any) -> None:
    """Run the model's own checks; their messages become one :class:`InvalidInput`."""
    try:
        instance.full_clean()
    except ValidationError as exc:
        raise InvalidInput(" ".join(_messages(exc))) from None


def _messages(exc: ValidationError) -> list[str]:
    if hasattr(exc, "message_dict"):
        return [f"{field}: {' '.join(msgs)}" for field, msgs in exc.message_dict.items()]
    return list(exc.messages)


def has_control_characters(text: str) -> bool:
    """Line breaks, tabs, NUL and the like: nothing a name printed on pairings holds."""
    return any(unicodedata.category(char) == "Cc" for char in text)


def next_round_number(tournament: Tournament) -> int:
    """The number the tournament's next round gets (1 before any round)."""
    latest = selectors.round_latest(tournament)
    return 1 if latest is None else latest.number + 1


def name_tables(tables: Sequence[Table]) -> str:
    """Tables in words, grouped by round: "round 2, tables 3, 5; round 3, table 1"."""
    by_round: dict[int, list[str]] = {}
    for table in tables:
        by_round.setdefault(table.round.number, []).append(str(table.number))
    return "; ".join(
        f"round {number}, table{'s' if len(nums) > 1 else ''} {', '.join(nums)}"
        for number, nums in by_round.items()
    )
