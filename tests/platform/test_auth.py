"""API tokens that expire and are revoked, 401s, login lockouts, throttles (issue #12).

On SQLite and PostgreSQL, through Django's test client; the cache of throttle counts is a fresh
local-memory one per test (Redis would keep counts from an earlier run's users).
"""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from knox.models import AuthToken
from rest_framework.test import APIClient

from events.models import Stream
from events.services import stream_open
from events.states import state_cache
from herald.checks import password_change_revokes_tokens
from tests.events import toy_game
from tests.users import make_user, token_for

pytestmark = pytest.mark.django_db

TOKEN_URL = "/api/v1/auth/token"


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def toy() -> Any:
    state_cache.clear()
    with toy_game.registered() as game:
        yield game
    state_cache.clear()


@pytest.fixture
def throttling(settings: Any) -> Any:
    """Throttles and the lockout on, counting in a cache of this test's own."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"auth-test-{uuid.uuid4().hex}",
        }
    }
    settings.HERALD_THROTTLE = True
    settings.AXES_ENABLED = True
    return settings


@pytest.fixture
def ann(db: None) -> User:
    return make_user("ann", password="pw-ann-secret")


@pytest.fixture
def bob(db: None) -> User:
    return make_user("bob", password="pw-bob-secret")


def login(client: Any, username: str, password: str, address: str = "10.0.0.1") -> Any:
    body = json.dumps({"username": username, "password": password})
    return client.post(TOKEN_URL, body, content_type="application/json", REMOTE_ADDR=address)


def with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def authenticated(token: str) -> bool:
    """True when the token authenticates: GET /api/v1/games answers 200, a bad token 401."""
    status: int = with_token(token).get("/api/v1/games").status_code
    assert status in {200, 401}, status
    return status == 200


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body: dict[str, Any] = response.json()
    assert body["error"] == code, body
    assert isinstance(body["detail"], str)
    assert body["detail"]
    return body


@pytest.fixture
def stream(ann: User, bob: User) -> Stream:
    return stream_open(game_id="toy-draw", seats=[ann, bob], options={"turns": 40})


def post_move(client: Any, stream: Stream, **extra: Any) -> Any:
    view = client.get(f"/api/v1/streams/{stream.pk}/view").json()
    body = {"move": (view.get("legal_moves") or [{"type": "play", "card": 0}])[0]}
    body["expected_version"] = view["version"]
    return client.post(
        f"/api/v1/streams/{stream.pk}/moves",
        json.dumps(body),
        content_type="application/json",
        **extra,
    )


# -- tokens that expire, are stored as digests, and are revoked ------------------------------


def test_login_gives_a_token_and_its_expiry(ann: User, settings: Any) -> None:
    settings.HERALD_TOKEN_TTL_HOURS = 2
    response = login(Client(), "ann", "pw-ann-secret")
    assert response.status_code == 200, response.content
    body = response.json()
    expiry = parse_datetime(body["expiry"])
    assert expiry is not None
    assert abs(expiry - (timezone.now() + timedelta(hours=2))) < timedelta(minutes=1)
    assert authenticated(body["token"])


def test_the_database_keeps_a_digest_not_the_token(ann: User) -> None:
    token = login(Client(), "ann", "pw-ann-secret").json()["token"]
    stored = AuthToken.objects.get(user=ann)
    assert token not in (stored.digest, stored.token_key)
    assert len(stored.token_key) == 15
    assert token.startswith(stored.token_key)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM knox_authtoken WHERE digest = %s", [token])
        assert cursor.fetchone() == (0,)


@pytest.mark.parametrize("where", ["games", "view", "moves"])
def test_an_expired_token_is_refused_everywhere(ann: User, stream: Stream, where: str) -> None:
    token = token_for(ann)
    client = with_token(token)
    assert post_move(client, stream).status_code == 201
    AuthToken.objects.filter(user=ann).update(expiry=timezone.now() - timedelta(seconds=1))
    if where == "games":
        response = client.get("/api/v1/games")
    elif where == "view":
        response = client.get(f"/api/v1/streams/{stream.pk}/view")
    else:
        response = client.post(
            f"/api/v1/streams/{stream.pk}/moves",
            json.dumps({"move": {"type": "play", "card": 0}, "expected_version": 2}),
            content_type="application/json",
        )
    assert "expired" in assert_error(response, 401, "not_authenticated")["detail"]


def test_login_removes_the_users_expired_tokens(ann: User) -> None:
    old = token_for(ann)
    AuthToken.objects.filter(user=ann).update(expiry=timezone.now() - timedelta(hours=1))
    new = token_for(ann)
    assert AuthToken.objects.filter(user=ann).count() == 1
    assert not authenticated(old)
    assert authenticated(new)


def test_logout_revokes_this_token_only(ann: User) -> None:
    phone, tablet = token_for(ann), token_for(ann)
    assert with_token(phone).post("/api/v1/auth/logout").status_code == 204
    assert not authenticated(phone)
    assert authenticated(tablet)


def test_logout_all_revokes_every_token(ann: User, bob: User) -> None:
    phone, tablet, bobs = token_for(ann), token_for(ann), token_for(bob)
    response = with_token(phone).post("/api/v1/auth/logout-all")
    assert response.status_code == 200
    assert response.json() == {"revoked": 2}
    assert not authenticated(phone)
    assert not authenticated(tablet)
    assert authenticated(bobs)


def test_logout_without_a_token_is_a_401() -> None:
    response = APIClient().post("/api/v1/auth/logout")
    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"


# -- a new password revokes the tokens, whichever way it is set ------------------------------


def test_set_password_and_save_revokes_the_tokens(ann: User, bob: User) -> None:
    token, bobs = token_for(ann), token_for(bob)
    ann.set_password("a-new-secret-42")
    ann.save()
    assert not authenticated(token)
    assert authenticated(bobs)


def test_the_admins_password_form_revokes_the_tokens(ann: User) -> None:
    token = token_for(ann)
    admin = Client()
    admin.force_login(User.objects.create_superuser("boss", password="pw-boss-secret"))
    response = admin.post(
        f"/admin/auth/user/{ann.pk}/password/",
        {
            "password1": "a-new-secret-42",
            "password2": "a-new-secret-42",
            "usable_password": "true",
            "set-password": "1",
        },
    )
    assert response.status_code == 302, response.content
    ann.refresh_from_db()
    assert ann.check_password("a-new-secret-42")
    assert not authenticated(token)


def test_disabling_password_login_in_the_admin_revokes_the_tokens(ann: User) -> None:
    token = token_for(ann)
    admin = Client()
    admin.force_login(User.objects.create_superuser("boss", password="pw-boss-secret"))
    response = admin.post(
        f"/admin/auth/user/{ann.pk}/password/", {"usable_password": "false", "unset-password": "1"}
    )
    assert response.status_code == 302, response.content
    ann.refresh_from_db()
    assert not ann.has_usable_password()
    assert not authenticated(token)


def test_djangos_password_change_view_revokes_the_tokens(ann: User) -> None:
    ann.is_staff = True  # the admin's password change view is Django's PasswordChangeView
    ann.save()
    token = token_for(ann)
    browser = Client()
    browser.force_login(ann)
    response = browser.post(
        "/admin/password_change/",
        {
            "old_password": "pw-ann-secret",
            "new_password1": "a-new-secret-42",
            "new_password2": "a-new-secret-42",
        },
    )
    assert response.status_code == 302, response.content
    ann.refresh_from_db()
    assert ann.check_password("a-new-secret-42")
    assert not authenticated(token)


def test_the_changepassword_command_revokes_the_tokens(
    ann: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = token_for(ann)
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "a-new-secret-42")  # the typing
    call_command("changepassword", "ann", stdout=open("/dev/null", "w"))  # noqa: SIM115
    ann.refresh_from_db()
    assert ann.check_password("a-new-secret-42")
    assert not authenticated(token)


def test_a_stronger_hash_on_login_is_not_a_password_change(ann: User, settings: Any) -> None:
    token = token_for(ann)
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        "django.contrib.auth.hashers.MD5PasswordHasher",
    ]
    assert login(Client(), "ann", "pw-ann-secret").status_code == 200
    ann.refresh_from_db()
    assert ann.password.startswith("pbkdf2_sha256$")  # Django re-hashed it on login
    assert authenticated(token)


def test_saving_a_user_without_touching_the_password_keeps_the_tokens(ann: User) -> None:
    token = token_for(ann)
    ann.first_name = "Ann"
    ann.save()
    assert authenticated(token)


def test_the_password_validator_is_checked_to_stay_configured(settings: Any) -> None:
    assert password_change_revokes_tokens() == []
    settings.AUTH_PASSWORD_VALIDATORS = []
    assert [error.id for error in password_change_revokes_tokens()] == ["herald.E001"]


# -- a missing or bad token is a 401 --------------------------------------------------------


def test_a_missing_token_is_a_401_where_a_login_is_needed(stream: Stream) -> None:
    anonymous = APIClient()
    body = {"game": "toy-draw", "seats": ["ann", "bob"]}
    response = anonymous.post("/api/v1/streams", body, format="json")
    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"
    moved = anonymous.post(
        f"/api/v1/streams/{stream.pk}/moves",
        {"move": {"type": "play", "card": 0}, "expected_version": 1},
        format="json",
    )
    assert_error(moved, 401, "not_authenticated")
    assert moved["WWW-Authenticate"] == "Token"


@pytest.mark.parametrize("header", ["Token nonsense", "Token " + "0" * 64, "Token", "Token a b"])
def test_an_invalid_token_is_a_401(stream: Stream, header: str) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    for response in (
        client.get("/api/v1/games"),
        client.get(f"/api/v1/streams/{stream.pk}/view"),
        client.post(
            f"/api/v1/streams/{stream.pk}/moves",
            {"move": {"type": "play", "card": 0}, "expected_version": 1},
            format="json",
        ),
    ):
        assert_error(response, 401, "not_authenticated")
        assert response["WWW-Authenticate"] == "Token"


def test_a_non_ascii_token_is_a_401_not_a_crash(stream: Stream) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token caf\u00e9")
    assert_error(client.get("/api/v1/games"), 401, "not_authenticated")
    moved = client.post(f"/api/v1/streams/{stream.pk}/moves", {}, format="json")
    assert_error(moved, 401, "not_authenticated")


# -- the move endpoint's token check stays one query ----------------------------------------


def test_the_move_endpoint_finds_token_user_and_seat_in_one_query(
    ann: User, stream: Stream
) -> None:
    client = with_token(token_for(ann))
    view = client.get(f"/api/v1/streams/{stream.pk}/view").json()
    body = json.dumps({"move": view["legal_moves"][0], "expected_version": view["version"]})
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            f"/api/v1/streams/{stream.pk}/moves", body, content_type="application/json"
        )
    assert response.status_code == 201, response.content
    auth = [q["sql"] for q in queries.captured_queries if "knox_authtoken" in q["sql"]]
    users = [
        q["sql"]
        for q in queries.captured_queries
        if '"auth_user"' in q["sql"] or "auth_user " in q["sql"]
    ]
    seats = [q["sql"] for q in queries.captured_queries if "events_streamseat" in q["sql"]]
    assert len(auth) == 1, auth
    assert users == auth
    assert seats == auth


def test_other_endpoints_find_the_token_and_user_in_one_query(ann: User, stream: Stream) -> None:
    client = with_token(token_for(ann))
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/v1/games").status_code == 200
    assert len(queries.captured_queries) == 1
    assert "knox_authtoken" in queries.captured_queries[0]["sql"]


# -- login lockouts (django-axes): per account and per address ------------------------------


@pytest.fixture
def lockout(throttling: Any) -> Any:
    throttling.AXES_FAILURE_LIMIT = 3
    throttling.AXES_COOLOFF_TIME = timedelta(minutes=15)
    return throttling


def test_failed_logins_lock_the_account_even_from_another_address(
    ann: User, bob: User, lockout: Any
) -> None:
    client = Client()
    for address in ("10.0.0.1", "10.0.0.2"):
        assert_error(login(client, "ann", "wrong", address), 400, "invalid_credentials")
    error = assert_error(login(client, "ann", "wrong", "10.0.0.3"), 429, "locked_out")
    assert "15 minutes" in error["detail"]
    assert_error(login(client, "ann", "pw-ann-secret", "10.0.0.9"), 429, "locked_out")
    assert login(client, "bob", "pw-bob-secret", "10.0.0.9").status_code == 200


def test_failed_logins_lock_the_address_for_every_account(
    ann: User, bob: User, lockout: Any
) -> None:
    client = Client()
    for name in ("x1", "x2", "x3"):
        login(client, name, "guess", "10.0.0.1")
    assert_error(login(client, "bob", "pw-bob-secret", "10.0.0.1"), 429, "locked_out")
    assert login(client, "bob", "pw-bob-secret", "10.0.0.2").status_code == 200


def test_a_lockout_ends_after_the_cool_off(ann: User, lockout: Any) -> None:
    client = Client()
    for _ in range(3):
        login(client, "ann", "wrong")
    assert_error(login(client, "ann", "pw-ann-secret"), 429, "locked_out")
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert login(client, "ann", "pw-ann-secret").status_code == 200


def test_the_admin_login_and_the_api_share_the_lockout(ann: User, lockout: Any) -> None:
    ann.is_staff = True
    ann.save()
    browser = Client()
    for _ in range(3):
        browser.post(
            "/admin/login/", {"username": "ann", "password": "wrong"}, REMOTE_ADDR="10.0.0.5"
        )
    assert_error(login(Client(), "ann", "pw-ann-secret", "10.0.0.6"), 429, "locked_out")
    page = browser.post(
        "/admin/login/", {"username": "ann", "password": "pw-ann-secret"}, REMOTE_ADDR="10.0.0.7"
    )
    assert page.status_code == 429
    assert b"too many failed logins" in page.content.lower()


def test_herald_throttle_off_turns_the_lockout_off(ann: User, lockout: Any) -> None:
    lockout.HERALD_THROTTLE = False
    lockout.AXES_ENABLED = False
    client = Client()
    for _ in range(5):
        login(client, "ann", "wrong")
    assert login(client, "ann", "pw-ann-secret").status_code == 200


# -- throttles: moves per user, replaying reads per address ---------------------------------


def test_moves_are_throttled_per_user(
    ann: User, bob: User, stream: Stream, throttling: Any
) -> None:
    throttling.HERALD_THROTTLE_RATES = {"moves": "3/minute", "replay": "100/minute"}
    anns, bobs = with_token(token_for(ann)), with_token(token_for(bob))
    statuses = [post_move(anns, stream).status_code for _ in range(3)]
    assert 429 not in statuses
    refused = post_move(anns, stream)
    error = assert_error(refused, 429, "throttled")
    assert int(refused["Retry-After"]) > 0
    assert "try again in" in error["detail"]
    assert post_move(bobs, stream).status_code != 429


def test_replaying_reads_are_throttled_per_address_for_anonymous_callers(
    ann: User, bob: User, stream: Stream, throttling: Any
) -> None:
    throttling.HERALD_THROTTLE_RATES = {"moves": "100/minute", "replay": "2/minute"}
    verify = f"/api/v1/streams/{stream.pk}/verify"
    client = Client()
    assert client.get(verify, REMOTE_ADDR="10.0.0.1").status_code == 200
    assert client.get(verify, REMOTE_ADDR="10.0.0.1").status_code == 200
    refused = client.get(f"/api/v1/streams/{stream.pk}/audit?at=1", REMOTE_ADDR="10.0.0.1")
    assert_error(refused, 429, "throttled")
    assert refused["Retry-After"]
    forged = client.get(verify, REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="10.9.9.9")
    assert forged.status_code == 429  # no proxy is trusted by default
    assert client.get(verify, REMOTE_ADDR="10.0.0.2").status_code == 200


def test_arbiters_are_not_throttled_on_replaying_reads(stream: Stream, throttling: Any) -> None:
    throttling.HERALD_THROTTLE_RATES = {"replay": "1/minute"}
    arbiter = make_user("arbiter", groups=("arbiters",))
    client = with_token(token_for(arbiter))
    for at in (1, 1, 1):
        assert client.get(f"/api/v1/streams/{stream.pk}/audit?at={at}").status_code == 200


# -- verification is cached per stream version ----------------------------------------------


def _event_reads(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if 'FROM "events_event"' in q["sql"]]


def test_a_repeated_verify_does_not_replay_until_the_stream_moves(
    ann: User, stream: Stream
) -> None:
    client = APIClient()
    verify = f"/api/v1/streams/{stream.pk}/verify"
    with CaptureQueriesContext(connection) as first:
        report = client.get(verify).json()
    assert report["ok"] is True
    assert _event_reads(first)  # the first call reads the events and replays them
    with CaptureQueriesContext(connection) as again:
        assert client.get(verify).json() == report
    assert not _event_reads(again)
    assert len(again.captured_queries) < len(first.captured_queries)
    assert post_move(with_token(token_for(ann)), stream).status_code == 201
    with CaptureQueriesContext(connection) as moved:
        assert client.get(verify).json()["ok"] is True
    assert _event_reads(moved)  # a new version: verified again
