"""Engine versions and which recorded games a running engine may replay.

A game's ``engine_version`` is ``MAJOR.MINOR.PATCH``. The rule, for whoever changes a game:
a change after which some recorded game would replay differently (another legal-move set for
a position that occurred, another chance outcome, another result) bumps MAJOR; a change that
keeps every recorded game's replay the same (a new contract method, a fix that only widens
what can be played from now on, wording) bumps MINOR or PATCH. A server may then replay a game
recorded with the same MAJOR and a version up to its own. The replay check itself still
compares every chance outcome and the result, so a mislabelled change is caught there, not
trusted.

A change that alters a replay may still be a MINOR bump when the game keeps the old behaviour
for a state set up under an older version: every state carries the version its game was set
up under (``GameState.engine_version``, from the stream's record on a replay), and the rule
asks ``Game.rules_since(state, "X.Y.Z")``. Recorded games then replay as they were played and
new games get the new rule; the golden games (tests/engine/golden/) prove it.
"""

from __future__ import annotations

import functools
import re

_SEMVER = re.compile(r"(\d+)\.(\d+)\.(\d+)")


def _parts(version: str) -> tuple[int, int, int] | None:
    match = _SEMVER.fullmatch(version)
    if match is None:
        return None
    major, minor, patch = (int(part) for part in match.groups())
    return major, minor, patch


@functools.lru_cache(maxsize=256)
def replay_compatible(recorded: str, running: str) -> bool:
    """True when an engine at ``running`` replays games recorded at ``recorded`` the same way:
    the same MAJOR and ``running`` not older. Versions that are not ``X.Y.Z`` must be equal.
    Cached: every replay asks it when it sets its game up, with a handful of versions."""
    old, new = _parts(recorded), _parts(running)
    if old is None or new is None:
        return recorded == running
    return old[0] == new[0] and new >= old


@functools.lru_cache(maxsize=256)
def version_at_least(version: str, minimum: str) -> bool:
    """True when ``version`` is ``minimum`` or later (``X.Y.Z`` compared part by part).
    A version that is not ``X.Y.Z`` counts as later than any (an unknown build: the newest).
    Cached: rules ask it on every move (``rules_since``) with a handful of versions."""
    have, need = _parts(version), _parts(minimum)
    if have is None or need is None:
        return have is None
    return have >= need
