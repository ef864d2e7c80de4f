"""Forms of the tournaments app's own pages (self sign-up)."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _


class SignupForm(UserCreationForm):
    """A username, the name printed on pairings, an e-mail (for password resets), a password.

    Django's own form: the username must be free and the password pass the validators.
    """

    display_name = forms.CharField(
        label=_("Name on the pairings"),
        max_length=120,
        help_text=_("How your name is printed on pairings and standings."),
    )
    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        help_text=_("Optional: to reset your password if you forget it."),
    )

    field_order = ("username", "display_name", "email", "password1", "password2")

    class Meta(UserCreationForm.Meta):
        fields = ("username",)
