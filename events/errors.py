"""What the event store's services refuse, each with a sentence a person understands.

The API maps each to its status and error code (events/api/views.py); services never speak HTTP.
"""

from __future__ import annotations


class StreamError(Exception):
    """Base class: ``code`` is the contract's error code, the message its ``detail``."""

    code = "stream_error"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class StreamNotFound(StreamError):
    code = "not_found"


class StreamFinished(StreamError):
    code = "finished"


class VersionConflict(StreamError):
    code = "version_conflict"

    def __init__(self, detail: str, *, current_version: int) -> None:
        super().__init__(detail)
        self.current_version = current_version


class IdempotencyConflict(StreamError):
    code = "idempotency_conflict"


class NotYourTurn(StreamError):
    code = "not_your_turn"


class NotSeated(StreamError):
    code = "forbidden"
