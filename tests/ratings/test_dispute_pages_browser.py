"""The arbiter's desk in the browser, on the demo's own dispute: Debian's Chromium on the live
ASGI server, with a real Celery worker process re-rating the pool after the ruling.

The demo arbiter logs in on the site, opens Disputes from the nav, opens the demo's dispute,
follows the link to the disputed move, comes back, rules "amend" with new ranks by name, reads
what moves in the standings and ratings, confirms, and watches the re-rating until it is done;
then the game's page says the ruling. Every page fits a phone
(390 px) and a laptop (1280 px); screenshots land in ``$HERALD_SHOTS`` when it is set.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

import engine
from events.models import Stream
from herald import demo
from ratings.models import Dispute, RecomputeJob
from tests.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.django_db(transaction=True)

#: The re-rating of a small demo pool takes a worker a second or two; this is a generous bound.
RERATED_WITHIN_MS = 60_000


@pytest.fixture
def toy() -> None:
    """No toy game here (the ratings tests' autouse fixture registers one): the demo plays
    every registered game, and the server and worker processes know only the real ones."""


@pytest.fixture
def demo_night(monkeypatch: pytest.MonkeyPatch, celery_worker_process: Any) -> dict[str, Any]:
    """A small demo night (every game played, verified and rated, its dispute open), with the
    worker running so the ruling's recompute job is carried out as in production."""
    small = {game.id: demo.DemoPlan(players=8, rounds=1) for game in engine.games()}
    small["13-couronnes"] = demo.DemoPlan(players=8, rounds=1, options={"max_turns": 4})
    monkeypatch.setattr(demo, "PLANS", small)
    return demo.demo_populate(say=lambda _: None)


def look(page: Any, name: str) -> None:
    """Check the page fits a laptop and a phone; keep screenshots in ``$HERALD_SHOTS`` if asked.

    The page stays at phone width after, as ``browser_page`` opened it.
    """
    shots = os.environ.get("HERALD_SHOTS")
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        widths = page.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{shots}/{name}-{viewport['width']}.png", full_page=True)
        assert widths[0] <= widths[1], f"{page.url} is {widths[0]} px wide at {widths[1]} px"


def log_in(page: Any, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.fill("main form input[name=username]", username)
    page.fill("main form input[name=password]", password)
    page.click("main form [type=submit]")
    page.wait_for_selector("nav >> text=Log out")


def amended_ranks(ranks: list[int]) -> list[int]:
    """Other ranks than the game's: the first two seats swapped (a valid ranking either way)."""
    swapped = [2, 1, *range(3, len(ranks) + 1)]
    return swapped if swapped != ranks else list(range(1, len(ranks) + 1))


def test_the_arbiter_rules_amend_from_the_site_and_watches_the_rerating(
    browser_page: Any, demo_night: dict[str, Any]
) -> None:
    dispute = Dispute.objects.get()
    stream = dispute.stream_id
    page = browser_page
    log_in(page, "arbiter", demo_night["password"])

    page.click("nav >> text=Disputes")
    page.wait_for_url("**/disputes/")
    look(page, "disputes-list")
    assert page.locator("[data-dispute]").count() == 1
    page.click(f"[data-dispute='{dispute.pk}'] h2 a")
    page.wait_for_url(f"**/disputes/{dispute.pk}/")
    look(page, "dispute-open")
    assert str(stream) not in page.inner_text("main")
    assert "Disputed: move 5 of" in page.inner_text(".disputed-move")
    assert "The King went where the card said" in page.inner_text("#statements")

    page.click("[data-replay-link]")
    page.wait_for_url(f"**/games/{stream}/**move=5")
    replay = page.locator("[data-replay]")
    assert replay.get_attribute("data-replay-move") == "5"
    # The arbiter sees every hand: one board per seat, the omniscient view, labelled.
    players = Stream.objects.get(pk=stream).players
    assert replay.get_attribute("data-sight") == "omniscient"
    assert page.locator(f"[data-stream='{stream}']").count() == players
    # and steps with the keyboard, to the move after and back to the disputed one.
    page.keyboard.press("ArrowRight")
    page.wait_for_url(f"**/games/{stream}/**move=6")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(f"**/games/{stream}/**move=5")
    page.go_back()
    page.go_back()
    page.go_back()
    page.wait_for_url(f"**/disputes/{dispute.pk}/")

    new = amended_ranks(list(Stream.objects.get(pk=stream).result["ranks"]))
    page.check("input[name=ruling][value=amend]")
    look(page, "dispute-ruling-form")
    for seat, rank in enumerate(new):
        page.fill(f"input[name=rank_{seat}]", str(rank))
    page.fill("textarea[name=reason]", "The King went on the wrong law at move 5: ranks amended.")
    page.click("[data-preview]")
    page.wait_for_url(f"**/disputes/{dispute.pk}/preview")
    look(page, "dispute-preview")
    assert page.locator("[data-consequences=standings] tr.moved").count() >= 2
    assert page.locator("[data-consequences=ratings] tr.moved").count() >= 2
    assert Dispute.objects.get().status == Dispute.Status.OPEN  # nothing ruled yet

    page.click("[data-confirm-ruling]")
    page.wait_for_url(f"**/disputes/{dispute.pk}/#ruling")
    page.wait_for_selector("[data-progress-status=done]", timeout=RERATED_WITHIN_MS)
    assert "Done: the pool is re-rated" in page.inner_text(".recompute")
    look(page, "dispute-ruled")
    ruled = Dispute.objects.get()
    assert (ruled.status, ruled.amended_ranks) == ("ruled", new)
    assert RecomputeJob.objects.get(pk=ruled.recompute_id).status == RecomputeJob.Status.DONE

    page.goto(f"/games/{stream}/")
    assert "The arbiter ruled on" in page.inner_text("[data-dispute-panel]")
    look(page, "game-ruled")


def test_a_player_files_a_dispute_from_their_finished_game(
    browser_page: Any, demo_night: dict[str, Any]
) -> None:
    player = demo_night["player"]
    disputed = Dispute.objects.get().stream_id
    game = (
        Stream.objects.filter(seats__user=player, status="finished")
        .exclude(pk=disputed)
        .order_by("finished_at")
        .first()
    )
    assert game is not None
    page = browser_page
    log_in(page, "player", demo_night["password"])
    assert page.locator("nav >> text=Disputes").count() == 0
    page.goto(f"/games/{game.pk}/")
    look(page, "game-finished-player")
    page.click("[data-file-dispute]")
    page.wait_for_url(f"**/disputes/new/{game.pk}/")
    look(page, "dispute-new")
    page.fill("input[name=move]", "3")
    page.fill(
        "textarea[name=reason]", "My card was taken back from the table: move 3 was not mine."
    )
    page.click("main form [type=submit]")
    page.wait_for_url("**/disputes/*/")
    filed = Dispute.objects.get(stream_id=game.pk)
    assert (filed.opened_by, filed.move) == (player, 3)
    assert "Disputed: move 3 of" in page.inner_text(".disputed-move")
    assert page.locator("[data-ruling-form]").count() == 0
    look(page, "dispute-as-player")
    page.goto(f"/games/{game.pk}/")
    assert "This game is under dispute" in page.inner_text("[data-dispute-panel]")
