"""Rate limits for the API: rates from settings, read on every request, one switch for all.

``HERALD_THROTTLE_RATES`` maps a scope to DRF's ``"<n>/<second|minute|hour|day>"``; a scope
without a rate is not limited. ``HERALD_THROTTLE = False`` turns every throttle off (load tests,
fuzzing). Counts live in Django's cache: per process with the local-memory default, shared by
every process once ``REDIS_URL`` is set.

On Redis a request is counted in one round trip, by a script over a sorted set of the window's
request times (:data:`SLIDING_WINDOW`): DRF's own throttle reads the list of times and writes it
back, two round trips and a pickled list per request, and two requests of one user served at
once could both read the same list and one of them go uncounted. The script answers as DRF
would (the same window, the same limit, the same wait), and atomically.
"""

from __future__ import annotations

import math
import os
import re
from typing import Any

import redis
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.utils.translation import gettext, ngettext
from rest_framework.throttling import SimpleRateThrottle

#: KEYS[1]: the user's (or address's) window; ARGV: now, the window's seconds, the limit, and a
#: name for this request. Drops the times that left the window (as DRF: ``time <= now -
#: window``); refuses when the window holds ``limit`` already, answering how many it holds and
#: the oldest time, else adds this one and keeps the set as long as the window. Returns
#: ``{allowed, count, oldest}``.
SLIDING_WINDOW = """
local key, now, window = KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count >= tonumber(ARGV[3]) then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return {0, count, oldest[2]}
end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, math.ceil(window * 1000))
return {1, count + 1, ''}
"""

#: Per Redis location, the script registered on a client of its own (made in each process on
#: its first throttled request, after any fork).
_WINDOWS: dict[str, Any] = {}


def _writer_location() -> str:
    """The default cache's Redis server that takes writes (Django's: the first it lists)."""
    location = settings.CACHES["default"]["LOCATION"]
    servers = re.split("[;,]", location) if isinstance(location, str) else list(location)
    return str(servers[0])


def _window_script(location: str) -> Any:
    script = _WINDOWS.get(location)
    if script is None:
        script = _WINDOWS[location] = redis.Redis.from_url(location).register_script(SLIDING_WINDOW)
    return script


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
        cache = caches["default"]
        if not isinstance(cache, RedisCache) or self.rate is None:
            return bool(super().allow_request(request, view))
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        return self._allow_in_redis(cache)

    def _allow_in_redis(self, cache: RedisCache) -> bool:
        """DRF's sliding window, counted in Redis by :data:`SLIDING_WINDOW` in one round trip.
        Leaves ``history`` as DRF's would be for :meth:`wait` (its length and oldest time)."""
        self.now = self.timer()
        name = f"{self.now!r}:{os.urandom(6).hex()}"  # two requests in one clock tick differ
        script = _window_script(_writer_location())
        allowed, count, oldest = script(
            keys=[cache.make_key(f"{self.key}:window")],
            args=[repr(self.now), self.duration, self.num_requests, name],
        )
        if allowed:
            return True
        self.history = [float(oldest)] * int(count)
        return False


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
