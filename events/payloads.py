"""The payload of each event type, typed: read here, in one place, not by dict keys elsewhere.

One frozen dataclass per type, with ``from_payload(dict)`` (raises :class:`PayloadError` with a
sentence when a key is missing or the payload is not an object) and ``to_payload()``, which
gives back exactly the JSON stored today: the same keys, in the same order, no key added or
dropped (an optional key is written only when it was there). The stored JSON is what the hash
chain hashes (events.hashing), so ``to_payload(from_payload(p)) == p`` for every stored payload
(tests/events/test_payloads.py checks it on real games of each kind).

Effects stay the stored records (``{"kind", "text", "data", "visible_to"}``): the hashing and
the viewers' filters work on them as they are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core import Effect
from events.models import EventType


class PayloadError(ValueError):
    """A stored payload that does not have its type's shape; the message says what is missing."""


def effect_record(effect: Effect) -> dict[str, Any]:
    """An engine effect as stored: everything, with ``visible_to`` so readers can withhold."""
    return effect.to_json()


def _object(payload: Any, type: str, *keys: str) -> Mapping[str, Any]:
    """The payload, checked to be an object holding ``keys``."""
    if not isinstance(payload, Mapping):
        raise PayloadError(f"the {type} payload is not a JSON object")
    missing = [key for key in keys if key not in payload]
    if missing:
        raise PayloadError(f"the {type} payload has no {', '.join(missing)}")
    return payload


def _effects(payload: Mapping[str, Any], type: str) -> list[dict[str, Any]]:
    effects = payload["effects"]
    if not isinstance(effects, list):
        raise PayloadError(f"the {type} payload's effects are not a list")
    return list(effects)


@dataclass(frozen=True)
class GameCreated:
    """Event 1: the setup (game, edition, engine, options, seats), the seed's commitment, the
    setup's chance outcomes; ``continues`` for a game continued by a "replay from move n"
    ruling (``{"stream", "after_move", "deal_seed"}``: dealt with the old game's seed)."""

    type: ClassVar[str] = EventType.GAME_CREATED

    game: str
    edition: str
    engine_version: str
    options: dict[str, Any]
    seats: list[str]
    seed_commitment: str
    effects: list[dict[str, Any]]
    continues: dict[str, Any] | None = None

    @classmethod
    def from_payload(cls, payload: Any) -> GameCreated:
        data = _object(
            payload, cls.type, "game", "edition", "engine_version", "options", "seats",
            "seed_commitment", "effects",
        )  # fmt: skip
        if not isinstance(data["seats"], list):
            raise PayloadError(f"the {cls.type} payload's seats are not a list")
        continues = data.get("continues")
        return cls(
            game=data["game"],
            edition=data["edition"],
            engine_version=data["engine_version"],
            options=data["options"],
            seats=list(data["seats"]),
            seed_commitment=data["seed_commitment"],
            effects=_effects(data, cls.type),
            continues=None if continues is None else dict(continues),
        )

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "game": self.game,
            "edition": self.edition,
            "engine_version": self.engine_version,
            "options": self.options,
            "seats": list(self.seats),
            "seed_commitment": self.seed_commitment,
            "effects": list(self.effects),
        }
        if self.continues is not None:
            payload["continues"] = dict(self.continues)
        return payload

    @property
    def deal_seed(self) -> str:
        """The seed the game was dealt with when it continues another game, else ""."""
        return str((self.continues or {}).get("deal_seed") or "")

    @property
    def continued_after(self) -> int | None:
        """The move of the old game this one continues after; None for a game dealt with its
        own seed."""
        if not self.deal_seed:
            return None
        try:
            return int(self.continues["after_move"])  # type: ignore[index]
        except (KeyError, TypeError, ValueError):
            raise PayloadError(
                f"the {self.type} payload continues a game but says after no valid move"
            ) from None


@dataclass(frozen=True)
class MoveMade:
    """A seat's move: the full move, what the other seats see of it, its effects."""

    type: ClassVar[str] = EventType.MOVE_MADE

    seat: int
    move: Any
    public_move: Any = None  # None: not recorded (then other seats see ``move``)
    effects: list[dict[str, Any]] | None = None

    @classmethod
    def from_payload(cls, payload: Any) -> MoveMade:
        data = _object(payload, cls.type, "seat", "move")
        return cls(
            seat=data["seat"],
            move=data["move"],
            public_move=data.get("public_move"),
            effects=_effects(data, cls.type) if "effects" in data else None,
        )

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {"seat": self.seat, "move": self.move}
        if self.public_move is not None:
            payload["public_move"] = self.public_move
        if self.effects is not None:
            payload["effects"] = list(self.effects)
        return payload


@dataclass(frozen=True)
class GameEnded:
    """The end: the result (``{"scores", "ranks", "details"}``) and the revealed seed."""

    type: ClassVar[str] = EventType.GAME_ENDED

    result: dict[str, Any]
    seed: str

    @classmethod
    def from_payload(cls, payload: Any) -> GameEnded:
        data = _object(payload, cls.type, "result", "seed")
        return cls(result=data["result"], seed=data["seed"])

    def to_payload(self) -> dict[str, Any]:
        return {"result": self.result, "seed": self.seed}


@dataclass(frozen=True)
class RulingMade:
    """An arbiter's ruling: its kind (uphold, annul, amend, replay...), the reason, who made
    it, and the kind's data."""

    type: ClassVar[str] = EventType.RULING_MADE

    kind: str
    reason: str
    arbiter: str
    data: dict[str, Any]

    @classmethod
    def from_payload(cls, payload: Any) -> RulingMade:
        data = _object(payload, cls.type, "kind", "reason", "arbiter", "data")
        return cls(
            kind=data["kind"], reason=data["reason"], arbiter=data["arbiter"], data=data["data"]
        )

    def to_payload(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "reason": self.reason,
            "arbiter": self.arbiter,
            "data": self.data,
        }


@dataclass(frozen=True)
class UnseenReshuffled:
    """A continued game's unseen cards shuffled with its own seed, right after move
    ``after_move``; the effects are public counts, never cards."""

    type: ClassVar[str] = EventType.UNSEEN_RESHUFFLED

    after_move: int
    effects: list[dict[str, Any]]

    @classmethod
    def from_payload(cls, payload: Any) -> UnseenReshuffled:
        data = _object(payload, cls.type, "after_move", "effects")
        return cls(after_move=data["after_move"], effects=_effects(data, cls.type))

    def to_payload(self) -> dict[str, Any]:
        return {"after_move": self.after_move, "effects": list(self.effects)}


Payload = GameCreated | MoveMade | GameEnded | RulingMade | UnseenReshuffled

PAYLOAD_TYPES: dict[str, type[Payload]] = {
    cls.type: cls for cls in (GameCreated, MoveMade, GameEnded, RulingMade, UnseenReshuffled)
}


def read_payload(type: str, payload: Any) -> Payload | None:
    """The typed payload of an event of ``type``; None for a type this module does not know
    (the list of event types is open). Raises :class:`PayloadError` for a malformed one."""
    cls = PAYLOAD_TYPES.get(type)
    return None if cls is None else cls.from_payload(payload)
