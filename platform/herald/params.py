"""Whole numbers from query strings and paths, parsed one way everywhere.

``str.isdigit`` is not a check for "ASCII digits": superscripts (``²``) pass it and then break
``int()``, other scripts' digits (``١٢``) pass both, and an unbounded number overflows
PostgreSQL's integers (``OFFSET 2**63``). Every view that reads a number from a query string
goes through :func:`whole_number`, which takes ASCII digits only, up to a bound.
"""

from __future__ import annotations

from django.utils.translation import gettext

#: The largest number a query parameter may carry: PostgreSQL's ``integer`` (ids, offsets).
MAX_WHOLE_NUMBER = 2**31 - 1


class BadNumber(ValueError):
    """A query parameter that is not a whole number in range; ``str()`` is the sentence."""


def whole_number(raw: str, *, name: str, minimum: int = 0, maximum: int = MAX_WHOLE_NUMBER) -> int:
    """``raw`` as an int from ``minimum`` to ``maximum``; BadNumber with a sentence otherwise.

    Only ASCII digits are taken: no sign, no spaces, no underscores, no other scripts' digits.
    """
    digits = raw.isascii() and raw.isdigit()
    # Long strings are refused before int() so a megabyte of digits costs nothing.
    if not digits or len(raw) > len(str(maximum)) or not minimum <= int(raw) <= maximum:
        raise BadNumber(
            gettext(
                "The query parameter {name} must be a whole number from {minimum} to {maximum}."
            ).format(name=repr(name), minimum=minimum, maximum=maximum)
        )
    return int(raw)
