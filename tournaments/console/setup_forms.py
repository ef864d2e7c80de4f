"""The forms of the console's setup part: a tournament's settings in widgets, not JSON.

The forms check what a person typed (numbers are numbers, a place is chosen once); the
services stay the authority (``tournament_create``, ``tournament_settings_save``) and their
refusals are shown in the page.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.core import Option
from tournaments import pairing
from tournaments.models import Club, Format, LateEntryAward, Player, TableMode, Tournament
from tournaments.pages import TIEBREAKER_LABELS, _ordinal
from tournaments.services import TournamentDefaults

#: How many tie-breakers a tournament may list (one select per place in the order).
TIEBREAKER_PLACES = len(pairing.TIEBREAKERS)

DATETIME_WIDGET = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class ChooseGameForm(forms.Form):
    """Step one of creating a tournament: the game (and club, and format) whose defaults the
    settings start from. Sent by GET: it writes nothing."""

    game = forms.ChoiceField(label=_("Game"))
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.none(), empty_label=None)
    format = forms.ChoiceField(label=_("Format"), choices=Format.choices, initial=Format.SWISS)

    def __init__(self, *args: Any, games: list[tuple[str, str]], clubs: list[Club], **kw: Any):
        super().__init__(*args, **kw)
        field: Any = self.fields["game"]
        field.choices = games
        club: Any = self.fields["club"]
        club.queryset = Club.objects.filter(pk__in=[c.pk for c in clubs]).order_by("name")
        if len(clubs) == 1:
            club.widget = forms.HiddenInput()
            club.initial = clubs[0].pk


class SettingsForm(forms.Form):
    """The settings an organiser may change at any time (the settings page), built for the
    tournament's game: table sizes as checkboxes within its player range, one box of points
    per place, tie-breakers as an ordered choice."""

    name = forms.CharField(label=_("Name"), max_length=200)
    rounds_planned = forms.IntegerField(
        label=_("Rounds planned"),
        required=False,
        min_value=1,
        max_value=50,
        help_text=_("Empty: as many as the organiser pairs."),
    )
    table_mode = forms.ChoiceField(
        label=_("Tables play"),
        choices=TableMode.choices,
        initial=TableMode.HERALD,
        required=False,  # a post without it keeps the tournament's (on Herald when created)
        widget=forms.RadioSelect,
        help_text=_(
            "On Herald, each table's game opens when its round is published; with physical "
            "cards, a player reports the result from their phone. The round's page changes "
            "one table."
        ),
    )
    bye_points = forms.FloatField(
        label=_("Points of a bye"), help_text=_("What a player left without a table earns.")
    )
    late_entry_award = forms.ChoiceField(
        label=_("Late entry"),
        choices=LateEntryAward.choices,
        help_text=_("What a player who enters after round 1 earns for each round they missed."),
    )
    spectator_delay = forms.IntegerField(
        label=_("Spectator delay (moves)"),
        min_value=0,
        max_value=1000,
        help_text=_("Spectators see each game this many moves late (0: live)."),
    )
    dispute_window_minutes = forms.IntegerField(
        label=_("Dispute window (minutes)"),
        min_value=0,
        max_value=10_080,
        help_text=_("How long after a game its players may dispute it."),
    )
    check_in_opens_at = forms.DateTimeField(
        label=_("Check-in opens at"),
        required=False,
        widget=DATETIME_WIDGET,
        help_text=_("Empty: players may check in as soon as they are registered."),
    )
    check_in_closes_at = forms.DateTimeField(
        label=_("Check-in closes at"),
        required=False,
        widget=DATETIME_WIDGET,
        help_text=_("Empty: until the tournament ends. The organiser may still tick players."),
    )
    player_cap = forms.IntegerField(
        label=_("Player cap"),
        required=False,
        min_value=2,
        max_value=10_000,
        help_text=_("Players registered beyond it wait on the waitlist, in order. Empty: no cap."),
    )

    def __init__(self, *args: Any, defaults: TournamentDefaults, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.defaults = defaults
        sizes = [(n, str(n)) for n in range(defaults.min_players, defaults.max_players + 1)]
        self.fields["table_allowed"] = forms.TypedMultipleChoiceField(
            label=_("Table sizes allowed"),
            choices=sizes,
            coerce=int,
            widget=forms.CheckboxSelectMultiple,
            help_text=_("The sizes a draw may use when the players do not divide evenly."),
        )
        self.fields["table_preferred"] = forms.TypedChoiceField(
            label=_("Preferred table size"), choices=sizes, coerce=int
        )
        for place in range(1, defaults.max_players + 1):
            self.fields[f"points_{place}"] = forms.FloatField(
                label=_("Points for %(place)s") % {"place": _ordinal(place)},
                required=place == 1,
            )
        choices = [("", "—"), *((n, TIEBREAKER_LABELS[n]) for n in pairing.TIEBREAKERS)]
        for place in range(1, TIEBREAKER_PLACES + 1):
            self.fields[f"tiebreaker_{place}"] = forms.ChoiceField(
                label=_("Tie-breaker %(place)s") % {"place": place},
                choices=choices,
                required=False,
            )

    # -- initial values ----------------------------------------------------------------------
    @staticmethod
    def initial_from(values: Any) -> dict[str, Any]:
        """Initial data from a tournament or a :class:`TournamentDefaults` (same names)."""
        initial: dict[str, Any] = {
            name: getattr(values, name, None)
            for name in (
                "rounds_planned", "bye_points", "late_entry_award", "spectator_delay",
                "dispute_window_minutes", "check_in_opens_at", "check_in_closes_at",
                "player_cap", "table_preferred", "table_mode",
            )
        }  # fmt: skip
        initial["name"] = getattr(values, "name", "")
        initial["table_mode"] = getattr(values, "table_mode", TableMode.HERALD)
        initial["bye_points"] = _plain(values.bye_points)
        initial["table_allowed"] = list(values.table_allowed)
        for place, points in enumerate(values.points_by_rank, start=1):
            initial[f"points_{place}"] = _plain(points)
        for place, name in enumerate(values.tiebreakers, start=1):
            initial[f"tiebreaker_{place}"] = name
        return initial

    # -- checks ------------------------------------------------------------------------------
    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        points = [data.get(f"points_{p}") for p in range(1, self.defaults.max_players + 1)]
        while points and points[-1] is None:
            points.pop()
        if None in points:
            self.add_error(None, _("Give points for every place up to the last one you fill."))
        data["points_by_rank"] = [p for p in points if p is not None]
        breakers = [data.get(f"tiebreaker_{p}") for p in range(1, TIEBREAKER_PLACES + 1)]
        chosen = [b for b in breakers if b]
        if len(set(chosen)) != len(chosen):
            self.add_error(None, _("A tie-breaker is chosen twice: choose each one once."))
        data["tiebreakers"] = chosen
        return data

    def settings(self) -> dict[str, Any]:
        """The cleaned values, named as the services take them."""
        data = self.cleaned_data
        names = (
            "name", "rounds_planned", "bye_points", "late_entry_award", "spectator_delay",
            "dispute_window_minutes", "table_allowed", "table_preferred", "points_by_rank",
            "tiebreakers", "check_in_opens_at", "check_in_closes_at", "player_cap", "table_mode",
        )  # fmt: skip
        values = {name: data.get(name) for name in names}
        values["table_mode"] = values["table_mode"] or None
        return values


class CreateForm(SettingsForm):
    """Creating a tournament: the settings, plus what is fixed at creation (the game, its
    club, format, edition and options, and the cut of a stages tournament)."""

    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.none(), empty_label=None)
    format = forms.ChoiceField(
        label=_("Format"),
        choices=Format.choices,
        widget=forms.Select(attrs={"data-refill-on": ""}),
        help_text=_("Elimination brackets play at tables of 2."),
    )
    cut_top = forms.IntegerField(
        label=_("Cut: players sent to the bracket"),
        required=False,
        min_value=2,
        max_value=256,
        help_text=_("Stages only: how many of the groups' best go on to the bracket."),
    )

    def __init__(self, *args: Any, defaults: TournamentDefaults, clubs: list[Club], **kw: Any):
        super().__init__(*args, defaults=defaults, **kw)
        club: Any = self.fields["club"]
        club.queryset = Club.objects.filter(pk__in=[c.pk for c in clubs]).order_by("name")
        if len(clubs) == 1:
            club.widget = forms.HiddenInput()
        if len(defaults.editions) > 1:
            self.fields["edition"] = forms.ChoiceField(
                label=_("Edition"), choices=[(e, e) for e in defaults.editions]
            )
        for option in defaults.option_specs:
            self.fields[f"option_{option.name}"] = _option_field(option)

    @staticmethod
    def initial_for(defaults: TournamentDefaults, **extra: Any) -> dict[str, Any]:
        initial = SettingsForm.initial_from(defaults)
        initial.update(format=defaults.format, edition=defaults.edition)
        for option in defaults.option_specs:
            initial[f"option_{option.name}"] = defaults.options.get(option.name)
        initial.update(extra)
        return initial

    def settings(self) -> dict[str, Any]:
        values = super().settings()
        data = self.cleaned_data
        values.update(
            format=data["format"],
            edition=data.get("edition", self.defaults.edition),
            table_mode=values["table_mode"] or TableMode.HERALD,
            options={
                option.name: _option_value(option, data.get(f"option_{option.name}"))
                for option in self.defaults.option_specs
            },
        )
        if data["format"] == Format.STAGES:
            values["cut_top"] = data.get("cut_top")
        return values


def _plain(value: float) -> float | int:
    """4.0 as 4: a whole number of points reads as one in its box."""
    return int(value) if float(value).is_integer() else value


def _option_field(option: Option) -> forms.Field:
    """The widget of one game option: a tick, a number, a choice or several ticks."""
    label = option.description[:1].upper() + option.description[1:]
    if option.kind == "boolean":
        return forms.BooleanField(label=label, required=False)
    if option.kind == "integer":
        return forms.IntegerField(label=label, min_value=option.minimum, max_value=option.maximum)
    if option.kind == "integer-set":
        return forms.TypedMultipleChoiceField(
            label=label,
            choices=[(c, str(c)) for c in option.choices],
            coerce=int,
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
    if option.choices:
        return forms.ChoiceField(label=label, choices=[(c, c) for c in option.choices])
    return forms.CharField(label=label, max_length=200)


def _option_value(option: Option, value: Any) -> Any:
    if option.kind == "integer-set":
        return sorted(value or [])
    if option.kind == "boolean":
        return bool(value)
    return value


class AddPlayerForm(forms.Form):
    """Register a member of the club, or a new player (an account they claim later)."""

    member = forms.ModelChoiceField(
        label=_("A member of the club"),
        queryset=Player.objects.none(),
        required=False,
        empty_label=_("— a new player —"),
    )
    username = forms.CharField(label=_("New player's username"), max_length=150, required=False)
    display_name = forms.CharField(
        label=_("New player's name on the pairings"), max_length=120, required=False
    )
    email = forms.EmailField(label=_("New player's e-mail (optional)"), required=False)
    seed = forms.IntegerField(
        label=_("Seed"),
        required=False,
        min_value=0,
        max_value=1_000_000,
        help_text=_("1 is the strongest; empty or 0: unseeded."),
    )

    def __init__(self, *args: Any, tournament: Tournament, members: list[Player], **kw: Any):
        super().__init__(*args, **kw)
        member: Any = self.fields["member"]
        member.queryset = Player.objects.filter(pk__in=[p.pk for p in members]).order_by(
            "display_name"
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("member") is None and not data.get("username"):
            self.add_error(None, _("Choose a member of the club, or give a new player's username."))
        if data.get("member") is None and data.get("username") and not data.get("display_name"):
            self.add_error("display_name", _("A new player needs a name on the pairings."))
        return data


class ImportForm(forms.Form):
    """A CSV of players: pasted, or a file."""

    csv_text = forms.CharField(
        label=_("Paste the CSV"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 5, "spellcheck": "false"}),
    )
    csv_file = forms.FileField(label=_("…or choose a CSV file"), required=False)


def field_groups(form: SettingsForm) -> list[dict[str, Any]]:
    """The form's fields in the fieldsets the page draws, in the order an organiser thinks."""
    places = form.defaults.max_players
    names: list[tuple[str, str, list[str]]] = [
        ("tables", _("Tables"), ["table_mode", "table_allowed", "table_preferred"]),
        ("points", _("Points by place"), [f"points_{p}" for p in range(1, places + 1)]),
        ("byes", _("Byes and late entries"), ["bye_points", "late_entry_award"]),
        (
            "tiebreakers",
            _("Tie-breakers, in order"),
            [f"tiebreaker_{p}" for p in range(1, TIEBREAKER_PLACES + 1)],
        ),
        ("rounds", _("Rounds and format"), ["format", "rounds_planned", "cut_top"]),
        ("game", _("The game"), ["edition"] + [f"option_{o.name}" for o in form.defaults.option_specs]),
        ("registration", _("Registration and check-in"),
         ["player_cap", "check_in_opens_at", "check_in_closes_at"]),
        ("watching", _("Spectators and disputes"), ["spectator_delay", "dispute_window_minutes"]),
    ]  # fmt: skip
    groups = []
    for key, legend, fields in names:
        bound = [form[name] for name in fields if name in form.fields]
        visible = [b for b in bound if not b.is_hidden]
        if visible:
            groups.append({"key": key, "legend": legend, "fields": visible})
    return groups
