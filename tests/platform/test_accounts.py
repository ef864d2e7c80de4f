"""The site's own accounts (issue #14): log in, password reset by e-mail, the shared lockout.

Through Django's test client against the real database; mail goes to Django's locmem outbox
(the mail backend's own test double), so the whole reset flow runs, link and all.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from tests.conftest import ROOT

pytestmark = pytest.mark.django_db

User = get_user_model()
PASSWORD = "a-long-club-password-42"


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def ann(db: None) -> Any:
    return User.objects.create_user("ann", email="ann@example.org", password=PASSWORD)


def test_the_login_page_logs_in_and_goes_to_my_herald(ann: Any) -> None:
    client = Client()
    page = client.get("/accounts/login/")
    assert page.status_code == 200
    assert b'name="username"' in page.content
    assert b"/accounts/password_reset/" in page.content
    response = client.post("/accounts/login/", {"username": "ann", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/me/"
    assert b"Signed in as ann" in client.get("/me/").content


def test_a_wrong_password_shows_the_form_again_with_a_sentence(ann: Any) -> None:
    response = Client().post("/accounts/login/", {"username": "ann", "password": "nope"})
    assert response.status_code == 200
    assert b"correct username and password" in response.content


def test_the_password_reset_flow_sends_a_link_that_sets_a_new_password(
    ann: Any, settings: Any
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.DEFAULT_FROM_EMAIL = "Herald <club@example.org>"
    client = Client()
    assert client.get("/accounts/password_reset/").status_code == 200
    sent = client.post("/accounts/password_reset/", {"email": "ann@example.org"})
    assert sent.status_code == 302
    assert sent["Location"] == "/accounts/password_reset/done/"
    assert b"Check your e-mail" in client.get(sent["Location"]).content
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["ann@example.org"]
    assert message.from_email == "Herald <club@example.org>"
    assert message.subject == "Reset your Herald password"
    assert "Your username is ann." in message.body
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", message.body).group(1)
    form = client.get(link, follow=True)  # Django swaps the token for a session one: a redirect
    assert form.status_code == 200
    assert b'name="new_password1"' in form.content
    new = "another-long-password-77"
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}, follow=True
    )
    assert done.status_code == 200
    assert b"Your new password is set" in done.content
    assert Client().login(username="ann", password=new)
    again = Client().get(link, follow=True)  # a link works once
    assert b"does not work any more" in again.content


def test_a_reset_for_an_unknown_address_sends_nothing_and_says_the_same(
    ann: Any, settings: Any
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    response = Client().post("/accounts/password_reset/", {"email": "nobody@example.org"})
    assert response.status_code == 302  # no hint whether an account has that address
    assert mail.outbox == []


def test_the_password_change_pages_work_for_a_signed_in_user(ann: Any) -> None:
    client = Client()
    client.force_login(ann)
    assert b"Change your password" in client.get("/accounts/password_change/").content
    new = "changed-long-password-88"
    response = client.post(
        "/accounts/password_change/",
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
        follow=True,
    )
    assert b"Your password is changed" in response.content
    ann.refresh_from_db()
    assert ann.check_password(new)


def test_the_logout_posts_and_goes_home(ann: Any) -> None:
    client = Client()
    client.force_login(ann)
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert client.get("/me/").status_code == 302  # to the login page


def _settings_in_a_fresh_process(**env: str) -> dict[str, Any]:
    code = (
        "import json; from django.conf import settings as s; print(json.dumps({k: getattr(s, k)"
        " for k in ('EMAIL_BACKEND', 'EMAIL_HOST', 'EMAIL_PORT', 'EMAIL_USE_TLS',"
        " 'DEFAULT_FROM_EMAIL')}))"
    )
    base = {k: v for k, v in os.environ.items() if k not in {"EMAIL_URL", "DEFAULT_FROM_EMAIL"}}
    out = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        env={
            **base,
            "DJANGO_SETTINGS_MODULE": "herald.settings",
            "PYTHONPATH": f"{ROOT}:{ROOT / 'platform'}",
            **env,
        },
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    found: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return found


def test_mail_goes_to_the_console_unless_email_url_is_set() -> None:
    default = _settings_in_a_fresh_process()
    assert default["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    smtp = _settings_in_a_fresh_process(
        EMAIL_URL="smtp+tls://club:secret@mail.example.org:587",
        DEFAULT_FROM_EMAIL="Le club <club@example.org>",
    )
    assert smtp["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (smtp["EMAIL_HOST"], smtp["EMAIL_PORT"], smtp["EMAIL_USE_TLS"]) == (
        "mail.example.org",
        587,
        True,
    )
    assert smtp["DEFAULT_FROM_EMAIL"] == "Le club <club@example.org>"


# -- the lockout: the site's login and the API's token login count together -------------------


@pytest.fixture
def lockout(settings: Any) -> Any:
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"accounts-test-{uuid.uuid4().hex}",
        }
    }
    settings.HERALD_THROTTLE = True
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 3
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)
    return settings


def _site_login(password: str, address: str) -> Any:
    return Client().post(
        "/accounts/login/", {"username": "ann", "password": password}, REMOTE_ADDR=address
    )


def _api_login(password: str, address: str) -> Any:
    body = json.dumps({"username": "ann", "password": password})
    return Client().post(
        "/api/v1/auth/token", body, content_type="application/json", REMOTE_ADDR=address
    )


def test_site_and_api_login_failures_count_against_one_lockout(ann: Any, lockout: Any) -> None:
    assert _site_login("wrong", "10.1.0.1").status_code == 200
    assert _api_login("wrong", "10.1.0.2").status_code == 400
    assert _site_login("wrong", "10.1.0.3").status_code == 429  # the third failure locks
    api = _api_login(PASSWORD, "10.1.0.4")  # even the right password, from elsewhere
    assert api.status_code == 429
    assert api.json()["error"] == "locked_out"
    page = _site_login(PASSWORD, "10.1.0.5")
    assert page.status_code == 429
    assert "_auth_user_id" not in page.wsgi_request.session
    assert page["Content-Type"].startswith("text/html")
    text = page.content.decode()
    assert "Too many failed logins for this account or from this address: wait 15 minutes" in text
    assert 'name="password"' not in text  # no login form to keep guessing on


def test_api_failures_lock_the_site_login_too(ann: Any, lockout: Any) -> None:
    for address in ("10.2.0.1", "10.2.0.2", "10.2.0.3"):
        _api_login("wrong", address)
    page = _site_login(PASSWORD, "10.2.0.9")
    assert page.status_code == 429
    assert b"wait 15 minutes" in page.content
    assert not Client().get("/me/").wsgi_request.user.is_authenticated
