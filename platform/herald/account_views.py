"""The site's account pages beyond Django's auth views: claiming an invitation.

The work is in :mod:`herald.invitations`; this view shows the form, and the refusal's sentence
on a page with its 4xx status when the link cannot be used.
"""

from __future__ import annotations

from django.contrib.auth import login
from django.contrib.auth.forms import SetPasswordForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from herald.invitations import InvitationRefused, invitation_claim, invitation_for_token

#: Invited accounts log in with their new password through Django's own backend (axes's is
#: for counting failed passwords; there is none here).
LOGIN_BACKEND = "django.contrib.auth.backends.ModelBackend"


@never_cache
@sensitive_post_parameters("new_password1", "new_password2")
@require_http_methods(["GET", "POST"])
def invitation_claim_view(request: HttpRequest, token: str) -> HttpResponse:
    """Show the account's username and a new-password form; on success log in, go to /me/."""
    try:
        invitation = invitation_for_token(token)
    except InvitationRefused as refused:
        return _refused(request, refused)
    user = invitation.user
    form = SetPasswordForm(user, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            claimed = invitation_claim(token=token, password=form.cleaned_data["new_password1"])
        except InvitationRefused as refused:
            return _refused(request, refused)
        login(request, claimed, backend=LOGIN_BACKEND)
        return HttpResponseRedirect(reverse("me"))
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "invited": user, "expires_at": invitation.expires_at}
    # The address holds the token: no Referer to other sites (same-origin, not no-referrer:
    # with that, Chromium sends "Origin: null" on the form's POST and CSRF refuses it).
    response = render(request, "registration/invitation_claim.html", context, status=status)
    response["Referrer-Policy"] = "same-origin"
    return response


def _refused(request: HttpRequest, refused: InvitationRefused) -> HttpResponse:
    return refusal(
        request, _("This link does not open an account"), refused.detail, status=refused.status
    )


def refusal(request: HttpRequest, heading: str, detail: str, *, status: int) -> HttpResponse:
    """A page that says, in a sentence, why the request is refused, with its 4xx status."""
    context = {"heading": heading, "detail": detail}
    return render(request, "herald/refusal.html", context, status=status)
