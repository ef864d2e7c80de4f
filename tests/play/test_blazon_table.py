"""The table of Blazon drawn on the server (play/templates/play/blazon/): for each seat and a
spectator, from real engine states; the moves offered are exactly the legal moves, each on the
object it concerns; planted markers (another seat's hand, the decks' order, the cards just
drawn, the seed) never reach a viewer who may not see them; the final scoring's breakdown."""

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
from engine.blazon.shield import TABLES, blazon_text
from engine.blazon.state import BlazonState
from engine.blazon.testing import plant_hidden_markers
from events.models import Stream
from events.services import stream_open
from events.states import current_state
from play import blazon
from play.drawings import DRAWINGS
from tests.platform.test_me import text
from tests.ratings.games import play_stream
from tests.users import make_user

pytestmark = pytest.mark.django_db

GAME = engine.get("blazon")
NAMES = ["Ann", "Bob", "Cid", "Dee"]
# Two tinctures the edition holds once each: where they are planted, nothing else shows them.
IN_HAND, ON_DECK = "Potent", "Erminois"


def open_game(moves: int = 0, *, public: bool = True, players: int = 2) -> tuple[Stream, list[Any]]:
    users = [make_user(f"bz{i}-{moves}-{public}-{players}") for i in range(players)]
    stream = stream_open(game_id="blazon", seats=users, public=public)
    if moves:
        stream = play_stream(stream, stop_after=moves)
    return Stream.objects.get(pk=stream.pk), users


def page(stream: Stream, user: Any = None, name: str = "play:table", **headers: str) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(reverse(name, args=[stream.pk]), **headers)
    assert response.status_code == 200, response.content[:300]
    return response.content.decode()


def root(html: str) -> dict[str, str]:
    tag = re.search(r'<section class="game-table blazon-table"([^>]*)>', html)
    assert tag is not None
    return {
        k: htmllib.unescape(v) for k, v in re.findall(r'data-([a-z-]+)="([^"]*)"', tag.group(1))
    }


def offered(html: str, *, enabled_only: bool = False) -> list[dict[str, Any]]:
    """The moves the page's controls carry (``data-move``), or only the enabled ones."""
    found = []
    for tag in re.findall(r"<button[^>]*data-move=\"[^\"]*\"[^>]*>", html):
        if enabled_only and re.search(r"\sdisabled[\s>]", tag):
            continue
        move = re.search(r'data-move="([^"]*)"', tag)
        assert move is not None
        found.append(json.loads(htmllib.unescape(move.group(1))))
    return found


def candidates(html: str) -> list[dict[str, Any]]:
    """The moves of the page's choice groups (``data-candidates``: the payments in one move)."""
    found = []
    for raw in re.findall(r'data-candidates="([^"]*)"', html):
        found += [c["move"] for c in json.loads(htmllib.unescape(raw))]
    return found


def drawn_moves(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The legal moves the drawing offers: all, but for the card by card ``pay`` when the whole
    payment is offered in one move (``pay_cards``, chosen in the hand)."""
    if any(m["type"] == "pay_cards" for m in legal):
        return [m for m in legal if m["type"] != "pay"]
    return legal


def key(move: dict[str, Any]) -> str:
    return json.dumps(move, sort_keys=True)


def hand_cards(html: str) -> int:
    return html.count('<li class="bz-hand-card')


def drawn(state: Any, seat: int | None, *, finished: bool = False) -> str:
    """The table drawn from ``state`` for ``seat`` as the page draws it (from the view)."""
    legal = [] if seat is None else [m.to_json() for m in GAME.legal_moves(state, seat)]
    names = NAMES[: len(state.players)]
    table = blazon.table_for(GAME.view(state, seat), legal, names)
    result = GAME.result(state)
    table = blazon.add_result(table, result.to_json() if result else None, names)
    drawing = DRAWINGS["blazon"]
    game = {
        "game_id": "blazon",
        "game_name": "Blazon",
        "stream_id": "00000000-0000-0000-0000-000000000000",
        "version": 1,
        "finished": finished,
    }
    return render_to_string(drawing.template, {"game": game, "table": table, "drawing": drawing})


def played(players: int, moves: int, seed: str, **options: Any) -> BlazonState:
    """A real game after ``moves`` random legal moves."""
    state = GAME.new_game(players=players, seed=seed, options=options or None)
    chooser = random.Random(seed)
    for _ in range(moves):
        if not GAME.to_act(state):
            break
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_moves(state, seat)
        state = GAME.apply(state, seat, legal[chooser.randrange(len(legal))])
    assert isinstance(state, BlazonState)
    return state


def until(state: BlazonState, seed: str, wanted: Any, limit: int = 3000) -> BlazonState:
    """Play random moves from ``state`` until ``wanted(state)`` holds."""
    chooser = random.Random(seed)
    for _ in range(limit):
        if wanted(state):
            return state
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_moves(state, seat)
        state = GAME.apply(state, seat, legal[chooser.randrange(len(legal))])
    pytest.fail("the wanted position did not come in the random game")


# -- the page for each seat -----------------------------------------------------------------


@pytest.mark.parametrize(("moves", "players"), [(0, 2), (9, 2), (30, 4)])
def test_each_seat_sees_its_hand_and_exactly_its_legal_moves(moves: int, players: int) -> None:
    stream, users = open_game(moves, players=players)
    state = current_state(stream)
    actor = GAME.to_act(state)[0]
    for seat, user in enumerate(users):
        html = page(stream, user)
        assert root(html)["seat"] == str(seat)
        assert root(html)["version"] == str(stream.version)
        assert hand_cards(html) == len(state.players[seat].hand)
        legal = [m.to_json() for m in GAME.legal_moves(state, seat)]
        # Every legal move has its control, and no control carries anything else.
        controls = [*offered(html), *candidates(html)]
        assert sorted(set(map(key, controls))) == sorted(map(key, drawn_moves(legal)))
        assert bool(legal) == (seat == actor)
        assert sorted(map(key, json.loads(root(html)["legal-moves"]))) == sorted(map(key, legal))
        words = text(html)
        if seat == actor:
            assert "Your turn" in words
            assert root(html)["title"].startswith("Your turn")
        else:
            assert "Your turn" not in words
            assert users[actor].get_username() in words
    spectator = page(stream)
    assert root(spectator)["seat"] == ""
    assert offered(spectator) == []
    assert hand_cards(spectator) == 0
    assert "you are watching" in text(spectator)
    # Every shield is drawn, with its blazon in words under it.
    assert spectator.count('<svg class="bz-shield"') == players


def test_the_fragment_is_the_table_alone_at_the_streams_version() -> None:
    stream, users = open_game(5)
    fragment = page(stream, users[1], "play:fragment")
    assert fragment.lstrip().startswith("<section")
    assert "<html" not in fragment
    assert root(fragment)["version"] == str(stream.version)
    assert root(fragment)["seat"] == "1"
    assert hand_cards(fragment) == len(current_state(stream).players[1].hand)


def test_the_page_speaks_french() -> None:
    stream, users = open_game(0)
    html = page(stream, users[0], HTTP_ACCEPT_LANGUAGE="fr")
    words = text(html)
    assert "À vous" in words or "Votre tour" in words
    assert "la pioche" in words.lower() or "Pioche" in words
    assert "Your turn" not in words
    translation.activate("en")


# -- moves on the objects -------------------------------------------------------------------


def test_a_card_that_can_be_placed_is_a_choice_and_lights_its_spaces() -> None:
    state = until(played(2, 0, "place"), "place", lambda s: _placements(s) and s.phase == "main")
    seat = state.turn
    html = drawn(state, seat)
    places = _placements(state)
    cards = {m["card"] for m in places}
    choices = re.findall(r'<button type="button" class="bz-card" data-choice="(\d+)"', html)
    assert sorted(map(int, choices)) == sorted(cards)
    # The first such card is chosen as drawn: its targets and its placements are enabled,
    # every other card's are hidden and disabled (blazon.js shows them when it is chosen).
    first = int(choices[0])
    assert f'data-choice="{first}" aria-pressed="true"' in html
    targets = re.findall(r'<button type="button" class="bz-target [^"]*"[^>]*>', html)
    assert targets
    for tag in targets:
        card = int(re.search(r'data-for-card="(\d+)"', tag).group(1))  # type: ignore[union-attr]
        assert ("hidden disabled" in tag) == (card != first)
    enabled = offered(html, enabled_only=True)
    assert {m["card"] for m in enabled if m["type"] == "place"} == {first}
    assert {key(m) for m in places if m["card"] == first} <= set(map(key, enabled))


def _placements(state: BlazonState) -> list[dict[str, Any]]:
    moves = [m.to_json() for m in GAME.legal_moves(state, state.turn)]
    return [m for m in moves if m["type"] == "place"]


def _overpaying(s: BlazonState) -> bool:
    hand = s.players[s.turn].hand
    return s.phase == "pay" and any(GAME_CARDS_PRESTIGE[n] > s.pay_due for n in hand)


def test_paying_is_choosing_the_cards_with_their_total_and_no_change_given() -> None:
    """The hand is a choice group whose candidates are the legal payments in one move: each
    card of one is a choice carrying its prestige, the total is shown against what is due,
    the confirm button carries a move only once chosen (choices.js), the no-change notice waits
    for an overpayment (blazon.js); no card by card ``pay`` button is drawn beside it."""
    state = until(played(2, 0, "pay"), "pay", _overpaying)
    html = drawn(state, state.turn)
    words = htmllib.unescape(text(html))
    assert f"pay {state.pay_due} more prestige" in words
    legal = [m.to_json() for m in GAME.legal_moves(state, state.turn)]
    payments = [m for m in legal if m["type"] == "pay_cards"]
    assert payments
    group = re.search(r'<div class="bz-pay" data-choice-group ([^>]*)>', html)
    assert group is not None
    assert f'data-pay-due="{state.pay_due}"' in group.group(1)
    assert sorted(map(key, candidates(html))) == sorted(map(key, payments))
    for raw in re.findall(r'data-candidates="([^"]*)"', html):
        for candidate in json.loads(htmllib.unescape(raw)):
            assert candidate["choices"] == [str(c) for c in candidate["move"]["cards"]]
    choices = dict(re.findall(r'data-choice="(\d+)" data-choice-value="(\d+)"', html))
    in_payments = {c for m in payments for c in m["cards"]}
    assert {int(c) for c in choices} == in_payments
    assert all(int(v) == GAME_CARDS_PRESTIGE[int(c)] for c, v in choices.items())
    assert "data-selection-total" in html
    assert re.search(r"<button[^>]*data-compose disabled", html)
    assert re.search(r'<p class="bz-overpay" data-overpay hidden>No change given', html)
    assert "Pay with the chosen cards" in words
    assert "Choose the cards that pay" in words
    assert "Choose a card: the spaces" not in words  # no placement while paying
    assert not [m for m in offered(html) if m["type"] == "pay"]


def test_a_game_set_up_before_payments_in_one_move_pays_card_by_card() -> None:
    state = until(played(2, 0, "pay"), "pay", _overpaying)
    state.engine_version = "1.2.0"
    html = drawn(state, state.turn)
    words = htmllib.unescape(text(html))
    pays = sorted(map(key, (m for m in offered(html) if m["type"] == "pay")))
    assert pays
    assert pays == sorted(key(m.to_json()) for m in GAME.legal_moves(state, state.turn))
    assert "(no change given)" in words
    assert "data-pay-due" not in html


GAME_CARDS_PRESTIGE = {n: c.prestige for n, c in blazon.EDITIONS["reconstructed-1"].cards.items()}


def test_an_exchange_is_a_button_on_the_display_card() -> None:
    state = until(played(2, 0, "swap"), "swap", lambda s: s.phase == "exchange")
    html = drawn(state, state.turn)
    display = re.search(r'<ul class="bz-display">(.*?)</ul>', html, flags=re.S)
    assert display is not None
    on_display = offered(display.group(1))
    exchanges = [m.to_json() for m in GAME.legal_moves(state, state.turn) if m.TYPE == "exchange"]
    assert exchanges
    assert sorted(map(key, [m for m in on_display if m["type"] == "exchange"])) == sorted(
        map(key, exchanges)
    )
    assert "Keep the drawn cards" in text(html)
    assert "just drawn" in text(html)


def _abatements(state: BlazonState) -> list[dict[str, Any]]:
    return [m for m in _placements(state) if m.get("abate")]


def _carried_move(tag: str) -> dict[str, Any]:
    """The move a control's tag carries in its data-move."""
    found = re.search(r'data-move="([^"]*)"', tag)
    return json.loads(htmllib.unescape(found.group(1))) if found else {}


def test_abatement_placements_are_controls_and_the_token_lies_on_the_shield_after() -> None:
    """With the abatement option on, every placement using the token is a control of the hand
    card, carrying exactly that legal move and saying so; the token is shown in hand. Once
    placed, the token is drawn (−8) on the abated card's space of that shield only, and no more
    in hand; the table offers no further abatement."""
    state = until(played(2, 0, "abate", abatement=True), "abate", _abatements)
    seat = state.turn
    abates = _abatements(state)
    html = drawn(state, seat)
    controls = [m for m in offered(html) if m["type"] == "place" and m.get("abate")]
    assert sorted(set(map(key, controls))) == sorted(map(key, abates))
    buttons = re.findall(r'<button[^>]*data-move="[^"]*"[^>]*>', html)
    tags = [tag for tag in buttons if _carried_move(tag).get("abate")]
    assert len(tags) == len(controls)
    for tag in tags:
        label = re.search(r'aria-label="([^"]*)"', tag)
        assert label is not None
        assert "abatement token" in htmllib.unescape(label.group(1)), tag
    mine = html.split(f'data-player-seat="{seat}"', 1)[1].split("</article>", 1)[0]
    assert "abatement token in hand" in mine
    assert 'class="bz-abatement"' not in html

    move = next(m for m in abates if not m.get("herald"))
    state = GAME.apply(state, seat, GAME.decode_move(move))
    while state.phase == "pay":  # pay with the first legal payment
        state = GAME.apply(state, seat, GAME.legal_moves(state, seat)[0])
    player = state.players[seat]
    assert player.abated_space == move["space"]
    assert not player.abatement
    space = blazon.EDITIONS["reconstructed-1"].board.spaces[move["space"]].name
    for viewer in (seat, 1 - seat, None):
        html = drawn(state, viewer)
        mine = html.split(f'data-player-seat="{seat}"', 1)[1].split("</article>", 1)[0]
        other = html.split(f'data-player-seat="{1 - seat}"', 1)[1].split("</article>", 1)[0]
        assert mine.count('class="bz-abatement"') == 1
        token = mine.split(f'data-space="{space}"', 1)[1].split("</g>\n", 1)[0]
        assert '<g class="bz-abatement">' in token
        assert ">−8</text>" in token
        assert "abatement token: −8 at the end while it lies here" in token
        assert 'class="bz-abatement"' not in other
        assert "abatement token in hand" not in mine
    assert not [m for m in offered(drawn(state, seat)) if m.get("abate")]


# -- planted markers ------------------------------------------------------------------------


def planted_state() -> BlazonState:
    """A real game some moves in, seat 1 holding Potent and Erminois on top of the tincture
    deck (each edition holds one of either: only the plant can show them)."""
    state = played(3, 25, "planted")
    numbers = {c.name: n for n, c in blazon.EDITIONS["reconstructed-1"].cards.items()}
    _take_out(state, numbers[IN_HAND])
    _take_out(state, numbers[ON_DECK])
    state.players[1].hand.append(numbers[IN_HAND])
    state.decks["tincture"].append(numbers[ON_DECK])
    return state


def _take_out(state: BlazonState, card: int) -> None:
    """Remove ``card`` wherever it is (a deck, a hand, the display, a pile, a shield)."""
    for cards in [*state.decks.values(), *state.discards.values()]:
        if card in cards:
            cards.remove(card)
    for player in state.players:
        if card in player.hand:
            player.hand.remove(card)
        player.shield = [0 if n == card else n for n in player.shield]
    state.display = [0 if n == card else n for n in state.display]
    state.drawn = [n for n in state.drawn if n != card]


@pytest.mark.parametrize("viewer", [0, 2, None])
def test_planted_cards_reach_no_viewer_who_may_not_see_them(viewer: int | None) -> None:
    html = drawn(planted_state(), viewer)
    assert IN_HAND not in html
    assert ON_DECK not in html
    # Its pattern is drawn once, in the table's definitions; a card painted with it would
    # name it again.
    assert html.count("url(#bz-fur-potent)") == 0


def test_the_plant_in_a_hand_is_seen_by_its_holder() -> None:
    """The check can fail: the holder sees the planted card in their own hand."""
    html = drawn(planted_state(), 1)
    assert IN_HAND in html
    assert html.count("url(#bz-fur-potent)") >= 1
    assert ON_DECK not in html


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_hidden_markers_of_the_engine_reach_no_viewer(viewer: int | None) -> None:
    state = played(2, 14, "markers")
    markers = plant_hidden_markers(state, viewer)
    assert markers
    html = drawn(state, viewer)
    assert [m for m in markers if m in html] == []


def test_cards_just_drawn_are_seen_by_the_drawer_only() -> None:
    state = until(played(2, 0, "draw"), "draw", lambda s: s.phase == "exchange" and s.drawn)
    numbers = set(state.drawn)
    cards = blazon.EDITIONS["reconstructed-1"].cards
    names = {cards[n].name for n in numbers}
    other = 1 - state.turn
    seen_by_others = drawn(state, other) + drawn(state, None)
    for name in names:
        # A drawn card's name may be shown elsewhere (the display, a shield) by another copy.
        public = _public_names(state)
        if name not in public:
            assert name not in seen_by_others
    assert "just drawn" not in seen_by_others
    assert "just drawn" in drawn(state, state.turn)


def _public_names(state: BlazonState) -> set[str]:
    cards = blazon.EDITIONS["reconstructed-1"].cards
    shown = [*state.display, *state.discards["tincture"], *state.discards["device"]]
    shown += [n for p in state.players for n in p.shield]
    return {cards[n].name for n in shown if n}


def test_no_seed_and_no_other_hand_on_the_pages_of_a_running_game() -> None:
    stream, users = open_game(12)
    state = current_state(stream)
    for seat, user in enumerate(users):
        for name in ("play:table", "play:fragment"):
            html = page(stream, user, name)
            assert stream.seed not in html
            assert hand_cards(html) == len(state.players[seat].hand)
    for name in ("play:table", "play:fragment"):
        html = page(stream, None, name)
        assert stream.seed not in html
        assert hand_cards(html) == 0


# -- the shield -----------------------------------------------------------------------------


def test_the_shield_draws_each_placed_card_in_its_alignment_and_the_blazon_under_it() -> None:
    state = played(2, 160, "shield", abatement=True)
    seat = max(range(2), key=lambda s: sum(1 for n in state.players[s].shield if n))
    player = state.players[seat]
    assert any(player.shield)
    html = drawn(state, None)
    board = html.split(f'data-player-seat="{seat}"', 1)[1].split("</article>", 1)[0]
    cards = blazon.EDITIONS["reconstructed-1"].cards
    assert board.count('class="bz-placed"') == sum(1 for n in player.shield if n)
    for number in player.shield:
        if number:
            assert cards[number].name.split()[0] in board
    blazon_words = GAME.view(state, None)["players"][seat]["blazon"]
    assert blazon_words
    assert htmllib.escape(blazon_words, quote=False) in board


def test_the_blazon_under_each_shield_is_in_the_viewers_language() -> None:
    """A French page writes each shield's blazon in French (the view carries the English one);
    an English page keeps the engine's English words."""
    stream, users = open_game(0)
    for _ in range(30):
        stream = play_stream(stream, stop_after=10)
        state = current_state(stream)
        if all(sum(1 for n in p.shield if n) >= 2 for p in state.players):
            break
    tables = TABLES[state.edition]
    french = [blazon_text(p, tables, "fr") for p in state.players]
    english = [blazon_text(p, tables) for p in state.players]
    assert all(french)
    assert french != english
    html = page(stream, users[0], HTTP_ACCEPT_LANGUAGE="fr")
    translation.activate("en")
    blazons = re.findall(r'<p class="bz-blazon"><em>(.*?)</em></p>', html)
    assert [htmllib.unescape(b) for b in blazons] == [french[0], french[1]]
    for words in english:
        assert words not in htmllib.unescape(html)
    html = page(stream, users[1], HTTP_ACCEPT_LANGUAGE="en")
    blazons = re.findall(r'<p class="bz-blazon"><em>(.*?)</em></p>', html)
    assert [htmllib.unescape(b) for b in blazons] == [english[1], english[0]]


def test_the_final_scoring_names_each_blazon_in_the_viewers_language() -> None:
    state = played(2, 10_000, "final-fr")
    assert GAME.result(state) is not None
    tables = TABLES[state.edition]
    with translation.override("fr"):
        html = drawn(state, None, finished=True)
    final = re.search(r'<ul class="bz-final-blazons">(.*?)</ul>', html, flags=re.S)
    assert final is not None
    shown = re.findall(r"<em>(.*?)</em>", final.group(1))
    assert sorted(map(htmllib.unescape, shown)) == sorted(
        blazon_text(player, tables, "fr") for player in state.players
    )


# -- game over ------------------------------------------------------------------------------


def test_a_finished_game_shows_the_final_scoring_broken_down() -> None:
    stream, users = open_game(10_000)
    assert stream.is_finished
    html = page(stream, users[0])
    panel = re.search(r'<section class="game-over" data-result="([^"]*)"', html)
    assert panel is not None
    assert json.loads(htmllib.unescape(panel.group(1))) == stream.result
    assert offered(html) == []
    final = re.search(r'<table class="final-scores bz-final">(.*?)</table>', html, flags=re.S)
    assert final is not None
    head, body = final.group(1).split("<tbody>")
    players = [text(h).split()[0] for h in re.findall(r"<th[^>]*>(.*?)</th>", head, re.S)[1:]]
    rows = [
        [text(cell).strip() for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]
    details = stream.result["details"]["players"]
    ranks = stream.result["ranks"]
    order = sorted(range(2), key=lambda s: (ranks[s], s))  # best rank first
    assert players == [users[s].get_username() for s in order]
    lines = ("track", "augmentations", "distinctions", "heralds", "animals", "full_shield",
             "abatement", "total", "hand_prestige")  # fmt: skip
    assert [int(v) for v in rows[0][1:]] == [ranks[s] for s in order]
    for row, line in zip(rows[1:], lines, strict=True):
        assert [int(v.replace("−", "-")) for v in row[1:]] == [details[s][line] for s in order]
    words = text(html)
    assert (
        "reached 50 prestige" in words or "filled their shield" in words or "distinction" in words
    )
    assert "The game is over." in text(html)
    assert stream.seed in html  # revealed once the game has ended


def test_the_replay_reads_chance_outcomes_with_card_names() -> None:
    state = GAME.new_game(players=2, seed="effects")
    cards = blazon.EDITIONS["reconstructed-1"].cards
    dealt = next(e for e in state.effects if e.kind == "chance" and "hand" in e.data)
    words = blazon.effect_words(dealt.kind, dealt.data, NAMES)
    assert words is not None
    assert words.startswith("hand: ")
    assert [cards[n].name for n in dealt.data["hand"]] == words.removeprefix("hand: ").split(", ")
    shown = next(e for e in state.effects if "slot" in e.data)
    slot_words = blazon.effect_words(shown.kind, shown.data, NAMES)
    assert f"display slot: {shown.data['slot'] + 1}" in (slot_words or "")


def test_svg_coordinates_keep_their_decimal_point_in_french() -> None:
    """A French page localises numbers ("67,2"): the drawing's coordinates must not be."""
    state = played(2, 60, "coordinates")
    with translation.override("fr"):
        html = drawn(state, 0)
    assert "Piste de prestige" in html  # the page is French
    assert re.findall(r'\b(?:x|y|cx|cy|x1|x2)="[^"]*,[^"]*"', html) == []


def test_a_distinctions_requirement_is_worded_in_each_language_from_its_cache() -> None:
    """The requirement words are kept per language (play.blazon.requirement_words): a French
    drawing after an English one says them in French, and each is the clauses' own words."""
    distinctions = list(blazon.EDITIONS[next(iter(blazon.EDITIONS))].distinction_by_id.values())
    worded: dict[str, list[str]] = {}
    for language in ("en", "fr", "en", "fr"):
        with translation.override(language):
            words = [blazon.requirement_words(d.clauses) for d in distinctions]
            fresh = [" + ".join(map(blazon.clause_words, d.clauses)) for d in distinctions]
        assert words == fresh
        assert worded.setdefault(language, words) == words
    assert worded["en"] != worded["fr"]
