"""Printable pages an organiser pins on the wall: pairings by table, by name, standings; CSV.

Plain server-rendered HTML with print CSS; readable by anyone who has the link, like a sheet
of paper on the club's wall.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tournaments import exports, selectors, services
from tournaments.models import Round, Tournament

TIEBREAKER_LABELS = {
    "opponents_points": "Opp. points",
    "game_score": "Game score",
    "head_to_head": "Head to head",
    "wins": "Wins (tb)",
}


def _round(tournament: Tournament, number: int) -> Round:
    round_ = selectors.round_live(tournament, number)
    if round_ is None:
        raise Http404(f"{tournament.name} has no round {number}.")
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
        "rows": [(line, line.tiebreak_values(names)) for line in lines],
        "grouped": any(line.group for line in lines),
        "tiebreakers": [TIEBREAKER_LABELS.get(name, name) for name in names],
        "latest": selectors.round_latest(tournament),
        "played": selectors.tournament_rounds(tournament)
        .filter(state__in=selectors.LIVE_STATES)
        .order_by("-number")
        .first(),
    }
    return render(request, "tournaments/standings.html", context)


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
        raise Http404(f"{tournament.name} has no bracket.")
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
