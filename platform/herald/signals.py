"""The one model signal of the platform: a password made unusable revokes the user's tokens.

Every new password reaches ``herald.authentication.RevokeTokensOnPasswordChange`` (Django calls
it after ``set_password()``). Making a password unusable (the admin's "password-based
authentication: disabled", ``set_unusable_password()``) sets no password and calls no
validator, so it is caught here, when the user is saved.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import is_password_usable
from django.db.models.signals import pre_save
from django.dispatch import receiver

from herald.services import tokens_revoke_all


@receiver(pre_save, sender=settings.AUTH_USER_MODEL)
def revoke_tokens_when_password_disabled(
    sender: Any, instance: Any, raw: bool = False, update_fields: Any = None, **kwargs: Any
) -> None:
    """Revoke the user's tokens when this save turns a usable password into an unusable one."""
    if raw or instance._state.adding or instance.has_usable_password():
        return
    if update_fields is not None and "password" not in update_fields:
        return
    stored = get_user_model().objects.filter(pk=instance.pk).values_list("password", flat=True)
    before = stored.first()
    if before is not None and is_password_usable(before):
        tokens_revoke_all(instance)
