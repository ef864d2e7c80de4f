"""The hash chain hides what the payload withholds (issue 12's attack), and proves it after the end.

An attacker holds one seat and its token. For every part of the log withheld from them (an effect's
data visible to others or to nobody, another seat's full move) they try candidate values and
compare hashes, as the security review did on the old rule. The attacker here is generous: the
candidates are every value of that kind the whole game ever recorded (the truth included), and they
know every other hidden part of the event. Under the commitment rule they find nothing during the
game; the same attack on a stream hashed by the old full-payload rule finds every hidden part, which
shows the attack is real (and why such a stream's hashes are no longer served during the game).

After the end, an outside verifier written here from docs/api.md alone (hmac, hashlib, rfc8785; not
Herald's code) derives every salt from the revealed seed and checks the whole chain; during the game
a player links the chain from their own copy.
"""

from __future__ import annotations

import hashlib
import hmac
from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

import pytest
import rfc8785
from django.contrib.auth.models import User

import engine
from engine.core import Rng
from events.hashing import HASH_FORMAT_FULL, chain_hash, event_body, event_hash
from events.models import GENESIS_HASH, Event, Stream
from events.services import stream_append_move, stream_open
from events.states import current_state
from tests.events.conftest import client_for

pytestmark = pytest.mark.django_db

GAMES = [
    ("les-7-blasons", {}, 4),
    ("blazon", {}, 3),
    ("13-couronnes", {"hidden_crowns": True}, 4),
]
MID_GAME_MOVES = 40
MAX_MOVES = 3000
ATTACKER = 0


# -- an outside verifier, from docs/api.md ------------------------------------------------------


def jcs(value: Any) -> bytes:
    return rfc8785.dumps(value)


def outside_salt(seed: str, stream_id: str, seq: int, part: str) -> str:
    message = f"herald/salt/v2\n{stream_id}\n{seq}\n{part}".encode()
    return hmac.new(seed.encode(), message, hashlib.sha256).hexdigest()


def outside_commitment(salt: str, value: Any) -> str:
    return hashlib.sha256(bytes.fromhex(salt) + jcs(value)).hexdigest()


def outside_sealed(payload: dict[str, Any]) -> dict[str, Any]:
    """The hashed payload from a received one: the revealed hidden parts taken out."""
    sealed = dict(payload)
    if "move_commitment" in sealed:
        sealed.pop("move", None)
        sealed.pop("move_salt", None)
    if "effects" in sealed:
        sealed["effects"] = [
            {k: v for k, v in e.items() if k not in ("data", "salt")} if "commitment" in e else e
            for e in sealed["effects"]
        ]
    return sealed


def outside_hash(stream_id: str, event: dict[str, Any], prev: str) -> str:
    moment = datetime.fromisoformat(event["recorded_at"]).astimezone(UTC)
    body = {
        "stream": stream_id,
        "seq": event["seq"],
        "type": event["type"],
        "seat": event["seat"],
        "recorded_at": moment.isoformat(timespec="microseconds"),
        "payload": outside_sealed(event["payload"]),
    }
    return hashlib.sha256(bytes.fromhex(prev) + jcs(body)).hexdigest()


def outside_link(stream_id: str, events: list[dict[str, Any]]) -> str:
    """Check each event links to the one before and hashes as received; the head hash."""
    prev = GENESIS_HASH
    for event in events:
        assert event["prev_hash"] == prev, f"event {event['seq']} does not link"
        assert outside_hash(stream_id, event, prev) == event["hash"], f"event {event['seq']}"
        prev = event["hash"]
    return prev


def outside_check_revealed(stream_id: str, events: list[dict[str, Any]], seed: str | None) -> int:
    """Every revealed hidden part matches its commitment (salts derived from ``seed`` when
    given, else the salts received); the number of parts checked."""
    checked = 0
    for event in events:
        payload, seq = event["payload"], event["seq"]
        parts = [
            ("move", payload.get("move"), payload.get("move_salt"), payload.get("move_commitment"))
        ]
        parts += [
            (f"effects/{i}", e.get("data"), e.get("salt"), e.get("commitment"))
            for i, e in enumerate(payload.get("effects", []))
        ]
        for part, value, salt, commitment in parts:
            if commitment is None or salt is None:
                continue
            if seed is not None:
                assert salt == outside_salt(seed, stream_id, seq, part), (seq, part)
            assert outside_commitment(salt, value) == commitment, (seq, part)
            checked += 1
    return checked


# -- playing ------------------------------------------------------------------------------------


def seat_users(count: int) -> list[User]:
    return [User.objects.create_user(f"seat{i}") for i in range(count)]


def play(stream: Stream, chooser: Rng, *, moves: int) -> None:
    """Up to ``moves`` random legal moves (fewer if the game ends)."""
    game = engine.get(stream.game)
    for _ in range(moves):
        stream.refresh_from_db()
        if stream.is_finished:
            return
        state = current_state(stream)
        seat = game.to_act(state)[0]
        move = chooser.choice(game.legal_moves(state, seat))
        stream_append_move(
            stream_id=stream.pk, seat=seat, move=move.to_json(), expected_version=stream.version
        )


# -- the attack ---------------------------------------------------------------------------------


def candidates_by_kind(stream: Stream) -> dict[str, list[Any]]:
    """Every value of each kind of hidden part the whole stored game holds (truth included)."""
    found: dict[str, list[Any]] = defaultdict(list)
    for event in Event.objects.filter(stream=stream).order_by("seq"):
        payload = event.payload
        if "public_move" in payload and payload["move"] != payload["public_move"]:
            kind = "move:" + str(payload["move"].get("type"))
            if payload["move"] not in found[kind]:
                found[kind].append(payload["move"])
        for effect in payload.get("effects", []):
            kind = "effect:" + effect["kind"]
            if effect.get("visible_to") is not None and effect["data"] not in found[kind]:
                found[kind].append(effect["data"])
    return found


def hidden_parts(stored: Event) -> list[tuple[str, str, Any]]:
    """(part, kind, true value) of each hidden part of a stored event."""
    payload = stored.payload
    parts = []
    if "public_move" in payload and payload["move"] != payload["public_move"]:
        parts.append(("move", "move:" + str(payload["move"].get("type")), payload["move"]))
    for index, record in enumerate(payload.get("effects", [])):
        if record.get("visible_to") is not None:
            parts.append((f"effects/{index}", "effect:" + record["kind"], record["data"]))
    return parts


def withheld_parts(stored: Event, shown: dict[str, Any]) -> list[tuple[str, str, Any]]:
    """The hidden parts of ``stored`` that the attacker's copy ``shown`` leaves out."""
    received = shown["payload"]
    withheld = []
    for part, kind, truth in hidden_parts(stored):
        if part == "move":
            revealed = received["move"] == truth
        else:
            revealed = "data" in received["effects"][int(part.split("/")[1])]
        if not revealed:
            withheld.append((part, kind, truth))
    return withheld


def with_guess(stored: Event, part: str, guess: Any) -> dict[str, Any]:
    """The stored payload (everything else known: a generous attacker) with ``guess`` in ``part``."""
    payload = dict(stored.payload)
    if part == "move":
        payload["move"] = guess
    else:
        index = int(part.split("/")[1])
        effects = [dict(e) for e in payload["effects"]]
        effects[index]["data"] = guess
        payload["effects"] = effects
    return payload


def attack(
    stream: Stream, shown_events: list[dict[str, Any]], *, stored_hashes: bool = False
) -> tuple[int, list[tuple[int, str]]]:
    """Guess every withheld part by hashing candidates; (parts attacked, parts found).

    ``stored_hashes`` uses the hash stored in the database instead of the one received: what
    the API served for every stream before the commitment rule.
    """
    candidates = candidates_by_kind(stream)
    stored = {e.seq: e for e in Event.objects.filter(stream=stream)}
    attacked, found = 0, []
    for shown in shown_events:
        event = stored[shown["seq"]]
        target = event.hash if stored_hashes else shown["hash"]
        for part, kind, truth in withheld_parts(event, shown):
            assert truth in candidates[kind], "the truth must be among the candidates"
            attacked += 1
            for guess in candidates[kind]:
                if _guess_matches(stream, event, shown, part, guess, target=target):
                    found.append((event.seq, part))
                    break
    return attacked, found


def _guess_matches(
    stream: Stream, event: Event, shown: dict[str, Any], part: str, guess: Any, *, target: Any
) -> bool:
    payload = with_guess(event, part, guess)
    body = event_body(
        stream_id=stream.pk, seq=event.seq, type=event.type, seat=event.seat,
        recorded_at=event.recorded_at, payload=payload,
    )  # fmt: skip
    if target is not None and chain_hash(event.prev_hash, body) == target:
        return True
    commitment = _shown_commitment(shown, part)
    if commitment is None:
        return False
    # Salts the attacker can name: none, zeros, keyed by the public seed commitment.
    for salt in (b"", bytes(32), stream.seed_commitment.encode()):
        if hashlib.sha256(salt + jcs(guess)).hexdigest() == commitment:
            return True
    keyed = outside_salt(stream.seed_commitment, str(stream.pk), event.seq, part)
    return outside_commitment(keyed, guess) == commitment


def _shown_commitment(shown: dict[str, Any], part: str) -> str | None:
    if part == "move":
        return shown["payload"].get("move_commitment")
    index = int(part.split("/")[1])
    return shown["payload"]["effects"][index].get("commitment")


def events_as(user: User, stream: Stream) -> list[dict[str, Any]]:
    response = client_for(user).get(f"/api/v1/streams/{stream.pk}/events")
    assert response.status_code == 200, response.content
    return response.json()


# -- the tests ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("game_id", "options", "players"), GAMES)
def test_hidden_parts_cannot_be_guessed_from_hashes_during_the_game(
    game_id: str, options: dict[str, Any], players: int
) -> None:
    users = seat_users(players)
    stream = stream_open(game_id=game_id, seats=users, options=options)
    play(stream, Rng(f"attack-{game_id}"), moves=MID_GAME_MOVES)
    stream.refresh_from_db()
    assert not stream.is_finished
    shown = events_as(users[ATTACKER], stream)

    attacked, found = attack(stream, shown)

    assert attacked > 0, "the game withheld nothing from the attacker: the test proves nothing"
    assert found == []
    summary = client_for(users[ATTACKER]).get(f"/api/v1/streams/{stream.pk}").json()
    assert outside_link(str(stream.pk), shown) == summary["head_hash"] == stream.head_hash
    own = sum(
        1
        for event in Event.objects.filter(stream=stream)
        for part, _, _ in hidden_parts(event)
        if (part == "move" and event.seat == ATTACKER)
        or (part != "move" and ATTACKER in event.payload["effects"][int(part[8:])]["visible_to"])
    )
    assert outside_check_revealed(str(stream.pk), shown, seed=None) == own  # with their salts


@pytest.mark.parametrize(("game_id", "options", "players"), GAMES)
def test_the_same_attack_breaks_the_old_full_payload_rule(
    game_id: str, options: dict[str, Any], players: int
) -> None:
    users = seat_users(players)
    stream = stream_open(
        game_id=game_id, seats=users, options=options, hash_format=HASH_FORMAT_FULL
    )
    play(stream, Rng(f"attack-{game_id}"), moves=MID_GAME_MOVES)
    stream.refresh_from_db()
    shown = events_as(users[ATTACKER], stream)

    attacked, found = attack(stream, shown, stored_hashes=True)

    assert attacked > 0
    assert len(found) == attacked, "with the old rule every hidden part is found"
    # ... which is why such a live stream's hashes are no longer shown to players:
    assert {e["hash"] for e in shown} == {None}
    assert {e["prev_hash"] for e in shown} == {None}
    summary = client_for(users[ATTACKER]).get(f"/api/v1/streams/{stream.pk}").json()
    assert summary["head_hash"] is None
    assert client_for(None).get(f"/api/v1/streams/{stream.pk}").json()["head_hash"] is None


@pytest.mark.parametrize(("game_id", "options", "players"), GAMES)
def test_after_the_end_anyone_checks_the_whole_chain_from_the_seed(
    game_id: str, options: dict[str, Any], players: int
) -> None:
    users = seat_users(players)
    stream = stream_open(game_id=game_id, seats=users, options=options)
    play(stream, Rng(f"end-{game_id}"), moves=MAX_MOVES)
    stream.refresh_from_db()
    assert stream.is_finished
    shown = client_for(None).get(f"/api/v1/streams/{stream.pk}/events").json()
    seed = shown[-1]["payload"]["seed"]

    head = outside_link(str(stream.pk), shown)
    checked = outside_check_revealed(str(stream.pk), shown, seed=seed)

    assert head == stream.head_hash
    hidden = sum(len(hidden_parts(e)) for e in Event.objects.filter(stream=stream))
    assert checked == hidden > 0, "every hidden part is revealed with its salt and checked"


def test_a_tampered_hidden_part_breaks_the_chain() -> None:
    """A commitment binds its value: a changed hidden value fails the recomputed hash."""
    users = seat_users(4)
    stream = stream_open(game_id="les-7-blasons", seats=users)
    event = Event.objects.get(stream=stream, seq=1)
    hidden = [i for i, e in enumerate(event.payload["effects"]) if e["visible_to"] is not None]
    assert hidden
    assert event_hash(event, seed=stream.seed, hash_format=stream.hash_format) == event.hash
    forged = Event(**{f.attname: getattr(event, f.attname) for f in Event._meta.concrete_fields})
    forged.payload = with_guess(event, f"effects/{hidden[0]}", {"forged": True})
    assert event_hash(forged, seed=stream.seed, hash_format=stream.hash_format) != event.hash
