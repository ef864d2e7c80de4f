"""The searches of tests/play/hidden_wire.py can fail: on the fragments each seat and a
spectator fetch along a real game (no browser), they pass, they find each seat's own cards,
and they fail when a hidden value is planted in a drawing — another seat's card by its number
or its words (Blazon), by its id or its words, or another player's crowns under
``hidden_crowns`` (13 Couronnes). The browser tests run the same searches over every WebSocket frame."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from events.models import Stream
from events.services import stream_open
from events.states import current_state
from tests.play.hidden_wire import (
    _blazon_labels,
    _couronnes_words,
    public_ids,
    search_blazon,
    search_couronnes,
    states_by_version,
    views_by_version,
)
from tests.ratings.games import play_stream
from tests.users import make_user

pytestmark = pytest.mark.django_db


class Received:
    """A page's wire without a browser: the fragments fetched by its viewer."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.texts: list[tuple[str, str]] = []


def fetched(
    game_id: str, players: int, moves: int, **options: Any
) -> tuple[Stream, list[Received]]:
    """A stream played by bots, each seat's and a spectator's fragment fetched after each move."""
    users = [make_user(f"w{game_id[:3]}{n}-{len(options)}") for n in range(players)]
    stream = stream_open(game_id=game_id, seats=users, public=True, options=options or None)
    clients: list[tuple[Client, Received]] = []
    for seat, user in [*enumerate(users), (None, None)]:
        client = Client()
        if user is not None:
            client.force_login(user)
        clients.append((client, Received(seat)))
    for _ in range(moves):
        for client, received in clients:
            answer = client.get(reverse("play:fragment", args=[stream.pk]))
            assert answer.status_code == 200
            received.texts.append(("http", answer.content.decode()))
        stream = play_stream(stream, stop_after=1)
        if stream.is_finished:
            break
    return stream, [received for _, received in clients]


def test_the_blazon_search_passes_finds_own_cards_and_catches_planted_ones() -> None:
    stream, wires = fetched("blazon", 2, 30)
    states = states_by_version(stream)
    end = stream.version + 1
    for wire in wires:
        searched = search_blazon(wire, states, end)
        assert searched.drawings == len(wire.texts)
        if wire.seat is not None:
            # Its own hand, by its words, in every drawing (a hand may be empty for a while).
            assert searched.own_missing == 0
            assert searched.found_allowed > 0
    seat0 = wires[0]
    version, text = _first(seat0, states)
    state = states[version]
    other = state.players[1].hand[0]
    labels = _blazon_labels(state.edition)
    worded = next(c for c in state.players[1].hand if c in labels)
    top = state.decks["device"][-1]
    for planted in (
        text.replace("</section>", f'<button data-choice="{other}"></button></section>'),
        text.replace("</section>", f"<span>{labels[worded]}</span></section>"),
        text.replace("</section>", f'<i data-move="{{&quot;card&quot;: {top}}}"></i></section>'),
    ):
        seat0.texts = [("http", planted)]
        with pytest.raises(AssertionError):
            search_blazon(seat0, states, end)


def test_the_couronnes_search_passes_finds_own_cards_and_catches_planted_ones() -> None:
    stream, wires = fetched("13-couronnes", 3, 20, hidden_crowns=True, max_turns=20)
    states = states_by_version(stream)
    views = views_by_version(stream)
    public = public_ids(stream, views)
    end = stream.version + 1
    for wire in wires:
        searched = search_couronnes(wire, states, views, public, end)
        assert searched.drawings == len(wire.texts)
        if wire.seat is not None:
            assert searched.found_allowed > searched.drawings  # its hand's ids, its crowns
            # Its own hand, by the cards' words, in every drawing.
            assert searched.own_missing == 0
    seat0 = wires[0]
    version, text = _first(seat0, states)
    state = states[version]
    other = state.hands[1][0]
    label, name = _couronnes_words(state.edition)[state.hands[2][0]]
    drawn_next = _couronnes_words(state.edition)[state.draw[-1]][1]
    crowns = (
        '<span class="tc-hidden">crowns hidden</span>',
        f"<strong>{state.crowns[1]}</strong> / 13",
    )
    block = text.split('data-player-seat="1"')[1]
    assert crowns[0] in block
    for planted in (
        text.replace("</section>", f'<li data-card="{other}"></li></section>'),
        text.replace("</section>", f'<li data-card="{state.draw[-1]}"></li></section>'),
        # Another hand's card and the next card drawn by their words alone, with no id.
        text.replace("</section>", f'<span aria-label="{label}"></span></section>'),
        text.replace("</section>", f"<li>{name}</li></section>"),
        text.replace("</section>", f"<p>Next: {drawn_next}.</p></section>"),
        text.replace(
            'data-player-seat="1"' + block,
            'data-player-seat="1"' + block.replace(*crowns, 1),
        ),
    ):
        seat0.texts = [("http", planted)]
        with pytest.raises(AssertionError):
            search_couronnes(seat0, states, views, public, end)


def _first(wire: Received, states: dict[int, Any]) -> tuple[int, str]:
    """The version and text of the wire's first drawing (every hand full)."""
    text = wire.texts[0][1]
    version = max(v for v in states if f'data-version="{v}"' in text)
    return version, text


def test_states_by_version_follow_the_stream() -> None:
    users = [make_user(f"sv{n}") for n in range(2)]
    stream = play_stream(stream_open(game_id="blazon", seats=users, public=True), stop_after=5)
    states = states_by_version(stream)
    assert sorted(states) == list(range(1, stream.version + 1))
    assert states[stream.version].step == current_state(stream).step
