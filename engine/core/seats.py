"""Seats round the table. Seat numbers run clockwise, in play order: after seat ``n - 1``
comes seat 0 again. These helpers say who comes next, so no game writes the modulo again."""

from __future__ import annotations

from collections.abc import Container


def next_seat(seat: int, players: int, skip: Container[int] = ()) -> int:
    """The first seat after ``seat`` clockwise that is not in ``skip``; ``seat`` itself when
    every other seat is skipped (the turn comes back round).

    >>> next_seat(2, 3)
    0
    >>> next_seat(0, 4, skip={1, 2})
    3
    """
    for step in range(1, players):
        following = (seat + step) % players
        if following not in skip:
            return following
    return seat


def seats_after(seat: int, players: int, skip: Container[int] = ()) -> list[int]:
    """Every other seat once, clockwise from the one after ``seat``, leaving out ``skip``.

    >>> seats_after(1, 4)
    [2, 3, 0]
    """
    return [
        following
        for following in ((seat + step) % players for step in range(1, players))
        if following not in skip
    ]
