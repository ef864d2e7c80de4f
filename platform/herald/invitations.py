"""Invitations: one-time links that let a person claim an account an organiser made for them.

A player registered or imported by an organiser gets an account with no usable password. The
link ``/accounts/invite/<token>/`` lets them set one (and so claim the account). The token is
32 random bytes; the database keeps only its SHA-256 digest, so the token is known only to
the service call that made it: to print links later, they are reissued (which voids the older
links of the same accounts). A link works once, until it expires
(``HERALD_INVITATION_DAYS``), and only while the account still has no password.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from herald.errors import ServiceError
from herald.models import Invitation

TOKEN_BYTES = 32


class InvitationRefused(ServiceError):
    """The link cannot be used (unknown, used, voided, expired, or the account has a password)."""

    status = 410
    code = "invitation_refused"


@dataclass(frozen=True)
class Issued:
    """An invitation just made and its token, the only time the token is known."""

    invitation: Invitation
    token: str


def invitation_days() -> int:
    """How many days a new link stays valid (setting HERALD_INVITATION_DAYS)."""
    return int(getattr(settings, "HERALD_INVITATION_DAYS", 30))


def token_digest(token: str) -> str:
    """The SHA-256 hex digest stored for ``token``."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _new(user_id: int, by: Any, now: Any) -> tuple[Invitation, str]:
    token = secrets.token_urlsafe(TOKEN_BYTES)
    invitation = Invitation(
        user_id=user_id,
        digest=token_digest(token),
        created_by=by if getattr(by, "pk", None) else None,
        expires_at=now + timedelta(days=invitation_days()),
    )
    return invitation, token


def invitations_create(
    *, user_ids: Sequence[int], by: Any = None, void_older: bool = True
) -> list[Issued]:
    """New links for the accounts ``user_ids``, in one INSERT (a CSV import makes hundreds).

    The older links of these accounts still pending are voided first: one account, one link.
    ``void_older=False`` skips that UPDATE for accounts made in the same transaction.
    """
    if not user_ids:
        return []
    now = timezone.now()
    with transaction.atomic():
        if void_older:
            _void_pending(user_ids, now)
        made = [_new(user_id, by, now) for user_id in user_ids]
        saved = Invitation.objects.bulk_create([invitation for invitation, _ in made])
    return [Issued(invitation, token) for invitation, (_, token) in zip(saved, made, strict=True)]


def invitation_create(*, user: Any, by: Any = None) -> Issued:
    """A new link for ``user`` (their older pending links are voided)."""
    return invitations_create(user_ids=[user.pk], by=by)[0]


def _void_pending(user_ids: Iterable[int], now: Any) -> int:
    return Invitation.objects.filter(
        user_id__in=list(user_ids), used_at=None, voided_at=None
    ).update(voided_at=now)


def invitations_pending(user_ids: Iterable[int]) -> dict[int, Invitation]:
    """User id → their newest link still usable (not used, voided or expired)."""
    rows = Invitation.objects.filter(
        user_id__in=list(user_ids), used_at=None, voided_at=None, expires_at__gt=timezone.now()
    ).order_by("user_id", "-created_at")
    found: dict[int, Invitation] = {}
    for row in rows:
        found.setdefault(row.user_id, row)
    return found


def invitation_for_token(token: str) -> Invitation:
    """The invitation ``token`` opens, or :class:`InvitationRefused` with a sentence."""
    if not token or len(token) > 200:
        raise InvitationRefused(
            _("This invitation link is not valid: ask your club for a new one.")
        )
    invitation = (
        Invitation.objects.select_related("user").filter(digest=token_digest(token)).first()
    )
    if invitation is None:
        raise InvitationRefused(
            _("This invitation link is not valid: ask your club for a new one.")
        )
    _check_usable(invitation)
    return invitation


def _check_usable(invitation: Invitation) -> None:
    if invitation.used_at is not None:
        raise InvitationRefused(
            _("This invitation link was already used: log in, or reset your password.")
        )
    if invitation.voided_at is not None:
        raise InvitationRefused(
            _("This invitation link was replaced by a newer one: ask your club for it.")
        )
    if invitation.expires_at <= timezone.now():
        raise InvitationRefused(_("This invitation link has expired: ask your club for a new one."))
    if invitation.user.has_usable_password() or not invitation.user.is_active:
        raise InvitationRefused(
            _("This account already has a password: log in, or reset your password.")
        )


@transaction.atomic
def invitation_claim(*, token: str, password: str) -> Any:
    """Set the password of the invited account and spend the link; the user.

    ``password`` has been checked by the form (Django's validators). The link is marked used in
    the same transaction as the password is set, by a conditional UPDATE: two tabs claiming at
    once cannot both succeed.
    """
    invitation = invitation_for_token(token)
    spent = Invitation.objects.filter(pk=invitation.pk, used_at=None, voided_at=None).update(
        used_at=timezone.now()
    )
    if spent != 1:
        raise InvitationRefused(
            _("This invitation link was already used: log in, or reset your password.")
        )
    user = invitation.user
    user.set_password(password)
    user.save(update_fields=["password"])
    return user


def invitations_mail(*, issued: Sequence[Issued], link_for: Callable[[str], str]) -> int:
    """Mail each invited account with an e-mail address its link; how many were sent.

    ``link_for(token)`` makes the absolute address of a link (the view knows the site's host).
    The mails go out in one connection, after the links were committed by whoever made them.
    """
    messages = []
    for made in issued:
        user = made.invitation.user
        if not user.email:
            continue
        context = {"user": user, "link": link_for(made.token), "invitation": made.invitation}
        subject = render_to_string("registration/invitation_subject.txt", context).strip()
        body = render_to_string("registration/invitation_email.txt", context)
        messages.append(EmailMessage(subject, body, to=[user.email]))
    if not messages:
        return 0
    return int(get_connection().send_messages(messages) or 0)
