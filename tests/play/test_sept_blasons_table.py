"""The table of Les 7 Blasons drawn on the server (play/templates/play/sept_blasons/): for each
seat and a spectator, from real engine states; the moves offered are exactly the legal moves;
planted markers (a face-down token's colour, another seat's trick, the pile, the seed) never
reach a viewer who may not see them."""

from __future__ import annotations

import html as htmllib
import json
import random
import re
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse

import engine
from events.models import Stream
from events.services import stream_open
from events.states import current_state
from play import sept_blasons
from play.drawings import DRAWINGS
from tests.platform.test_me import text
from tests.ratings.games import play_stream
from tests.users import make_user

pytestmark = pytest.mark.django_db

GAME = engine.get("les-7-blasons")
PLANT = "Rochebrune"  # a house nobody plays at a table of three: it can only come from a plant


def open_game(moves: int = 0, *, public: bool = True, players: int = 3) -> tuple[Stream, list[Any]]:
    users = [make_user(f"p{i}-{moves}-{public}") for i in range(players)]
    stream = stream_open(game_id="les-7-blasons", seats=users, public=public)
    if moves:
        stream = play_stream(stream, stop_after=moves)
    return Stream.objects.get(pk=stream.pk), users


def page(stream: Stream, user: Any = None, name: str = "play:table") -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(reverse(name, args=[stream.pk]))
    assert response.status_code == 200, response.content[:300]
    return response.content.decode()


def root(html: str) -> dict[str, str]:
    tag = re.search(r'<section class="game-table sept-table"([^>]*)>', html)
    assert tag is not None
    return {
        k: htmllib.unescape(v) for k, v in re.findall(r'data-([a-z-]+)="([^"]*)"', tag.group(1))
    }


def offered(html: str) -> list[dict[str, Any]]:
    """The moves the page's enabled controls carry (``data-move``)."""
    return [json.loads(htmllib.unescape(m)) for m in re.findall(r'data-move="([^"]*)"', html)]


def hand_names(html: str) -> list[str]:
    hand = re.search(r'<ul class="hand">(.*?)</ul>', html, flags=re.S)
    if hand is None:
        return []
    return re.findall(r'<span class="card-name">([^<]*)</span>', hand.group(1))


def key(move: dict[str, Any]) -> str:
    return json.dumps(move, sort_keys=True)


@pytest.mark.parametrize("moves", [0, 7, 25])
def test_each_seat_sees_its_hand_and_exactly_its_legal_moves(moves: int) -> None:
    stream, users = open_game(moves)
    state = current_state(stream)
    actor = GAME.to_act(state)[0]
    for seat, user in enumerate(users):
        html = page(stream, user)
        assert root(html)["seat"] == str(seat)
        assert root(html)["version"] == str(stream.version)
        hand = [
            GAME.view(state, seat)["hand"][i]["character"] for i in range(len(state.hands[seat]))
        ]
        assert hand_names(html) == hand
        legal = [m.to_json() for m in GAME.legal_moves(state, seat)]
        assert sorted(map(key, offered(html))) == sorted(map(key, legal))
        assert bool(legal) == (seat == actor)
        assert sorted(map(key, json.loads(root(html)["legal-moves"]))) == sorted(map(key, legal))
        words = text(html)
        actor_name = users[actor].get_username()
        if seat == actor:
            assert "Your turn" in words
            assert root(html)["title"].startswith("Your turn")
        else:
            assert "Your turn" not in words
            assert actor_name in words
    spectator = page(stream)
    assert root(spectator)["seat"] == ""
    assert offered(spectator) == []
    assert hand_names(spectator) == []
    assert "you are watching" in text(spectator)


def test_the_trick_in_play_is_drawn_in_order_with_names() -> None:
    stream, users = open_game(2)
    state = current_state(stream)
    html = page(stream)
    trick = re.search(r'<ol class="trick">(.*?)</ol>', html, flags=re.S)
    assert trick is not None
    owners = re.findall(r'<span class="card-owner">([^<]*)</span>', trick.group(1))
    assert owners == [users[card.seat].get_username() for card in state.trick]
    assert len(owners) == len(state.trick) >= 1


def test_the_fragment_is_the_table_alone_at_the_streams_version() -> None:
    stream, users = open_game(3)
    fragment = page(stream, users[1], "play:fragment")
    assert fragment.lstrip().startswith("<section")
    assert "<html" not in fragment
    assert root(fragment)["version"] == str(stream.version)
    assert root(fragment)["seat"] == "1"
    assert hand_names(fragment) == hand_names(page(stream, users[1]))


def test_the_fragment_answers_404_to_strangers_and_for_games_without_a_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(DRAWINGS, "13-couronnes")  # a game not drawn at the table (yet)
    stream, _ = open_game(public=False)
    client = Client()
    client.force_login(make_user("stranger"))
    assert client.get(reverse("play:fragment", args=[stream.pk])).status_code == 404
    other = stream_open(game_id="13-couronnes", seats=[make_user(f"c{i}") for i in range(3)])
    assert Client().get(reverse("play:fragment", args=[other.pk])).status_code == 404
    # The game page of such a game keeps its summary.
    assert 'class="game-table"' in page(other)


def test_a_finished_game_shows_final_scores_ranks_and_its_result() -> None:
    stream, users = open_game(10_000)
    assert stream.is_finished
    html = page(stream, users[0])
    panel = re.search(r'<section class="game-over" data-result="([^"]*)"', html)
    assert panel is not None
    assert json.loads(htmllib.unescape(panel.group(1))) == stream.result
    assert offered(html) == []
    final = re.search(r'<table class="final-scores">.*?<tbody>(.*?)</tbody>', html, flags=re.S)
    assert final is not None
    rows = [
        [
            text(cell).split()[0]
            for cell in re.findall(
                r'<td class="[^"]*final-(?:rank|name|total)">(.*?)</td>', row, re.S
            )
        ]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", final.group(1), re.S)
    ]
    ranks, scores = stream.result["ranks"], stream.result["scores"]
    expected = sorted(range(3), key=lambda s: (ranks[s], s))
    assert [(int(r[0]), r[1], float(r[2])) for r in rows] == [
        (ranks[s], users[s].get_username(), scores[s]) for s in expected
    ]
    assert "The game is over." in text(html)
    assert stream.seed in html  # revealed once the game has ended


# -- planted markers ------------------------------------------------------------------------


def drawn(state: Any, seat: int | None) -> str:
    """The table drawn from ``state`` for ``seat`` as the page draws it (from the view)."""
    names = ["Ann", "Bob", "Cid"]
    legal = [] if seat is None else [m.to_json() for m in GAME.legal_moves(state, seat)]
    table = sept_blasons.table_for(GAME.view(state, seat), legal, names)
    game = {"game_id": "les-7-blasons", "stream_id": "00000000-0000-0000-0000-000000000000"}
    drawing = DRAWINGS["les-7-blasons"]
    context = {"game": {**game, "version": 1}, "table": table, "drawing": drawing}
    return render_to_string(drawing.template, context)


def planted_state() -> Any:
    """A real game a few moves in, with the plant's colour on a face-down token of seat 1, in
    the draw pile and on a card of seat 2's tricks."""
    state = GAME.new_game(players=3, seed="planted")
    for _ in range(12):  # into the second trick: seat 2 may have won a trick by then
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, GAME.legal_moves(state, seat)[-1])
    rochebrune = 6
    down = next(t for t in state.fronts[1] if not t.up)
    down.colour = rochebrune
    down.known_by = []
    for token in state.pile:
        if not token.up:
            token.colour = rochebrune
    state.tricks[2].append([rochebrune * 8 + 7, rochebrune * 8 + 6])
    return state


def player_box(html: str, seat: int) -> str:
    """The part of the drawing in front of one player (its tokens, tricks, controls)."""
    found = re.search(
        rf'<li class="player[^"]*" data-player-seat="{seat}">(.*?)\n    </li>', html, re.S
    )
    assert found is not None, f"no player box for seat {seat}"
    return found.group(1)


def without_box(html: str, seat: int) -> str:
    return html.replace(player_box(html, seat), "")


@pytest.mark.parametrize("viewer", [0, 1, 2, None])
def test_planted_hidden_colours_reach_no_viewer(viewer: int | None) -> None:
    html = drawn(planted_state(), viewer)
    if viewer == 2:  # its own tricks, planted: it sees them in front of itself, nowhere else
        assert PLANT in player_box(html, 2)
        html = without_box(html, 2)
    assert PLANT not in html
    assert PLANT.lower() not in html
    # A face-down token is drawn with a colour only for a seat that knows it (none here).
    down = re.findall(r'<li class="(token token-down[^"]*)"', html)
    assert len(down) >= 3
    assert [c for c in down if "blason-" in c or "token-known" in c] == []


def test_the_plant_is_seen_by_the_seat_that_knows_it() -> None:
    """The check can fail: a seat that consulted the token sees its colour on its own token."""
    state = planted_state()
    down = next(t for t in state.fronts[1] if not t.up)
    down.known_by = [0]
    assert PLANT in drawn(state, 0)
    assert 'class="token token-down token-known blason-rochebrune' in drawn(state, 0)
    assert PLANT not in without_box(drawn(state, 2), 2)
    assert PLANT not in drawn(state, None)


def test_no_seed_and_no_other_hand_on_the_page_of_a_running_game() -> None:
    stream, users = open_game(9)
    state = current_state(stream)
    for seat, user in enumerate(users):
        for name in ("play:table", "play:fragment"):
            html = page(stream, user, name)
            assert stream.seed not in html
            assert html.count('<ul class="hand">') == 1
            assert len(hand_names(html)) == len(state.hands[seat])
    for name in ("play:table", "play:fragment"):
        html = page(stream, None, name)
        assert stream.seed not in html
        assert '<ul class="hand">' not in html


def test_a_power_aimed_at_a_token_is_a_button_on_that_token() -> None:
    state = GAME.new_game(players=3, seed="tokens")
    chooser = random.Random(3)
    for _ in range(500):
        seat = GAME.to_act(state)[0]
        legal = [m.to_json() for m in GAME.legal_moves(state, seat)]
        aimed = [m for m in legal if m["type"] == "turn-up" and m["seat"] >= 0]
        if aimed:
            break
        state = GAME.apply(
            state, seat, GAME.legal_moves(state, seat)[chooser.randrange(len(legal))]
        )
    else:
        pytest.fail("no turn-up of a player's token in 500 moves")
    html = drawn(state, seat)
    on_tokens = re.findall(
        r'<li class="token[^"]*token-target"[^>]*><button type="button" data-move="([^"]*)"', html
    )
    assert sorted(map(key, (json.loads(htmllib.unescape(m)) for m in on_tokens))) == sorted(
        map(key, aimed)
    )
    assert sorted(map(key, offered(html))) == sorted(map(key, legal))


def test_the_last_moves_are_told_with_names_newest_first() -> None:
    stream, users = open_game(9)
    html = page(stream)
    found = re.search(r'<ol class="last-moves"[^>]*>(.*?)</ol>', html, flags=re.S)
    assert found is not None
    lines = [text(line).strip() for line in re.findall(r"<li>(.*?)</li>", found.group(1))]
    events = stream.events.filter(type="MoveMade").order_by("-seq")[:6]
    assert len(lines) == len(events) == 6
    for line, event in zip(lines, events, strict=True):
        assert line.startswith(users[event.seat].get_username()), (line, event.seat)
    first = events[0].payload["move"]
    if first["type"] == "play":
        assert GAME_NAMES[first["rank"]] in lines[0]


GAME_NAMES = ("malandrin", "manant", "ménétrier", "magistrat", "religieux", "intendant",
              "bourgeoise", "bourgeois")  # fmt: skip


@pytest.mark.parametrize("seed", ["powers", "p2", "p3", "p4"])
def test_the_power_in_use_is_named_as_the_engine_says(seed: str) -> None:
    state = GAME.new_game(players=3, seed=seed)
    chooser = random.Random(seed)
    while state.phase != "power":
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_moves(state, seat)
        state = GAME.apply(state, seat, legal[chooser.randrange(len(legal))])
    seat = GAME.to_act(state)[0]
    card = state.trick[state.resolving]
    name = sept_blasons.NAMES[card.rank]
    words = htmllib.unescape(text(drawn(state, seat)))
    owner = "your" if card.seat == seat else f"{['Ann', 'Bob', 'Cid'][card.seat]}'s"
    assert f"Your turn — use the power of {owner} {name}." in words
