"""Three players at a paper table, each on a phone (Chromium at 390 px on the live ASGI server):
one reports the result, one confirms it, one disagrees; the organiser decides on the results
console, and the tournament, whose last result that was, finishes with its winner named.

``HERALD_SHOTS=<dir>`` keeps screenshots of every page at 390 and 1280 px.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.play.table_driver import context_for, fits, shot
from tests.tournaments.factories import (
    ClubFactory,
    UserFactory,
    make_tournament,
    publish,
    register_players,
)
from tournaments import services
from tournaments.models import Result, Table, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def paper_table() -> tuple[Table, Any]:
    organiser = UserFactory(username="organiser")
    tournament = make_tournament(
        organiser=organiser,
        club=ClubFactory(name="Les Pions"),
        name="Jeudi des Couronnes",
        table_preferred=3,
        table_allowed=(3,),
        points_by_rank=(3, 1, 0),
        rounds_planned=1,
        table_mode="paper",
    )
    register_players(tournament, 3)
    round_ = publish(services.round_pair_next(tournament=tournament))
    return round_.tables.get(), organiser


def test_report_confirm_disagree_and_the_organiser_decides(
    browser: Any, asgi_server: Any, browser_problems: Any, paper_table: tuple[Table, Any]
) -> None:
    table, organiser = paper_table
    users = [s.registration.player.user for s in table.seats.order_by("seat")]
    names = [u.player.display_name for u in users]
    url = f"/tournaments/{table.round.tournament_id}/tables/{table.pk}/report/"
    a, b, c = (context_for(browser, asgi_server, browser_problems, user) for user in users)

    a.goto(url)
    assert a.get_attribute("#table-report", "data-state") == "waiting"
    fits(a)
    shot(a, "report-waiting")
    # ranks are picked by label ("1st", "2nd"), never typed
    a.select_option("#id_rank_0", label="2nd")
    a.select_option("#id_rank_1", label="1st")
    a.select_option("#id_rank_2", label="3rd")
    a.fill("#id_score_0", "41")
    a.fill("#id_score_1", "57")
    a.fill("#id_score_2", "12")
    a.click("#report-submit")
    a.wait_for_selector("#table-report[data-state=reported]")
    assert "You agreed" in a.inner_text("#table-report")

    b.goto(url)
    assert "2nd" in b.inner_text(".report-lines")
    fits(b)
    shot(b, "report-to-confirm")
    b.click("#confirm-result")
    b.wait_for_selector("text=You agreed. Waiting for the other players.")

    c.goto(url)
    c.fill("#disagree-reason", f"{names[2]} was second, not third")
    c.click("#disagree-result")
    c.wait_for_selector("#table-report[data-state=disagreement]")
    fits(c)
    shot(c, "report-disagreement")
    result = Result.objects.get(table=table)
    assert result.status == Result.Status.CONFLICT

    desk = context_for(browser, asgi_server, browser_problems, organiser)
    desk.goto(f"/tournaments/{table.round.tournament_id}/console/results/")
    card = f"#table-{table.pk}"
    assert desk.get_attribute(card, "data-state") == "disagreement"
    assert "was second, not third" in desk.inner_text(card)  # the disagreement's reason
    fits(desk)
    shot(desk, "console-results-disagreement")
    desk.fill(f"#decide-reason-{result.pk}", "The score sheet says so")
    desk.click(f"#decide-{result.pk}")
    desk.wait_for_selector(f"{card}[data-state=confirmed]")
    assert f"Won by {names[1]}" in desk.inner_text("#tournament-finished")
    desk.click(f"{card} details.history summary")
    history = desk.inner_text(f"{card} .result-history")
    for kind in ("Reported", "Confirmed", "Disagreed", "Disagreement decided"):
        assert kind in history
    assert "The score sheet says so" in history
    shot(desk, "console-results-decided")
    tournament = Tournament.objects.get(pk=table.round.tournament_id)
    assert tournament.status == Tournament.Status.FINISHED

    a.goto(url)
    assert a.get_attribute("#table-report", "data-state") == "confirmed"
    assert "1st" in a.inner_text(".report-line:nth-child(2)")
    shot(a, "report-confirmed")

    desk.goto(f"/tournaments/{table.round.tournament_id}/console/results/slips/1/")
    assert desk.locator(".slip").count() == 1
    for name in names:
        assert name in desk.inner_text(".slip")
    shot(desk, "result-slips")
    desk.goto(f"/tournaments/{table.round.tournament_id}/console/")
    shot(desk, "console-hub")
    for page in (a, b, c, desk):
        page.context.close()
