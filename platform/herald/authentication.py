"""Who is calling: expiring API tokens, their revocation on a password change, login lockouts.

API tokens are django-rest-knox's: the database keeps the token's first 15 characters
(``token_key``, to find it) and a SHA-512 digest of the whole token, never the token itself.
A token expires ``HERALD_TOKEN_TTL_HOURS`` after it was issued; logging out revokes it, and a
new password revokes all of the user's tokens. Failed logins are counted by django-axes, per
account and per address; a locked-out login is a 429.
"""

from __future__ import annotations

import binascii
import datetime as dt
from collections.abc import Iterable
from hmac import compare_digest
from typing import Any, TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext, gettext_noop
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.models import AuthToken
from knox.settings import CONSTANTS
from rest_framework import exceptions
from rest_framework.throttling import BaseThrottle

from herald.services import tokens_revoke_all

T = TypeVar("T")

# Marked for translation, rendered in the caller's language where they are used.
INVALID = "the token is not valid: log in again (POST /api/v1/auth/token) for a new one"
EXPIRED = "the token has expired: log in again (POST /api/v1/auth/token) for a new one"
INACTIVE = "this account is inactive"
LOCKED_OUT = gettext_noop(
    "too many failed logins for this account or from this address: wait {minutes} minutes, "
    "then try again"
)
LOCKED_FOR_GOOD = gettext_noop(
    "too many failed logins for this account or from this address: ask the club's staff to "
    "unlock it"
)


def token_key_of(raw: bytes) -> str:
    """The token of an ``Authorization: Token <token>`` header, or AuthenticationFailed."""
    try:
        token = raw.decode("ascii")
    except UnicodeDecodeError:
        raise exceptions.AuthenticationFailed(INVALID) from None
    if not token or len(token) > CONSTANTS.DIGEST_LENGTH:
        raise exceptions.AuthenticationFailed(INVALID)
    return token


def token_match(token: str, candidates: Iterable[tuple[str, dt.datetime | None, T]]) -> T:
    """The candidate whose digest is the token's, if it has not expired.

    ``candidates`` are the stored tokens sharing the token's first characters, as
    ``(digest, expiry, anything)``; the digests are compared in constant time. Refusals are
    AuthenticationFailed with a sentence.
    """
    try:
        digest = hash_token(token)
    except (TypeError, binascii.Error):
        raise exceptions.AuthenticationFailed(INVALID) from None
    for stored, expiry, found in candidates:
        if compare_digest(digest, stored):
            if expiry is not None and _aware(expiry) <= timezone.now():
                raise exceptions.AuthenticationFailed(EXPIRED)
            return found
    raise exceptions.AuthenticationFailed(INVALID)


def _aware(value: dt.datetime | str) -> dt.datetime:
    """A raw cursor's datetime: SQLite gives naive UTC (or text), PostgreSQL an aware one."""
    moment = parse_datetime(value) if isinstance(value, str) else value
    if moment is None:
        raise exceptions.AuthenticationFailed(INVALID)
    return moment if timezone.is_aware(moment) else moment.replace(tzinfo=dt.UTC)


class ExpiringTokenAuthentication(KnoxTokenAuthentication):
    """``Authorization: Token <token>`` with knox tokens, in one query.

    Knox's own class runs a second query per request (to delete the user's other expired
    tokens); here expired tokens are refused, and removed when the user next logs in and by
    the hourly ``herald.purge_expired_tokens`` task. Being the first authentication class, its
    ``WWW-Authenticate: Token`` header makes a missing or refused token a 401.
    """

    def authenticate_credentials(self, token: bytes) -> tuple[Any, AuthToken]:
        key = token_key_of(token)
        rows = AuthToken.objects.filter(token_key=key[: CONSTANTS.TOKEN_KEY_LENGTH])
        found = token_match(key, ((t.digest, t.expiry, t) for t in rows.select_related("user")))
        if not found.user.is_active:
            raise exceptions.AuthenticationFailed(INACTIVE)
        return found.user, found


class RevokeTokensOnPasswordChange:
    """Not a rule for passwords: revokes the user's API tokens once a new password is saved.

    Django calls every configured validator's ``password_changed(password, user)`` from
    ``AbstractBaseUser.save()`` after ``set_password()``, so every way Django sets a password
    reaches it: the admin's password form, the password change and reset views,
    ``manage.py changepassword``, or code calling ``set_password()`` and ``save()``. Django's
    own re-hashing of a password on login (a stronger hasher) is not a change and does not
    reach it. Writing a hash to the column directly (``QuerySet.update``) bypasses it.
    """

    def validate(self, password: str, user: Any = None) -> None:
        return None

    def password_changed(self, password: str, user: Any = None) -> None:
        if user is not None and user.pk is not None:
            tokens_revoke_all(user)

    def get_help_text(self) -> str:
        return gettext(
            "Changing your password signs out every app that holds one of your API tokens."
        )


def client_address(request: HttpRequest) -> str:
    """The caller's address, as the throttles see it (``HERALD_PROXY_COUNT`` proxies trusted).

    django-axes uses it too, so a login lockout and the read throttles count the same address.
    """
    return str(BaseThrottle().get_ident(request) or "")


def lockout_response(
    request: HttpRequest, response: HttpResponse | None = None, credentials: Any = None
) -> HttpResponse:
    """django-axes's answer to a locked-out login: the API's error body for the API, else a page.

    The page is the site's (the login page's layout) with the sentence, as a 429.
    """
    detail = lockout_detail()
    if request.path.startswith("/api/"):
        return JsonResponse({"error": "locked_out", "detail": detail}, status=429)
    sentence = detail[0].upper() + detail[1:] + "."
    return render(request, "registration/locked_out.html", {"detail": sentence}, status=429)


def lockout_detail() -> str:
    """The sentence a locked-out login gets."""
    cooloff = settings.AXES_COOLOFF_TIME
    if not cooloff:
        return gettext(LOCKED_FOR_GOOD)
    return gettext(LOCKED_OUT).format(minutes=max(1, round(cooloff.total_seconds() / 60)))
