"""What the event store's services refuse, each with a sentence a person understands.

Every class is a ``herald.errors.ServiceError`` naming the HTTP status and the contract's code,
so the one exception handler (``herald.api.exception_handler``) answers it; services never
speak HTTP. The engine knows nothing of Herald: :func:`engine_refusals` says which of its
errors are the client's input refused, at the calls that hand the engine that input.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from engine.core import BadMove, IllegalMove, InvalidOptions, UnknownGame
from herald.errors import ServiceError
from herald.texts import render


class StreamError(ServiceError):
    """Base class: ``code`` is the contract's error code, the message its ``detail``."""

    code = "stream_error"


class StreamNotFound(StreamError):
    status = 404
    code = "not_found"


class StreamFinished(StreamError):
    status = 410
    code = "finished"


class VersionConflict(StreamError):
    status = 409
    code = "version_conflict"

    def __init__(self, detail: str, *, current_version: int) -> None:
        super().__init__(detail, current_version=current_version)
        self.current_version = current_version


class IdempotencyConflict(StreamError):
    status = 409
    code = "idempotency_conflict"


class NotYourTurn(StreamError):
    status = 403
    code = "not_your_turn"


class NotSeated(StreamError):
    status = 403
    code = "forbidden"


class MoveRefused(ServiceError):
    """The engine refused the client's move, options or game (the engine's sentence)."""


#: The engine's refusals of a client's input: (status, code) of each.
_ENGINE_REFUSALS: tuple[tuple[type[Exception], int, str], ...] = (
    (BadMove, 400, "bad_move"),
    (IllegalMove, 422, "illegal_move"),
    (UnknownGame, 400, "unknown_game"),
    (InvalidOptions, 422, "invalid_options"),
)
_REFUSED = tuple(kind for kind, _, _ in _ENGINE_REFUSALS)


@contextmanager
def engine_refusals(names: Callable[[], Sequence[str]] | None = None) -> Iterator[None]:
    """Raise the engine's refusals of the client's input as :class:`MoveRefused`.

    Scoped to the calls that hand the engine a client's game, options or move: the same engine
    error while replaying a stored game is a server bug and stays a 500. The engine's sentence
    is rendered in the active language (``herald.texts.render``), its seats named by
    ``names()`` (the stream's players, looked up only when a move is refused).
    """
    try:
        yield
    except _REFUSED as exc:
        status, code = next((s, c) for kind, s, c in _ENGINE_REFUSALS if isinstance(exc, kind))
        text = getattr(exc, "text", None)
        detail = render(text, names() if names else None) if text is not None else str(exc)
        raise MoveRefused(detail, status=status, code=code) from None
