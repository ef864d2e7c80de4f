"""Rate limits for the API: rates from settings, read on every request, one switch for all.

``HERALD_THROTTLE_RATES`` maps a scope to DRF's ``"<n>/<second|minute|hour|day>"``; a scope
without a rate is not limited. ``HERALD_THROTTLE = False`` turns every throttle off (load tests,
fuzzing). Counts live in Django's cache: per process with the local-memory default, shared by
every process once ``REDIS_URL`` is set.
"""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.utils.translation import gettext, ngettext
from rest_framework.throttling import SimpleRateThrottle


class SettingsRateThrottle(SimpleRateThrottle):
    """A throttle whose rate is ``HERALD_THROTTLE_RATES[scope]``, read when the request comes.

    DRF's own throttles read their rates once, at import, so settings changed later (tests, a
    reload) would not reach them.
    """

    def get_rate(self) -> str | None:
        rate: str | None = settings.HERALD_THROTTLE_RATES.get(self.scope)
        return rate

    def allow_request(self, request: Any, view: Any) -> bool:
        if not settings.HERALD_THROTTLE:
            return True
        return bool(super().allow_request(request, view))


def throttled_detail(wait: float | None) -> str:
    """The sentence of a 429: how long to wait."""
    if wait is None:
        return gettext("too many requests: slow down and try again later")
    seconds = max(1, math.ceil(wait))
    return ngettext(
        "too many requests: try again in {seconds} second",
        "too many requests: try again in {seconds} seconds",
        seconds,
    ).format(seconds=seconds)
