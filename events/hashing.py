"""The hash chain of a stream.

``hash = sha256(bytes.fromhex(prev_hash) || JCS(body))`` where JCS is RFC 8785 canonical JSON
and ``body`` is::

    {"stream": "<uuid>", "seq": n, "type": "<type>", "seat": n | null,
     "recorded_at": "<UTC ISO 8601 with microseconds>", "payload": {...}}

The first event's ``prev_hash`` is 64 zeros. Canonical JSON is computed from the values, not
from stored bytes: PostgreSQL ``jsonb`` rewrites key order and number spelling, and a payload
read back from it hashes to the same value (tests/events/test_store.py pins that).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import rfc8785


class NotCanonical(ValueError):
    """Data that has no RFC 8785 canonical form: an integer beyond ±2**53, or text that is not
    valid Unicode (a lone surrogate). It can be neither hashed nor stored faithfully."""


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
        return -_SAFE_INT <= value <= _SAFE_INT
    if kind is dict:
        return all(type(k) is str and k.isascii() and _plain_json(v) for k, v in value.items())
    if kind is list or kind is tuple:  # both spell a tuple as an array
        return all(_plain_json(item) for item in value)
    return isinstance(value, str)  # e.g. EventType: both spell the string's own text


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
        return rfc8785.dumps(plain)
    except rfc8785.IntegerDomainError:
        raise NotCanonical(
            "the request holds an integer too large for JSON (beyond ±2**53)"
        ) from None
    except (rfc8785.CanonicalizationError, UnicodeError):  # keys are sorted as UTF-16
        raise NotCanonical("the request holds text that is not valid Unicode") from None


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


def event_hash(event: Any) -> str:
    """Recompute the hash of a stored :class:`events.models.Event` from its fields."""
    body = event_body(
        stream_id=event.stream_id,
        seq=event.seq,
        type=event.type,
        seat=event.seat,
        recorded_at=event.recorded_at,
        payload=event.payload,
    )
    return chain_hash(event.prev_hash, body)


def request_digest(data: Mapping[str, Any]) -> str:
    """sha256 of a request's canonical JSON: equal bodies, equal digests, whatever the spelling."""
    return hashlib.sha256(canonical_json(data)).hexdigest()
