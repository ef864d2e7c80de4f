"""The table of 13 Couronnes drawn on the server (play/templates/play/treize_couronnes/): for
each seat and a spectator, from real engine states; the moves offered (buttons and the law's
choice groups) are exactly the legal moves; planted markers (another seat's hand, the draw and
discard piles, crowns under ``hidden_crowns``, the seed) never reach a viewer who may not see
them."""

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
from django.utils import translation

import engine
from engine.bots import GreedyBot
from engine.treize_couronnes.cards import KINGS
from engine.treize_couronnes.moves import Discard, EndTurn, Reveal
from engine.treize_couronnes.state import NOBODY
from engine.treize_couronnes.testing import plant_hidden_markers
from events.models import Stream
from events.services import stream_append_move, stream_open
from events.states import current_state
from play import treize_couronnes
from play.drawings import DRAWINGS
from tests.platform.test_me import text
from tests.ratings.games import play_stream
from tests.users import make_user

pytestmark = pytest.mark.django_db

GAME = engine.get("13-couronnes")
KING_CARDS = KINGS["reconstructed-1"]
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def drawn(state: Any, seat: int | None, names: list[str] = NAMES) -> str:
    """The table drawn from ``state`` for ``seat`` as the page draws it (from the view)."""
    legal = [] if seat is None else [m.to_json() for m in GAME.legal_moves(state, seat)]
    table = treize_couronnes.table_for(GAME.view(state, seat), legal, names)
    game = {"game_id": GAME.id, "stream_id": "00000000-0000-0000-0000-000000000000"}
    drawing = DRAWINGS[GAME.id]
    context = {"game": {**game, "version": 1}, "table": table, "drawing": drawing}
    return render_to_string(drawing.template, context)


def attribute_values(html: str, name: str) -> list[str]:
    return [htmllib.unescape(v) for v in re.findall(rf'{name}="([^"]*)"', html)]


def offered(html: str) -> list[dict[str, Any]]:
    """Every move the page offers: the buttons' ``data-move`` and the choice groups' candidates."""
    moves = [json.loads(m) for m in attribute_values(html, "data-move")]
    for candidates in attribute_values(html, "data-candidates"):
        moves.extend(c["move"] for c in json.loads(candidates))
    return moves


def hand_ids(html: str) -> list[str]:
    hand = re.search(r'<ul class="tc-hand">(.*?)</ul>', html, flags=re.S)
    if hand is None:
        return []
    return re.findall(r'<li class="tc-hand-card[^"]*" data-card="([^"]*)">', hand[1])


def key(move: dict[str, Any]) -> str:
    return json.dumps(move, sort_keys=True)


def random_states(seed: str, players: int, steps: int, **options: Any) -> list[Any]:
    """The states of one random game, move after move (up to ``steps`` of them)."""
    state = GAME.new_game(players=players, seed=seed, options=options or None)
    chooser = random.Random(seed)
    states = [state]
    while len(states) < steps and GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_moves(state, seat)
        state = GAME.apply(state, seat, legal[chooser.randrange(len(legal))])
        states.append(state)
    return states


# -- what each seat is offered ------------------------------------------------------------


@pytest.mark.parametrize(("seed", "players"), [("offer-3", 3), ("offer-5", 5)])
def test_each_seat_is_offered_exactly_its_legal_moves_all_along_a_game(
    seed: str, players: int
) -> None:
    """Along a random game, for every seat: the hand drawn is the seat's own, the moves offered
    (buttons and the law's candidates) are its legal moves, each choice a candidate needs is
    on the page, and a seat not to act (or a spectator) is offered nothing."""
    kinds: set[str] = set()
    for state in random_states(seed, players, 160)[::3]:
        actor = GAME.to_act(state)[0] if GAME.to_act(state) else None
        for seat in [*range(players), None]:
            html = drawn(state, seat)
            legal = [] if seat is None else [m.to_json() for m in GAME.legal_moves(state, seat)]
            assert sorted(map(key, offered(html))) == sorted(map(key, legal))
            assert bool(legal) == (seat is not None and seat == actor)
            assert hand_ids(html) == ([] if seat is None else state.hands[seat])
            choices = set(attribute_values(html, "data-choice"))
            for candidates in attribute_values(html, "data-candidates"):
                for candidate in json.loads(candidates):
                    assert set(candidate["choices"]) <= choices
            kinds.update(m["type"] for m in legal)
    # The walk went through the kinds of decision a turn has.
    assert {"reveal", "change-king", "redo-discard", "redo-draw", "end-turn"} <= kinds


def test_a_law_with_jokers_and_blasons_offers_them_as_choices() -> None:
    """A special card may stand in as a joker and a blason for a card of its colour: both are
    choices of the hand's group, and the law's moves use them."""
    state = GAME.new_game(players=3, seed="jokers")
    state.hands[0] = sorted(["B01", "B02", "B13", "O13", "G03", "P05"])
    state.kings.append("B04")  # reveal 4 blue cards -> 4 crowns
    state.blasons[0] = ["blue"]
    state.reserve_blasons["blue"] -= 1
    html = drawn(state, 0)
    choices = attribute_values(html, "data-choice")
    assert "joker:O13" in choices
    assert "blason:blue" in choices
    candidates = json.loads(attribute_values(html, "data-candidates")[0])
    legal = [m.to_json() for m in GAME.legal_moves(state, 0) if isinstance(m, Reveal)]
    assert sorted(key(c["move"]) for c in candidates) == sorted(map(key, legal))
    assert any("blason:blue" in c["choices"] for c in candidates)
    words = text(html)
    assert "reveal 4 blue cards" in words
    assert "4 crowns" in words
    assert "Reveal the chosen cards" in words


def test_a_discard_law_confirms_with_discard_words() -> None:
    state = GAME.new_game(players=3, seed="discard")
    state.hands[0] = sorted(["O01", "O03", "G03", "P05", "G04", "B02"])
    state.kings.append("B05")  # discard 2 orange cards -> 2 crowns
    html = drawn(state, 0)
    assert "Discard the chosen cards" in text(html)
    candidates = json.loads(attribute_values(html, "data-candidates")[0])
    assert [c["choices"] for c in candidates] == [["O01", "O03"]]
    assert candidates[0]["move"] == Discard(("O01", "O03")).to_json()


def test_cards_are_named_by_their_colour_and_law_never_by_their_edition_id() -> None:
    """The ids of the edition ("B07") stay in data attributes: no text, label or title of the
    seat to act's table shows one, in English or in French."""
    state = GAME.new_game(players=3, seed="names")
    seat = GAME.to_act(state)[0]
    for language in ("en", "fr"):
        with translation.override(language):
            html = drawn(state, seat)
        shown = [text(html), *re.findall(r'(?:aria-label|title)="([^"]*)"', html)]
        assert [w for w in shown if re.search(r"\b[A-Z]\d\d\b", w)] == []
        assert hand_ids(html), "the hand is drawn"
    assert "Make the " in " ".join(re.findall(r'aria-label="([^"]*)"', drawn(state, seat)))


def test_the_last_moves_name_cards_by_colour_and_law_in_both_languages() -> None:
    """The table's list of last moves tells a card as the table shows it, not by its id: read
    after each of 40 moves, in both languages, until a King has been named in each."""
    users = [make_user(f"last-moves-{i}") for i in range(3)]
    stream = stream_open(game_id="13-couronnes", seats=users, public=True)
    client = Client()
    client.force_login(users[0])
    named = {"en": False, "fr": False}
    for _ in range(40):
        stream = play_stream(stream, stop_after=1)
        for language, king in (("en", "King"), ("fr", "Roi")):
            page = client.get(
                reverse("play:table", args=[stream.pk]), HTTP_ACCEPT_LANGUAGE=language
            )
            found = re.search(
                r'<ol class="last-moves"[^>]*>(.*?)</ol>', page.content.decode(), re.S
            )
            assert found is not None
            lines = [text(line) for line in re.findall(r"<li>(.*?)</li>", found.group(1), re.S)]
            assert lines, "the last moves are listed"
            assert [line for line in lines if re.search(r"\b[A-Z]\d\d\b", line)] == []
            named[language] |= any(king in line for line in lines)
        if all(named.values()) or stream.is_finished:
            break
    assert named == {"en": True, "fr": True}


# -- the King in power ----------------------------------------------------------------------


def test_the_king_in_power_is_drawn_large_with_its_law_in_words() -> None:
    state = GAME.new_game(players=3, seed="king")
    html = drawn(state, None)
    words = text(html)
    assert "The King in power" in words
    assert 'data-card="B03"' in html
    assert "B03" not in words  # the edition's id is no word of the table's
    assert "reveal 2 cards of the same colour" in words
    assert "1 crown" in words


def test_a_hole_king_shows_the_reward_beneath_and_the_kings_beneath() -> None:
    state = GAME.new_game(players=3, seed="hole")
    state.kings += ["O04", "G12"]  # a hole King over reveal 4 orange -> 4 crowns
    html = drawn(state, None)
    power = re.search(r'<div class="tc-king (.*?)</div>', html, flags=re.S)
    assert power is not None
    assert 'class="tc-hole-window"' in power[0]
    words = text(power[0])
    assert (
        "4 crowns (seen through the hole, from the orange King (reveal 4 orange cards → 4 "
        "crowns) "
        "beneath)"
    ) in words
    beneath = re.search(r'<ol class="tc-beneath">(.*?)</ol>', html, flags=re.S)
    assert beneath is not None
    assert re.findall(r'data-card="([^"]*)"', beneath[1]) == ["O04", "B03"]


def test_a_guard_on_the_king_names_its_owner_and_the_price() -> None:
    state = GAME.new_game(players=3, seed="guard")
    state.guard_owner = 2
    words = text(drawn(state, 0))
    assert "Guarded by Cid: changing this King costs a card, given to Cid." in words
    seat = GAME.to_act(state)[0]
    assert seat == 0
    html = drawn(state, 0)
    pays = [json.loads(m) for m in attribute_values(html, "data-move")]
    assert {m["type"] for m in pays} >= {"pay-guard"}
    assert "change-king" not in {m["type"] for m in pays}
    assert "Give to Cid" in text(html)


def test_a_once_per_turn_law_says_so_and_is_claimed_with_a_button() -> None:
    state = GAME.new_game(players=3, seed="once")
    state.kings.append("G10")  # exactly 4 cards in hand -> 2 crowns
    state.hands[0] = state.hands[0][:4]
    html = drawn(state, 0)
    assert "once per turn" in text(html)
    assert "have exactly 4 cards in hand" in text(html)
    claims = [m for m in offered(html) if m["type"] == "claim"]
    assert claims == [{"type": "claim"}]


def test_the_end_of_a_turn_offers_to_guard_the_king() -> None:
    state = GAME.new_game(players=3, seed="end")
    state.guards[0] = 1
    state.reserve_guards -= 1
    state.phase = "drawn"
    html = drawn(state, 0)
    assert sorted(map(key, offered(html))) == sorted(
        key(EndTurn(g).to_json()) for g in (False, True)
    )
    assert "End your turn, putting a guard on the blue King (reveal 2 cards" in text(html)


def test_the_law_in_french() -> None:
    state = GAME.new_game(players=3, seed="fr")
    state.kings.append("B01")
    with translation.override("fr"):
        words = text(drawn(state, None))
    assert "révéler 1 carte bleue et 1 carte orange" in words
    assert "1 couronne et 1 garde" in words


# -- planted markers --------------------------------------------------------------------------


def mid_game(seed: str, players: int = 3, **options: Any) -> Any:
    states = random_states(seed, players, 60, **options)
    return states[-1]


@pytest.mark.parametrize("viewer", [0, 1, 2, None])
@pytest.mark.parametrize("hidden_crowns", [False, True])
def test_planted_hidden_markers_reach_no_viewer(viewer: int | None, hidden_crowns: bool) -> None:
    """The engine's own planting (engine/treize_couronnes/testing.py) writes a marker into
    every hidden card and count: other hands, the draw and discard piles, and the crowns of the
    others under hidden_crowns. None may appear in the drawing for that viewer."""
    state = GAME.clone(mid_game(f"plant-{hidden_crowns}", hidden_crowns=hidden_crowns))
    markers = plant_hidden_markers(state, viewer)
    assert len(markers) > 20
    html = drawn(state, viewer)
    assert [m for m in markers if m in html] == []
    if hidden_crowns:
        assert "crowns hidden" in text(html)


def test_the_planting_would_be_seen_if_it_were_drawn() -> None:
    """The check can fail: a marker in the viewer's own hand is drawn (as the card it names)."""
    state = GAME.clone(mid_game("plant-own"))
    plant_hidden_markers(state, 0)
    own = state.hands[0][0]
    assert own in hand_ids(drawn(state, 0))
    state.hidden_crowns = True
    state.crowns[0] = 987650999
    assert "987650999" in drawn(state, 0)  # one's own crowns, hidden from the others only
    assert "987650999" not in drawn(state, 1)


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_no_card_of_another_hand_or_of_the_piles_at_the_start(viewer: int | None) -> None:
    """At the start every card is in a hand or the draw pile, except the King in power: a
    viewer's drawing names its own cards and the King, no other card."""
    state = GAME.new_game(players=3, seed=f"ids-{viewer}")
    html = drawn(state, viewer)
    own = set(state.hands[viewer]) if viewer is not None else set()
    others = set(KING_CARDS) - own - {state.kings[-1]}
    assert len(others) >= 45
    assert [card for card in sorted(others) if re.search(rf"\b{card}\b", html)] == []


# -- pages of real streams --------------------------------------------------------------------


def open_game(moves: int = 0, *, players: int = 3, **options: Any) -> tuple[Stream, list[Any]]:
    users = [make_user(f"c{i}-{moves}-{len(options)}") for i in range(players)]
    stream = stream_open(game_id=GAME.id, seats=users, public=True, options=options or None)
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
    tag = re.search(r'<section class="game-table couronnes-table"([^>]*)>', html)
    assert tag is not None
    return {k: htmllib.unescape(v) for k, v in re.findall(r'data-([a-z-]+)="([^"]*)"', tag[1])}


def test_the_page_and_its_fragment_for_each_seat_and_a_spectator() -> None:
    stream, users = open_game(7)
    state = current_state(stream)
    actor = GAME.to_act(state)[0]
    for seat, user in enumerate(users):
        for name in ("play:table", "play:fragment"):
            html = page(stream, user, name)
            attrs = root(html)
            assert attrs["seat"] == str(seat)
            assert attrs["version"] == str(stream.version)
            assert attrs["fragment"] == reverse("play:fragment", args=[stream.pk])
            assert attrs["stale-message"]
            legal = [m.to_json() for m in GAME.legal_moves(state, seat)]
            assert sorted(map(key, json.loads(attrs["legal-moves"]))) == sorted(map(key, legal))
            assert attrs["title"].startswith("Your turn") == (seat == actor)
            assert hand_ids(html) == state.hands[seat]
            assert stream.seed not in html
        assert "play/treize_couronnes.css" in page(stream, user)
    spectator = page(stream)
    assert root(spectator)["seat"] == ""
    assert offered(spectator) == []
    assert "you are watching" in text(spectator)
    assert page(stream, None, "play:fragment").lstrip().startswith("<section")


def test_the_last_moves_name_the_players() -> None:
    stream, users = open_game(9)
    found = re.search(r'<ol class="last-moves"[^>]*>(.*?)</ol>', page(stream), flags=re.S)
    assert found is not None
    lines = [text(line).strip() for line in re.findall(r"<li>(.*?)</li>", found[1])]
    assert lines
    names = {u.get_username() for u in users}
    assert all(line.split()[0] in names for line in lines), lines
    assert not any("hidden" in line for line in lines), lines


def thirteen_crowns_stream(players: int = 3) -> tuple[Stream, list[Any]]:
    """A game played by greedy bots until a seat holds 13 crowns."""
    users = [make_user(f"win{i}") for i in range(players)]
    stream = stream_open(game_id=GAME.id, seats=users, public=True, seed="greedy-13")
    bots = {seat: GreedyBot(f"greedy/{seat}") for seat in range(players)}
    for _ in range(2000):
        state = current_state(stream)
        if not GAME.to_act(state):
            break
        seat = GAME.to_act(state)[0]
        move = bots[seat].choose(GAME, state, seat, GAME.legal_moves(state, seat))
        stream_append_move(
            stream_id=stream.pk, seat=seat, move=move.to_json(), expected_version=stream.version
        )
        stream.refresh_from_db()
    stream.refresh_from_db()
    assert stream.is_finished
    return stream, users


def test_the_13th_crown_ends_the_game_with_the_winner_named() -> None:
    stream, users = thirteen_crowns_stream()
    state = current_state(stream)
    assert state.winner != NOBODY, "the greedy bots reached the turn limit"
    winner = users[state.winner].get_username()
    for user in [*users, None]:
        html = page(stream, user)
        panel = re.search(r'<section class="game-over" data-result="([^"]*)"', html)
        assert panel is not None
        assert json.loads(htmllib.unescape(panel[1])) == stream.result
        assert f"{winner} holds 13 crowns and wins the game." in text(html)
        assert offered(html) == []
        assert "The game is over." in text(html)
        assert stream.seed in html  # revealed once the game has ended
        rows = re.search(r'<table class="final-scores">.*?<tbody>(.*?)</tbody>', html, re.S)
        assert rows is not None
        first = [
            w
            for w in text(re.findall(r"<tr[^>]*>(.*?)</tr>", rows[1], re.S)[0]).split()
            if w != "you"
        ]
        assert first[:3] == ["1", winner, str(state.crowns[state.winner])]


def test_a_game_at_its_turn_limit_says_so() -> None:
    stream, users = open_game(10_000, max_turns=4)
    assert stream.is_finished
    words = text(page(stream, users[0]))
    assert "The game reached its limit of 4 turns without a 13th crown" in words
    assert "4 turns played" in words
