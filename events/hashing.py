"""The hash chain of a stream, as the event store uses it.

The rule itself (canonical JSON, the event body, salts, commitments, the sealed payload of
each hash format) lives in :mod:`engine.core.chain`, pure Python, so that the offline verifier
of game records (``python -m engine.record verify``) checks exactly what the store hashes; its
docstring and docs/api.md state it. This module gives the store that rule with two things only
Django has: refusals a person reads in their language (:class:`NotCanonical`, a service error
the API answers with a 400) and :func:`event_hash`, the hash of a stored event.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, ParamSpec, TypeVar

from django.utils.translation import gettext

from engine.core import chain
from engine.core.chain import (
    CURRENT_HASH_FORMAT,
    HASH_FORMAT_COMMITTED,
    HASH_FORMAT_FULL,
    HASH_FORMATS,
    MOVE_MADE,
    MOVE_PART,
    _fast_canonical,
    effect_part,
    event_body,
    has_hidden_move,
    is_hidden_effect,
    part_salt,
    sealed_payload_from_shown,
    stored_payload_from_full,
    timestamp_text,
)
from herald.errors import ServiceError

__all__ = [
    "CURRENT_HASH_FORMAT",
    "HASH_FORMATS",
    "HASH_FORMAT_COMMITTED",
    "HASH_FORMAT_FULL",
    "MOVE_MADE",
    "MOVE_PART",
    "NotCanonical",
    "_fast_canonical",
    "canonical_json",
    "chain_hash",
    "commitment",
    "effect_part",
    "event_body",
    "event_hash",
    "has_hidden_move",
    "hashed_payload",
    "is_hidden_effect",
    "part_salt",
    "request_digest",
    "reveal_parts",
    "sealed_payload_from_shown",
    "stored_payload_from_full",
    "timestamp_text",
]


class NotCanonical(ServiceError, chain.NotCanonical):
    """Data that has no RFC 8785 canonical form: an integer beyond ±2**53, or text that is not
    valid Unicode (a lone surrogate). It can be neither hashed nor stored faithfully."""

    code = "malformed_json"


P = ParamSpec("P")
R = TypeVar("R")


def _refused_in_words(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` of the chain, its refusal of non-canonical data turned into
    :class:`NotCanonical` with a sentence in the active language (the API's 400)."""

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        except NotCanonical:
            raise
        except chain.IntegerTooLarge:
            raise NotCanonical(
                gettext("the request holds an integer too large for JSON (beyond ±2**53)")
            ) from None
        except chain.NotCanonical:
            raise NotCanonical(
                gettext("the request holds text that is not valid Unicode")
            ) from None

    return wrapper


canonical_json = _refused_in_words(chain.canonical_json)
chain_hash = _refused_in_words(chain.chain_hash)
commitment = _refused_in_words(chain.commitment)
reveal_parts = _refused_in_words(chain.reveal_parts)
hashed_payload = _refused_in_words(chain.hashed_payload)
request_digest = _refused_in_words(chain.request_digest)


@_refused_in_words
def event_hash(event: Any, *, seed: str, hash_format: int) -> str:
    """Recompute the hash of a stored :class:`events.models.Event` from its fields, by the
    rule of its stream (``hash_format``, and the stream's ``seed`` for the salts)."""
    payload: Mapping[str, Any] = chain.hashed_payload(
        stream_id=event.stream_id, seq=event.seq, type=event.type, payload=event.payload,
        seed=seed, hash_format=hash_format,
    )  # fmt: skip
    body = event_body(
        stream_id=event.stream_id,
        seq=event.seq,
        type=event.type,
        seat=event.seat,
        recorded_at=event.recorded_at,
        payload=payload,
    )
    return chain.chain_hash(event.prev_hash, body)
