"""Forms of the tournaments app's own pages (self sign-up, a club's seasons), and the admin's
list-of-numbers field."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import pairing
from tournaments.models import Club, Season, Tournament


class SignupForm(UserCreationForm):
    """A username, the name printed on pairings, an e-mail (for password resets), a password.

    Django's own form: the username must be free and the password pass the validators.
    """

    display_name = forms.CharField(
        label=_("Name on the pairings"),
        max_length=120,
        help_text=_("How your name is printed on pairings and standings."),
    )
    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        help_text=_("Optional: to reset your password if you forget it."),
    )

    field_order = ("username", "display_name", "email", "password1", "password2")

    class Meta(UserCreationForm.Meta):
        fields = ("username",)


class SeasonForm(forms.Form):
    """A season of a club: its name, its dates or its tournaments, its points and tie rule.

    The points are typed as an organiser says them ("10/7/5/3/1"); the service checks again.
    """

    name = forms.CharField(label=_("Name"), max_length=120)
    starts_on = forms.DateField(
        label=_("Starts on"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Leave empty for no start."),
    )
    ends_on = forms.DateField(
        label=_("Ends on"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Leave empty for no end."),
    )
    tournaments = forms.ModelMultipleChoiceField(
        label=_("Or exactly these tournaments"),
        queryset=Tournament.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Tick tournaments to make the season exactly those; with none ticked, the season "
            "counts the club's finished tournaments played between its dates."
        ),
    )
    points = forms.CharField(
        label=_("Points by final place"),
        initial="10/7/5/3/1",
        max_length=400,
        help_text=_("For 1st, 2nd, 3rd... separated by slashes; places beyond earn nothing."),
    )
    tie_rule = forms.ChoiceField(
        label=_("Players tied for a place"),
        choices=Season.TieRule.choices,
        initial=Season.TieRule.SHARE,
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["tournaments"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = Tournament.objects.filter(club=club).order_by("-created_at", "name")

    def clean_points(self) -> tuple[float, ...]:
        try:
            return pairing.parse_points(self.cleaned_data["points"])
        except pairing.PairingError as refused:
            raise forms.ValidationError(gettext(str(refused))) from None

    @staticmethod
    def initial_for(season: Season) -> dict[str, Any]:
        """The form's values for editing ``season``."""
        return {
            "name": season.name,
            "starts_on": season.starts_on,
            "ends_on": season.ends_on,
            "tournaments": list(season.tournaments.all()),
            "points": "/".join(f"{p:g}" for p in season.points_by_place),
            "tie_rule": season.tie_rule,
        }


class NumberListField(forms.CharField):
    """A list of numbers typed as a person says them, "4, 3, 2, 1" (commas, spaces or
    slashes: ``pairing.parse_numbers``), for a JSON list of numbers (the admin's table sizes
    and points by place). ``whole``: whole numbers only, as ints."""

    def __init__(self, *, whole: bool = False, example: str = "4, 3, 2, 1", **kwargs: Any):
        kwargs.setdefault("max_length", 400)
        super().__init__(**kwargs)
        self.whole = whole
        self.example = example

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return ", ".join(f"{float(v):g}" for v in value)
        return value

    def to_python(self, value: Any) -> list[int] | list[float] | None:
        if isinstance(value, list | tuple):
            value = self.prepare_value(value)
        text = str(super().to_python(value) or "")
        if not text:
            return None
        try:
            numbers = pairing.parse_numbers(text)
        except ValueError:
            numbers = ()
        if not numbers or (self.whole and not all(n.is_integer() for n in numbers)):
            words = (
                gettext("Write whole numbers separated by commas, e.g. {example}.")
                if self.whole
                else gettext("Write numbers separated by commas, e.g. {example}.")
            )
            raise forms.ValidationError(words.format(example=self.example), code="invalid")
        if self.whole:
            return [int(n) for n in numbers]
        return [float(n) for n in numbers]

    def has_changed(self, initial: Any, data: Any) -> bool:
        try:
            return self.to_python(data) != self.to_python(initial)
        except forms.ValidationError:
            return True
