"""``{{ ranks|places }}``: a result's ranks as the places a person reads ("2nd, 1st, 3rd")."""

from __future__ import annotations

from collections.abc import Sequence

from django import template

from tournaments.result_forms import ordinal

register = template.Library()


@register.filter
def places(ranks: Sequence[int] | None) -> str:
    """The ranks in seat order as places, joined by commas ("" for none)."""
    return ", ".join(ordinal(int(rank)) for rank in ranks or ())
