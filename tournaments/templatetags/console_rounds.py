"""The console hub's section for the rounds part of the evening (see ``tournaments.console``)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments import selectors
from tournaments.models import Round, TableMode, Tournament

register = template.Library()


@register.inclusion_tag("tournaments/console/_rounds.html", takes_context=True)
def console_rounds(context: dict[str, Any], tournament: Tournament) -> dict[str, Any]:
    """What the rounds section of the hub shows for ``tournament``: its rounds, the button
    that pairs the next one (and why it may ask first), a stages night's groups and cut,
    where tables play, fixed tables."""
    rounds = list(selectors.tournament_rounds(tournament))
    draft = next((r for r in rounds if r.state == Round.State.DRAFT), None)
    latest = rounds[-1] if rounds else None
    next_number = 1 if latest is None else latest.number + 1
    registrations = list(
        tournament.registrations.filter(dropped_after_round__isnull=True)
        .select_related("player")
        .order_by("player__display_name")
    )
    planned = tournament.rounds_planned
    stages = selectors.stages_progress(tournament)
    # A bracket's rounds are its own: the plan counts the paired rounds (a stages night's groups).
    current = tournament.stages.order_by("-order").first()
    in_bracket = current is not None and current.format in selectors.BRACKET_STAGE_FORMATS
    return {
        "tournament": tournament,
        "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
        "error": context.get("rounds_error"),
        "rounds": rounds,
        "draft": draft,
        "next_number": next_number,
        "beyond_planned": bool(planned and next_number > planned and not in_bracket),
        "stages": stages,
        "missing": selectors.tables_missing_results(tournament),
        "finished": tournament.status == Tournament.Status.FINISHED,
        "modes": TableMode.choices,
        "registrations": registrations,
        "fixed": [reg for reg in registrations if reg.fixed_table is not None],
    }
