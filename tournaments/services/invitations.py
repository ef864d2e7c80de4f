"""Invitation links for a tournament's players: the organiser prints them from a sheet.

The links themselves are herald's (:mod:`herald.invitations`): only their digests are stored,
so printing the sheet issues fresh links for the players who have not claimed their account
yet, and the links printed before for them stop working. Players with an e-mail address may be
sent theirs instead.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

from django.contrib.auth.models import AbstractBaseUser

from herald.invitations import invitations_create, invitations_mail
from tournaments import selectors
from tournaments.models import Tournament
from tournaments.services.permissions import check_organiser


def tournament_invitations_reissue(
    *, tournament: Tournament, by: AbstractBaseUser, user_ids: Collection[int] | None = None
) -> dict[int, str]:
    """New links for the tournament's players still to claim their account: user id → token.

    ``user_ids`` narrows it to some of them (one player's "reissue"); ids of players who are not
    in the tournament, or who already have a password, are left out. One INSERT for all.
    """
    check_organiser(by, tournament, "print invitation links")
    waiting = [
        row.user_id
        for row in selectors.tournament_invitation_rows(tournament)
        if row.unclaimed and (user_ids is None or row.user_id in user_ids)
    ]
    issued = invitations_create(user_ids=waiting, by=by)
    return {made.invitation.user_id: made.token for made in issued}


def tournament_invitations_email(
    *, tournament: Tournament, by: AbstractBaseUser, link_for: Callable[[str], str]
) -> tuple[int, int]:
    """Mail fresh links to the unclaimed players who have an e-mail address.

    (mailed, left): how many were mailed, and how many unclaimed players have no address (their
    links are still to print). The mailed players' older links stop working.
    """
    check_organiser(by, tournament, "send invitation links")
    waiting = [row for row in selectors.tournament_invitation_rows(tournament) if row.unclaimed]
    with_address = [row.user_id for row in waiting if row.email]
    issued = invitations_create(user_ids=with_address, by=by)
    return invitations_mail(issued=issued, link_for=link_for), len(waiting) - len(with_address)
