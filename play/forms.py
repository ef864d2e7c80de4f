"""The form that sets an open game up: seats, the engine's options as widgets, who may join.

The option widgets are made from the engine's declared options (``Game.options``): a checkbox
for a yes/no option, a list for a string with choices, a number for a whole number, checkboxes
for a set of numbers. Each starts at the engine's default. The labels of the options Herald's
games declare are written in words a player reads (and translated) in tournaments.games, which
the tournament pages share; an option added later is still offered, under the engine's own
description.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.core import Game
from engine.core.options import Option
from tournaments.games import CHOICE_WORDS, OPTION_WORDS

PUBLIC = "public"


def option_field(option: Option) -> forms.Field:
    """The widget of one engine option, at its default."""
    label, help_text = OPTION_WORDS.get(option.name, (option.name, option.description))
    words = {"label": label, "help_text": help_text, "required": False}
    if option.kind == "boolean":
        return forms.BooleanField(initial=bool(option.default), **words)
    if option.kind == "integer-set":
        return forms.TypedMultipleChoiceField(
            choices=_choices(option), coerce=int, initial=list(option.default),
            widget=forms.CheckboxSelectMultiple, **words,
        )  # fmt: skip
    if option.choices:
        return forms.TypedChoiceField(
            choices=_choices(option), coerce=type(option.default), initial=option.default,
            empty_value=option.default, **words,
        )  # fmt: skip
    if option.kind == "integer":
        return forms.IntegerField(
            initial=option.default, min_value=option.minimum, max_value=option.maximum, **words
        )
    return forms.CharField(initial=option.default, **words)


def _choices(option: Option) -> list[tuple[Any, Any]]:
    return [(value, CHOICE_WORDS.get((option.name, value), str(value))) for value in option.choices]


class OpenGameForm(forms.Form):
    """Set up an open game of ``game``; ``clubs`` are the creator's (a club-only game is for
    one of them)."""

    players = forms.TypedChoiceField(label=_("Players"), coerce=int)
    who = forms.ChoiceField(label=_("Who may join"))
    house_bots = forms.IntegerField(
        label=_("House bots"),
        min_value=0,
        initial=0,
        required=False,
        help_text=_("Seats the house bot takes now; people take the others."),
    )
    start_now = forms.BooleanField(
        label=_("Fill the empty seats with house bots and start now"),
        required=False,
        help_text=_("Play at once against the house bot. Games with a house bot are not rated."),
    )

    def __init__(self, game: Game[Any], clubs: list[Any], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        counts = range(game.min_players, game.max_players + 1)
        self.fields["players"].choices = [(n, str(n)) for n in counts]
        self.fields["players"].initial = game.min_players
        self.fields["house_bots"].max_value = game.max_players - 1
        self.fields["house_bots"].widget.attrs["max"] = game.max_players - 1
        self.fields["who"].choices = [(PUBLIC, _("Anyone (public: anyone may watch)"))] + [
            (str(club.pk), _("Members of %(club)s only") % {"club": club.name}) for club in clubs
        ]
        if len(game.editions) > 1:
            self.fields["edition"] = forms.ChoiceField(
                label=_("Edition"), choices=[(e, e) for e in game.editions]
            )
        for option in game.options:
            self.fields[f"option_{option.name}"] = option_field(option)
        self.order_fields(["players", "edition", *self._option_names(), "who", "house_bots"])

    def _option_names(self) -> list[str]:
        return [f"option_{option.name}" for option in self.game.options]

    def option_fields(self) -> list[Any]:
        """The bound fields of the game's options (the template groups them)."""
        return [self[name] for name in self._option_names()]

    def table_fields(self) -> list[Any]:
        """The bound fields of the table itself: players, and the edition when there is a choice."""
        return [self[name] for name in ("players", "edition") if name in self.fields]

    def seat_fields(self) -> list[Any]:
        """The bound fields of who sits: who may join, house bots, starting now."""
        return [self[name] for name in ("who", "house_bots", "start_now")]

    def options(self) -> dict[str, Any]:
        """The chosen options, keyed as the engine names them (validated by the service)."""
        chosen = {}
        for option in self.game.options:
            value = self.cleaned_data.get(f"option_{option.name}")
            chosen[option.name] = option.default if value in (None, "") else value
        return chosen

    def club_id(self) -> int | None:
        """The club of a club-only game, None for a public one."""
        who = self.cleaned_data["who"]
        return None if who == PUBLIC else int(who)
