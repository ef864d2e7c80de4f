"""Who may do what: the checks services make on the person they act for (``by``)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext

from herald.roles import HOUSE_BOTS, in_group
from tournaments import selectors
from tournaments.errors import NotAllowed
from tournaments.models import Club, Player, Tournament


def check_organiser(by: AbstractBaseUser | None, tournament: Tournament, action: str) -> None:
    """Refuse ``by`` unless they run ``tournament``: its club's organisers, or staff.
    ``None`` is Herald itself (see the module's docstring); ``action`` ends the refusal."""
    if by is None or selectors.user_is_organiser(by, tournament):
        return
    if tournament.club is None:
        raise NotAllowed(
            gettext("Only staff may {action}: {name} has no club.").format(
                action=action, name=tournament.name
            )
        )
    raise NotAllowed(
        gettext("Only the organisers of {name} (or staff) may {action}: they run {name2}.").format(
            name=tournament.club.name, action=action, name2=tournament.name
        )
    )


def check_may_create(by: AbstractBaseUser, club: Club | None) -> None:
    """Refuse ``by`` unless they may create a tournament for ``club``: its organisers, or
    staff (the only ones who create one with no club)."""
    if selectors.user_is_staff(by):
        return
    if club is None:
        raise NotAllowed(
            gettext(
                "Only staff create a tournament with no club: name your club to create one for it."
            )
        )
    if not selectors.user_organises_club(by, club):
        raise NotAllowed(
            gettext("Only the organisers of {name} (or staff) create its tournaments.").format(
                name=club.name
            )
        )


def check_may_enter(by: AbstractBaseUser | None, tournament: Tournament, player: Player) -> None:
    """An existing account is entered only by itself, or when it belongs to the club; a house
    bot (the demo's and the lobby's robot players) never."""
    if in_group(player.user, HOUSE_BOTS):
        raise NotAllowed(
            gettext(
                "{name} is one of Herald's house bots: bots fill open games, they do not "
                "play in tournaments."
            ).format(name=player.display_name)
        )
    if by is None or selectors.user_is_staff(by) or by.pk == player.user_id:
        return
    if player.user_id not in selectors.club_member_ids(tournament.club, [player.user_id]):
        raise NotAllowed(not_a_member(tournament, player.display_name))


def not_a_member(tournament: Tournament, name: str) -> str:
    """The refusal of entering ``name``, who does not belong to the tournament's club."""
    club = tournament.club.name if tournament.club else "no club"
    return (
        f"{name} is not a member of {club}: a club registers its own members, "
        "and a player from elsewhere registers themself (or asks staff)."
    )
