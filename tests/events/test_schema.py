"""A schemathesis run over every operation of /api/schema/, against the live server.

Run twice, as a staff member and as an ordinary player, each with a token got by POSTing a
username and password to /api/v1/auth/token (as a client would, whatever the token model).
The database holds a club, a tournament with a released round, a live and a finished stream,
a dispute, a rating pool and a recompute job, and path ids are, half the time, real ones, so
requests reach past the 404s.

Checks: no 5xx, every response's status declared in the schema, every body of the declared
shape. Bounded: EXAMPLES generated requests per operation, and a time budget per role (past
it, the remaining operations get one example each). (schemathesis' pytest plugin does not
run under this pytest; the operations' hypothesis strategies are driven directly.)

Throttling: the schema declares 429 on every throttled operation (herald.schema.AutoSchema),
so a throttled answer conforms; the test does not turn throttles off.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import pytest
import requests
import schemathesis
from django.contrib.auth.models import User
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import (
    response_schema_conformance,
    status_code_conformance,
)

from events.models import Stream
from events.services import stream_open
from ratings import disputes
from ratings import services as ratings_services
from tests.events.conftest import make_user
from tests.ratings.games import play_to_end
from tests.tournaments.factories import make_player, make_tournament, register_players
from tournaments import services as tournaments_services

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLES = 10
#: Seconds of generated requests per role; the whole test stays well under three minutes.
BUDGET = 60.0
CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]


@dataclass
class World:
    """The objects the generated requests aim at, by path parameter."""

    ids: dict[tuple[str, str], list[Any]]
    succeeded: set[str] = field(default_factory=set)

    def real(self, path: str, name: str) -> list[Any]:
        """The real values for parameter ``name`` of ``path`` (most specific prefix first)."""
        for (prefix, param), values in self.ids.items():
            if param == name and path.startswith(prefix):
                return values
        return []


def _world(staff: User, player: User, other: User) -> World:
    organiser = make_user("organiser-s", groups=("organisers",))
    tournament = make_tournament(organiser=organiser)
    tournament.club = tournaments_services.club_get_or_create(name="Schema club")
    tournament.save(update_fields=["club"])
    tournaments_services.club_member_add(club=tournament.club, user=organiser, role="organiser")
    regs = register_players(tournament, 8)
    round_ = tournaments_services.round_pair_next(tournament=tournament, by=organiser)
    round_ = tournaments_services.round_confirm(round_=round_)
    round_ = tournaments_services.round_release(round_=round_, by=organiser)
    table = round_.tables.filter(is_bye=False).first()
    assert table is not None
    # Entered by no one (as an import would): its submitted_by and decided_by are null.
    result = tournaments_services.result_enter(
        table=table, by=None, ranks=list(range(1, table.seats.count() + 1)), scores=[]
    )
    # Nulls the schema must declare: a tournament with no club, a player with no club.
    bare = make_tournament(organiser=organiser, name="No club")
    tournaments_services.registration_create(
        tournament=bare, player=make_player(club=None), seed=1, checked_in=True
    )
    live = stream_open(game_id="toy-draw", seats=[player, other], options={"turns": 6})
    finished = play_to_end([player, other], turns=4)
    dispute = disputes.dispute_open(stream_id=finished.pk, user=player, reason="a misdeal")
    pool = ratings_services.pool_get_or_create(game="toy-draw", edition=finished.edition)
    job = ratings_services.recompute_request(pool=pool, reason="schema test", requested_by=staff)
    streams: list[Any] = [str(live.pk), str(finished.pk)]
    return World(
        ids={
            ("/api/v1/streams/", "stream_id"): streams,
            ("/api/v1/ratings/streams/", "stream_id"): streams,
            ("/api/v1/tournaments/", "id"): [tournament.pk, bare.pk],
            ("/api/v1/registrations/", "id"): [regs[0].pk, regs[-1].pk],
            ("/api/v1/rounds/", "id"): [round_.pk],
            ("/api/v1/tables/", "id"): [table.pk],
            ("/api/v1/results/", "id"): [result.pk],
            ("/api/v1/ratings/", "pool_id"): [pool.pk],
            ("/api/v1/ratings/", "job_id"): [job.pk],
            ("/api/v1/ratings/", "username"): [player.username, staff.username],
            ("/api/v1/disputes/", "dispute_id"): [dispute.pk],
        }
    )


def _token(base_url: str, username: str) -> str:
    response = requests.post(
        f"{base_url}/api/v1/auth/token",
        json={"username": username, "password": "pw-" + username},
        timeout=10,
    )
    assert response.status_code == 200, response.text
    token: str = response.json()["token"]
    return token


@pytest.mark.parametrize("role", ["staff", "player"])
def test_every_operation_answers_as_its_schema_says(
    live_server: Any, players: list[User], role: str
) -> None:
    staff = make_user("staffer", staff=True)
    player, other = players[0], players[1]
    world = _world(staff, player, other)
    token = _token(live_server.url, staff.username if role == "staff" else player.username)
    schema = schemathesis.openapi.from_url(f"{live_server.url}/api/schema/?format=json")
    operations = [result.ok() for result in schema.get_all_operations()]
    # Logging out revokes the token every later request sends: those operations go last.
    operations.sort(key=lambda op: "/auth/logout" in op.path)
    assert len(operations) >= 45, [op.label for op in operations]
    started = time.monotonic()
    failures = []
    for operation in operations:
        late = time.monotonic() - started > BUDGET
        try:
            _fuzz(operation, world, live_server.url, token, late=late)
        except (AssertionError, FailureGroup) as exc:  # all operations tried, all failures told
            failures.append(f"{operation.label}: {exc}")
    assert not failures, "\n\n".join(failures)
    # The real ids made requests succeed: not a run of 404s.
    assert len(world.succeeded) >= (25 if role == "staff" else 18), sorted(world.succeeded)
    assert Stream.objects.filter(pk=world.ids[("/api/v1/streams/", "stream_id")][0]).exists()


def _fuzz(operation: Any, world: World, base_url: str, token: str, *, late: bool) -> None:
    """Generated requests to one operation, half of them with real ids in the path."""
    reals = {
        name: world.real(operation.path, name)
        for name in (operation.path_parameters and [p.name for p in operation.path_parameters])
        or []
    }

    @given(case=operation.as_strategy(), aim=st.booleans(), index=st.integers(0, 1))
    @settings(
        max_examples=1 if late else EXAMPLES, deadline=None, database=None,
        suppress_health_check=list(HealthCheck), derandomize=True,
    )  # fmt: skip
    def conforms(case: Any, aim: bool, index: int) -> None:
        if aim:
            for name, values in reals.items():
                if values:
                    case.path_parameters[name] = values[index % len(values)]
        response = case.call_and_validate(
            base_url=base_url, headers={"Authorization": f"Token {token}"}, checks=CHECKS
        )
        if response.status_code < 300:
            world.succeeded.add(operation.label)

    conforms()
