"""Printable pages an organiser pins on the wall: overview, pairings by table, by name,
standings; CSV.

Plain server-rendered HTML with print CSS; readable by anyone who has the link, like a sheet
of paper on the club's wall.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.utils.translation import gettext as _

from tournaments import exports, games, selectors
from tournaments.bracket_drawing import bracket_drawings
from tournaments.models import LateEntryAward, Round, Tournament
from tournaments.words import ordinal as _ordinal

TIEBREAKER_LABELS = {
    "opponents_points": gettext_lazy("Opp. points"),
    "game_score": gettext_lazy("Game score"),
    "head_to_head": gettext_lazy("Head to head"),
    "wins": gettext_lazy("Wins (tb)"),
}


def index(request: HttpRequest) -> HttpResponse:
    """Every tournament: running, then upcoming, then finished, with game, club, rounds, dates."""
    context = {
        "groups": selectors.tournaments_grouped(),
        "may_create": bool(selectors.clubs_organised(request.user)),
    }
    return render(request, "tournaments/index.html", context)


def club_list(request: HttpRequest) -> HttpResponse:
    """Every club, with its members and tournaments counted."""
    return render(request, "tournaments/club_list.html", {"clubs": selectors.club_list_counted()})


def club_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A club: its tournaments (grouped like the index), its organisers' names, its size."""
    club = get_object_or_404(selectors.club_list_counted(), pk=pk)
    context = {
        "club": club,
        "groups": selectors.tournaments_grouped(selectors.club_tournaments(club)),
        "organisers": selectors.club_organiser_names(club),
        "may_create": selectors.user_organises_club(request.user, club),
        "seasons": selectors.club_seasons(club),
        "may_organise": selectors.user_organises_club(request.user, club),
    }
    return render(request, "tournaments/club_detail.html", context)


def overview(request: HttpRequest, pk: int) -> HttpResponse:
    """The tournament's settings in words and its rounds, each with links to its pairings."""
    tournament = get_object_or_404(selectors.tournament_list(), pk=pk)
    context = {
        "settings": _settings_in_words(tournament),
        "may_run": selectors.user_is_organiser(request.user, tournament),
        **rounds_context(tournament),
        # The signed-in player's check-in box (tournaments/_check_in_box.html).
        "mine": selectors.user_registration(request.user, tournament),
        "window": selectors.check_in_window(tournament),
        "finished": tournament.status == Tournament.Status.FINISHED,
        "winner": _winner(tournament),
    }
    return render(request, "tournaments/overview.html", context)


def rounds_context(tournament: Tournament) -> dict[str, Any]:
    """What the overview's table of rounds draws (the page, and its live region's fragment)."""
    return {
        "tournament": tournament,
        "rounds": selectors.tournament_rounds(tournament),
        # Only a published round links its pairings: a confirmed one is not public yet.
        "public_states": selectors.PUBLIC_STATES,
    }


def _winner(tournament: Tournament) -> str:
    """The winner's name once the tournament is finished ("" before): named at the finish."""
    return tournament.winner if tournament.status == Tournament.Status.FINISHED else ""


def _number(value: float) -> str:
    return f"{value:g}"


def _settings_in_words(tournament: Tournament) -> list[tuple[str, str]]:
    """(label, sentence) pairs a player reads before the first round."""
    allowed = sorted(tournament.table_allowed)
    sizes = ", ".join(str(size) for size in allowed[:-1])
    if sizes:
        sizes = _("%(sizes)s or %(last)s") % {"sizes": sizes, "last": allowed[-1]}
    else:
        sizes = str(allowed[-1]) if allowed else "—"
    points = " · ".join(
        f"{_ordinal(rank)}: {_number(value)}"
        for rank, value in enumerate(tournament.points_by_rank, start=1)
    )
    breakers = [str(TIEBREAKER_LABELS.get(name, name)) for name in tournament.tiebreakers]
    rows = [
        (
            _("Game"),
            games.game_name(tournament.game_id)
            + (f" ({tournament.edition})" if tournament.edition else ""),
        ),
        (_("Format"), tournament.get_format_display()),
        (_("Rounds planned"), str(tournament.rounds_planned or _("until the organiser stops"))),
        (
            _("Tables"),
            _("%(preferred)s players preferred; %(sizes)s allowed")
            % {"preferred": tournament.table_preferred, "sizes": sizes},
        ),
        (_("Points by rank"), _("%(points)s (tied players share)") % {"points": points}),
        (_("Bye"), _points_in_words(tournament.bye_points)),
        (_("Late entry"), _late_entry_in_words(tournament)),
        (_("Tie-breakers"), _(", then ").join(breakers) if breakers else _("none")),
    ]
    options = games.settings_words(tournament.game_id, tournament.options)
    if options:  # only those that differ from the game's own rules, in words
        rows.append((_("Game options"), "; ".join(options)))
    return rows


LATE_ENTRY_WORDS = {
    LateEntryAward.NOTHING: gettext_lazy("nothing"),
    LateEntryAward.BYE: gettext_lazy("a bye"),
    LateEntryAward.HALF_BYE: gettext_lazy("half a bye"),
}


def _late_entry_in_words(tournament: Tournament) -> str:
    """ "half a bye (1 point) for each round played before a player enters"."""
    award = LateEntryAward(tournament.late_entry_award)
    points = selectors.late_entry_points(tournament)
    worth = "" if award == LateEntryAward.NOTHING else f" ({_points_in_words(points)})"
    return _("%(award)s%(worth)s for each round played before a player enters") % {
        "award": LATE_ENTRY_WORDS[award],
        "worth": worth,
    }


def _points_in_words(points: Any) -> str:
    """ "1 point", "0.5 points", "3 points"."""
    # ngettext picks the plural from an integer; 0.5 and 1.5 points are plural in English.
    count = 1 if points == 1 else 2
    return ngettext("%(points)s point", "%(points)s points", count) % {"points": _number(points)}


def _round(request: HttpRequest, tournament: Tournament, number: int) -> Round:
    """Round ``number`` as the viewer may see it: a draft is a 404 but to its organisers."""
    round_ = selectors.round_live_for(tournament, number, request.user)
    if round_ is None:
        raise Http404(
            gettext("{name} has no round {number}.").format(name=tournament.name, number=number)
        )
    return round_


def pairings_by_table(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Round ``number``'s tables in order, each seat with the player's name and points."""
    tournament = get_object_or_404(Tournament, pk=pk)
    context = pairings_by_table_context(request, tournament, _round(request, tournament, number))
    return render(request, "tournaments/pairings_by_table.html", context)


def pairings_by_table_context(
    request: HttpRequest, tournament: Tournament, round_: Round
) -> dict[str, Any]:
    """What the pairings by table draw (the page, and its live region's fragment)."""
    return {
        "tournament": tournament,
        "round": round_,
        "tables": selectors.pairings_by_table(round_),
        # The organisers' way to the players' invitation links (and their QR codes).
        "may_organise": selectors.user_is_organiser(request.user, tournament),
    }


def pairings_by_name(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Everyone of round ``number`` alphabetically: where to sit."""
    tournament = get_object_or_404(Tournament, pk=pk)
    context = pairings_by_name_context(tournament, _round(request, tournament, number))
    return render(request, "tournaments/pairings_by_name.html", context)


def pairings_by_name_context(tournament: Tournament, round_: Round) -> dict[str, Any]:
    """What the pairings by name draw (the page, and its live region's fragment)."""
    lines = selectors.pairings_by_name(selectors.pairings_by_table(round_))
    return {"tournament": tournament, "round": round_, "lines": lines}


def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings with every tie-breaker the tournament uses."""
    tournament = get_object_or_404(Tournament, pk=pk)
    return render(
        request, "tournaments/standings.html", standings_context(tournament, request.user)
    )


def standings_context(tournament: Tournament, user: Any) -> dict[str, Any]:
    """What the standings draw for ``user`` (the page, and its live region's fragment): the
    latest round is one they may see, a round not yet published only for its organisers."""
    names = tournament.tiebreakers
    before = selectors.standings_before_for(tournament, user)
    lines = selectors.tournament_standings(tournament, before=before)
    counted = selectors.tournament_rounds(tournament).filter(state__in=selectors.LIVE_STATES)
    if before is not None:
        counted = counted.filter(number__lt=before)
    return {
        "tournament": tournament,
        "winner": _winner(tournament),
        "rows": [
            (line, line.tiebreak_values(names), _late_entry_note(line, tournament))
            for line in lines
        ],
        "grouped": any(line.group for line in lines),
        "tiebreakers": [TIEBREAKER_LABELS.get(name, name) for name in names],
        "latest": selectors.round_latest_for(tournament, user),
        "played": counted.order_by("-number").first(),
    }


def _late_entry_note(line: selectors.StandingLine, tournament: Tournament) -> str:
    """ "late entry: 2 byes" (or "2 half byes"): why a latecomer has points without games."""
    if not line.late_byes:
        return ""
    if tournament.late_entry_award == LateEntryAward.HALF_BYE:
        words = ngettext(
            "late entry: %(n)s half bye", "late entry: %(n)s half byes", line.late_byes
        )
    else:
        words = ngettext("late entry: %(n)s bye", "late entry: %(n)s byes", line.late_byes)
    return words % {"n": line.late_byes}


def _csv(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings as CSV."""
    tournament = get_object_or_404(Tournament, pk=pk)
    lines = selectors.tournament_standings_for(tournament, request.user)
    text = exports.standings_csv(lines, tournament.tiebreakers)
    return _csv(text, f"tournament-{tournament.pk}-standings.csv")


def pairings_csv(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Round ``number``'s pairings as CSV, one line per seat."""
    tournament = get_object_or_404(Tournament, pk=pk)
    round_ = _round(request, tournament, number)
    text = exports.pairings_csv(selectors.pairings_by_table(round_))
    return _csv(text, f"tournament-{tournament.pk}-round-{number}.csv")


def bracket(request: HttpRequest, pk: int) -> HttpResponse:
    """Every bracket stage drawn as a bracket: boxes by round, connector lines, the champion."""
    return _bracket_response(request, pk, "tournaments/bracket.html")


def bracket_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """The bracket's live region alone (``data-live-src``): the same drawing as the page."""
    response = _bracket_response(request, pk, "tournaments/_bracket.html")
    response["Cache-Control"] = "no-store"
    return response


def _bracket_response(request: HttpRequest, pk: int, template: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    drawings = bracket_drawings(tournament)
    if not drawings:
        raise Http404(gettext("{name} has no bracket.").format(name=tournament.name))
    return render(request, template, {"tournament": tournament, "drawings": drawings})
