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
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import rfc8785


class NotCanonical(ValueError):
    """Data that has no RFC 8785 canonical form: an integer beyond ±2**53, or text that is not
    valid Unicode (a lone surrogate). It can be neither hashed nor stored faithfully."""


def canonical_json(data: Mapping[str, Any]) -> bytes:
    """RFC 8785 canonical JSON of ``data``, or :class:`NotCanonical` saying what is wrong."""
    try:
        return rfc8785.dumps(dict(data))
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
