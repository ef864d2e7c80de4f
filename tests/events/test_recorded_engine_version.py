"""A stored game replays under the rules of the engine version it was set up under.

The engine keeps an older version's rules for a state set up under it
(``engine.core.rules_since``); the event store must tell it that version, from the stream's
``GameCreated``, or every game recorded before a rule change would replay under the new rules.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from engine.core import Rng
from events.models import Event
from events.selectors import stream_verify
from events.services import stream_open
from events.states import replay_stream, setup_record
from tests.events.test_hash_commitments import play
from tests.tamper import careful_tamper

pytestmark = [pytest.mark.django_db]

OLD_VERSION = "1.2.0"  # 13 Couronnes before the rulebook's reshuffle and blason rules (1.3.0)


def test_a_game_recorded_under_an_older_version_replays_under_that_version() -> None:
    users = [User.objects.create_user(f"v{i}") for i in range(3)]
    stream = stream_open(game_id="13-couronnes", seats=users)
    play(stream, Rng("recorded-version"), moves=12)

    def recorded_before(payload: dict) -> None:
        payload["engine_version"] = OLD_VERSION

    careful_tamper(stream.pk, 1, recorded_before)  # as if recorded before the upgrade
    stream.refresh_from_db()
    created = Event.objects.get(stream=stream, seq=1)

    assert setup_record(stream, created).engine_version == OLD_VERSION
    state, _ = replay_stream(stream)
    assert state.engine_version == OLD_VERSION
    assert stream_verify(stream)["checks"]["replay"]["ok"]
