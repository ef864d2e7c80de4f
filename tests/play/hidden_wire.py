"""Searching what a browser page received for what its viewer may not see (Blazon and
13 Couronnes; Les 7 Blasons' search is in test_live_browser.py).

The server runs in its own process, so nothing can be planted in its game: the markers are the
game's real hidden values at each version — another seat's hand cards, the cards of the decks
(their order, the next draws), crowns under ``hidden_crowns`` — each searched in the way the
drawing would show it (a card's number in a move or a choice, its words on a face, a 13
Couronnes id, a crown count). A search that cannot find is no test, so each one is also run on
what the viewer may see (its own hand, its own crowns) and must find it there.
"""

from __future__ import annotations

import html as htmllib
import json
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.utils import translation

from engine.blazon.cards import EDITIONS as BLAZON_EDITIONS
from engine.blazon.state import DECKS
from engine.blazon.views import _card_json
from engine.treize_couronnes.cards import KINGS as COURONNES_KINGS
from events.models import Event, Stream
from events.states import StreamReplay, game_of
from play.blazon import face_of
from play.treize_couronnes import face as couronnes_face
from tests.play.table_driver import Wire


@dataclass
class Searched:
    """What a search over one page's wire did: drawings searched, and how often it found what
    the viewer may see (the planted markers' control)."""

    drawings: int = 0
    found_allowed: int = 0
    #: Drawings that failed to show one of the viewer's own cards by its words: the control
    #: that the words searched for are the ones a drawing writes.
    own_missing: int = 0


def states_by_version(stream: Stream) -> dict[int, Any]:
    """The game's state after each event of the stream (versions of events that change no
    state, such as GameEnded, keep the state before them)."""
    game = game_of(stream)
    events = list(Event.objects.filter(stream=stream).order_by("seq"))
    replay = StreamReplay(stream, events)
    states = {1: game.clone(replay.state)}
    for event, _ in replay.steps():
        states[event.seq] = game.clone(replay.state)
    for seq in range(2, stream.version + 1):
        if seq not in states:
            states[seq] = states[seq - 1]
    return states


def views_by_version(stream: Stream) -> dict[int, dict[int | None, dict[str, Any]]]:
    """The engine's view for each seat and the public one, after each event of the stream."""
    game = game_of(stream)
    events = list(Event.objects.filter(stream=stream).order_by("seq"))
    replay = StreamReplay(stream, events)
    seats: list[int | None] = [*range(stream.players), None]
    views = {1: {s: game.view(replay.state, s) for s in seats}}
    for event, _ in replay.steps():
        views[event.seq] = {s: game.view(replay.state, s) for s in seats}
    last = views[max(views)]
    for seq in range(1, stream.version + 1):  # events that change no state (GameEnded)
        views.setdefault(seq, views.get(seq - 1, last))
    return views


def drawings(kind: str, text: str, marker: str) -> list[str]:
    """The table drawings in one received text (a page or fragment, or a frame's html),
    unescaped; ``marker`` is the class that names the game's table."""
    if kind == "ws":
        frame = json.loads(text)
        found = [frame["html"]] if frame.get("type") == "table" else []
    else:
        found = [text] if f"game-table {marker}" in text else []
    return [htmllib.unescape(h) for h in found]


def version_of_drawing(html: str) -> int:
    tag = re.search(r'<section class="game-table[^"]*"[^>]*data-version="(\d+)"', html)
    assert tag is not None, html[:200]
    return int(tag.group(1))


def check_seed(wire: Wire, stream: Stream, ended_at: int) -> None:
    """No text received before the end holds the seed (frames and API answers say their
    version; pages and fragments are searched by their drawing's version)."""
    for kind, text in wire.texts:
        at: int | None = None
        if kind == "ws" or text.lstrip().startswith(("{", "[")):
            body = json.loads(text)
            at = body.get("version") if isinstance(body, dict) else None
        elif "data-version=" in text and "game-table" in text:
            at = version_of_drawing(htmllib.unescape(text))
        if at is None or at < ended_at:
            assert stream.seed not in text, (wire.seat, kind)


def _around(html: str, words: list[Any]) -> list[str]:
    """Where each word found stands in the drawing (for the failure's message)."""
    found = []
    for word in words:
        at = html.find(str(word))
        found.append(html[max(0, at - 200) : at + 40])
    return found


# -- Blazon ------------------------------------------------------------------------------------


def _blazon_labels(edition: str) -> dict[int, str]:
    """Each card's words on its face, as the drawing writes them (English), for the cards whose
    words no other card of the edition shares (only those identify a card)."""
    cards = BLAZON_EDITIONS[edition].cards
    with translation.override("en"):
        labels = {n: face_of(_card_json(c), edition).label for n, c in cards.items()}
    counts = Counter(labels.values())
    return {n: label for n, label in labels.items() if counts[label] == 1}


def blazon_card_refs(html: str) -> set[int]:
    """The card numbers a Blazon drawing names: in moves, choices and candidates."""
    found = {int(n) for n in re.findall(r'"card": (\d+)', html)}
    found |= {int(n) for n in re.findall(r'data-choice="(\d+)"', html)}
    for cards in re.findall(r'"cards": \[([\d, ]*)\]', html):
        found |= {int(n) for n in cards.split(",") if n.strip()}
    found |= {int(n) for n in re.findall(r'"number": (\d+)', html)}
    return found


def search_blazon(wire: Wire, states: dict[int, Any], ended_at: int) -> Searched:
    """Fail on another seat's hand card or a deck's card in a drawing the page received
    before the end: by number (a move, a choice) or by the words of its face."""
    searched = Searched()
    labels: dict[int, str] | None = None
    for kind, text in wire.texts:
        for html in drawings(kind, text, "blazon-table"):
            version = version_of_drawing(html)
            if version >= ended_at:
                continue
            state = states[version]
            if labels is None:
                labels = _blazon_labels(state.edition)
            own = set(state.players[wire.seat].hand) if wire.seat is not None else set()
            hidden = {c for deck in DECKS for c in state.decks[deck]}
            hidden |= {c for s, p in enumerate(state.players) if s != wire.seat for c in p.hand}
            refs = blazon_card_refs(html)
            assert not refs & hidden, (wire.seat, version, sorted(refs & hidden))
            assert refs <= own, (wire.seat, version, sorted(refs - own))
            shown = [c for c in hidden if c in labels and labels[c] in html]
            assert shown == [], (wire.seat, version, [labels[c] for c in shown])
            worded = [c for c in own if c in labels]
            found = sum(1 for c in worded if labels[c] in html)
            searched.found_allowed += found
            searched.own_missing += found < len(worded)
            searched.drawings += 1
    return searched


# -- 13 Couronnes ------------------------------------------------------------------------------

_CARD_ID = re.compile(r"\b[A-Z]\d\d\b")
_CROWN_COUNT = re.compile(r"<strong>\d+</strong> / 13")


def _player_blocks(html: str) -> dict[int, str]:
    return {
        int(seat): block
        for seat, block in re.findall(
            r'<li class="player[^"]*" data-player-seat="(\d+)">(.*?)</li>\s*(?=<li class="player|</ul>)',
            html,
            flags=re.S,
        )
    }


def public_ids(stream: Stream, views: Any) -> dict[int, set[str]]:
    """Per version, the card ids everyone has been shown so far: in the public view (the King
    in power, the cards revealed) and in the moves as everyone sees them (a law's cards)."""
    moves: dict[int, str] = {}
    for event in Event.objects.filter(stream=stream, type="MoveMade"):
        payload = event.payload if isinstance(event.payload, dict) else {}
        moves[event.seq] = json.dumps(payload.get("public_move") or payload.get("move"))
    public: dict[int, set[str]] = {}
    known: set[str] = set()
    for version in sorted(views):
        known |= set(_CARD_ID.findall(json.dumps(views[version][None])))
        known |= set(_CARD_ID.findall(moves.get(version, "")))
        public[version] = set(known)
    return public


def _couronnes_words(edition: str) -> dict[str, tuple[str, ...]]:
    """Each King's words as the drawing writes them (English): its face's label (a card of the
    hand, for a screen reader: "Blue King: reveal 2 blue cards → 1 crown") and its name in a
    sentence (a control, the last moves: "the blue King (reveal 2 blue cards → 1 crown)"),
    each kept only when no other card of the edition is written the same or with more words
    around them (only those identify a card)."""
    with translation.override("en"):
        written = {
            card: (couronnes_face(king).label, couronnes_face(king).name)
            for card, king in COURONNES_KINGS[edition].items()
        }
    every = [(card, words) for card, both in written.items() for words in both]

    def alone(card: str, words: str) -> bool:
        return not any(words in others for other, others in every if other != card)

    return {card: tuple(w for w in both if alone(card, w)) for card, both in written.items()}


def _named(html: str, card: str, words: dict[str, tuple[str, ...]]) -> bool:
    """Whether ``html`` names ``card`` by its id or its words."""
    return bool(re.search(rf"\b{card}\b", html)) or any(w in html for w in words.get(card, ()))


def search_couronnes(
    wire: Wire, states: dict[int, Any], views: Any, public: dict[int, set[str]], ended_at: int
) -> Searched:
    """Fail on a card of another hand, of the draw pile or of the discard pile — by its id or by
    its words (its colour and law) — in a drawing received before the end, unless the viewer's
    view shows it or everyone saw it before (a card revealed, a King played); and, under
    ``hidden_crowns``, on another player's crowns or the reserve's count. Each drawing must name
    each card of the viewer's own hand by its words (the search's control)."""
    searched = Searched()
    written: dict[str, tuple[str, ...]] | None = None
    # A card shown to everyone once (``public``: revealed for a law, played as King) stays
    # known: the last moves may name it later, while it is back in a hand or in the draw pile.
    for kind, text in wire.texts:
        for html in drawings(kind, text, "couronnes-table"):
            version = version_of_drawing(html)
            if version >= ended_at:
                continue
            state = states[version]
            if written is None:
                written = _couronnes_words(state.edition)
            seen = set(_CARD_ID.findall(json.dumps(views[version][wire.seat]))) | public[version]
            hidden = {*state.draw, *state.discard}
            hidden |= {c for s, hand in enumerate(state.hands) if s != wire.seat for c in hand}
            hidden -= seen
            shown = sorted(c for c in hidden if _named(html, c, written))
            assert shown == [], (wire.seat, version, shown, _around(html, shown))
            own = state.hands[wire.seat] if wire.seat is not None else []
            searched.found_allowed += sum(1 for c in own if re.search(rf"\b{c}\b", html))
            worded = [c for c in own if written.get(c)]
            by_words = sum(1 for c in worded if any(w in html for w in written[c]))
            searched.found_allowed += by_words
            searched.own_missing += by_words < len(worded)
            if state.hidden_crowns:
                blocks = _player_blocks(html)
                assert len(blocks) == state.players, (wire.seat, version)
                for seat, block in blocks.items():
                    if seat == wire.seat:
                        mine = f"<strong>{state.crowns[seat]}</strong> / 13"
                        assert mine in block, (wire.seat, version)
                        searched.found_allowed += 1
                    else:
                        assert not _CROWN_COUNT.search(block), (wire.seat, version, seat)
                assert "crowns: hidden" in html, (wire.seat, version)
            searched.drawings += 1
    return searched
