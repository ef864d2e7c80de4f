"""The pieces of the 7 Blasons drawing beyond the hand and the trick, for each seat and a
spectator, from real engine states: tricks won (own always, others' once consulted in
variant 1), the bourgeoisie cards, the religieux of variant 4, the draw pile and the players
as targets, the malandrin's choice on the cards, the set-aside cards, the tokens revealed at
the end, the final count and the verification. Planted markers (a house nobody plays at the
table) prove that another seat's consulted trick reaches only the two seats who may see it."""

from __future__ import annotations

import html as htmllib
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation

import engine
from engine.sept_blasons import testing
from events.models import Stream
from play import sept_blasons
from play.drawings import DRAWINGS
from ratings.models import Verification
from ratings.verification import game_verify
from tests.platform.test_me import text
from tests.play.test_sept_blasons_table import (
    PLANT,
    key,
    offered,
    open_game,
    page,
    player_box,
    without_box,
)

GAME = engine.get("les-7-blasons")
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]
ROCHEBRUNE = 6
ZERO = "00000000-0000-0000-0000-000000000000"


def drawn(state: Any, seat: int | None, *, finished: bool = False) -> str:
    """The table drawn from ``state`` for ``seat`` from its view, as the page draws it."""
    legal = [] if seat is None else [m.to_json() for m in GAME.legal_moves(state, seat)]
    table = sept_blasons.table_for(GAME.view(state, seat), legal, NAMES[: state.players])
    result = GAME.result(state)
    if result is not None:
        sept_blasons.add_result(table, result.to_json(), NAMES[: state.players])
    game = {"game_id": "les-7-blasons", "stream_id": "00000000-0000-0000-0000-000000000000"}
    drawing = DRAWINGS["les-7-blasons"]
    context = {
        "game": {**game, "version": 1, "finished": finished},
        "table": table,
        "drawing": drawing,
    }
    return render_to_string(drawing.template, context)


def walk_until(
    want: Callable[[Any, list[dict[str, Any]]], bool],
    *,
    players: int = 3,
    variants: list[int] | None = None,
    seed: str = "pieces",
    steps: int = 3000,
) -> tuple[Any, int]:
    """A random game's first state where ``want(state, legal moves of the seat to act)``."""
    state = GAME.new_game(players=players, seed=seed, options={"variants": variants or []})
    chooser = random.Random(seed)
    for _ in range(steps):
        seats = GAME.to_act(state)
        if not seats:
            break
        legal = GAME.legal_moves(state, seats[0])
        if want(state, [m.to_json() for m in legal]):
            return state, seats[0]
        state = GAME.apply(state, seats[0], legal[chooser.randrange(len(legal))])
    pytest.fail("no such state in the random game")


def moves_in(fragment: str) -> list[str]:
    return sorted(key(m) for m in offered(fragment))


def of_type(legal: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [m for m in legal if m["type"] == kind]


# -- every legal move is offered once, on its object or as a button -------------------------


@pytest.mark.parametrize(
    ("players", "variants"), [(3, []), (3, [1, 2, 3, 4]), (5, [1, 4]), (4, [2, 3])]
)
def test_every_legal_move_is_offered_exactly_once_in_every_variant(
    players: int, variants: list[int]
) -> None:
    state = GAME.new_game(players=players, seed=f"once-{variants}", options={"variants": variants})
    chooser = random.Random(f"once-{variants}")
    checked = set()
    while seats := GAME.to_act(state):
        seat = seats[0]
        legal = GAME.legal_moves(state, seat)
        if state.step % 3 == 0 or state.phase != "play":
            assert moves_in(drawn(state, seat)) == sorted(key(m.to_json()) for m in legal)
            checked.add(state.phase)
        state = GAME.apply(state, seat, legal[chooser.randrange(len(legal))])
    assert {"play", "power", "free"} <= checked
    if variants:
        assert "bourgeoisie" in checked


# -- tricks won ------------------------------------------------------------------------------


def consulted_state() -> Any:
    """Variant 1, three players: seat 1 won a trick of the plant's house; seat 0 consulted it."""
    state = GAME.new_game(players=3, seed="consult", options={"variants": [1]})
    state.tricks[1] = [[ROCHEBRUNE * 8 + 7, ROCHEBRUNE * 8 + 5]]
    state.seen_tricks[0] = [1 * 64 + 0]
    state.seen_tricks[1] = [1 * 64 + 0]
    return state


@pytest.mark.parametrize("viewer", [0, 1])
def test_a_consulted_trick_is_drawn_for_the_one_who_looked_and_its_owner(viewer: int) -> None:
    html = drawn(consulted_state(), viewer)
    box = player_box(html, 1)
    assert PLANT in box
    assert box.count('class="mini-card blason-rochebrune"') == 2
    assert "Rochebrune 12 × 0 = 0" in htmllib.unescape(text(box))
    assert PLANT not in without_box(html, 1)


@pytest.mark.parametrize("viewer", [2, None])
def test_a_consulted_trick_reaches_no_other_seat_and_no_spectator(viewer: int | None) -> None:
    html = drawn(consulted_state(), viewer)
    assert PLANT not in html
    assert "rochebrune" not in html
    assert "1 trick won · not seen" in text(player_box(html, 1))


def test_without_variant_1_a_player_sees_its_own_tricks_by_colour_and_not_the_others() -> None:
    state = GAME.new_game(players=3, seed="own")
    state.tricks[0] = [[1 * 8 + 5, 2 * 8 + 3, 1 * 8 + 2]]  # Bellay 5 and 2, Contades 3
    state.tricks[2] = [[ROCHEBRUNE * 8 + 7]]
    state.fronts[0] = [type(state.fronts[0][0])(1, True), type(state.fronts[0][0])(1, True)]
    own = drawn(state, 0)
    words = htmllib.unescape(text(player_box(own, 0)))
    assert "Bellay 7 × 2 = 14" in words
    assert "Contades 3 × 0 = 0" in words
    assert PLANT not in own  # seat 2's trick: its count only
    assert "1 trick won" in text(player_box(own, 2))
    assert PLANT in player_box(drawn(state, 2), 2)
    watched = htmllib.unescape(text(player_box(drawn(state, None), 0)))
    assert "1 trick won · not seen" in watched
    assert "Bellay 7" not in watched


def test_in_variant_1_own_tricks_are_hidden_until_consulted() -> None:
    state = GAME.new_game(players=3, seed="own", options={"variants": [1]})
    state.tricks[0] = [[ROCHEBRUNE * 8 + 7]]
    assert PLANT not in drawn(state, 0)
    assert "not seen" in text(player_box(drawn(state, 0), 0))


def test_a_trick_to_consult_is_a_button_on_that_trick() -> None:
    state, seat = walk_until(
        lambda s, legal: bool(of_type(legal, "consult-trick")), variants=[1], seed="look"
    )
    html = drawn(state, seat)
    for move in of_type([m.to_json() for m in GAME.legal_moves(state, seat)], "consult-trick"):
        box = player_box(html, move["seat"])
        assert key(move) in moves_in(box), move
        assert 'class="trick-pile token-target"' in box


# -- the bourgeoisie cards and the religieux -------------------------------------------------


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_a_bourgeoisie_card_is_named_with_its_effects_and_whether_it_is_used(
    viewer: int | None,
) -> None:
    state = GAME.new_game(players=3, seed="bourgeois", options={"variants": [1, 2, 3]})
    state.bourgeoisie = [2, 0, 0]
    box = htmllib.unescape(text(player_box(drawn(state, viewer), 0)))
    assert "Bourgeoisie card: medium bourgeois" in box
    assert "look at 3 tricks" in box
    assert "take a magistrat from another player's tricks" in box
    assert "look at 3 face-down tokens" in box
    assert "Not used yet this round" in box
    assert "Bourgeoisie card" not in text(player_box(drawn(state, viewer), 1))
    state.b_used = [True, False, False]
    assert "Used this round." in text(player_box(drawn(state, viewer), 0))


def test_variant_2_only_names_the_card_to_take() -> None:
    state = GAME.new_game(players=3, seed="bourgeois", options={"variants": [2]})
    state.bourgeoisie = [0, 3, 0]
    box = htmllib.unescape(text(player_box(drawn(state, 2), 1)))
    assert "large bourgeois" in box
    assert "take a religieux" in box
    assert "look at" not in box


def test_playing_with_the_bourgeoisie_card_is_a_button_under_each_card() -> None:
    state, seat = walk_until(
        lambda s, legal: any(m.get("bourgeoisie") for m in legal), variants=[1], seed="activate"
    )
    html = drawn(state, seat)
    hand = re.search(r'<ul class="hand">(.*?)</ul>', html, re.S)
    assert hand is not None
    buttons = re.findall(r'class="with-bourgeoisie" data-move="([^"]*)"', hand.group(1))
    wanted = [m for m in GAME.legal_moves(state, seat) if m.to_json().get("bourgeoisie")]
    assert sorted(key(json.loads(htmllib.unescape(b))) for b in buttons) == sorted(
        key(m.to_json()) for m in wanted
    )


def test_the_religieux_acts_in_variant_4_and_moves_to_a_player_clicked() -> None:
    state, seat = walk_until(
        lambda s, legal: bool(of_type(legal, "move-to")), variants=[4], seed="religieux"
    )
    html = drawn(state, seat)
    chosen = GAME.view(state, seat)["chosen_token"]
    assert "Now click the player whose game receives it." in htmllib.unescape(text(html))
    assert "token-chosen" in player_box(html, chosen["seat"])
    for move in of_type([m.to_json() for m in GAME.legal_moves(state, seat)], "move-to"):
        box = player_box(html, move["seat"])
        assert moves_in(box) == [key(move)]
        assert "player-target" in re.search(
            rf'<li class="([^"]*)" data-player-seat="{move["seat"]}"', html
        ).group(1)
    assert "card-active" in html  # the religieux in the trick acts: variant 4
    plain = GAME.new_game(players=3, seed="religieux")
    words = [c["power"] for c in sept_blasons.table_for(GAME.view(plain, 0), [], NAMES).hand]
    assert words[4] == "no power"


# -- the draw pile, the malandrin, the set-aside cards ---------------------------------------


def test_taking_from_the_draw_pile_is_clicking_the_pile() -> None:
    state, seat = walk_until(
        lambda s, legal: (
            any(m["type"] == "take-token" and m["pick"] == -1 for m in legal)
            and any(m["type"] == "take-token" and m["pick"] >= 0 for m in legal)
        ),
        seed="pile",
    )
    html = drawn(state, seat)
    pile = re.search(r'<div class="pile">(.*?)</div>', html, re.S)
    assert pile is not None
    takes = of_type([m.to_json() for m in GAME.legal_moves(state, seat)], "take-token")
    assert moves_in(pile.group(1)) == sorted(key(m) for m in takes)
    assert '<button type="button" class="pile-stack token-target"' in pile.group(1)


def test_the_malandrins_choices_are_on_the_cards_it_aims_at() -> None:
    state, seat = walk_until(lambda s, legal: bool(of_type(legal, "steal")), seed="thief")
    html = drawn(state, seat)
    trick = re.search(r'<ol class="trick">(.*?)</ol>', html, re.S)
    assert trick is not None
    cards = re.findall(r'<li class="card[^"]*">(.*?)</li>', trick.group(1), re.S)
    for move in of_type([m.to_json() for m in GAME.legal_moves(state, seat)], "steal"):
        assert key(move) in moves_in(cards[move["card"]]), move
    assert "take its value" in text(trick.group(1))


@pytest.mark.parametrize("mode", ["value", "power"])
def test_what_a_malandrin_took_is_said_in_the_viewers_language(mode: str) -> None:
    """The engine notes a malandrin's choice in English for its log ("power of position 2");
    a French table said "prend la power of position 2"."""
    state, seat = walk_until(
        lambda s, legal: any(m["mode"] == mode for m in of_type(legal, "steal")), seed="thief"
    )
    move = next(m for m in GAME.legal_moves(state, seat) if m.to_json().get("mode") == mode)
    state = GAME.apply(state, seat, move)
    position = move.to_json()["card"]
    words = {
        "value": f"prend la valeur de la position de jeu {position}",
        "power": f"prend le pouvoir de la position de jeu {position}",
    }
    with translation.override("fr"):
        french = text(drawn(state, seat))
    assert words[mode] in french
    assert " of position" not in french
    with translation.override("en"):
        english = text(drawn(state, seat))
    assert f"takes the {mode} of play position {position}" in english


def test_set_aside_cards_are_drawn() -> None:
    state = GAME.new_game(players=3, seed="aside")
    state.set_aside = [1 * 8 + 7, 2 * 8 + 7, 0 * 8 + 3]
    words = htmllib.unescape(text(drawn(state, None)))
    assert "Set aside this round (tricks nobody won): 7 bourgeois 7 bourgeois 3 magistrat" in words


# -- the end ----------------------------------------------------------------------------------


def finished_state(players: int = 3, seed: str = "end") -> Any:
    state = GAME.new_game(players=players, seed=seed)
    chooser = random.Random(seed)
    while seats := GAME.to_act(state):
        legal = GAME.legal_moves(state, seats[0])
        state = GAME.apply(state, seats[0], legal[chooser.randrange(len(legal))])
    return state


@pytest.mark.parametrize("viewer", [0, None])
def test_at_the_end_face_down_tokens_are_drawn_revealed(viewer: int | None) -> None:
    state = finished_state()
    html = drawn(state, viewer, finished=True)
    down = [(s, t) for s, front in enumerate(state.fronts) for t in front if not t.up]
    assert down
    revealed = re.findall(
        r'<li class="token token-down token-known (blason-[a-z-]+) token-revealed', html
    )
    colours = [sept_blasons.colour_class(sept_blasons.STANDARD.colours[t.colour]) for _, t in down]
    assert revealed == colours


def test_the_final_scores_say_how_each_round_was_counted() -> None:
    state = finished_state()
    html = drawn(state, 1, finished=True)
    final = re.search(r'<table class="final-scores">(.*?)</table>', html, re.S)
    assert final is not None
    words = htmllib.unescape(text(final.group(1)))
    for lines in GAME.view(state, 1)["round_lines"]:
        for line in lines:
            if line["tokens"]:
                assert f"{line['colour']} {line['card_points']} × {line['tokens']}" in words


def test_shared_ranks_are_marked_tied() -> None:
    state = finished_state()
    result = GAME.result(state).to_json()
    result["ranks"] = [1, 1, 3]
    table = sept_blasons.table_for(GAME.view(state, None), [], NAMES[:3])
    rows = sept_blasons.add_result(table, result, NAMES[:3]).final
    assert [(row["rank"], row["tied"]) for row in rows] == [(1, True), (1, True), (3, False)]


@pytest.mark.django_db
def test_the_game_over_panel_says_verification_pending_then_verified() -> None:
    stream, users = open_game(10_000)
    assert stream.is_finished
    # The worker has not run yet (with eager Celery it ran at the end: forget its record).
    Verification.objects.filter(stream_id=stream.pk).delete()
    for viewer in (users[0], None):
        html = page(stream, viewer)
        assert 'data-verification="pending"' in html
        assert "Verification pending" in text(html)
        assert stream.seed in html
    assert game_verify(stream_id=stream.pk).verification.ok
    fresh = Stream.objects.get(pk=stream.pk)
    for viewer in (users[0], None):
        for name in ("play:table", "play:fragment"):
            html = page(fresh, viewer, name)
            assert 'data-verification="verified"' in html
            assert "Verified:" in text(html)


@pytest.mark.django_db
def test_a_failed_verification_is_said() -> None:
    stream, users = open_game(10_000)
    Verification.objects.update_or_create(
        stream_id=stream.pk, defaults={"ok": False, "checks": {"result": {"ok": False}}}
    )
    html = page(stream, users[1])
    assert 'data-verification="failed"' in html
    assert "Verification failed" in text(html)


@pytest.mark.django_db
def test_a_running_game_says_nothing_of_verification() -> None:
    stream, users = open_game(5)
    html = page(stream, users[0])
    assert "data-verification" not in html
    assert "Verif" not in text(html)


def test_the_bourgeoisie_turn_says_what_the_card_allows() -> None:
    state, seat = walk_until(
        lambda s, legal: s.phase == "bourgeoisie", variants=[1, 3], seed="activate"
    )
    card = sept_blasons.bourgeoisie_names()[GAME.bourgeoisie_card(state, seat).name]
    mine = htmllib.unescape(text(drawn(state, seat)))
    assert f"Your turn — use your bourgeoisie card ({card}): look at" in mine
    assert "; or look at" in mine  # variants 1 and 3: tricks, or tokens
    watching = htmllib.unescape(text(drawn(state, None)))
    assert f"{NAMES[seat]} uses a bourgeoisie card ({card}): look at" in watching


# -- planted markers over whole games --------------------------------------------------------


@pytest.mark.parametrize(("players", "variants"), [(3, [1, 2, 3, 4]), (5, [1, 4]), (4, [3])])
def test_planted_markers_never_reach_the_drawing_through_whole_games(
    players: int, variants: list[int]
) -> None:
    """Along whole random games, every few steps and at the end, for each seat and a
    spectator: the engine's markers planted in all that viewer may not see (other hands,
    face-down colours it did not consult, tricks it may not look at, the draw pile) never
    reach the drawing made from its view (and the seat's real legal moves)."""
    state = GAME.new_game(players=players, seed=f"plant-{variants}", options={"variants": variants})
    chooser = random.Random(f"plant-{variants}")
    checked = 0
    while True:
        seats = GAME.to_act(state)
        if state.step % 5 == 0 or not seats:
            for viewer in (None, *range(players)):
                planted = GAME.clone(state)
                markers = testing.plant_hidden_markers(planted, viewer)
                legal = [] if viewer is None else GAME.legal_moves(state, viewer)
                table = sept_blasons.table_for(
                    GAME.view(planted, viewer), [m.to_json() for m in legal], NAMES[:players]
                )
                html = render_to_string(
                    DRAWINGS["les-7-blasons"].template,
                    {"game": {"game_id": "x", "stream_id": ZERO, "version": 1}, "table": table,
                     "drawing": DRAWINGS["les-7-blasons"]},
                )  # fmt: skip
                assert not [m for m in markers if m in html], (viewer, state.step)
                checked += len(markers)
        if not seats:
            break
        legal = GAME.legal_moves(state, seats[0])
        state = GAME.apply(state, seats[0], legal[chooser.randrange(len(legal))])
    assert checked > 1000


def test_the_card_whose_power_is_used_is_marked_and_its_user_named() -> None:
    state, seat = walk_until(lambda s, legal: s.phase == "power", seed="marked")
    card = state.trick[state.resolving]
    html = drawn(state, None)
    trick = re.search(r'<ol class="trick">(.*?)</ol>', html, re.S)
    assert trick is not None
    classes = re.findall(r'<li class="card ([^"]*)">', trick.group(1))
    assert ["card-resolving" in c for c in classes] == [
        c.position == card.position for c in state.trick
    ]
    words = htmllib.unescape(text(html))
    character = sept_blasons.NAMES[card.rank]
    if card.seat == seat:
        assert f"{NAMES[seat]} uses the power of their {character}." in words
    else:
        assert f"{NAMES[seat]} uses the power of {NAMES[card.seat]}'s {character}." in words
