"""Issue #18's whole night, in Chromium on a live ASGI server, all through the pages.

The organiser creates a 12-player, 3-round Swiss night of 13 Couronnes (tables of 3 and 4, on
paper unless a table is set to Herald) from the create form; twelve players, each on their own
phone-width context kept open all night, join by the link, log in and check in. Each round the
organiser pairs, swaps two players by hand, sets some tables to play on Herald, confirms and
publishes; every phone shows its table without reload. Herald tables are played by clicking,
GreedyBot choosing among what the pages offer (``play_with_bot``), and report themselves;
paper tables are reported from one phone and confirmed from the others (in round 2 one seat
disagrees and the organiser decides on the results page). A standings page left open follows
without reload; the projector shows the timer started from the console. After round 3 the
night finishes by itself; its standings equal a tally made here, and every result is rated,
Herald games "verified", paper ones "reported", by a real Celery worker.

``HERALD_SHOTS=<dir>`` keeps screenshots of the console's round page, a phone's table, the
report page and the projector at 390 and 1280 px.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

from engine.bots import GreedyBot
from events.models import Stream
from ratings.models import RatedGame
from tests.conftest import DESKTOP, wait_for
from tests.play.table_driver import Table as PlayedTable
from tests.play.table_driver import context_for, fits, play_with_bot, shot
from tests.tournaments.browser_people import log_in, no_sideways_scroll, person
from tournaments.models import Club, Result, Round, Table, Tournament
from tournaments.services import tournament_winner

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services()]

WAIT = 20_000  # ms
CONNECTED = "html[data-live-connected='true']"
#: Tables on Herald per round (the others play with physical cards).
ON_HERALD = {1: 1, 2: 2, 3: 1}
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


def mark(page: Any) -> None:
    page.evaluate("() => { window.__sameDocument = true; }")


def not_reloaded(page: Any) -> bool:
    return bool(page.evaluate("() => window.__sameDocument === true"))


def create_the_night(desk: Any) -> Tournament:
    desk.goto("/tournaments/")
    desk.click("text=Log in")
    log_in(desk, "orga")
    desk.wait_for_url("**/tournaments/")
    desk.click("#new-tournament")
    desk.select_option("select[name=game]", "13-couronnes")
    desk.click("text=Next: the settings")
    desk.wait_for_selector("input[name=points_4]")
    desk.fill("input[name=name]", "Jeudi des Couronnes")
    desk.check("input[name=table_mode][value=paper]")
    desk.uncheck("input[name=table_allowed][value='5']")
    desk.select_option("select[name=table_preferred]", "4")
    desk.fill("input[name=rounds_planned]", "3")
    desk.fill("input[name=points_5]", "")
    desk.click("button[name=create]")
    desk.wait_for_url("**/console/")
    night = Tournament.objects.get(name="Jeudi des Couronnes")
    assert (night.table_allowed, night.rounds_planned, night.table_mode) == ([3, 4], 3, "paper")
    return night


def join(browser: Any, server: Any, problems: Any, *, club: Club, link: str, name: str) -> Any:
    person(name, club)
    phone = context_for(browser, server, problems, None)
    phone.goto(link)
    phone.click("main a.button")
    log_in(phone, name)
    phone.wait_for_url(f"**{link}")
    phone.click("button[name=join]")
    phone.wait_for_url("**/check-in/")
    phone.click("button[name=check_in]")
    phone.wait_for_selector("[data-checked-in]")
    no_sideways_scroll(phone)
    return phone


def pair_and_publish(desk: Any, night: Tournament, number: int) -> Round:
    """Pair, swap the first seats of tables 1 and 2, set tables to Herald, confirm, publish."""
    desk.goto(f"/tournaments/{night.pk}/console/")
    desk.click("#pair-next")
    desk.wait_for_url(f"**/console/rounds/{number}/")
    draft = Round.objects.get(tournament=night, number=number, state=Round.State.DRAFT)
    first = draft.tables.get(number=1).seats.get(seat=0).registration_id
    second = draft.tables.get(number=2).seats.get(seat=0).registration_id
    desk.click(f".seat-name[data-reg='{first}']")
    with desk.expect_navigation():
        desk.click(f".seat-name[data-reg='{second}']")
    assert desk.locator(f"#table-1 .seat-name[data-reg='{second}']").count() == 1
    assert desk.locator(f"#table-2 .seat-name[data-reg='{first}']").count() == 1
    for table in range(1, ON_HERALD[number] + 1):
        with desk.expect_navigation():
            desk.click(f"#table-{table} button[name=on_paper][value='']")
    herald = desk.locator("#round-tables .table-mode:not(.paper)").count()
    assert herald == ON_HERALD[number]
    if number == 1:
        fits_desk(desk)
        shot(desk, "night-console-round")
    desk.click("#confirm-round")
    desk.wait_for_selector("#publish-round")
    desk.click("#publish-round")
    desk.wait_for_selector(".console-round[data-round-state=released]")
    return Round.objects.get(tournament=night, number=number, state=Round.State.RELEASED)


def fits_desk(desk: Any) -> None:
    width = desk.evaluate("document.documentElement.scrollWidth")
    assert width <= desk.viewport_size["width"]


def report_paper(table: Table, phones: dict[int, Any], disagree: bool) -> list[int]:
    """One seat reports ranks (seat order reversed), the others confirm; with ``disagree``
    the last seat disagrees instead. Returns the ranks reported."""
    seats = list(table.seats.order_by("seat"))
    ranks = list(range(len(seats), 0, -1))
    reporter = phones[seats[0].registration_id]
    reporter.click("#my-table-report")
    reporter.wait_for_selector("#table-report[data-state=waiting]")
    for seat, rank in zip(seats, ranks, strict=True):
        reporter.select_option(f"#id_rank_{seat.seat}", label=ORDINALS[rank])
    reporter.click("#report-submit")
    reporter.wait_for_selector("#table-report[data-state=reported]")
    fits(reporter)
    for index, seat in enumerate(seats[1:], start=1):
        phone = phones[seat.registration_id]
        phone.click("#my-table-report")
        phone.wait_for_selector("#table-report")
        if disagree and index == len(seats) - 1:
            phone.fill("#disagree-reason", "I was second, not last")
            phone.click("#disagree-result")
            phone.wait_for_selector("#table-report[data-state=disagreement]")
            shot(phone, "night-report-disagreement")
        else:
            phone.click("#confirm-result")
            phone.wait_for_selector("#confirm-result", state="detached")
            assert "agreed" in phone.inner_text("#table-report") or (
                phone.get_attribute("#table-report", "data-state") == "confirmed"
            )
    return ranks


def tally(night: Tournament) -> dict[str, float]:
    """Points per player's name from the final results, by the night's points by rank (tied
    places share their points), computed here, not by the standings code."""
    points: dict[str, float] = defaultdict(float)
    scale = list(night.points_by_rank)
    for table in Table.objects.filter(round__tournament=night, round__state="released"):
        result = table.results.filter(status=Result.Status.CONFIRMED).latest("version")
        seats = {s.seat: s.registration.player.display_name for s in table.seats.all()}
        for seat, rank in enumerate(result.ranks):
            tied = result.ranks.count(rank)
            places = scale[rank - 1 : rank - 1 + tied] + [0.0] * tied
            points[seats[seat]] += sum(places[:tied]) / tied
    return dict(points)


def test_a_whole_tournament_night_in_the_browser(
    browser: Any, asgi_server: Any, browser_problems: Any, celery_worker_process: Any
) -> None:
    # A live region's refetch (a phone's table, the standings) can be in flight when its page
    # moves on (a player follows the link to the game or the report) or when a newer update
    # replaces it: the refetch is aborted, as it would be for a person; the newer one shows.
    # Every live region refetches from a URL ending in "fragment".
    browser_problems.allow_pattern(r"/fragment/?(\?[^ ]*)? \(net::ERR_ABORTED\)")
    # So can a page's own script (print.js) when the test moves on as soon as the page shows:
    # the navigation aborts the load. A script that is missing still fails the test, as its
    # 404 answer.
    browser_problems.allow_pattern(r"/static/[^ ]+\.js \(net::ERR_ABORTED\)")
    club = Club.objects.create(name="Les Pions")
    person("orga", club, role="organiser")
    desk = context_for(browser, asgi_server, browser_problems, None)
    desk.set_viewport_size(DESKTOP)
    night = create_the_night(desk)
    link = desk.get_attribute("#join-url", "href")
    link = link[link.index("/tournaments/") :]

    names = [f"joueur{n:02d}" for n in range(1, 13)]
    phones_by_name = {
        name: join(browser, asgi_server, browser_problems, club=club, link=link, name=name)
        for name in names
    }
    regs = {
        r.player.user.username: r.pk for r in night.registrations.select_related("player__user")
    }
    assert night.registrations.filter(checked_in=True).count() == 12
    phones = {regs[name]: phone for name, phone in phones_by_name.items()}

    standings = context_for(browser, asgi_server, browser_problems, None)
    standings.goto(f"/tournaments/{night.pk}/standings/")
    standings.wait_for_selector(CONNECTED, timeout=WAIT)
    mark(standings)
    screen = context_for(browser, asgi_server, browser_problems, None)
    screen.set_viewport_size(DESKTOP)
    screen.goto(f"/tournaments/{night.pk}/screen")
    screen.wait_for_selector(CONNECTED, timeout=WAIT)

    herald_streams: list[Any] = []
    paper_tables: list[Table] = []
    for number in (1, 2, 3):
        for phone in phones.values():
            phone.goto(f"/tournaments/{night.pk}/")
            phone.wait_for_selector(CONNECTED, timeout=WAIT)
            mark(phone)
        round_ = pair_and_publish(desk, night, number)

        # Every phone shows its table, live, with the link to the game or the report.
        for reg, phone in phones.items():
            table = round_.tables.get(seats__registration_id=reg)
            link_to = "#my-table-game" if table.stream_id else "#my-table-report"
            # The last round's table (and its link) shows until this round's arrives.
            this_round = phone.locator("#my-table .my-table-round", has_text=f"Round {number}")
            this_round.wait_for(timeout=WAIT)
            phone.wait_for_selector(link_to, timeout=WAIT)
            assert f"Table {table.number}" in phone.inner_text("#my-table")
            assert not_reloaded(phone)
            no_sideways_scroll(phone)
        if number == 1:
            shot(next(iter(phones.values())), "night-phone-table")
            desk.goto(f"/tournaments/{night.pk}/console/")
            desk.fill("#timer-minutes", "40")
            desk.click("#timer-start")
            desk.wait_for_selector("#timer-pause")
            screen.wait_for_selector("[data-timer][data-timer-state='running']", timeout=WAIT)
            shot(screen, "night-projector")

        for table in round_.tables.filter(is_bye=False).order_by("number"):
            seats = list(table.seats.order_by("seat"))
            if table.stream_id:
                pages = [phones[s.registration_id] for s in seats]
                for page in pages:
                    page.click("#my-table-game")
                    page.wait_for_selector("[data-stream]")
                stream = Stream.objects.get(pk=table.stream_id)
                bots = {
                    s: GreedyBot(f"night/{number}/{table.number}/{s}") for s in range(len(seats))
                }
                play_with_bot(PlayedTable(stream, pages, None), bots)
                herald_streams.append(stream.pk)
                wait_for(
                    lambda t=table: t.results.filter(status=Result.Status.CONFIRMED).exists(),
                    what=f"round {number} table {table.number} reporting itself",
                )
            else:
                disagree = number == 2
                report_paper(table, phones, disagree)
                paper_tables.append(table)
                if disagree:
                    conflict = table.results.get(status=Result.Status.CONFLICT)
                    desk.goto(f"/tournaments/{night.pk}/console/results/")
                    card = f"#table-{table.pk}"
                    assert desk.get_attribute(card, "data-state") == "disagreement"
                    desk.fill(f"#decide-reason-{conflict.pk}", "The score sheet says so")
                    desk.click(f"#decide-{conflict.pk}")
                    desk.wait_for_selector(f"{card}[data-state=confirmed]")
        if number == 1:
            # The standings page left open follows the results without reload.
            expected = tally(night)
            top = max(expected, key=lambda n: expected[n])
            standings.wait_for_function(
                "([name, points]) => [...document.querySelectorAll('#standings tbody tr')].some("
                "(row) => row.cells[1].innerText.includes(name) &&"
                " Number(row.cells[2].innerText.trim()) === points)",
                arg=[top, expected[top]],
                timeout=WAIT,
            )
            assert not_reloaded(standings)

    night.refresh_from_db()
    wait_for(
        lambda: Tournament.objects.get(pk=night.pk).status == Tournament.Status.FINISHED,
        what="the night finishing by itself",
    )
    expected = tally(night)
    standings.goto(f"/tournaments/{night.pk}/standings/")
    rows = standings.locator("#standings tbody tr")
    cells = [rows.nth(i).locator("td") for i in range(rows.count())]
    ranked = [(int(c.nth(0).inner_text()), c.nth(1).inner_text()) for c in cells]
    shown = [(c.nth(1).inner_text(), float(c.nth(2).inner_text())) for c in cells]
    assert dict(shown) == expected
    assert [p for _, p in shown] == sorted(expected.values(), reverse=True)
    winner = tournament_winner(Tournament.objects.get(pk=night.pk))
    desk.goto(f"/tournaments/{night.pk}/")
    assert winner
    assert winner in desk.inner_text("main")
    # Players tied first are all named, joined by " & ": they are the standings' first rank,
    # and each has the tally's top points (tie-breakers may still split equal points).
    winners = set(winner.split(" & "))
    assert winners == {name for rank, name in ranked if rank == 1}
    top = max(expected.values())
    assert all(expected[name] == top for name in winners)

    # Every result rated in the club's pool with its mark.
    reported = {t.report_stream_id for t in paper_tables}
    wait_for(
        lambda: (
            RatedGame.objects.filter(status="rated").count() == len(herald_streams) + len(reported)
        ),
        timeout=60,
        what="every result rated by the worker",
    )
    for game in RatedGame.objects.all():
        expected_source = "verified" if game.stream_id in set(herald_streams) else "reported"
        assert game.source == expected_source
    assert RatedGame.objects.filter(stream_id__in=reported).count() == len(reported)
    for phone in [*phones.values(), standings, screen, desk]:
        assert phone.evaluate("window.__violations") == []
    assert browser_problems.unexpected() == []
