"""Clubs, their members, and player accounts."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext

from herald.invitations import invitation_create
from tournaments import selectors
from tournaments.errors import InvalidInput, NotAllowed
from tournaments.models import Club, ClubMembership, Player
from tournaments.services._common import full_clean, has_control_characters

User = get_user_model()


def club_member_add(*, club: Club, user: AbstractBaseUser, role: str = "member") -> ClubMembership:
    """Make ``user`` a member (or organiser) of ``club``; an existing role is changed to it.
    For staff, the demo and tests: the admin is where people's roles are managed."""
    if role not in ClubMembership.Role.values:
        raise InvalidInput(
            gettext("A club role is member or organiser, not {role}.").format(role=repr(role))
        )
    membership, _ = ClubMembership.objects.update_or_create(
        club=club, user=user, defaults={"role": role}
    )
    return membership


def club_named(*, name: str, by: AbstractBaseUser) -> Club:
    """The existing club called ``name``; staff may also name a new one (it is created)."""
    name = name.strip()
    if selectors.user_is_staff(by):
        return club_get_or_create(name=name)
    club = Club.objects.filter(name=name).first()
    if club is None:
        raise NotAllowed(
            gettext(
                "There is no club called {name}: staff add clubs and name their organisers."
            ).format(name=repr(name))
        )
    return club


def club_get_or_create(*, name: str) -> Club:
    """The club called ``name`` (created the first time it is named)."""
    name = name.strip()
    if not name:
        raise InvalidInput(gettext("A club needs a name."))
    club, _ = Club.objects.get_or_create(name=name)
    return club


@transaction.atomic
def player_create(
    *,
    username: str,
    display_name: str,
    email: str = "",
    club: Club | None = None,
    by: AbstractBaseUser | None = None,
) -> Player:
    """A new user account with its player profile, and an invitation to claim it.

    The account has no usable password: the person claims it with the invitation's one-time
    link (``herald.invitations``), which the organiser ``by`` prints from the tournament's
    invitations sheet.
    """
    username, display_name = username.strip(), display_name.strip()
    _check_new_player(username=username, display_name=display_name, email=email)
    user = User.objects.create_user(username=username, email=email)
    player = Player(user=user, display_name=display_name, club=club)
    full_clean(player)
    player.save()
    if club is not None:
        club_member_add(club=club, user=user)  # a new account listed under a club belongs to it
    invitation_create(user=user, by=by)
    return player


def _check_new_player(*, username: str, display_name: str, email: str) -> None:
    if not username:
        raise InvalidInput(gettext("A player needs a username."))
    try:
        User.username_validator(username)
    except ValidationError:
        raise InvalidInput(
            gettext("The username {username} may only hold letters, digits and @ . + - _.").format(
                username=repr(username)
            )
        ) from None
    if len(username) > 150 or len(display_name) > 120:
        raise InvalidInput(
            gettext("The username or display name of {username} is too long.").format(
                username=repr(username)
            )
        )
    if not display_name:
        raise InvalidInput(
            gettext("The player {username} needs a display name.").format(username=repr(username))
        )
    if has_control_characters(display_name) or has_control_characters(email):
        raise InvalidInput(
            gettext("The display name or e-mail of {username} holds a control character.").format(
                username=repr(username)
            )
        )
    if User.objects.filter(username=username).exists():
        raise InvalidInput(
            gettext("The username {username} is already taken.").format(username=repr(username))
        )
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise InvalidInput(
                gettext("{email} is not an e-mail address.").format(email=repr(email))
            ) from None


def player_for_user(*, user: AbstractBaseUser) -> Player:
    """The user's player profile, created with their username as display name if missing."""
    player, _ = Player.objects.get_or_create(
        user=user, defaults={"display_name": user.get_username()}
    )
    return player


@transaction.atomic
def club_signup(
    *, club: Club, username: str, display_name: str, password: str, email: str = ""
) -> Player:
    """Self sign-up: a new account with ``password``, its player profile, a member of ``club``.

    Only for a club that allows it (``Club.allow_signup``, off by default). ``password`` has
    been checked against the password validators by the form.
    """
    club = Club.objects.select_for_update().get(pk=club.pk)
    if not club.allow_signup:
        raise NotAllowed(
            gettext("%(club)s does not take sign-ups: ask its organisers to register you.")
            % {"club": club.name}
        )
    username, display_name = username.strip(), display_name.strip()
    _check_new_player(username=username, display_name=display_name, email=email)
    user = User.objects.create_user(username=username, email=email, password=password)
    player = Player(user=user, display_name=display_name, club=club)
    full_clean(player)
    player.save()
    club_member_add(club=club, user=user)
    return player
