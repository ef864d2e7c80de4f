"""Printable pages an organiser pins on the wall: overview, pairings by table, by name,
standings; CSV.

Plain server-rendered HTML with print CSS; readable by anyone who has the link, like a sheet
of paper on the club's wall.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext

from tournaments import exports, games, selectors, services
from tournaments.models import LateEntryAward, Round, Tournament

TIEBREAKER_LABELS = {
    "opponents_points": "Opp. points",
    "game_score": "Game score",
    "head_to_head": "Head to head",
    "wins": "Wins (tb)",
}


def overview(request: HttpRequest, pk: int) -> HttpResponse:
    """The tournament's settings in words and its rounds, each with links to its pairings."""
    tournament = get_object_or_404(selectors.tournament_list(), pk=pk)
    context = {
        "tournament": tournament,
        "settings": _settings_in_words(tournament),
        "rounds": selectors.tournament_rounds(tournament),
        "live_states": selectors.LIVE_STATES,
    }
    return render(request, "tournaments/overview.html", context)


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _number(value: float) -> str:
    return f"{value:g}"


def _settings_in_words(tournament: Tournament) -> list[tuple[str, str]]:
    """(label, sentence) pairs a player reads before the first round."""
    allowed = sorted(tournament.table_allowed)
    sizes = ", ".join(str(size) for size in allowed[:-1])
    sizes = f"{sizes} or {allowed[-1]}" if sizes else str(allowed[-1]) if allowed else "—"
    points = " · ".join(
        f"{_ordinal(rank)}: {_number(value)}"
        for rank, value in enumerate(tournament.points_by_rank, start=1)
    )
    breakers = [TIEBREAKER_LABELS.get(name, name) for name in tournament.tiebreakers]
    rows = [
        (
            "Game",
            games.game_name(tournament.game_id)
            + (f" ({tournament.edition})" if tournament.edition else ""),
        ),
        ("Format", tournament.get_format_display()),
        ("Rounds planned", str(tournament.rounds_planned or "until the organiser stops")),
        ("Tables", f"{tournament.table_preferred} players preferred; {sizes} allowed"),
        ("Points by rank", f"{points} (tied players share)"),
        ("Bye", _points_in_words(tournament.bye_points)),
        ("Late entry", _late_entry_in_words(tournament)),
        ("Tie-breakers", ", then ".join(breakers) if breakers else "none"),
    ]
    if tournament.options:
        options = ", ".join(f"{key} = {value}" for key, value in sorted(tournament.options.items()))
        rows.append(("Game options", options))
    return rows


LATE_ENTRY_WORDS = {
    LateEntryAward.NOTHING: "nothing",
    LateEntryAward.BYE: "a bye",
    LateEntryAward.HALF_BYE: "half a bye",
}


def _late_entry_in_words(tournament: Tournament) -> str:
    """ "half a bye (1 point) for each round played before a player enters"."""
    award = LateEntryAward(tournament.late_entry_award)
    points = selectors.late_entry_points(tournament)
    worth = "" if award == LateEntryAward.NOTHING else f" ({_points_in_words(points)})"
    return f"{LATE_ENTRY_WORDS[award]}{worth} for each round played before a player enters"


def _points_in_words(points: Any) -> str:
    """ "1 point", "0.5 points", "3 points"."""
    return f"{_number(points)} {'point' if points == 1 else 'points'}"


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
    half = "half " if tournament.late_entry_award == LateEntryAward.HALF_BYE else ""
    plural = "" if line.late_byes == 1 else "s"
    return f"late entry: {line.late_byes} {half}bye{plural}"


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
    "winners": "Winners",
    "losers": "Losers",
    "final": "Grand final",
    "knockout": "Round",
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
                    "name": "bye"
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
