"""The replay viewer (play/replay.py, /games/<stream>/replay): move n is the n-th move; who sees
what at each step (arbiters and staff every hand, a player their own while the game runs, a
spectator the public view, everyone everything after the end); the step in words with names,
its chance outcomes as the viewer may see them, what changed; the hash chain; bad ``?move``
answered with a sentence; planted markers never reach a viewer who may not see them."""

from __future__ import annotations

import html as htmllib
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

import engine
from engine import registry
from engine.core.replay import SetupRecord
from engine.core.replay import replay as replay_log
from engine.sept_blasons.cards import STANDARD
from events.models import Event, Stream
from events.services import stream_continue_from, stream_open
from play import replay as replays
from play.drawings import DRAWINGS, Drawing
from tests.events import toy_game
from tests.platform.test_me import text
from tests.ratings.games import play_stream
from tests.tamper import event_tamper
from tests.users import make_user

pytestmark = pytest.mark.django_db

GAME = engine.get("les-7-blasons")
GAME_HOUSES = STANDARD.colours


def open_game(moves: int | None, *, players: int = 3, tag: str = "") -> tuple[Stream, list[Any]]:
    """A game of Les 7 Blasons played by bots for ``moves`` moves (None: to the end)."""
    users = [make_user(f"r{i}-{moves}{tag}") for i in range(players)]
    stream = stream_open(game_id="les-7-blasons", seats=users)
    if moves != 0:
        stream = play_stream(stream, stop_after=moves)
    return Stream.objects.get(pk=stream.pk), users


def get(stream: Stream, user: Any = None, **query: Any) -> Any:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client.get(reverse("play:replay", args=[stream.pk]), query)


def page(stream: Stream, user: Any = None, **query: Any) -> str:
    response = get(stream, user, **query)
    assert response.status_code == 200, response.content[:400]
    return response.content.decode()


def replay_root(html: str) -> dict[str, str]:
    tag = re.search(r"<section class=\"replay\"([^>]*)>", html)
    assert tag is not None
    return {
        k: htmllib.unescape(v) for k, v in re.findall(r'data-([a-z-]+)="([^"]*)"', tag.group(1))
    }


def boards(html: str) -> list[str]:
    """The seats whose views the page draws ("" for the public view), in order."""
    return re.findall(r'<section class="replay-board"[^>]*data-view-seat="([^"]*)"', html)


def hands(html: str) -> list[list[str]]:
    """The hands drawn on the page: one list of character names per ``<ul class="hand">``."""
    return [
        re.findall(r'<span class="card-name">([^<]*)</span>', found)
        for found in re.findall(r'<ul class="hand">(.*?)</ul>', html, flags=re.S)
    ]


def state_after(stream: Stream, move: int, game: Any = GAME) -> Any:
    """The state after ``move`` from the engine's own replay (not the page's code)."""
    created = stream.events.get(seq=1).payload
    setup = SetupRecord(
        game=stream.game, edition=created["edition"], players=len(created["seats"]),
        options=created["options"], seed=stream.seed, engine_version=created["engine_version"],
    )  # fmt: skip
    moves = [
        (e.payload["seat"], e.payload["move"])
        for e in stream.events.filter(type="MoveMade").order_by("seq")
    ]
    state, _ = replay_log(game, setup, moves, until=move)
    return state


def hand_of(state: Any, seat: int) -> list[str]:
    return [card["character"] for card in GAME.view(state, seat)["hand"]]


# -- move numbers ---------------------------------------------------------------------------


def test_move_n_is_the_nth_move_and_the_page_names_its_event() -> None:
    stream, users = open_game(12)
    seqs = list(stream.events.filter(type="MoveMade").order_by("seq").values_list("seq", flat=True))
    assert len(seqs) == 12
    for move in (0, 1, 5, 12):
        html = page(stream, users[0], move=move)
        root = replay_root(html)
        assert root["replay-move"] == str(move)
        assert root["replay-moves"] == "12"
        seq = 1 if move == 0 else seqs[move - 1]
        assert root["replay-seq"] == str(seq)
        if move:
            assert f"Move {move} of 12 — event {seq}" in text(html)
        else:
            assert "The deal (move 0 of 12) — event 1" in text(html)
    # Without ?move the replay opens at the last move.
    assert replay_root(page(stream, users[0]))["replay-move"] == "12"


def test_the_step_links_go_one_move_either_way_and_to_the_ends() -> None:
    stream, users = open_game(6)
    html = page(stream, users[1], move=3)
    links = dict(re.findall(r'<a href="\?move=(\d+)"[^>]*data-step="([a-z]+)"', html))
    assert {step: int(move) for move, step in links.items()} == {
        "first": 0, "previous": 2, "next": 4, "last": 6,
    }  # fmt: skip
    assert 'name="move" min="0" max="6" value="3"' in html
    first = page(stream, users[1], move=0)
    assert 'data-step="previous"' not in first
    assert 'data-step="next"' in first
    last = page(stream, users[1], move=6)
    assert 'data-step="next"' not in last
    assert 'data-step="previous"' in last


@pytest.mark.parametrize(
    ("raw", "status", "words"),
    [
        ("7", 404, "This game has 6 moves so far: there is no move 7."),
        ("99999999999", 400, "must be a whole number"),
        ("-1", 400, "must be a whole number"),
        ("two", 400, "must be a whole number"),
        ("٣", 400, "must be a whole number"),
        ("", 400, "must be a whole number"),
    ],
)
def test_a_bad_move_is_a_4xx_with_a_sentence(raw: str, status: int, words: str) -> None:
    stream, users = open_game(6, tag=f"-{status}-{len(raw)}")
    response = get(stream, users[0], move=raw)
    assert response.status_code == status
    assert words in htmllib.unescape(text(response.content.decode()))


def test_a_private_game_is_a_404_to_strangers_and_a_game_without_drawing_says_so() -> None:
    users = [make_user(f"priv{i}") for i in range(3)]
    stream = stream_open(game_id="les-7-blasons", seats=users, public=False)
    assert get(stream, make_user("stranger")).status_code == 404
    assert get(stream, users[0]).status_code == 200
    undrawn = stream_open(game_id="13-couronnes", seats=[make_user(f"k{i}") for i in range(3)])
    if "13-couronnes" not in DRAWINGS:
        response = get(undrawn)
        assert response.status_code == 404
        assert "live table only" in text(response.content.decode())


# -- who sees what --------------------------------------------------------------------------


@pytest.mark.parametrize("move", [0, 4, 11])
def test_an_arbiter_sees_every_hand_at_each_step_labelled_omniscient(move: int) -> None:
    stream, users = open_game(11, tag="-arb")
    arbiter = make_user(f"arbiter-{move}", groups=("arbiters",))
    html = page(stream, arbiter, move=move)
    state = state_after(stream, move)
    assert boards(html) == ["0", "1", "2"]
    assert hands(html) == [hand_of(state, seat) for seat in range(3)]
    assert replay_root(html)["sight"] == "omniscient"
    assert "Omniscient replay" in text(html)
    for user in users:
        assert f"As {user.get_username()} (seat {users.index(user) + 1}) sees it" in text(html)
    assert stream.seed not in html  # the seed stays sealed while the game runs
    staff = page(stream, make_user(f"staff-{move}", staff=True), move=move)
    assert hands(staff) == hands(html)


@pytest.mark.parametrize("move", [0, 3, 10])
def test_a_player_sees_only_their_own_hand_while_the_game_runs(move: int) -> None:
    stream, users = open_game(10, tag="-pl")
    state = state_after(stream, move)
    for seat, user in enumerate(users):
        html = page(stream, user, move=move)
        assert boards(html) == [str(seat)]
        assert hands(html) == [hand_of(state, seat)]
        assert replay_root(html)["sight"] == "seat"
        assert "Your view" in text(html)
        assert stream.seed not in html
        assert "data-move=" not in html  # nothing is played from a replay
    spectator = page(stream, None, move=move)
    assert boards(spectator) == [""]
    assert hands(spectator) == []
    assert replay_root(spectator)["sight"] == "public"


def board_html(html: str, seat: int) -> str:
    """The HTML of the board drawn for ``seat`` (0-based)."""
    start = html.index(f'data-view-seat="{seat}"')
    end = html.find('<section class="replay-board"', start)
    return html[start : end if end != -1 else len(html)]


YOU_TAG = '<span class="tag">you</span>'


@pytest.mark.parametrize("game_id", ["les-7-blasons", "13-couronnes", "blazon"])
def test_an_arbiters_boards_name_each_seat_instead_of_speaking_to_it(game_id: str) -> None:
    users = [make_user(f"look-{game_id}-{i}") for i in range(3)]
    stream = play_stream(stream_open(game_id=game_id, seats=users), stop_after=3)
    acting = engine.get(game_id).to_act(state_after(stream, 3, engine.get(game_id)))[0]
    arbiter = make_user(f"look-arbiter-{game_id}", groups=("arbiters",))
    html = page(stream, arbiter)
    assert boards(html) == ["0", "1", "2"]
    named_hands = 0
    for seat, user in enumerate(users):
        board = board_html(html, seat)
        words = text(board)
        assert YOU_TAG not in board
        assert "Your turn" not in words
        assert "Your hand" not in words
        # Where the seat's own replay heads its hand "Your hand", the arbiter's names it.
        named = f"{user.get_username()}'s hand" in htmllib.unescape(words)
        assert named == ("Your hand" in text(page(stream, user)))
        named_hands += named
    assert named_hands >= 1  # the last seat has made no move: its starting hand is whole
    acting_name = users[acting].get_username()
    assert acting_name in text(board_html(html, acting).split("</p>")[0])  # the turn line
    # A seat's own replay still speaks to them.
    own = page(stream, users[acting])
    assert YOU_TAG in own
    if game_id != "blazon":  # Blazon says "Your turn" only with the moves to make there
        assert "Your turn" in text(own)


def test_after_the_end_a_player_is_you_on_their_own_board_only() -> None:
    stream, users = open_game(None, tag="-you")
    html = page(stream, users[1], move=6)
    assert boards(html) == ["0", "1", "2"]
    assert [YOU_TAG in board_html(html, seat) for seat in range(3)] == [False, True, False]
    assert "Your hand" in text(board_html(html, 1))
    assert f"{users[0].get_username()}'s hand" in htmllib.unescape(text(board_html(html, 0)))
    last = page(stream, users[1])  # the final scores: "you" on their own board's row alone
    assert [YOU_TAG in board_html(last, seat) for seat in range(3)] == [False, True, False]


def test_an_arbiter_seated_in_the_game_sees_it_as_a_player() -> None:
    users = [make_user("seated-arbiter", groups=("arbiters",)), make_user("s1"), make_user("s2")]
    stream = play_stream(stream_open(game_id="les-7-blasons", seats=users), stop_after=4)
    html = page(stream, users[0])
    assert boards(html) == ["0"]
    assert len(hands(html)) == 1


def test_after_the_end_everyone_sees_every_hand_and_the_last_step_the_result() -> None:
    stream, users = open_game(None, tag="-end")
    assert stream.is_finished
    moves = stream.events.filter(type="MoveMade").count()
    for viewer in [users[0], None]:
        html = page(stream, viewer, move=moves // 2)
        assert boards(html) == ["0", "1", "2"]
        state = state_after(stream, moves // 2)
        assert hands(html) == [hand_of(state, seat) for seat in range(3)]
        assert "Every hand is shown" in text(html)
        last = page(stream, viewer)
        assert replay_root(last)["replay-move"] == str(moves)
        assert "data-result=" in last
        assert stream.seed in last  # revealed at the end, on the final step only
        assert stream.seed not in html
        assert "data-result=" not in html
        # The end of the game is the last step's following event.
        assert "The game ends; its seed is revealed." in text(last)


# -- the step in words, chance, what changed, the chain -------------------------------------


def test_each_step_in_words_with_the_players_names() -> None:
    stream, users = open_game(9, tag="-words")
    for event in stream.events.filter(type="MoveMade").order_by("seq")[:9]:
        move = stream.events.filter(type="MoveMade", seq__lte=event.seq).count()
        html = page(stream, None, move=move)
        words = re.search(r'<p class="step-words"[^>]*>(.*?)</p>', html, flags=re.S)
        assert words is not None
        line = htmllib.unescape(words.group(1)).strip()
        assert line.startswith(users[event.seat].get_username()), line
        assert "seat " not in line
    deal = page(stream, None, move=0)
    names = ", ".join(u.get_username() for u in users)
    assert f"The game is set up for {names}." in text(deal)


def test_the_deal_shows_its_chance_outcomes_hidden_details_only_to_those_who_may_see() -> None:
    stream, users = open_game(3, tag="-chance")
    arbiter = make_user("chance-arbiter", groups=("arbiters",))
    hidden = [e for e in stream.events.get(seq=1).payload["effects"] if e.get("visible_to") == []]
    assert hidden, "the deal of Les 7 Blasons shuffles the tokens face down"
    for viewer in (users[0], None):
        html = page(stream, viewer, move=0)
        assert "is drawn to lead the first trick" in html  # a public chance outcome
        assert "its details are hidden from you until the game is over" in html
        assert '<span class="effect-details">(order:' not in html
    omniscient = page(stream, arbiter, move=0)
    assert "its details are hidden from you" not in omniscient
    # The tokens' shuffled order, in the houses' names (the drawing's words for effects).
    shuffled = re.search(r'<span class="effect-details">\(order: ([^)]*)\)', omniscient)
    assert shuffled is not None
    houses = shuffled.group(1).split(", ")
    assert len(houses) == len(hidden[0]["data"]["order"])
    assert set(houses) <= set(GAME_HOUSES)


def test_what_changed_is_outlined_on_the_seats_the_step_touches() -> None:
    stream, users = open_game(5, tag="-changed")
    event = stream.events.filter(type="MoveMade").order_by("seq")[4]
    html = page(stream, None, move=5)
    changed = replay_root(html)["changed-seats"].split()
    assert str(event.seat) in changed
    marked = re.findall(r'data-player-seat="(\d+)" data-changed', html)
    assert sorted(set(marked)) == sorted(changed)
    assert users[event.seat].get_username() in text(
        re.search(r'<p class="step-seats">(.*?)</p>', html, flags=re.S).group(1)  # type: ignore[union-attr]
    )


def test_mark_changed_marks_only_the_named_seats() -> None:
    html = '<li class="player" data-player-seat="0">a</li><li data-player-seat="2">b</li>'
    assert replays.mark_changed(html, [2]) == (
        '<li class="player" data-player-seat="0">a</li><li data-player-seat="2" data-changed>b</li>'
    )


def test_the_chain_is_intact_up_to_the_step_and_the_game_verifies() -> None:
    stream, users = open_game(7, tag="-chain")
    html = page(stream, users[0], move=4)
    seq = replay_root(html)["replay-seq"]
    assert f"Intact up to this step: events 1 to {seq} each link" in text(html)
    assert "The game so far verifies" in text(html)
    assert Event.objects.get(stream=stream, seq=int(seq)).hash in html


def test_a_broken_chain_is_shown_where_it_breaks() -> None:
    """An event altered behind the store's back (the trigger set aside for the test, as a
    tampering would): the steps before it are intact, the page says where the chain breaks."""
    stream, _ = open_game(8, tag="-broken")
    arbiter = make_user("broken-arbiter", groups=("arbiters",))
    victim = stream.events.filter(type="MoveMade").order_by("seq")[5]  # move 6
    event_tamper(stream.pk, victim.seq, lambda payload: payload.update(tampered=True))
    early = page(stream, arbiter, move=3)
    assert "Intact up to this step" in text(early)
    assert f"The chain breaks at event {victim.seq} (in move 6)" in text(early)
    assert "The game does not verify" in text(early)
    late = page(stream, arbiter, move=7)
    assert "Broken before this step" in text(late)


# -- planted markers: a game whose hidden parts say so --------------------------------------


class MarkerToy(toy_game.ToyDraw):
    """The toy game with a marker in each hidden part: every hand's view carries
    ``HAND-MARKER-<seat>``, the deal's face-down shuffle ``STOCK-MARKER`` and each draw
    ``DRAW-MARKER-<seat>-<n>`` in data only the drawing seat may see."""

    id = "marker-toy"
    name = "Marker toy"

    def setup(self, players: int, options: dict[str, Any], edition: str, rng: Any) -> Any:
        state = super().setup(players, options, edition, rng)
        state.note("chance", "the stock is marked", {"marker": "STOCK-MARKER"}, visible_to=[])
        return state

    def play(self, state: Any, seat: int, move: Any) -> None:
        super().play(state, seat, move)
        state.note("chance", "a mark", {"marker": f"DRAW-MARKER-{seat}-{state.plays}"}, [seat])

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        shown = super().view(state, seat)
        shown["seat"] = seat
        shown["players"] = [{"seat": s, "score": v} for s, v in enumerate(state.scores)]
        if seat is not None:
            shown["secret"] = f"HAND-MARKER-{seat}"
        return shown


class MarkerTable:
    """What the test drawing draws: the whole view, as text."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.viewer_seat = view["seat"]


MARKER_DRAWING = Drawing(
    game_id="marker-toy",
    draw=lambda view, legal, names, onlooker=False: MarkerTable(view),
    add_result=lambda table, result, names: table,
    template="play/tests/marker_table.html",
    title_template="play/tests/marker_title.txt",
)


@pytest.fixture
def marker_game(settings: Any, tmp_path: Any) -> Iterator[MarkerToy]:
    """The marker game registered with the engine and drawn by a template that prints its view."""
    templates = tmp_path / "play" / "tests"
    templates.mkdir(parents=True)
    (templates / "marker_table.html").write_text(
        '<section class="marker-table" data-stream="{{ game.stream_id }}" '
        'data-version="{{ game.version }}" data-seat="{{ table.viewer_seat|default_if_none:"" }}">'
        '{% for p in table.view.players %}<p data-player-seat="{{ p.seat }}">{{ p }}</p>'
        "{% endfor %}<pre>{{ table.view }}</pre></section>"
    )
    (templates / "marker_title.txt").write_text("Marker toy")
    settings.TEMPLATES = [
        {**settings.TEMPLATES[0], "DIRS": [*settings.TEMPLATES[0]["DIRS"], str(tmp_path)]}
    ]
    game = MarkerToy()
    registry._load()
    registry._registry[game.id] = game
    DRAWINGS[game.id] = MARKER_DRAWING
    try:
        yield game
    finally:
        DRAWINGS.pop(game.id, None)
        registry._registry.pop(game.id, None)


def marker_stream(turns: int, moves: int | None) -> tuple[Stream, list[Any]]:
    users = [make_user(f"m{i}-{turns}-{moves}") for i in range(3)]
    stream = stream_open(game_id="marker-toy", seats=users, options={"turns": turns})
    return play_stream(stream, stop_after=moves), users


MARKERS = ("HAND-MARKER-", "STOCK-MARKER", "DRAW-MARKER-")


def markers_in(html: str) -> set[str]:
    return set(re.findall(r"(?:HAND|STOCK|DRAW)-MARKER(?:-\d+)*", html))


@pytest.mark.usefixtures("marker_game")
def test_planted_markers_reach_only_those_who_may_see_them_during_the_game() -> None:
    stream, users = marker_stream(turns=12, moves=6)
    arbiter = make_user("marker-arbiter", groups=("arbiters",))
    for move in range(7):
        for seat, user in enumerate(users):
            found = markers_in(page(stream, user, move=move))
            mine = {f"HAND-MARKER-{seat}"}
            if move and (move - 1) % 3 == seat:  # the seat's own draw at its own move
                mine.add(f"DRAW-MARKER-{seat}-{move}")
            assert found == mine, (move, seat, found)
        assert markers_in(page(stream, None, move=move)) == set()
        everything = markers_in(page(stream, arbiter, move=move))
        assert {f"HAND-MARKER-{s}" for s in range(3)} <= everything
        assert ("STOCK-MARKER" in everything) == (move == 0)


@pytest.mark.usefixtures("marker_game")
def test_planted_markers_are_all_shown_once_the_game_is_over() -> None:
    stream, users = marker_stream(turns=6, moves=None)
    assert stream.is_finished
    for viewer in (users[1], None):
        assert markers_in(page(stream, viewer, move=0)) >= {
            "STOCK-MARKER", "HAND-MARKER-0", "HAND-MARKER-1", "HAND-MARKER-2",
        }  # fmt: skip
        assert "DRAW-MARKER-0-4" in markers_in(page(stream, viewer, move=4))


@pytest.mark.usefixtures("marker_game")
def test_the_replay_is_drawn_through_the_registry_for_any_game() -> None:
    """Nothing in the replay is Les 7 Blasons': the marker game's own drawing draws it."""
    stream, users = marker_stream(turns=12, moves=4)
    html = page(stream, users[0], move=2)
    assert '<section class="marker-table"' in html
    assert replay_root(html)["changed-seats"].split() == ["1"]
    assert 'data-player-seat="1" data-changed' in html


def test_the_game_page_links_to_its_replay() -> None:
    stream, _ = open_game(2, tag="-link")
    html = Client().get(reverse("play:table", args=[stream.pk])).content.decode()
    assert f'href="{reverse("play:replay", args=[stream.pk])}"' in html


def test_mark_new_items_marks_what_the_move_brought() -> None:
    before = '<ol><li class="card">A</li></ol><ul><li>x</li><li>x</li></ul>'
    after = '<ol><li class="card">A</li><li class="card">B</li></ol><ul><li>x</li><li>x</li></ul>'
    assert replays.mark_new_items(after, before) == (
        '<ol><li class="card">A</li><li data-changed class="card">B</li></ol>'
        "<ul><li>x</li><li>x</li></ul>"
    )


def test_a_new_item_is_told_by_where_it_stands() -> None:
    """The same token appearing in another seat's part is new there, not where one was."""
    before = '<ul data-player-seat="0"><li>Aubigny</li></ul><ul data-player-seat="1"></ul>'
    after = '<ul data-player-seat="0"><li>Aubigny</li></ul><ul data-player-seat="1"><li>Aubigny</li></ul>'
    marked = replays.mark_new_items(after, before)
    assert marked == after.replace('seat="1"><li>', 'seat="1"><li data-changed>')
    moved = '<ul data-player-seat="0"></ul><ul data-player-seat="1"><li>Aubigny</li></ul>'
    assert replays.mark_new_items(moved, before) == moved.replace("<li>", "<li data-changed>")
    # A seat's own heading changing ("to play") does not make its tokens new.
    seat = '<div data-player-seat="0"><h3>Ann{}</h3><ul><li>down</li></ul></div>'
    turn = seat.format(" <span>to play</span>")
    assert replays.mark_new_items(turn, seat.format("")) == turn


def test_the_card_just_played_is_outlined_in_the_trick() -> None:
    stream, _ = open_game(4, tag="-trick")
    plays = [
        n
        for n, event in enumerate(stream.events.filter(type="MoveMade").order_by("seq"), start=1)
        if event.payload["move"]["type"] == "play"
    ]
    html = page(stream, None, move=plays[-1])
    trick = re.search(r'<ol class="trick">(.*?)</ol>', html, flags=re.S)
    assert trick is not None
    cards = re.findall(r"<li[^>]*>", trick.group(1))
    # The card just played is new; a card left as it was is not outlined (one whose power has
    # just come into use is, as the drawing marks it so).
    assert "data-changed" in cards[-1]
    assert any("data-changed" not in card for card in cards[:-1] if "resolving" not in card)


def test_the_replay_speaks_french() -> None:
    stream, users = open_game(5, tag="-fr")
    client = Client(headers={"Accept-Language": "fr"})
    client.force_login(users[0])
    html = client.get(reverse("play:replay", args=[stream.pk]), {"move": 3}).content.decode()
    seq = replay_root(html)["replay-seq"]
    words = htmllib.unescape(text(html))
    assert f"Coup 3 sur 5 — événement {seq}" in words
    assert "Votre vue" in words
    assert "Chaîne de hachage" in words
    refused = client.get(reverse("play:replay", args=[stream.pk]), {"move": 9})
    assert "il n'y a pas de coup 9" in htmllib.unescape(refused.content.decode())


def test_a_continued_game_replays_with_its_reshuffle_after_the_move_it_continues_from() -> None:
    """A game continued by a "replay from move n" ruling holds the old game's first n moves,
    then the reshuffle of what nobody has seen: the reshuffle is an event of move n's step, and
    moves keep their numbers (move 3 is the old game's move 3)."""
    old, _ = open_game(None, tag="-old")
    new = stream_continue_from(stream_id=old.pk, after_move=3)
    new = play_stream(new, stop_after=2)
    arbiter = make_user("continuing-arbiter", groups=("arbiters",))
    at_three = page(new, arbiter, move=3)
    assert "After this move" in text(at_three)
    assert "shuffled again" in text(at_three)
    reshuffle = new.events.get(type="UnseenReshuffled")
    assert f"event {reshuffle.seq}:" in text(at_three)
    old_three = page(old, arbiter, move=3)
    assert hands(at_three) == hands(old_three)  # the same moves, the same hands
    later = page(new, arbiter, move=5)
    assert replay_root(later)["replay-moves"] == "5"
    assert "Intact up to this step" in text(later)
