"""The console's setup part: create a tournament, its settings, registration and check-in.

Pages for the club's organisers (``organiser_tournament_or_refusal`` first), plus the two
pages players use: the join link (``/tournaments/<id>/join/<token>/``) and check-in
(``/tournaments/<id>/check-in/``, the venue's QR code). The work is done by the services
(``tournament_create``, ``tournament_settings_save``, ``registration_*``); these views show
forms, call one service with ``by=request.user`` and redirect (or show its refusal with its
status).
"""

from __future__ import annotations

import secrets
from typing import Any

import segno
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import engine
from herald.account_views import refusal
from tournaments import selectors, services
from tournaments.console.hub import organiser_tournament_or_refusal
from tournaments.console.setup_forms import (
    AddPlayerForm,
    ChooseGameForm,
    CreateForm,
    ImportForm,
    SettingsForm,
    field_groups,
)
from tournaments.errors import InvalidInput, TournamentError
from tournaments.forms import SignupForm
from tournaments.models import Registration, Tournament

LOGIN_BACKEND = "django.contrib.auth.backends.ModelBackend"


def qr_svg(url: str) -> SafeString:
    """The QR code of ``url`` as inline SVG (segno writes it; it holds no user text)."""
    svg = segno.make(url, error="m").svg_inline(
        scale=5, border=2, title=url, svgclass="qr", omitsize=True
    )
    return mark_safe(svg)


def join_url(request: HttpRequest, tournament: Tournament) -> str:
    path = reverse("tournament-pages:join", args=[tournament.pk, tournament.join_token])
    return request.build_absolute_uri(path)


def check_in_url(request: HttpRequest, tournament: Tournament) -> str:
    return request.build_absolute_uri(reverse("tournament-pages:check-in", args=[tournament.pk]))


# -- create a tournament -----------------------------------------------------------------------
def _games() -> list[tuple[str, str]]:
    return [(game.id, game.name) for game in engine.games()]


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    """``/tournaments/new/``: choose the game (and club), then its defaults in widgets.

    Step one (no ``game`` yet) is a GET form; step two shows every setting filled from the
    game's defaults (``services.tournament_defaults``). Changing the game or format there
    reloads the defaults: a GET button without JS, in place with ``console_setup.js``.
    """
    clubs = selectors.clubs_organised(request.user)
    if not clubs:
        detail = _("Only a club's organisers (and staff) create tournaments.")
        return refusal(request, _("Not yours to create"), detail, status=403)
    source = request.POST if request.method == "POST" else request.GET
    if "game" not in source:
        initial = {"club": request.GET.get("club") or clubs[0].pk}
        chooser = ChooseGameForm(initial=initial, games=_games(), clubs=clubs)
        return render(request, "tournaments/console/setup_new.html", _new_context(chooser, None))
    source = source.copy()
    source.setdefault("format", "swiss")
    if len(clubs) == 1:
        source.setdefault("club", str(clubs[0].pk))  # the one club they may choose
    chooser = ChooseGameForm(source, games=_games(), clubs=clubs)
    if not chooser.is_valid():
        context = _new_context(chooser, None)
        return render(request, "tournaments/console/setup_new.html", context, status=400)
    game, club = chooser.cleaned_data["game"], chooser.cleaned_data["club"]
    defaults = services.tournament_defaults(game_id=game, format=chooser.cleaned_data["format"])
    if request.method == "GET" or request.POST.get("refill"):
        initial = CreateForm.initial_for(defaults, club=club.pk, name=source.get("name", ""))
        form = CreateForm(initial=initial, defaults=defaults, clubs=clubs)
        return render(request, "tournaments/console/setup_new.html", _new_context(chooser, form))
    form = CreateForm(request.POST, defaults=defaults, clubs=clubs)
    status = 400
    if form.is_valid():
        try:
            tournament = _create(request, form)
        except TournamentError as refused:
            form.add_error(None, refused.detail)
            status = refused.status
        else:
            url = reverse("tournament-pages:console", args=[tournament.pk])
            return HttpResponseRedirect(url)
    context = _new_context(chooser, form)
    return render(request, "tournaments/console/setup_new.html", context, status=status)


def _new_context(chooser: ChooseGameForm, form: CreateForm | None) -> dict[str, Any]:
    groups = field_groups(form) if form is not None else []
    return {"chooser": chooser, "form": form, "groups": groups, "nav_section": "tournaments"}


def _create(request: HttpRequest, form: CreateForm) -> Tournament:
    values = form.settings()
    return services.tournament_create(
        organiser=request.user,
        game_id=form.defaults.game_id,
        club=form.cleaned_data["club"],
        **values,
    )


# -- settings ----------------------------------------------------------------------------------
@login_required
@require_http_methods(["GET", "POST"])
def settings(request: HttpRequest, pk: int) -> HttpResponse:
    """What may change once the tournament exists, in the same widgets as creating it."""
    tournament, refused = organiser_tournament_or_refusal(request, pk)
    if refused is not None:
        return refused
    assert tournament is not None
    defaults = services.tournament_defaults(game_id=tournament.game_id)
    if request.method == "GET":
        initial = SettingsForm.initial_from(tournament)
        form = SettingsForm(initial=initial, defaults=defaults)
        return _settings_page(request, tournament, form)
    form = SettingsForm(request.POST, defaults=defaults)
    if not form.is_valid():
        return _settings_page(request, tournament, form, status=400)
    values = form.settings()
    window = {k: values.pop(k) for k in ("check_in_opens_at", "check_in_closes_at", "player_cap")}
    try:
        services.tournament_settings_save(
            tournament=tournament, by=request.user, **window, **values
        )
    except TournamentError as refusal_:
        form.add_error(None, refusal_.detail)
        return _settings_page(request, tournament, form, status=refusal_.status)
    return HttpResponseRedirect(reverse("tournament-pages:console", args=[tournament.pk]))


def _settings_page(
    request: HttpRequest, tournament: Tournament, form: SettingsForm, status: int = 200
) -> HttpResponse:
    context = {
        "tournament": tournament,
        "form": form,
        "groups": field_groups(form),
        "nav_section": "tournaments",
    }
    return render(request, "tournaments/console/setup_settings.html", context, status=status)


# -- registration ------------------------------------------------------------------------------
@login_required
@require_GET
def players(request: HttpRequest, pk: int) -> HttpResponse:
    """The registrations: check-in ticks, seeds, late entries, drops, the waitlist; adding a
    player and importing a CSV."""
    tournament, refused = organiser_tournament_or_refusal(request, pk)
    if refused is not None:
        return refused
    assert tournament is not None
    return _players_page(request, tournament)


def _players_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    status: int = 200,
    error: str = "",
    lines: list[str] | None = None,
    add_form: AddPlayerForm | None = None,
    import_form: ImportForm | None = None,
) -> HttpResponse:
    members = selectors.club_members_to_register(tournament)
    rows = selectors.registration_rows(tournament)
    context = {
        "tournament": tournament,
        "rows": rows,
        "counts": selectors.registration_counts(tournament),
        "places_left": services.places_left(tournament),
        "late_entry": selectors.late_entry_now(tournament),
        "late_entry_points": selectors.late_entry_points(tournament),
        "window": selectors.check_in_window(tournament),
        "add_form": add_form or AddPlayerForm(tournament=tournament, members=members),
        "import_form": import_form or ImportForm(),
        "csv_columns": ",".join(services.CSV_COLUMNS),
        "limits": services.import_limits(),
        "error": error,
        "lines": lines or [],
        "nav_section": "tournaments",
    }
    return render(request, "tournaments/console/setup_players.html", context, status=status)


def _back_to_players(tournament: Tournament, anchor: str = "") -> HttpResponseRedirect:
    url = reverse("tournament-pages:console-setup-players", args=[tournament.pk])
    return HttpResponseRedirect(url + anchor)


@login_required
@require_POST
def player_add(request: HttpRequest, pk: int) -> HttpResponse:
    """Register a member of the club, or a new player."""
    tournament, refused = organiser_tournament_or_refusal(request, pk)
    if refused is not None:
        return refused
    assert tournament is not None
    members = selectors.club_members_to_register(tournament)
    form = AddPlayerForm(request.POST, tournament=tournament, members=members)
    if not form.is_valid():
        return _players_page(request, tournament, status=400, add_form=form)
    data = form.cleaned_data
    member = data["member"]
    try:
        services.registration_enter(
            tournament=tournament,
            by=request.user,
            username=member.user.username if member else data["username"],
            display_name="" if member else data["display_name"],
            email="" if member else data["email"],
            seed=data["seed"] or 0,
        )
    except TournamentError as refusal_:
        form.add_error(None, refusal_.detail)
        return _players_page(request, tournament, status=refusal_.status, add_form=form)
    return _back_to_players(tournament, "#registrations")


@login_required
@require_POST
def players_import(request: HttpRequest, pk: int) -> HttpResponse:
    """Import a CSV (pasted or a file) with ``players_import_csv``: every line, or none, and
    no more than its limits (a bigger file is refused before it is read whole)."""
    tournament, refused = organiser_tournament_or_refusal(request, pk)
    if refused is not None:
        return refused
    assert tournament is not None
    form = ImportForm(request.POST, request.FILES)
    form.is_valid()
    try:
        text = _csv_text(form)
        services.players_import_csv(tournament=tournament, text=text, by=request.user)
    except TournamentError as refusal_:
        lines = list(getattr(refusal_, "extra", {}).get("lines", []))
        detail = _("Nothing was imported.") if lines else refusal_.detail
        return _players_page(
            request,
            tournament,
            status=refusal_.status,
            error=detail,
            lines=lines,
            import_form=form,
        )
    return _back_to_players(tournament, "#registrations")


def _csv_text(form: ImportForm) -> str:
    upload = form.cleaned_data.get("csv_file") if form.is_bound else None
    if upload is None:
        text = form.cleaned_data.get("csv_text", "") if hasattr(form, "cleaned_data") else ""
        if not text.strip():
            raise InvalidInput(_("Paste a CSV or choose a file to import."))
        return str(text)
    _rows, max_bytes = services.import_limits()
    raw = upload.read(max_bytes + 1)  # one byte over the limit is enough to refuse it
    try:
        return str(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise InvalidInput(
            _("The file is not UTF-8 text: save it as “CSV UTF-8” and import it again.")
        ) from None


ACTIONS = ("check-in", "check-out", "drop", "readd")


@login_required
@require_POST
def registration_action(request: HttpRequest, pk: int, reg: int, action: str) -> HttpResponse:
    """Tick a player in (or out), drop them, or re-add a dropped player."""
    tournament, refused = organiser_tournament_or_refusal(request, pk)
    if refused is not None:
        return refused
    assert tournament is not None
    registration = get_object_or_404(
        Registration.objects.select_related("player", "tournament"), pk=reg, tournament=tournament
    )
    try:
        if action in ("check-in", "check-out"):
            services.registration_check_in(
                registration=registration, checked_in=action == "check-in", by=request.user
            )
        elif action == "drop":
            services.registration_drop(registration=registration, by=request.user)
        elif action == "readd":
            services.registration_readd(registration=registration, by=request.user)
        else:
            raise InvalidInput(_("Unknown action."))
    except TournamentError as refusal_:
        return _players_page(request, tournament, status=refusal_.status, error=refusal_.detail)
    return _back_to_players(tournament, f"#registration-{registration.pk}")


# -- the join link and its QR code -------------------------------------------------------------
@login_required
@require_POST
def join_link_renew(request: HttpRequest, pk: int) -> HttpResponse:
    """A new join link: the old one (and its printed poster) stops working."""
    tournament, refused = organiser_tournament_or_refusal(request, pk)
    if refused is not None:
        return refused
    assert tournament is not None
    services.tournament_join_token_renew(tournament=tournament, by=request.user)
    return HttpResponseRedirect(reverse("tournament-pages:console", args=[tournament.pk]) + "#join")


@never_cache
@login_required
@require_GET
def poster(request: HttpRequest, pk: int) -> HttpResponse:
    """A printable poster for the venue: the join link's QR code, and the check-in one."""
    tournament, refused = organiser_tournament_or_refusal(request, pk)
    if refused is not None:
        return refused
    assert tournament is not None
    join, check_in = join_url(request, tournament), check_in_url(request, tournament)
    context = {
        "tournament": tournament,
        "join_url": join,
        "join_qr": qr_svg(join),
        "check_in_url": check_in,
        "check_in_qr": qr_svg(check_in),
        "window": selectors.check_in_window(tournament),
    }
    response = render(request, "tournaments/console/setup_poster.html", context)
    response["Referrer-Policy"] = "same-origin"  # the page holds the join link
    return response


@never_cache
@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, pk: int, token: str) -> HttpResponse:
    """The join link: a signed-in player registers themself; a visitor logs in, or makes an
    account here when the club takes sign-ups (``club_signup``)."""
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    valid = bool(tournament.join_token) and secrets.compare_digest(
        tournament.join_token.encode(), token.encode()
    )
    if not valid:
        detail = _(
            "This join link is not (or no longer) valid: ask the organisers of {name} for "
            "the current one."
        ).format(name=tournament.name)
        return refusal(request, _("Not a valid link"), detail, status=404)
    mine = selectors.user_registration(request.user, tournament)
    signup_open = bool(tournament.club and tournament.club.allow_signup)
    form = None
    status = 200
    error = ""
    if request.method == "POST":
        response, form, error, status = _join_post(request, tournament, token, signup_open)
        if response is not None:
            return response
    elif not request.user.is_authenticated and signup_open:
        form = SignupForm()
    context = {
        "tournament": tournament,
        "mine": mine,
        "form": form,
        "error": error,
        "signup_open": signup_open,
        "places_left": services.places_left(tournament),
        "late_entry": selectors.late_entry_now(tournament),
        "join_login_url": reverse("login") + "?next=" + request.path,
    }
    response = render(request, "tournaments/join.html", context, status=status)
    response["Referrer-Policy"] = "same-origin"
    return response


def _join_post(
    request: HttpRequest, tournament: Tournament, token: str, signup_open: bool
) -> tuple[HttpResponse | None, SignupForm | None, str, int]:
    done = HttpResponseRedirect(reverse("tournament-pages:check-in", args=[tournament.pk]))
    if request.user.is_authenticated:
        try:
            services.registration_join(tournament=tournament, token=token, by=request.user)
        except TournamentError as refused:
            return None, None, refused.detail, refused.status
        return done, None, "", 302
    if not signup_open:
        return redirect_to_login(request.path), None, "", 302
    form = SignupForm(request.POST)
    if not form.is_valid():
        return None, form, "", 400
    try:
        registration = services.registration_join_signup(
            tournament=tournament,
            token=token,
            username=form.cleaned_data["username"],
            display_name=form.cleaned_data["display_name"],
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
        )
    except TournamentError as refused:
        form.add_error(None, refused.detail)
        return None, form, "", refused.status
    login(request, registration.player.user, backend=LOGIN_BACKEND)
    return done, None, "", 302


# -- check-in from a phone ---------------------------------------------------------------------
@never_cache
@require_http_methods(["GET", "POST"])
def check_in(request: HttpRequest, pk: int) -> HttpResponse:
    """A player checks themself in (the tournament page's box; the venue's QR code)."""
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    status, error = 200, ""
    if request.method == "POST":
        try:
            services.registration_self_check_in(tournament=tournament, by=request.user)
        except TournamentError as refused:
            status, error = refused.status, refused.detail
        else:
            return HttpResponseRedirect(request.path)
    context = check_in_box(request, tournament)
    context.update(tournament=tournament, error=error)
    return render(request, "tournaments/check_in.html", context, status=status)


def check_in_box(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """What the player's check-in box shows (the check-in page and the tournament page)."""
    return {
        "mine": selectors.user_registration(request.user, tournament),
        "window": selectors.check_in_window(tournament),
        "finished": tournament.status == Tournament.Status.FINISHED,
    }
