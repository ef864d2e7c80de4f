"""The one base of every error a Herald service raises on purpose.

A service refuses by raising a :class:`ServiceError` subclass that names the HTTP status and
the contract's error code; the sentence is its ``detail``. Services never speak HTTP: the one
DRF exception handler (``herald.api.exception_handler``) turns any of them into the contract's
body, ``{"error": code, "detail": sentence, ...extra}``, with its status.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A request a service cannot carry out; ``str(error)`` (and ``detail``) says why.

    Subclasses set ``status`` and ``code``; one raise may override either (``code=``,
    ``status=``) and add fields to the error body (``**extra``, e.g. ``current_version``).
    """

    status = 400
    code = "invalid"

    def __init__(
        self, detail: str, *, code: str | None = None, status: int | None = None, **extra: Any
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        if code is not None:
            self.code = code
        if status is not None:
            self.status = status
        self.extra = extra
