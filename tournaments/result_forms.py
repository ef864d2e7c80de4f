"""The form of a table's result: a rank picker ("1st", "2nd"...) and an optional score per
seat, and for the organiser the reason kept with a change. The service stays the authority:
the form checks the shape, ``services.result_report`` / ``result_enter`` check the ranks."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from tournaments.models import Table

ORDINALS = [
    pgettext_lazy("finishing place", "1st"),
    pgettext_lazy("finishing place", "2nd"),
    pgettext_lazy("finishing place", "3rd"),
    pgettext_lazy("finishing place", "4th"),
    pgettext_lazy("finishing place", "5th"),
    pgettext_lazy("finishing place", "6th"),
    pgettext_lazy("finishing place", "7th"),
    pgettext_lazy("finishing place", "8th"),
]


def ordinal(rank: int) -> str:
    """The place a rank reads as ("1st"; "9th" and on as digits)."""
    if 1 <= rank <= len(ORDINALS):
        return str(ORDINALS[rank - 1])
    return gettext("{n}th").format(n=rank)


class ResultForm(forms.Form):
    """One rank (and score) per seat of ``table``, named ``rank_<seat>`` / ``score_<seat>``."""

    def __init__(self, *args: Any, table: Table, reason: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = list(table.seats.select_related("registration__player").order_by("seat"))
        choices = [("", "—")] + [(str(r), ordinal(r)) for r in range(1, len(self.seats) + 1)]
        for seat in self.seats:
            name = seat.registration.player.display_name
            self.fields[f"rank_{seat.seat}"] = forms.TypedChoiceField(
                label=name, choices=choices, coerce=int
            )
            self.fields[f"score_{seat.seat}"] = forms.FloatField(
                label=gettext("Score of {name}").format(name=name),
                required=False,
                min_value=-1_000_000,
                max_value=1_000_000,
            )
        if reason:
            self.fields["reason"] = forms.CharField(
                label=gettext_lazy("Reason (kept in the table's history)"),
                required=False,
                max_length=500,
                widget=forms.TextInput(),
            )

    def rows(self) -> list[tuple[Any, Any, Any]]:
        """(seat, its rank field, its score field), in seat order, for the template."""
        return [
            (seat, self[f"rank_{seat.seat}"], self[f"score_{seat.seat}"]) for seat in self.seats
        ]

    def ranks(self) -> list[int]:
        return [int(self.cleaned_data[f"rank_{seat.seat}"]) for seat in self.seats]

    def scores(self) -> list[float]:
        """The scores, or none at all when any is left blank."""
        values = [self.cleaned_data.get(f"score_{seat.seat}") for seat in self.seats]
        return [float(v) for v in values] if all(v is not None for v in values) else []
