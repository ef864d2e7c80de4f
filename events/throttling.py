"""The game API's rate limits (scopes of ``HERALD_THROTTLE_RATES``, see herald.throttling)."""

from __future__ import annotations

from typing import Any

from herald.roles import is_privileged
from herald.throttling import SettingsRateThrottle


class MoveThrottle(SettingsRateThrottle):
    """``POST …/moves`` per user: generous for play (a move every half second), stops floods."""

    scope = "moves"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        user = request.user
        if not user.is_authenticated:
            return None  # refused anyway: only a seated player moves
        return self.cache_format % {"scope": self.scope, "ident": user.pk}


class ReplayThrottle(SettingsRateThrottle):
    """Reads that replay a game (``GET …/audit``, ``GET …/verify``) for everyone but arbiters
    and staff: per address when anonymous, per user when logged in (a club's players often
    share one address)."""

    scope = "replay"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        user = request.user
        if not user.is_authenticated:
            ident = self.get_ident(request)
        elif is_privileged(user):
            return None
        else:
            ident = f"user-{user.pk}"
        return self.cache_format % {"scope": self.scope, "ident": ident}
