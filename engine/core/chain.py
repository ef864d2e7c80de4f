"""The hash chain of a game's events: the one statement of its rules, in pure Python.

The event store (events/hashing.py) hashes every event it appends with these functions, and the
offline verifier of game records (``python -m engine.record verify``) checks them with the same
functions, so the rule is written once. docs/api.md ("The hash chain and its commitments")
states it for outside verifiers; docs/records.md says how a record file carries it.

``hash = sha256(bytes.fromhex(prev_hash) || JCS(body))`` where JCS is RFC 8785 canonical JSON
and ``body`` is::

    {"stream": "<uuid>", "seq": n, "type": "<type>", "seat": n | null,
     "recorded_at": "<UTC ISO 8601 with microseconds>", "payload": {...}}

The first event's ``prev_hash`` is 64 zeros. Canonical JSON is computed from the values, not
from stored bytes: PostgreSQL ``jsonb`` rewrites key order and number spelling, and a payload
read back from it hashes to the same value (tests/events/test_store.py pins that).

Which payload is hashed depends on the stream's ``hash_format``:

- **1** (streams stored before hidden parts were committed to): the stored payload, whole.
  A hidden value with few possibilities could be found by hashing guesses, so such a stream's
  hashes are shown to players and spectators only once it is over.
- **2**: the *sealed* payload, where each hidden part is replaced by a commitment
  ``sha256(salt || JCS(part))``. The hidden parts are each effect whose ``visible_to`` is not
  null (its ``data``) and, in ``MoveMade``, the ``move`` when it differs from ``public_move``.
  ``salt = HMAC-SHA256(key=UTF-8 of the stream's seed, msg=UTF-8 of
  "herald/salt/v2\\n<stream uuid>\\n<seq>\\n<part>")``, part ``move`` or ``effects/<i>``
  (0-based index in the payload's ``effects``). The seed is sealed until ``GameEnded``
  reveals it, so no player can derive a salt they were not given; after the end anyone can.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

import rfc8785

GENESIS_HASH = "0" * 64  # the prev_hash of every stream's first event


class NotCanonical(ValueError):
    """Data that has no RFC 8785 canonical form, so it can be neither hashed nor stored
    faithfully. Raised as one of its two kinds below."""


class IntegerTooLarge(NotCanonical):
    """An integer beyond ±(2**53 - 1): RFC 8785 numbers are IEEE doubles."""


class InvalidUnicode(NotCanonical):
    """Text that is not valid Unicode (a lone surrogate), or keys that cannot be sorted."""


_SAFE_INT = 2**53 - 1  # RFC 8785 numbers are IEEE doubles: integers beyond this are refused


def _plain_json(value: Any) -> bool:
    """True when ``json.dumps(sort_keys=True)`` already spells ``value`` as RFC 8785 does.

    That holds for dicts with ASCII keys (code point order is then UTF-16 order), lists and
    tuples, strings, booleans, None and integers within ±(2**53 - 1): the standard library escapes
    exactly the characters RFC 8785 escapes, the same way. Floats are left to rfc8785 (its
    ECMAScript number spelling differs from Python's ``repr``), and so is anything unusual.
    """
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return bool(-_SAFE_INT <= value <= _SAFE_INT)
    if kind is dict:
        return all(type(k) is str and k.isascii() and _plain_json(v) for k, v in value.items())
    if kind is list or kind is tuple:  # both spell a tuple as an array
        return all(_plain_json(item) for item in value)
    return isinstance(value, str)  # e.g. a str enum: both spell the string's own text


def _fast_canonical(data: dict[str, Any]) -> bytes | None:
    """The canonical bytes by the C JSON encoder, or None when rfc8785 must decide."""
    if not _plain_json(data):
        return None
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: let rfc8785 refuse it
        return None


def canonical_json(data: Mapping[str, Any]) -> bytes:
    """RFC 8785 canonical JSON of ``data``, or :class:`NotCanonical` saying what is wrong.

    The usual payloads (no floats, ASCII keys) take a fast path through the C JSON encoder
    that gives the same bytes (tests/events/test_hashing.py compares both on many values).
    """
    plain = dict(data)
    fast = _fast_canonical(plain)
    if fast is not None:
        return fast
    try:
        return bytes(rfc8785.dumps(plain))
    except rfc8785.IntegerDomainError:
        raise IntegerTooLarge("an integer too large for JSON (beyond ±2**53)") from None
    except (rfc8785.CanonicalizationError, UnicodeError):  # keys are sorted as UTF-16
        raise InvalidUnicode("text that is not valid Unicode") from None


def timestamp_text(moment: datetime) -> str:
    """The instant as the chain spells it: UTC, microseconds, e.g. ``2026-01-02T03:04:05.000006+00:00``."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def event_body(
    *, stream_id: Any, seq: int, type: str, seat: int | None, recorded_at: datetime,
    payload: Mapping[str, Any],
) -> dict[str, Any]:  # fmt: skip
    """The JSON object whose canonical form is hashed."""
    return {
        "stream": str(stream_id),
        "seq": seq,
        "type": type,
        "seat": seat,
        "recorded_at": timestamp_text(recorded_at),
        "payload": payload,
    }


def chain_hash(prev_hash: str, body: Mapping[str, Any]) -> str:
    """sha256 over the previous hash's bytes followed by the body's canonical JSON."""
    digest = hashlib.sha256(bytes.fromhex(prev_hash))
    digest.update(canonical_json(body))
    return digest.hexdigest()


HASH_FORMAT_FULL = 1  # the whole stored payload is hashed
HASH_FORMAT_COMMITTED = 2  # hidden parts enter the hash as salted commitments
CURRENT_HASH_FORMAT = HASH_FORMAT_COMMITTED
HASH_FORMATS = (HASH_FORMAT_FULL, HASH_FORMAT_COMMITTED)

MOVE_PART = "move"
MOVE_MADE = "MoveMade"  # the event type whose move may be a hidden part

#: ``shown(part)``: whether a viewer may see a hidden part (see :func:`reveal_parts`).
Shown = Callable[..., bool]


def part_salt(seed: str, stream_id: Any, seq: int, part: str) -> str:
    """The salt of one hidden part (hex): an HMAC keyed by the stream's sealed seed."""
    message = f"herald/salt/v2\n{stream_id}\n{seq}\n{part}".encode()
    return hmac.new(seed.encode("utf-8"), message, hashlib.sha256).hexdigest()


def commitment(salt_hex: str, value: Mapping[str, Any]) -> str:
    """``sha256(salt || JCS(value))`` in hex (the salt's 32 bytes, then the value's canonical
    JSON): binds the value without showing it."""
    digest = hashlib.sha256(bytes.fromhex(salt_hex))
    digest.update(canonical_json(value))
    return digest.hexdigest()


def effect_part(index: int) -> str:
    """The part name of the effect at ``index`` (0-based) of a payload's ``effects``."""
    return f"effects/{index}"


def is_hidden_effect(effect: Mapping[str, Any]) -> bool:
    """An effect some seat may not see before the end (``visible_to`` is a list)."""
    return effect.get("visible_to") is not None


def has_hidden_move(type: str, payload: Mapping[str, Any]) -> bool:
    """A ``MoveMade`` whose full move says more than what other seats see of it."""
    return (
        type == MOVE_MADE and "public_move" in payload and payload["move"] != payload["public_move"]
    )


def reveal_parts(
    *, stream_id: Any, seq: int, type: str, payload: Mapping[str, Any], seed: str,
    shown: Shown | None = None,
) -> dict[str, Any]:  # fmt: skip
    """The payload of a format-2 event with each hidden part's commitment beside it.

    ``shown(part)`` says whether the viewer may see a hidden part: then its value stays with
    its ``salt`` (so the viewer can check it against the commitment); otherwise the value is
    left out. ``shown=None`` keeps every value (arbiters, staff, everyone after the end).
    Taking the revealed values out again (:func:`sealed_payload_from_shown`) gives exactly
    the hashed payload.
    """
    out = dict(payload)
    if has_hidden_move(type, payload):
        salt = part_salt(seed, stream_id, seq, MOVE_PART)
        out["move_commitment"] = commitment(salt, payload["move"])
        if shown is None or shown(MOVE_PART):
            out["move_salt"] = salt
        else:
            out["move"] = payload["public_move"]
    if "effects" in payload:
        out["effects"] = [
            _effect_with_commitment(effect, seed=seed, part=(stream_id, seq, index), shown=shown)
            for index, effect in enumerate(payload["effects"])
        ]
    return out


def _effect_with_commitment(
    effect: Mapping[str, Any], *, seed: str, part: tuple[Any, int, int], shown: Shown | None
) -> dict[str, Any]:
    """One effect with its commitment (when hidden); ``part`` is (stream id, seq, index)."""
    record = dict(effect)
    if not is_hidden_effect(effect):
        return record
    stream_id, seq, index = part
    name = effect_part(index)
    salt = part_salt(seed, stream_id, seq, name)
    record["commitment"] = commitment(salt, effect.get("data", {}))
    if shown is None or shown(name):
        record["salt"] = salt
    else:
        record.pop("data", None)
    return record


def sealed_payload_from_shown(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The hashed payload of a format-2 event, from any viewer's copy of it: every revealed
    hidden part taken out (``data`` and ``salt`` of each effect that has a ``commitment``;
    ``move`` and ``move_salt`` when there is a ``move_commitment``)."""
    sealed = dict(payload)
    if "move_commitment" in sealed:
        sealed.pop("move", None)
        sealed.pop("move_salt", None)
    if isinstance(sealed.get("effects"), list):
        sealed["effects"] = [_sealed_effect(effect) for effect in sealed["effects"]]
    return sealed


def _sealed_effect(effect: Any) -> Any:
    if not isinstance(effect, dict) or "commitment" not in effect:
        return effect
    return {key: value for key, value in effect.items() if key not in ("data", "salt")}


def stored_payload_from_full(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The stored payload of a format-2 event from a copy that shows every part (a finished
    game's, or an arbiter's): the commitments and salts :func:`reveal_parts` added taken out.
    The inverse of ``reveal_parts(shown=None)``; a part a copy withholds stays withheld."""
    stored = {k: v for k, v in payload.items() if k not in ("move_commitment", "move_salt")}
    if isinstance(stored.get("effects"), list):
        stored["effects"] = [_stored_effect(effect) for effect in stored["effects"]]
    return stored


def _stored_effect(effect: Any) -> Any:
    if not isinstance(effect, dict):
        return effect
    return {key: value for key, value in effect.items() if key not in ("commitment", "salt")}


def hashed_payload(
    *, stream_id: Any, seq: int, type: str, payload: Mapping[str, Any], seed: str,
    hash_format: int,
) -> Mapping[str, Any]:  # fmt: skip
    """The payload the chain hashes for this event under ``hash_format``."""
    if hash_format == HASH_FORMAT_FULL:
        return payload
    # A copy for a viewer who sees nothing is the hashed payload but for the public move it
    # carries as ``move``: one pass over the effects (this runs on every append).
    sealed = reveal_parts(
        stream_id=stream_id, seq=seq, type=type, payload=payload, seed=seed, shown=_nothing
    )
    if "move_commitment" in sealed:
        del sealed["move"]
    return sealed


def _nothing(part: str) -> bool:
    return False


def request_digest(data: Mapping[str, Any]) -> str:
    """sha256 of a request's canonical JSON: equal bodies, equal digests, whatever the spelling."""
    return hashlib.sha256(canonical_json(data)).hexdigest()
