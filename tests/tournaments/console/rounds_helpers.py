"""What the rounds tests share: a tournament with players, rounds played, seats read back."""

from __future__ import annotations

from typing import Any

from tournaments import services
from tournaments.models import Round, Table


def layout(round_: Round) -> list[list[int]]:
    """The round's played tables as registration ids, seat 0 first, table 1 first."""
    return [
        [s.registration_id for s in table.seats.order_by("seat")]
        for table in round_.tables.filter(is_bye=False).order_by("number")
    ]


def play_round(round_: Round) -> Round:
    """Confirm ``round_`` and give every table a confirmed result (seat order = ranks)."""
    confirmed = services.round_confirm(round_=round_)
    for table in confirmed.tables.filter(is_bye=False):
        services.result_enter(table=table, by=None, ranks=list(range(1, table.seats.count() + 1)))
    return confirmed


def table_at(round_: Round, number: int) -> Table:
    return round_.tables.get(number=number)


def codes(warnings: list[dict[str, Any]]) -> list[str]:
    return [w["code"] for w in warnings]
