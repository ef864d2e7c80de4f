"""Forms of the ratings admin and the site's dispute pages: an arbiter's ruling, a player's dispute
and statement.

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


# -- the site's dispute pages ----------------------------------------------------------------------


class DisputeOpenForm(forms.Form):
    """A player disputes their finished game: the move it is about and what they claim."""

    move = forms.IntegerField(
        min_value=1,
        label=_("The move it is about"),
        help_text=_("Move 1 is the first move of the game; the replay numbers every move."),
    )
    reason = forms.CharField(
        max_length=4000,
        label=_("What you claim"),
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=_("Say what happened and what you think the result should be."),
    )

    def __init__(self, *args: Any, moves: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        move = self.fields["move"]
        move.widget.attrs["max"] = moves
        move.help_text = gettext(
            "Move 1 is the first move of the game, move {moves} its last; the replay numbers "
            "every move."
        ).format(moves=moves)


class StatementForm(forms.Form):
    """Another seated player's side of the dispute."""

    text = forms.CharField(
        max_length=4000,
        label=_("Your statement"),
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("The arbiter reads it with the dispute before ruling."),
    )


class SiteRulingForm(forms.Form):
    """The arbiter's ruling on the site: amended ranks are one field per player, by name.

    As :class:`RulingForm`, it only reads what was typed into ``dispute_rule``'s arguments;
    the service decides whether the ruling can be made.
    """

    ruling = forms.ChoiceField(
        choices=Dispute.Ruling.choices, widget=forms.RadioSelect, label=_("Ruling")
    )
    reason = forms.CharField(
        max_length=4000,
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("The players read it: say what you found and why you rule so."),
    )
    from_move = forms.IntegerField(
        required=False,
        min_value=0,
        label=_("Keep the moves up to"),
        help_text=_(
            "For a replay: the new game keeps moves 1 to this one and is played on from "
            "there (0 deals again)."
        ),
    )

    def __init__(self, *args: Any, players: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        for seat, name in enumerate(players):
            self.fields[self.rank_field(seat)] = forms.IntegerField(
                required=False,
                min_value=1,
                max_value=max(len(players), 1),
                label=gettext("Rank of {name}").format(name=name),
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )

    @staticmethod
    def rank_field(seat: int) -> str:
        return f"rank_{seat}"

    def rank_fields(self) -> list[forms.BoundField]:
        """The rank inputs in seat order (the template lays them out apart)."""
        return [self[self.rank_field(seat)] for seat in range(len(self.players))]

    def other_fields(self) -> list[forms.BoundField]:
        return [self["ruling"], self["reason"], self["from_move"]]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("ruling") == Dispute.Ruling.AMEND:
            ranks = [data.get(self.rank_field(seat)) for seat in range(len(self.players))]
            if any(rank is None for rank in ranks):
                raise forms.ValidationError(
                    gettext("To amend the result, give every player a rank (1 the best).")
                )
            data["ranks"] = ranks
        return data

    def ruling_arguments(self) -> dict[str, Any]:
        """The keyword arguments of ``dispute_rule`` besides the dispute and the arbiter: the
        ranks for "amend", the move for "replay", nothing the ruling does not use."""
        data = self.cleaned_data
        arguments: dict[str, Any] = {"ruling": data["ruling"], "reason": data["reason"]}
        if data["ruling"] == Dispute.Ruling.AMEND:
            arguments["ranks"] = data["ranks"]
        if data["ruling"] == Dispute.Ruling.REPLAY and data.get("from_move") is not None:
            arguments["from_move"] = data["from_move"]
        return arguments

    def as_hidden_values(self) -> list[tuple[str, Any]]:
        """(name, value) of every field as typed, for the confirm step's hidden inputs."""
        return [(name, self.data.get(name, "")) for name in self.fields]
