"""API test helpers shared by the app suites: a signed-in client and the refusal body."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient


def client_for(user: Any | None) -> APIClient:
    """An API client signed in as ``user`` (anonymous for None) that sends JSON bodies.

    It skips the token: the auth tests and the event store's ``client_for`` use real tokens.
    """
    client = APIClient()
    client.default_format = "json"  # the API takes JSON only
    if user is not None:
        client.force_authenticate(user)
    return client


def error_body(
    response: Any, status: int | tuple[int, ...], code: str | None = None
) -> dict[str, Any]:
    """The JSON refusal of ``response``, checked: one of ``status``, a sentence, ``code``."""
    allowed = status if isinstance(status, tuple) else (status,)
    assert response.status_code in allowed, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body: dict[str, Any] = response.json()
    assert body["detail"], body
    if code is not None:
        assert body["error"] == code, body
    return body
