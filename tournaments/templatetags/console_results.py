"""The console hub's section for the results part of the evening (see ``tournaments.console``)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments import selectors
from tournaments.models import Tournament

register = template.Library()


@register.inclusion_tag("tournaments/console/_results.html", takes_context=True)
def console_results(context: dict[str, Any], tournament: Tournament) -> dict[str, Any]:
    """What the results section of the hub shows for ``tournament``: the latest published
    round's tables by state, links to the results page and the slips, the winner, reopen."""
    round_ = (
        selectors.tournament_rounds(tournament)
        .filter(state__in=selectors.LIVE_STATES)
        .order_by("-number")
        .first()
    )
    counts = dict.fromkeys(selectors.RESULT_STATE_LABELS, 0)
    if round_ is not None:
        for state in selectors.round_result_states(round_):
            counts[state.state] += 1
    finished = tournament.status == Tournament.Status.FINISHED
    return {
        "tournament": tournament,
        "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
        "round": round_,
        "counts": [(selectors.RESULT_STATE_LABELS[k], n) for k, n in counts.items()],
        "finished": finished,
        "winner": tournament.winner if finished else "",
    }
