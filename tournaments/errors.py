"""Errors the tournament services raise on purpose; each carries a sentence a person reads.

Every class is a ``herald.errors.ServiceError`` naming the HTTP status and contract code the
API answers with; herald's one exception handler answers them (extra keywords, such as an
import's ``lines``, become fields of the error body).
"""

from __future__ import annotations

from herald.errors import ServiceError


class TournamentError(ServiceError):
    """Base class: the request cannot be carried out; ``str(error)`` says why."""

    status = 400
    code = "invalid"


class InvalidInput(TournamentError):
    """Input that can never be right (unknown game, ranks that do not add up, a bad CSV row)."""


class NotAllowed(TournamentError):
    """The caller may not do this (not the organiser, not seated at this table)."""

    status = 403
    code = "forbidden"


class WrongState(TournamentError):
    """Right input at the wrong time (confirming a released round, pairing over a draft)."""

    status = 409
    code = "wrong_state"


class ResultsMissing(TournamentError):
    """Pairing the next round while tables still have no confirmed result (use force)."""

    status = 409
    code = "results_missing"


class ResultConflict(TournamentError):
    """A result that contradicts the one already confirmed; the organiser decides."""

    status = 409
    code = "result_conflict"


class TooLarge(TournamentError):
    """More than Herald takes in one request (a CSV import over its row or size cap)."""

    status = 413
    code = "too_large"


class BeyondPlanned(TournamentError):
    """Pairing a round past the planned number without saying so (``beyond_planned``)."""

    status = 409
    code = "beyond_planned"
