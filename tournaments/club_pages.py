"""A club's and its organisers' account pages: self sign-up, the invitations sheet.

The work is in ``tournaments.services`` (``club_signup``, ``tournament_invitations_reissue``)
and ``tournaments.selectors``; these views show forms and sheets.
"""

from __future__ import annotations

from typing import Any

import segno
from django.contrib.auth import login
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from herald.account_views import refusal
from tournaments import selectors, services
from tournaments.errors import TournamentError
from tournaments.forms import SignupForm
from tournaments.models import Club, Tournament

LOGIN_BACKEND = "django.contrib.auth.backends.ModelBackend"


@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "POST"])
def club_join(request: HttpRequest, pk: int) -> HttpResponse:
    """Self sign-up to ``club``, only when it allows it (a 404 page with a sentence otherwise)."""
    club = get_object_or_404(Club, pk=pk)
    if not club.allow_signup:
        detail = _("%(club)s does not take sign-ups: ask its organisers to register you.") % {
            "club": club.name
        }
        return refusal(request, _("No sign-up here"), detail, status=404)
    form = SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            player = services.club_signup(
                club=club,
                username=form.cleaned_data["username"],
                display_name=form.cleaned_data["display_name"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
            )
        except TournamentError as refused:
            form.add_error(None, refused.detail)
        else:
            login(request, player.user, backend=LOGIN_BACKEND)
            return HttpResponseRedirect(reverse("me"))
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/signup.html", {"club": club, "form": form}, status=status)


def qr_data_uri(url: str) -> str:
    """The QR code of ``url`` as an SVG data: URI (the page's policy allows data: images)."""
    return str(segno.make(url, error="m").svg_data_uri(scale=4, border=2))


@never_cache
@require_http_methods(["GET", "POST"])
def invitations(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser's sheet of invitation links, one per player still to claim an account.

    GET lists where each account stands. POST "print" issues fresh links (with QR codes) for
    every unclaimed account, POST "reissue" for one, POST "email" mails fresh links to the
    unclaimed players who have an e-mail address: only the digests of links are stored, so a
    link is shown once, on the page that made it, and the older links of those accounts stop
    working. Club organisers and staff only (403 otherwise).
    """
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not selectors.user_is_organiser(request.user, tournament):
        detail = _("Only the organisers of this tournament's club (or staff) see its invitations.")
        return refusal(request, _("Not for you"), detail, status=403)
    tokens: dict[int, str] = {}
    mailed: tuple[int, int] | None = None
    if request.method == "POST" and request.POST.get("action") == "email":
        mailed = services.tournament_invitations_email(
            tournament=tournament, by=request.user, link_for=lambda token: _link(request, token)
        )
    elif request.method == "POST":
        tokens = _reissue(request, tournament)
    rows = [
        _row(request, row, tokens.get(row.user_id))
        for row in selectors.tournament_invitation_rows(tournament)
    ]
    context = {
        "tournament": tournament,
        "rows": rows,
        "printing": bool(tokens),
        "mailed": mailed,
        "unclaimed": sum(1 for row in rows if row["row"].unclaimed),
    }
    response = render(request, "tournaments/invitations.html", context)
    response["Referrer-Policy"] = "same-origin"  # the page holds live links
    return response


def _reissue(request: HttpRequest, tournament: Tournament) -> dict[int, str]:
    """User id → new token, for every unclaimed player ("print") or the one named ("reissue")."""
    user_ids = None
    if request.POST.get("action") == "reissue":
        try:
            user_ids = {int(request.POST.get("user", ""))}
        except ValueError:
            user_ids = set()
    return services.tournament_invitations_reissue(
        tournament=tournament, by=request.user, user_ids=user_ids
    )


def _row(request: HttpRequest, row: selectors.InvitationRow, token: str | None) -> dict[str, Any]:
    if token is None:
        return {"row": row, "link": None, "qr": None}
    link = _link(request, token)
    return {"row": row, "link": link, "qr": qr_data_uri(link)}


def _link(request: HttpRequest, token: str) -> str:
    return request.build_absolute_uri(reverse("invitation-claim", args=[token]))
