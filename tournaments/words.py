"""Words the pages share in every language: ordinals ("1st", "2nd"; in French "1er", "2e")."""

from __future__ import annotations

from django.utils.translation import pgettext


def ordinal(n: int) -> str:
    """ "1st", "2nd", "11th" (in French "1er", "2e": each language its own suffixes)."""
    if n == 1:  # French says "1er" but "21e": 1 has a suffix of its own
        suffix = pgettext("ordinal suffix of 1", "st")
    elif 10 <= n % 100 <= 20:
        suffix = pgettext("ordinal suffix of 11 to 20", "th")
    elif n % 10 == 1:
        suffix = pgettext("ordinal suffix of 1, 21, 31...", "st")
    elif n % 10 == 2:
        suffix = pgettext("ordinal suffix of 2, 22, 32...", "nd")
    elif n % 10 == 3:
        suffix = pgettext("ordinal suffix of 3, 23, 33...", "rd")
    else:
        suffix = pgettext("ordinal suffix of 4 to 9, 24...", "th")
    return f"{n}{suffix}"
