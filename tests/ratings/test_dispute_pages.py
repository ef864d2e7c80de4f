"""The dispute pages of the site, through Django's client, for each role.

A player files a dispute from their finished game's page; another player adds their side; the
arbiter lists the open disputes, reads one with its game named, previews what a ruling changes
(and the preview is what the ruling then does), rules, and follows the re-rating; the players
read the ruling on their game's page and on My Herald. An arbiter seated in the game is refused
as the API refuses them; an anonymous visitor is sent to log in; bad input is a 400 with a
sentence and writes nothing.
"""

from __future__ import annotations

import datetime as dt
import re
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import connection
from django.template import Context, Template
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from events.models import Event, EventType, Stream
from ratings.consequences import ruling_consequences
from ratings.disputes import dispute_open, dispute_statement_add
from ratings.models import Dispute, DisputeStatement, Rating, RatingChange, RecomputeJob
from ratings.services import recompute_run
from tests.ratings.dispute_night import Night, dispute_night
from tests.tamper import stream_tamper
from tests.users import make_user
from tournaments import selectors as tournaments
from tournaments.models import Player, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def night() -> Night:
    return dispute_night()


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(html: str) -> str:
    """The page's visible text with tags dropped and spaces collapsed (entities kept)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


def detail_url(dispute: Dispute) -> str:
    return reverse("dispute-pages:detail", args=[dispute.pk])


def other_ranks(stream: Stream) -> list[int]:
    """Ranks the game did not end with: the first two seats' ranks swapped (made a valid
    ranking again when they were tied)."""
    ranks = list(stream.result["ranks"])
    amended = [2, 1, 3, 4] if ranks != [2, 1, 3, 4] else [1, 2, 3, 4]
    assert amended != ranks
    return amended


def amend_form(ranks: list[int], reason: str = "The King was on the wrong law.") -> dict[str, Any]:
    return {"ruling": "amend", "reason": reason, **{f"rank_{i}": r for i, r in enumerate(ranks)}}


def nothing_ruled(dispute: Dispute) -> bool:
    dispute.refresh_from_db()
    ruling_events = Event.objects.filter(stream_id=dispute.stream_id, type=EventType.RULING_MADE)
    return (
        dispute.status == Dispute.Status.OPEN
        and not ruling_events.exists()
        and not RecomputeJob.objects.exists()
    )


def run_jobs() -> None:
    """The recompute jobs the rulings queued (on commit, which a test transaction never reaches)."""
    for job in RecomputeJob.objects.filter(status=RecomputeJob.Status.QUEUED):
        recompute_run(job_id=job.pk)


# -- a player files a dispute ----------------------------------------------------------------------


def test_a_player_files_a_dispute_from_their_finished_games_page(night: Night) -> None:
    game = night.games[0]
    player = night.seat_user(game, 1)
    client = client_for(player)
    page = client.get(reverse("play:table", args=[game.pk])).content.decode()
    new_url = reverse("dispute-pages:new", args=[game.pk])
    assert new_url in page
    assert "Disputes are open until" in text(page)
    form = client.get(new_url)
    assert form.status_code == 200
    words = text(form.content.decode())
    assert "Bots' night, round 1, table 1" in words
    assert "13 Couronnes" in words
    assert str(game.pk) not in words  # the game is named, not numbered
    answer = client.post(new_url, {"move": 3, "reason": "Bot 00 played twice in a row."})
    dispute = Dispute.objects.get(stream_id=game.pk)
    assert answer.status_code == 302
    assert answer["Location"] == detail_url(dispute)
    assert (dispute.opened_by, dispute.move, dispute.status) == (player, 3, "open")
    shown = text(client.get(detail_url(dispute)).content.decode())
    assert f"Disputed: move 3 of {game.version - 2}" in shown
    assert "Bot 00 played twice in a row." in shown
    after = text(client.get(reverse("play:table", args=[game.pk])).content.decode())
    assert "This game is under dispute: the arbiter has not ruled yet." in after
    assert new_url not in after


def test_filing_is_refused_in_words_when_not_seated_or_already_open(night: Night) -> None:
    game = night.games[0]
    new_url = reverse("dispute-pages:new", args=[game.pk])
    stranger = client_for(make_user("stranger"))
    refused = stranger.post(new_url, {"move": 1, "reason": "I saw it"})
    assert refused.status_code == 403
    assert "Only a player seated in this game can dispute it." in text(refused.content.decode())
    night.dispute(game, seat=0)
    second = client_for(night.seat_user(game, 1)).post(new_url, {"move": 1, "reason": "me too"})
    assert second.status_code == 409
    assert "already has an open dispute" in text(second.content.decode())
    assert Dispute.objects.filter(stream_id=game.pk).count() == 1


def test_filing_after_the_window_is_refused_with_its_times(night: Night) -> None:
    game = night.games[1]
    stream_tamper(game.pk, finished_at=game.finished_at - dt.timedelta(hours=2))
    client = client_for(night.seat_user(game, 0))
    page = text(client.get(reverse("play:table", args=[game.pk])).content.decode())
    assert "disputes were open for 30 min after that, and that time has passed" in page
    assert reverse("dispute-pages:new", args=[game.pk]) not in page
    answer = client.post(reverse("dispute-pages:new", args=[game.pk]), {"move": 1, "reason": "x"})
    assert answer.status_code == 409
    assert "that time has passed" in text(answer.content.decode())
    assert not Dispute.objects.exists()


@pytest.mark.parametrize(
    ("form", "words"),
    [
        ({"move": "", "reason": "a claim"}, "This field is required."),
        ({"move": "two", "reason": "a claim"}, "Enter a whole number."),
        ({"move": 0, "reason": "a claim"}, "greater than or equal to 1"),
        ({"move": 1, "reason": "   "}, "This field is required."),
        ({"move": 999, "reason": "a claim"}, "name a move from 1 to"),
    ],
)
def test_a_bad_dispute_form_is_a_400_with_a_sentence(
    night: Night, form: dict[str, Any], words: str
) -> None:
    game = night.games[0]
    answer = client_for(night.seat_user(game, 0)).post(
        reverse("dispute-pages:new", args=[game.pk]), form
    )
    assert answer.status_code == 400
    assert words in text(answer.content.decode())
    assert not Dispute.objects.exists()


def test_anonymous_visitors_are_sent_to_log_in(night: Night) -> None:
    dispute = night.dispute(night.games[0])
    for url in (
        reverse("dispute-pages:list"),
        detail_url(dispute),
        reverse("dispute-pages:new", args=[dispute.stream_id]),
        reverse("dispute-pages:progress", args=[dispute.pk]),
    ):
        answer = Client().get(url)
        assert answer.status_code == 302, url
        assert answer["Location"].startswith(reverse("login") + "?next=")
    refused = Client().post(
        reverse("dispute-pages:rule", args=[dispute.pk]), amend_form([1, 2, 3, 4])
    )
    assert refused.status_code == 302
    assert nothing_ruled(dispute)


# -- statements ------------------------------------------------------------------------------------


def test_another_seated_player_adds_their_side_once(night: Night) -> None:
    game = night.games[0]
    dispute = night.dispute(game, seat=0)
    other = night.seat_user(game, 2)
    client = client_for(other)
    page = client.get(detail_url(dispute)).content.decode()
    assert reverse("dispute-pages:statement", args=[dispute.pk]) in page
    url = reverse("dispute-pages:statement", args=[dispute.pk])
    blank = client.post(url, {"text": "  "})
    assert blank.status_code == 400
    assert not DisputeStatement.objects.exists()
    answer = client.post(url, {"text": "The law was the right one: I checked the card."})
    assert answer.status_code == 302
    shown = text(client.get(detail_url(dispute)).content.decode())
    assert "The law was the right one: I checked the card." in shown
    assert night.name_of(other) in shown
    again = client.post(url, {"text": "And another thing"})
    assert again.status_code == 409
    assert "already made your statement" in text(again.content.decode())
    opener = client_for(night.seat_user(game, 0)).post(url, {"text": "Me again"})
    assert opener.status_code == 403
    assert "your reason is your statement" in text(opener.content.decode())
    assert DisputeStatement.objects.count() == 1


# -- the arbiter's list ----------------------------------------------------------------------------


def test_the_arbiters_list_names_each_games_tournament_round_table_and_players(
    night: Night,
) -> None:
    later = night.dispute(night.games[1], seat=3, move=None)
    earlier = night.dispute(night.games[0], seat=0)
    Dispute.objects.filter(pk=earlier.pk).update(opened_at=later.opened_at - dt.timedelta(hours=1))
    html = client_for(night.arbiter).get(reverse("dispute-pages:list")).content.decode()
    cards = re.findall(r'data-dispute="(\d+)"', html)
    assert cards == [str(earlier.pk), str(later.pk)]  # oldest first
    words = text(html)
    assert "Bots' night, round 1, table 1" in words
    assert "Bots' night, round 2, table 1" in words
    for player in night.players:
        assert player.display_name in words
    assert "13 Couronnes" in words
    assert "about move 2" in words
    assert str(earlier.stream_id) not in html
    assert f'href="{reverse("dispute-pages:list")}"' in html  # the nav's entry


def test_ruled_disputes_are_listed_apart(night: Night) -> None:
    open_one = night.dispute(night.games[1])
    ruled = night.dispute(night.games[0])
    client = client_for(night.arbiter)
    client.post(
        reverse("dispute-pages:rule", args=[ruled.pk]), {"ruling": "uphold", "reason": "ok"}
    )
    listed = client.get(reverse("dispute-pages:list")).content.decode()
    assert re.findall(r'data-dispute="(\d+)"', listed) == [str(open_one.pk)]
    assert "Ruled (1)" in text(listed)
    ruled_page = client.get(reverse("dispute-pages:list") + "?status=ruled").content.decode()
    assert re.findall(r'data-dispute="(\d+)"', ruled_page) == [str(ruled.pk)]
    bad = client.get(reverse("dispute-pages:list") + "?status=maybe")
    assert bad.status_code == 400
    assert "status=open or status=ruled" in text(bad.content.decode())


def test_players_have_no_arbiters_list_and_no_nav_entry(night: Night) -> None:
    night.dispute(night.games[0])
    player = client_for(night.seat_user(night.games[0], 0))
    answer = player.get(reverse("dispute-pages:list"))
    assert answer.status_code == 403
    assert "Only an arbiter or staff member rules on disputes." in text(answer.content.decode())
    me = player.get(reverse("me")).content.decode()
    assert f'href="{reverse("dispute-pages:list")}"' not in me


def test_a_dispute_is_hidden_from_those_outside_the_game(night: Night) -> None:
    dispute = night.dispute(night.games[0])
    stranger = client_for(make_user("stranger"))
    assert stranger.get(detail_url(dispute)).status_code == 404
    assert stranger.get(reverse("dispute-pages:progress", args=[dispute.pk])).status_code == 404


# -- one dispute, the arbiter's view ---------------------------------------------------------------


def test_the_dispute_page_names_the_game_and_opens_the_replay_at_the_move(night: Night) -> None:
    game = night.games[0]
    dispute = night.dispute(game, seat=0, move=4)
    dispute_statement_add(dispute_id=dispute.pk, user=night.seat_user(game, 1), text="Not so.")
    html = client_for(night.arbiter).get(detail_url(dispute)).content.decode()
    words = text(html)
    assert f"Dispute {dispute.pk} on 13 Couronnes" in words
    assert "Bots' night, round 1, table 1" in words
    for seat in range(4):
        user = night.seat_user(game, seat)
        assert f"seat {seat + 1}: {night.name_of(user)}" in words
    assert str(game.pk) not in words
    replay = re.search(r'href="([^"]+)" data-replay-link', html)
    assert replay is not None
    assert replay.group(1).endswith(f"/games/{game.pk}/?move=4") or replay.group(1).endswith(
        f"/games/{game.pk}/replay?move=4"
    )
    assert "Disputed: move 4 of" in words
    assert "The King went on the wrong law: please check." in words
    assert "Not so." in words
    assert "data-ruling-form" in html
    assert 'value="amend"' in html
    for seat in range(4):
        assert f"Rank of {night.name_of(night.seat_user(game, seat))}" in words


def test_a_seated_player_reads_the_dispute_but_has_no_ruling_form(night: Night) -> None:
    game = night.games[0]
    dispute = night.dispute(game)
    html = client_for(night.seat_user(game, 3)).get(detail_url(dispute)).content.decode()
    assert "data-ruling-form" not in html
    assert "The arbiter has not ruled yet." in text(html)
    refused = client_for(night.seat_user(game, 3)).post(
        reverse("dispute-pages:rule", args=[dispute.pk]), amend_form(other_ranks(game))
    )
    assert refused.status_code == 403
    assert nothing_ruled(dispute)


def test_an_arbiter_seated_in_the_game_is_offered_no_form_and_refused(night: Night) -> None:
    game = night.games[0]
    dispute = night.dispute(game)
    seated = night.seat_user(game, 2)
    seated.groups.add(night.arbiter.groups.get())
    client = client_for(seated)
    html = client.get(detail_url(dispute)).content.decode()
    assert "data-ruling-form" not in html
    assert "You play in this game: another arbiter or staff must rule." in text(html)
    for step in ("preview", "rule"):
        answer = client.post(
            reverse(f"dispute-pages:{step}", args=[dispute.pk]), amend_form(other_ranks(game))
        )
        assert answer.status_code == 403, step
        assert "You play in this game: another arbiter or staff must rule." in text(
            answer.content.decode()
        )
    assert nothing_ruled(dispute)


# -- preview and ruling ----------------------------------------------------------------------------


def test_the_preview_shows_what_moves_and_writes_nothing(night: Night) -> None:
    game = night.games[0]
    dispute = night.dispute(game)
    ranks = other_ranks(game)
    changes = RatingChange.objects.count()
    answer = client_for(night.arbiter).post(
        reverse("dispute-pages:preview", args=[dispute.pk]), amend_form(ranks)
    )
    assert answer.status_code == 200
    html = answer.content.decode()
    words = text(html)
    assert "The standings of Bots' night" in words
    assert "Ratings (μ − 3σ)" in words
    assert "2 games are rated again" in words
    for seat in range(4):
        name = night.name_of(night.seat_user(game, seat))
        assert f'data-standing="{name}"' in html
        assert f'data-rating="{name}"' in html
    assert "data-confirm-ruling" in html
    assert nothing_ruled(dispute)
    assert RatingChange.objects.count() == changes


def test_the_preview_is_what_the_ruling_then_does(night: Night) -> None:
    """The standings and ratings the preview announces are those after ruling and re-rating."""
    game = night.games[0]
    dispute = night.dispute(game)
    ranks = other_ranks(game)
    preview = ruling_consequences(dispute=dispute, ruling="amend", ranks=ranks)
    assert any(row.moved for row in preview.ratings)
    assert any(row.moved for row in preview.standings)
    answer = client_for(night.arbiter).post(
        reverse("dispute-pages:rule", args=[dispute.pk]), amend_form(ranks)
    )
    assert answer.status_code == 302
    run_jobs()
    names = {p.user_id: p.display_name for p in night.players}
    ratings = {names[r.player_id]: r.conservative for r in Rating.objects.filter(games__gt=0)}
    for row in preview.ratings:
        assert ratings[row.name] == pytest.approx(row.after, abs=1e-9), row.name
    standings = {line.name: line for line in tournaments.tournament_standings(night.tournament)}
    for row in preview.standings:
        assert (standings[row.name].rank, standings[row.name].points) == pytest.approx(
            (row.rank_after, row.points_after)
        ), row.name


def test_an_annulled_game_takes_its_points_away_in_the_preview(night: Night) -> None:
    game = night.games[1]
    dispute = night.dispute(game)
    preview = ruling_consequences(dispute=dispute, ruling="annul")
    before = {line.name: line.points for line in tournaments.tournament_standings(night.tournament)}
    table = set(
        Registration.objects.filter(seats__table__stream_id=game.pk).values_list(
            "player__display_name", flat=True
        )
    )
    rule = night.tournament.points_by_rank
    for row in preview.standings:
        assert row.points_now == before[row.name]
        if row.name in table:
            assert row.points_after <= row.points_now
    assert sum(row.points_now - row.points_after for row in preview.standings) == pytest.approx(
        sum(float(p) for p in rule[:4])
    )
    uphold = ruling_consequences(dispute=dispute, ruling="uphold")
    assert not any(row.moved for row in uphold.standings + uphold.ratings)  # type: ignore[operator]


def test_an_arbiter_rules_amend_and_follows_the_rerating(night: Night) -> None:
    game = night.games[0]
    dispute = night.dispute(game)
    ranks = other_ranks(game)
    client = client_for(night.arbiter)
    answer = client.post(reverse("dispute-pages:rule", args=[dispute.pk]), amend_form(ranks))
    assert answer.status_code == 302
    assert answer["Location"] == detail_url(dispute) + "#ruling"
    dispute.refresh_from_db()
    assert (dispute.status, dispute.ruling, dispute.amended_ranks) == ("ruled", "amend", ranks)
    assert dispute.ruled_by == night.arbiter
    event = Event.objects.get(stream_id=game.pk, type=EventType.RULING_MADE)
    assert (event.payload["kind"], event.payload["data"]["ranks"]) == ("amend", ranks)
    progress_url = reverse("dispute-pages:progress", args=[dispute.pk])
    queued = client.get(progress_url).json()
    assert (queued["status"], queued["finished"]) == ("queued", False)
    page = client.get(detail_url(dispute)).content.decode()
    assert f'data-progress-url="{progress_url}"' in page
    assert "dispute_progress.js" in page
    run_jobs()
    done = client.get(progress_url).json()
    assert (done["status"], done["finished"], done["done"], done["total"]) == ("done", True, 2, 2)
    assert done["text"] == "Done: the pool is re-rated (2 games rated again)."
    again = client.post(reverse("dispute-pages:rule", args=[dispute.pk]), amend_form(ranks))
    assert again.status_code == 409
    assert "already been ruled on" in text(again.content.decode())


def test_the_players_are_told_the_ruling_on_the_game_page_and_my_herald(night: Night) -> None:
    game = night.games[0]
    dispute = night.dispute(game)
    ranks = other_ranks(game)
    client_for(night.arbiter).post(
        reverse("dispute-pages:rule", args=[dispute.pk]),
        amend_form(ranks, reason="Bot 02 had the 13th crown."),
    )
    order = sorted(range(4), key=lambda seat: ranks[seat])
    places = ", ".join(
        f"{night.name_of(night.seat_user(game, seat))} {('1st', '2nd', '3rd', '4th')[ranks[seat] - 1]}"
        for seat in order
    )
    date = timezone.localtime(timezone.now()).strftime("%-d %B %Y")
    sentence = (
        f"The arbiter ruled on {date} that the result is amended to {places}: "
        "Bot 02 had the 13th crown."
    )
    for seat in range(4):
        player = client_for(night.seat_user(game, seat))
        assert sentence in text(player.get(reverse("play:table", args=[game.pk])).content.decode())
        assert sentence in text(player.get(reverse("me")).content.decode())
    other = night.games[1]
    untouched = text(
        client_for(night.seat_user(other, 0))
        .get(reverse("play:table", args=[other.pk]))
        .content.decode()
    )
    assert "The arbiter ruled" not in untouched


def test_a_replay_from_a_move_is_ruled_from_the_site(night: Night) -> None:
    game = night.games[1]
    dispute = night.dispute(game, move=3)
    form = {"ruling": "replay", "reason": "A card was dealt face up.", "from_move": 2}
    client = client_for(night.arbiter)
    preview = client.post(reverse("dispute-pages:preview", args=[dispute.pk]), form)
    assert preview.status_code == 200
    assert "the new game keeps moves 1 to 2" in text(preview.content.decode())
    assert client.post(reverse("dispute-pages:rule", args=[dispute.pk]), form).status_code == 302
    dispute.refresh_from_db()
    assert (dispute.ruling, dispute.replay_from) == ("replay", 2)
    assert Stream.objects.filter(pk=dispute.new_stream_id).exists()
    words = text(client.get(detail_url(dispute)).content.decode())
    assert "the game is played again from move 3" in words


@pytest.mark.parametrize(
    ("form", "status", "words"),
    [
        ({"ruling": "amend", "reason": "x", "rank_0": 1}, 400, "give every player a rank"),
        (
            {"ruling": "amend", "reason": "x", "rank_0": 1, "rank_1": 3, "rank_2": 3, "rank_3": 4},
            400,
            "Ranks are 1-based with ties sharing a place",
        ),
        ({"ruling": "amend", "reason": "x", "rank_0": "one"}, 400, "Enter a whole number."),
        ({"ruling": "amend", "reason": "x", "rank_0": 9}, 400, "less than or equal to 4"),
        ({"ruling": "replay", "reason": "x"}, 400, "Say from which move the game is replayed"),
        (
            {"ruling": "replay", "reason": "x", "from_move": 500},
            400,
            "replay from a move between 0",
        ),
        ({"ruling": "pardon", "reason": "x"}, 400, "Select a valid choice."),
        ({"ruling": "uphold", "reason": ""}, 400, "This field is required."),
    ],
)
@pytest.mark.parametrize("step", ["preview", "rule"])
def test_a_bad_ruling_is_a_400_with_a_sentence_and_writes_nothing(
    night: Night, form: dict[str, Any], status: int, words: str, step: str
) -> None:
    dispute = night.dispute(night.games[0])
    streams = Stream.objects.count()
    answer = client_for(night.arbiter).post(
        reverse(f"dispute-pages:{step}", args=[dispute.pk]), form
    )
    assert answer.status_code == status
    assert words in text(answer.content.decode())
    assert nothing_ruled(dispute)
    assert Stream.objects.count() == streams


def test_a_missing_dispute_is_a_404(night: Night) -> None:
    client = client_for(night.arbiter)
    assert client.get(reverse("dispute-pages:detail", args=[999])).status_code == 404
    missing = client.post(reverse("dispute-pages:rule", args=[999]), {"ruling": "uphold"})
    assert missing.status_code == 404


def test_staff_see_the_nav_entry_players_do_not(night: Night) -> None:
    entry = f'href="{reverse("dispute-pages:list")}"'
    staff = make_user("desk-staff", staff=True)
    assert entry in client_for(staff).get(reverse("home")).content.decode()
    assert entry in client_for(night.arbiter).get(reverse("home")).content.decode()
    player = Player.objects.first()
    assert player is not None
    assert entry not in client_for(player.user).get(reverse("home")).content.decode()


def test_the_desk_and_the_ruling_read_in_french(night: Night) -> None:
    game = night.games[0]
    dispute = night.dispute(game)
    arbiter = client_for(night.arbiter)
    french = {"HTTP_ACCEPT_LANGUAGE": "fr"}
    listed = text(arbiter.get(reverse("dispute-pages:list"), **french).content.decode())
    assert "Le bureau de l’arbitre" in listed
    assert "Bots' night, ronde 1, table 1" in listed
    page = text(arbiter.get(detail_url(dispute), **french).content.decode())
    assert "Votre décision" in page
    assert "Contesté : coup 2 sur" in page
    ranks = [2, 1, 3, 4] if game.result["ranks"] != [2, 1, 3, 4] else [1, 2, 3, 4]
    preview = arbiter.post(
        reverse("dispute-pages:preview", args=[dispute.pk]), amend_form(ranks), **french
    )
    words = text(preview.content.decode())
    assert "Avant de statuer sur la contestation" in words
    first, second = (night.name_of(night.seat_user(game, ranks.index(r))) for r in (1, 2))
    assert f"{first} 1er, {second} 2e" in words
    arbiter.post(reverse("dispute-pages:rule", args=[dispute.pk]), amend_form(ranks))
    told = text(
        client_for(night.seat_user(game, 0))
        .get(reverse("play:table", args=[game.pk]), **french)
        .content.decode()
    )
    assert "L’arbitre a décidé le" in told
    assert "que le résultat est corrigé ainsi :" in told


def test_the_admin_shows_the_disputed_move_and_the_statements(night: Night) -> None:
    game = night.games[0]
    dispute = night.dispute(game, move=4)
    dispute_statement_add(dispute_id=dispute.pk, user=night.seat_user(game, 1), text="Not so.")
    staff = make_user("desk-admin", groups=("arbiters",), staff=True)
    page = client_for(staff).get(reverse("admin:ratings_dispute_change", args=[dispute.pk]))
    assert page.status_code == 200
    words = text(page.content.decode())
    assert "Not so." in words
    assert "Move: 4" in words


def test_a_game_outside_tournaments_and_not_rated_yet_says_so_in_the_preview(
    finished: Any, arbiter: Any
) -> None:
    """A toy game with no tournament table, never verified: nothing in standings or ratings
    moves, and the preview says why instead of showing empty tables."""
    stream = finished(2)
    dispute = dispute_open(stream_id=stream.pk, user=stream.seats.get(seat=0).user, reason="hm")
    answer = client_for(arbiter).post(
        reverse("dispute-pages:preview", args=[dispute.pk]),
        {"ruling": "annul", "reason": "A misdeal."},
    )
    assert answer.status_code == 200
    words = text(answer.content.decode())
    assert "The game belongs to no tournament: no standings change." in words
    assert "The game is not rated yet: once verified, it is rated as the ruling says." in words
    listed = text(client_for(arbiter).get(reverse("dispute-pages:list")).content.decode())
    assert "A game of" in listed


def test_the_list_costs_the_same_queries_with_more_disputes(
    night: Night, django_assert_max_num_queries: Any
) -> None:
    client = client_for(night.arbiter)
    night.dispute(night.games[0])
    with CaptureQueriesContext(connection) as one:
        client.get(reverse("dispute-pages:list"))
    night.dispute(night.games[1], seat=2)
    with django_assert_max_num_queries(len(one.captured_queries)):
        html = client.get(reverse("dispute-pages:list")).content.decode()
    assert html.count("data-dispute=") == 2


def test_the_game_pages_dispute_lines_for_a_visitor_say_the_ruling_only(night: Night) -> None:
    """Rendered without a request, or for a visitor: the ruling (the game's result changed for
    everyone), no open dispute, no link to a dispute page they may not read."""
    game = night.games[0]
    dispute = night.dispute(game)
    client_for(night.arbiter).post(
        reverse("dispute-pages:rule", args=[dispute.pk]), {"ruling": "uphold", "reason": "Fine."}
    )
    night.dispute(game, seat=1)  # a second dispute, still open
    html = Template('{% include "ratings/disputes/_game_dispute.html" %}').render(
        Context({"game": SimpleNamespace(stream_id=game.pk)})
    )
    words = text(html)
    assert "that the result stands: Fine." in words
    assert "under dispute" not in words
    assert "/disputes/" not in html
