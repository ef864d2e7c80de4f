"""The console's rounds: pair the next round, the draft with its warnings, the organiser's
swaps and moves, Herald or paper tables, fixed tables, confirm and publish; for a "stages"
night, the groups dealt before round 1 and the cut to the playoff bracket after them.

Under ``/tournaments/<id>/console/rounds/``. Every view starts with
``organiser_tournament_or_refusal``, POSTs go through one service each with ``by=`` the
organiser and redirect back (PRG); a refusal redraws the page with the service's sentence and
its status (400, 403, 409).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from tournaments import selectors, services
from tournaments.console.hub import organiser_tournament_or_refusal
from tournaments.errors import BeyondPlanned, ResultsMissing, TournamentError
from tournaments.models import Format, Round, Table, TableMode, Tournament


# -- forms: Django checks the shape of the input, the services stay the authority ------------
class PairForm(forms.Form):
    force = forms.BooleanField(required=False)
    beyond_planned = forms.BooleanField(required=False)


class SwapForm(forms.Form):
    first = forms.IntegerField(label=_("First player"))
    second = forms.IntegerField(label=_("Second player"))


class MoveForm(forms.Form):
    registration = forms.IntegerField(label=_("Player"))
    table = forms.IntegerField(label=_("To table"))


class AddTableForm(forms.Form):
    is_bye = forms.BooleanField(required=False)


class PaperForm(forms.Form):
    on_paper = forms.BooleanField(required=False)


class ModeForm(forms.Form):
    mode = forms.ChoiceField(label=_("Tables play"), choices=TableMode.choices)


class FixedTableForm(forms.Form):
    registration = forms.IntegerField(label=_("Player"))
    table = forms.IntegerField(
        label=_("Table"), required=False, min_value=1, max_value=services.FIXED_TABLE_LIMIT
    )


class GroupsForm(forms.Form):
    groups = forms.IntegerField(label=_("Groups"), min_value=1, max_value=26)


class CutForm(forms.Form):
    """The cut of a stages night: how many go on (of each group, when dealt into groups),
    and the bracket they play; the service checks the rest."""

    top = forms.IntegerField(label=_("Players who go on"), min_value=2, max_value=256)
    bracket_format = forms.ChoiceField(
        label=_("The playoff is played as"),
        choices=[(v, label) for v, label in Format.choices if v in selectors.BRACKET_STAGE_FORMATS],
    )
    advance = forms.IntegerField(
        label=_("Players who go on from each table"), required=False, min_value=1, max_value=20
    )


def _bad_form(form: forms.Form) -> str:
    """A form's errors as one sentence (the shape was wrong before any service was asked)."""
    return " ".join(str(m) for errors in form.errors.values() for m in errors)


# -- the draft page ----------------------------------------------------------------------------
def _round_or_404(tournament: Tournament, number: int) -> Round:
    round_ = selectors.round_live(tournament, number)
    if round_ is None:
        raise Http404(
            gettext("{name} has no round {number}.").format(name=tournament.name, number=number)
        )
    return round_


def _page_url(tournament: Tournament, number: int) -> str:
    return reverse("tournament-pages:console-rounds-round", args=[tournament.pk, number])


def _round_context(tournament: Tournament, round_: Round) -> dict[str, Any]:
    """What the round page draws: tables with seats, quality, warnings, the pickers' lists."""
    tables = selectors.round_tables(round_)
    seated = [
        (seat.registration_id, seat.registration.player.display_name, table.number, table.is_bye)
        for table in tables
        for seat in table.seats.all()
    ]
    seated_ids = {reg for reg, *_ in seated}
    stored = round_.warnings if round_.state != Round.State.DRAFT else _warnings_now(round_)
    warnings = [{**w, "blocking": w["code"] in services.BLOCKING_WARNINGS} for w in stored]
    by_table: dict[int | None, list[dict[str, Any]]] = {}
    for warning in warnings:
        by_table.setdefault(warning.get("table"), []).append(warning)
    unseated = [
        reg
        for reg in selectors.active_registrations(tournament, round_.number)
        if reg.id not in seated_ids
    ]
    return {
        "tournament": tournament,
        "round": round_,
        "is_draft": round_.state == Round.State.DRAFT,
        "tables": [
            {"table": table, "warnings": by_table.get(table.number, []) if not table.is_bye else []}
            for table in tables
        ],
        "warnings": warnings,
        "blocking": any(w["blocking"] for w in warnings),
        "quality": _quality_in_words(round_.quality),
        "seated": seated,
        "unseated": unseated,
        "nav_section": "tournaments",
    }


def _warnings_now(round_: Round) -> list[dict[str, Any]]:
    """A draft's warnings as its tables stand (a drop or a fixed table may have changed them)."""
    return services.round_check(round_=round_)


QUALITY_LABELS = {
    "repeat_pairs": _("Pairs seated together again"),
    "max_score_spread": _("Largest points gap at a table"),
    "mean_score_spread": _("Average points gap at a table"),
    "seat_imbalance": _("Seat imbalance (most minus least used seat)"),
    "floaters": _("Players paired outside their score group"),
    "tables": _("Tables"),
    "byes": _("Byes"),
}


def _quality_in_words(quality: dict[str, float]) -> list[tuple[str, str]]:
    return [
        (str(label), f"{quality[key]:g}") for key, label in QUALITY_LABELS.items() if key in quality
    ]


def _render_round(
    request: HttpRequest,
    tournament: Tournament,
    round_: Round,
    *,
    error: TournamentError | None = None,
) -> HttpResponse:
    context = _round_context(tournament, round_)
    context["error"] = None if error is None else str(error)
    status = 200 if error is None else error.status
    return render(request, "tournaments/console/round.html", context, status=status)


@login_required
@require_GET
def round_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Round ``number`` as the organiser runs it: the draft and its warnings, or its state."""
    tournament, refusal = organiser_tournament_or_refusal(request, pk)
    if refusal is not None:
        return refusal
    assert tournament is not None
    return _render_round(request, tournament, _round_or_404(tournament, number))


# -- pairing -----------------------------------------------------------------------------------
@login_required
@require_POST
def pair(request: HttpRequest, pk: int) -> HttpResponse:
    """Pair the next round; a refusal for missing results or for a round past the plan is a
    confirmation step naming why, whose button sends the same request saying so."""
    tournament, refusal = organiser_tournament_or_refusal(request, pk)
    if refusal is not None:
        return refusal
    assert tournament is not None
    form = PairForm(request.POST)
    form.is_valid()
    force = bool(form.cleaned_data.get("force"))
    beyond = bool(form.cleaned_data.get("beyond_planned"))
    try:
        round_ = services.round_pair_next(
            tournament=tournament, by=request.user, force=force, beyond_planned=beyond
        )
    except (ResultsMissing, BeyondPlanned) as exc:
        context = {
            "tournament": tournament,
            "error": str(exc),
            "missing": (
                selectors.tables_missing_results(tournament)
                if isinstance(exc, ResultsMissing)
                else []
            ),
            "force": force or isinstance(exc, ResultsMissing),
            "beyond_planned": beyond or isinstance(exc, BeyondPlanned),
            "nav_section": "tournaments",
        }
        return render(request, "tournaments/console/pair_confirm.html", context, status=409)
    except TournamentError as exc:
        context = {"tournament": tournament, "error": str(exc), "nav_section": "tournaments"}
        return render(request, "tournaments/console/pair_confirm.html", context, status=exc.status)
    return redirect(_page_url(tournament, round_.number))


def _round_action(request: HttpRequest, pk: int, number: int, act: Any) -> HttpResponse:
    """The frame of every POST on a round: the organiser's door, the round, the service
    (``act(tournament, round_)``), then back to the round page or its refusal."""
    tournament, refusal = organiser_tournament_or_refusal(request, pk)
    if refusal is not None:
        return refusal
    assert tournament is not None
    round_ = _round_or_404(tournament, number)
    try:
        after = act(tournament, round_)
    except TournamentError as exc:
        round_.refresh_from_db()
        return _render_round(request, tournament, round_, error=exc)
    target = after.number if isinstance(after, Round) else number
    return redirect(_page_url(tournament, target))


class FormRefused(TournamentError):
    """A form whose shape is wrong (a missing or non-numeric field): a 400 with a sentence."""


def _valid(form: forms.Form) -> dict[str, Any]:
    if not form.is_valid():
        raise FormRefused(_bad_form(form))
    return form.cleaned_data


@login_required
@require_POST
def swap(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Two players trade places (tables and seats, or seats at one table)."""

    def act(tournament: Tournament, round_: Round) -> None:
        data = _valid(SwapForm(request.POST))
        services.round_swap(
            round_=round_, first=data["first"], second=data["second"], by=request.user
        )

    return _round_action(request, pk, number, act)


def _table_of(round_: Round, number: int) -> Table:
    table = round_.tables.filter(number=number).first()
    if table is None:
        raise FormRefused(
            gettext("Round {round} has no table {number}.").format(
                round=round_.number, number=number
            )
        )
    return table


@login_required
@require_POST
def move(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A player moves to the last seat of another table (an added table, a bye)."""

    def act(tournament: Tournament, round_: Round) -> None:
        data = _valid(MoveForm(request.POST))
        services.round_seat_move(
            round_=round_,
            registration=data["registration"],
            table=_table_of(round_, data["table"]),
            by=request.user,
        )

    return _round_action(request, pk, number, act)


@login_required
@require_POST
def repair(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Draw the round again (the previous draft is kept, superseded)."""
    return _round_action(
        request, pk, number, lambda t, r: services.round_repair(round_=r, by=request.user)
    )


@login_required
@require_POST
def add_table(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """An empty table or bye, to move players to."""

    def act(tournament: Tournament, round_: Round) -> None:
        data = _valid(AddTableForm(request.POST))
        services.table_add(round_=round_, is_bye=data["is_bye"], by=request.user)

    return _round_action(request, pk, number, act)


@login_required
@require_POST
def paper(request: HttpRequest, pk: int, number: int, table: int) -> HttpResponse:
    """One table on paper or on Herald."""

    def act(tournament: Tournament, round_: Round) -> None:
        data = _valid(PaperForm(request.POST))
        services.table_set_paper(
            table=_table_of(round_, table), on_paper=data["on_paper"], by=request.user
        )

    return _round_action(request, pk, number, act)


@login_required
@require_POST
def confirm(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Fix the draft's tables (refused while a warning blocks it)."""
    return _round_action(
        request, pk, number, lambda t, r: services.round_confirm(round_=r, by=request.user)
    )


@login_required
@require_POST
def publish(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Publish a confirmed round: players see their tables, Herald tables' games open."""
    return _round_action(
        request, pk, number, lambda t, r: services.round_release(round_=r, by=request.user)
    )


# -- the tournament's settings of the rounds: table mode, fixed tables -------------------------
def _hub_action(request: HttpRequest, pk: int, act: Any) -> HttpResponse:
    """A POST of the hub's rounds section: the service, then back to the hub (or its refusal,
    drawn in the hub page with its status)."""
    tournament, refusal = organiser_tournament_or_refusal(request, pk)
    if refusal is not None:
        return refusal
    assert tournament is not None
    try:
        act(tournament)
    except TournamentError as exc:
        context = {
            "tournament": tournament,
            "nav_section": "tournaments",
            "rounds_error": str(exc),
        }
        return render(request, "tournaments/console/hub.html", context, status=exc.status)
    return redirect(reverse("tournament-pages:console", args=[pk]) + "#console-rounds")


@login_required
@require_POST
def table_mode(request: HttpRequest, pk: int) -> HttpResponse:
    """All tables on Herald, or all on paper (the next draws and a round not yet published)."""

    def act(tournament: Tournament) -> None:
        data = _valid(ModeForm(request.POST))
        services.tournament_set_table_mode(
            tournament=tournament, mode=data["mode"], by=request.user
        )

    return _hub_action(request, pk, act)


@login_required
@require_POST
def fixed_table(request: HttpRequest, pk: int) -> HttpResponse:
    """Keep a player at one table in every draw (an empty table number frees them)."""

    def act(tournament: Tournament) -> None:
        data = _valid(FixedTableForm(request.POST))
        registration = tournament.registrations.filter(pk=data["registration"]).first()
        if registration is None:
            raise FormRefused(gettext("That player is not registered in this tournament."))
        services.registration_fix_table(
            registration=registration, table=data["table"], by=request.user
        )

    return _hub_action(request, pk, act)


# -- a stages night: the groups, then the cut to the playoff -----------------------------------
@login_required
@require_POST
def groups(request: HttpRequest, pk: int) -> HttpResponse:
    """Deal the checked-in players into groups (before the groups' first round)."""

    def act(tournament: Tournament) -> None:
        data = _valid(GroupsForm(request.POST))
        services.stage_split_groups(tournament=tournament, groups=data["groups"], by=request.user)

    return _hub_action(request, pk, act)


@login_required
@require_POST
def cut(request: HttpRequest, pk: int) -> HttpResponse:
    """Send the best of the groups on to the playoff bracket; its first round is paired next."""

    def act(tournament: Tournament) -> None:
        data = _valid(CutForm(request.POST))
        advance = data["advance"] if data["bracket_format"] == Format.KNOCKOUT else None
        services.stage_cut(
            tournament=tournament,
            top=data["top"],
            format=data["bracket_format"],
            advance=advance,
            by=request.user,
        )

    return _hub_action(request, pk, act)
