"""Forms of the ratings admin: an arbiter's ruling on a dispute.

The form only reads what the arbiter typed into the arguments of
``ratings.disputes.dispute_rule``, as the API's ``RulingSerializer`` does for a JSON body; whether
the ruling can be made (ranks one per seat, a move the game has, the dispute still open) is the
service's decision, and its refusals come back as form errors.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ratings.models import Dispute


def _numbers(raw: str, *, field: str, convert: type[int] | type[float]) -> list[Any]:
    """``"4, 3, 2, 1"`` (commas or spaces) as numbers; a sentence naming the field otherwise."""
    parts = raw.replace(",", " ").split()
    try:
        return [convert(part) for part in parts]
    except ValueError:
        raise forms.ValidationError(
            gettext(
                "Write the {field} as numbers separated by commas (e.g. 1, 1, 3); got {raw}."
            ).format(field=field, raw=repr(raw))
        ) from None


class RulingForm(forms.Form):
    """Uphold, annul, amend (ranks, optional scores) or replay (from a move), with a reason."""

    ruling = forms.ChoiceField(choices=Dispute.Ruling.choices, widget=forms.RadioSelect)
    reason = forms.CharField(
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 4, "cols": 80}),
        help_text=_("The players read it: say what you found and why you rule so."),
    )
    ranks = forms.CharField(
        required=False,
        help_text=_(
            "For amend: one rank per seat in seat order, 1 the best, ties sharing a "
            "place and the next place skipped (e.g. 1, 1, 3, 4)."
        ),
    )
    scores = forms.CharField(required=False, help_text=_("For amend, optional: one per seat."))
    from_move = forms.IntegerField(
        required=False,
        min_value=0,
        label=_("From move"),
        help_text=_("For replay: the new game continues from the state after this move."),
    )

    def clean_ranks(self) -> list[int] | None:
        raw = self.cleaned_data["ranks"].strip()
        if not raw:
            return None
        ranks: list[int] = _numbers(raw, field="ranks", convert=int)
        if any(rank < 1 for rank in ranks):
            raise forms.ValidationError(gettext("Ranks start at 1 (the winner)."))
        return ranks

    def clean_scores(self) -> list[float] | None:
        raw = self.cleaned_data["scores"].strip()
        return _numbers(raw, field="scores", convert=float) if raw else None

    def ruling_arguments(self) -> dict[str, Any]:
        """The keyword arguments of ``dispute_rule`` besides the dispute and the arbiter.

        Like the API, only what was given is passed: the service says what a ruling lacks.
        """
        data = self.cleaned_data
        arguments: dict[str, Any] = {"ruling": data["ruling"], "reason": data["reason"]}
        for optional in ("ranks", "scores", "from_move"):
            if data.get(optional) is not None:
                arguments[optional] = data[optional]
        return arguments
