"""Printable pages an organiser pins on the wall: overview, pairings by table, by name,
standings; CSV.

Plain server-rendered HTML with print CSS; readable by anyone who has the link, like a sheet
of paper on the club's wall.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext
from django.utils.translation import gettext as _

from tournaments import exports, games, selectors, services
from tournaments.models import LateEntryAward, Round, Tournament

TIEBREAKER_LABELS = {
    "opponents_points": gettext_lazy("Opp. points"),
    "game_score": gettext_lazy("Game score"),
    "head_to_head": gettext_lazy("Head to head"),
    "wins": gettext_lazy("Wins (tb)"),
}


def index(request: HttpRequest) -> HttpResponse:
    """Every tournament: running, then upcoming, then finished, with game, club, rounds, dates."""
    return render(request, "tournaments/index.html", {"groups": selectors.tournaments_grouped()})


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
    }
    return render(request, "tournaments/club_detail.html", context)


def overview(request: HttpRequest, pk: int) -> HttpResponse:
    """The tournament's settings in words and its rounds, each with links to its pairings."""
    tournament = get_object_or_404(selectors.tournament_list(), pk=pk)
    context = {
        "tournament": tournament,
        "settings": _settings_in_words(tournament),
        "rounds": selectors.tournament_rounds(tournament),
        "live_states": selectors.LIVE_STATES,
        "may_run": selectors.user_is_organiser(request.user, tournament),
        "winner": _winner(tournament),
    }
    return render(request, "tournaments/overview.html", context)


def _winner(tournament: Tournament) -> str:
    """The winner's name once the tournament is finished ("" before): named at the finish."""
    return tournament.winner if tournament.status == Tournament.Status.FINISHED else ""


def _ordinal(n: int) -> str:
    """ "1st", "2nd", "11th" (in French "1er", "2e": each language its own suffixes)."""
    if n == 1:  # French says "1er" but "21e": 1 has a suffix of its own
        suffix = pgettext("ordinal suffix of 1", "st")
    elif 10 <= n % 100 <= 20:
        suffix = pgettext("ordinal suffix of 11 to 20", "th")
    elif n % 10 == 1:
        suffix = pgettext("ordinal suffix of 1, 21, 31...", "st")
    elif n % 10 == 2:
        suffix = pgettext("ordinal suffix of 2, 22, 32...", "nd")
    elif n % 10 == 3:
        suffix = pgettext("ordinal suffix of 3, 23, 33...", "rd")
    else:
        suffix = pgettext("ordinal suffix of 4 to 9, 24...", "th")
    return f"{n}{suffix}"


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
    if tournament.options:
        options = ", ".join(f"{key} = {value}" for key, value in sorted(tournament.options.items()))
        rows.append((_("Game options"), options))
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


def _round(tournament: Tournament, number: int) -> Round:
    round_ = selectors.round_live(tournament, number)
    if round_ is None:
        raise Http404(
            gettext("{name} has no round {number}.").format(name=tournament.name, number=number)
        )
    return round_


def pairings_by_table(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Round ``number``'s tables in order, each seat with the player's name and points."""
    tournament = get_object_or_404(Tournament, pk=pk)
    round_ = _round(tournament, number)
    context = {
        "tournament": tournament,
        "round": round_,
        "tables": selectors.pairings_by_table(round_),
        # The organisers' way to the players' invitation links (and their QR codes).
        "may_organise": selectors.user_is_organiser(request.user, tournament),
    }
    return render(request, "tournaments/pairings_by_table.html", context)


def pairings_by_name(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Everyone of round ``number`` alphabetically: where to sit."""
    tournament = get_object_or_404(Tournament, pk=pk)
    round_ = _round(tournament, number)
    lines = selectors.pairings_by_name(selectors.pairings_by_table(round_))
    context = {"tournament": tournament, "round": round_, "lines": lines}
    return render(request, "tournaments/pairings_by_name.html", context)


def standings(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings with every tie-breaker the tournament uses."""
    tournament = get_object_or_404(Tournament, pk=pk)
    names = tournament.tiebreakers
    lines = selectors.tournament_standings(tournament)
    context = {
        "tournament": tournament,
        "winner": _winner(tournament),
        "rows": [
            (line, line.tiebreak_values(names), _late_entry_note(line, tournament))
            for line in lines
        ],
        "grouped": any(line.group for line in lines),
        "tiebreakers": [TIEBREAKER_LABELS.get(name, name) for name in names],
        "latest": selectors.round_latest(tournament),
        "played": selectors.tournament_rounds(tournament)
        .filter(state__in=selectors.LIVE_STATES)
        .order_by("-number")
        .first(),
    }
    return render(request, "tournaments/standings.html", context)


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
    lines = selectors.tournament_standings(tournament)
    text = exports.standings_csv(lines, tournament.tiebreakers)
    return _csv(text, f"tournament-{tournament.pk}-standings.csv")


def pairings_csv(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Round ``number``'s pairings as CSV, one line per seat."""
    tournament = get_object_or_404(Tournament, pk=pk)
    round_ = _round(tournament, number)
    text = exports.pairings_csv(selectors.pairings_by_table(round_))
    return _csv(text, f"tournament-{tournament.pk}-round-{number}.csv")


def bracket(request: HttpRequest, pk: int) -> HttpResponse:
    """Every bracket stage drawn as columns of matches, names filled in as results arrive."""
    tournament = get_object_or_404(Tournament, pk=pk)
    names = selectors.registration_names(tournament)
    stages = []
    for stage in tournament.stages.order_by("order"):
        current = services.bracket_current(stage=stage)
        if current is None:
            continue
        stages.append({"stage": stage, "columns": _columns(current.to_json(), names)})
    if not stages:
        raise Http404(gettext("{name} has no bracket.").format(name=tournament.name))
    return render(request, "tournaments/bracket.html", {"tournament": tournament, "stages": stages})


SECTION_TITLES = {
    "winners": gettext_lazy("Winners"),
    "losers": gettext_lazy("Losers"),
    "final": gettext_lazy("Grand final"),
    "knockout": gettext_lazy("Round"),
}


def _columns(drawn: dict[str, Any], names: dict[int, str]) -> list[dict[str, Any]]:
    """The bracket JSON with names: one column per (section, round)."""
    columns = []
    for column in drawn["rounds"]:
        matches = []
        for match in column["matches"]:
            result = match["result"] or []
            slots = [
                {
                    "name": _("bye")
                    if slot is None and i in match["bye_slots"]
                    else names.get(slot, "—"),
                    "place": result.index(slot) + 1 if slot in result else None,
                }
                for i, slot in enumerate(match["slots"])
            ]
            matches.append({"id": match["id"], "slots": slots, "decided": bool(result)})
        title = SECTION_TITLES.get(column["section"], column["section"])
        columns.append({"title": f"{title} {column['round']}", "matches": matches})
    return columns
