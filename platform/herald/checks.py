"""System checks of the platform's settings."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import checks

from herald.layers import is_redis_layer

REVOKER = "herald.authentication.RevokeTokensOnPasswordChange"


def password_change_revokes_tokens(**kwargs: Any) -> list[checks.CheckMessage]:
    """A new password must revoke the API tokens: the validator that does it must stay listed."""
    names = [validator.get("NAME") for validator in settings.AUTH_PASSWORD_VALIDATORS]
    if REVOKER in names:
        return []
    return [
        checks.Error(
            f"AUTH_PASSWORD_VALIDATORS lacks {REVOKER}: a new password would not revoke the "
            "user's API tokens.",
            hint=f'Keep {{"NAME": "{REVOKER}"}} in AUTH_PASSWORD_VALIDATORS.',
            id="herald.E001",
        )
    ]


def channel_layer_is_shared(**kwargs: Any) -> list[checks.CheckMessage]:
    """In production the sockets (daphne) and the appends (gunicorn, Celery) are other
    processes: only a Redis channel layer carries a commit's message from one to the other."""
    backend = settings.CHANNEL_LAYERS.get("default", {}).get("BACKEND", "")
    if is_redis_layer(backend):
        return []
    return [
        checks.Warning(
            f"The channel layer is {backend or 'not configured'}: a move committed by one "
            "server process never reaches the sockets held by another.",
            hint="Set REDIS_URL (or CHANNEL_LAYER_URL) so that every process shares Redis.",
            id="herald.W001",
        )
    ]
