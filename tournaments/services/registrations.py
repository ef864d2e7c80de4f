"""Entering players one by one or from a CSV, checking them in, dropping them."""

from __future__ import annotations

import csv
import io
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from herald.invitations import invitations_create
from tournaments import live, selectors
from tournaments.errors import InvalidInput, NotAllowed, TooLarge, WrongState
from tournaments.models import Club, ClubMembership, Player, Registration, Round, Tournament
from tournaments.services._common import full_clean, has_control_characters, next_round_number
from tournaments.services.clubs import club_signup, player_create, player_for_user
from tournaments.services.permissions import check_may_enter, check_organiser, not_a_member

User = get_user_model()


def _last_played_round(tournament: Tournament) -> int:
    latest = tournament.rounds.filter(state__in=selectors.LIVE_STATES).order_by("-number").first()
    return 0 if latest is None else latest.number


@transaction.atomic
def registration_create(
    *,
    tournament: Tournament,
    player: Player,
    seed: int = 0,
    checked_in: bool = False,
    by: AbstractBaseUser | None = None,
) -> Registration:
    """Enter ``player``. Once the tournament runs this is a late entry, checked in at once,
    playing from the next round to be paired.

    ``by`` must run the tournament, and enters only members of its club (or themself)."""
    check_organiser(by, tournament, "register players")
    check_may_enter(by, tournament, player)
    tournament = Tournament.objects.select_for_update(of=("self",)).get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise WrongState(
            gettext("{name} is finished: it takes no more players.").format(name=tournament.name)
        )
    if tournament.registrations.filter(player=player).exists():
        raise InvalidInput(
            gettext("{display_name} is already registered.").format(
                display_name=player.display_name
            )
        )
    late = _is_late(tournament)
    waitlisted = places_left(tournament) == 0
    reg = Registration(
        tournament=tournament,
        player=player,
        seed=seed,
        checked_in=checked_in or late,
        checked_in_at=timezone.now() if checked_in or late else None,
        late_entry_round=_first_round_open_to(tournament) if late and not waitlisted else None,
        waitlisted=waitlisted,
    )
    full_clean(reg)
    reg.save()
    live.announce(tournament.id, "registrations")
    return reg


def _is_late(tournament: Tournament) -> bool:
    return tournament.status == Tournament.Status.RUNNING and tournament.rounds.exists()


def places_left(tournament: Tournament) -> int | None:
    """How many more players the cap takes (None: no cap). Dropped and waitlisted players
    hold no place."""
    if tournament.player_cap is None:
        return None
    taken = tournament.registrations.filter(
        waitlisted=False, dropped_after_round__isnull=True
    ).count()
    return max(0, tournament.player_cap - taken)


def waitlist_promote(*, tournament: Tournament) -> list[Registration]:
    """Move waitlisted players, earliest registered first, into the places the cap leaves
    free. Once the tournament runs they enter late, from the next round not yet confirmed
    (with the tournament's late-entry award for the rounds they missed). Called by the
    services that free a place, inside their transaction."""
    free = places_left(tournament)
    waiting = tournament.registrations.filter(waitlisted=True, dropped_after_round__isnull=True)
    chosen = list(waiting.order_by("created_at", "id")[:free] if free is not None else waiting)
    late = _is_late(tournament)
    for reg in chosen:
        reg.waitlisted = False
        if late:
            reg.late_entry_round = _first_round_open_to(tournament)
            reg.checked_in, reg.checked_in_at = True, reg.checked_in_at or timezone.now()
        reg.save(update_fields=["waitlisted", "late_entry_round", "checked_in", "checked_in_at"])
    if chosen:
        live.announce(tournament.id, "registrations")
    return chosen


@transaction.atomic
def registration_enter(
    *,
    tournament: Tournament,
    by: AbstractBaseUser | None,
    username: str,
    display_name: str = "",
    email: str = "",
    club: str = "",
    seed: int = 0,
    checked_in: bool = False,
) -> Registration:
    """Register the account ``username``, or a new player of that username.

    An existing account keeps its display name and club (nothing here renames a player) and
    must belong to the tournament's club, unless ``by`` enters themself. A new player is a
    member of the tournament's club from now on; ``club`` is the club printed by their name.
    """
    check_organiser(by, tournament, "register players")
    user = User.objects.filter(username=username.strip()).first()
    if user is not None:
        player = _profile(user, display_name)
    else:
        printed = _club_for_new_players(tournament, [club] if club else [], by)
        player = player_create(
            username=username,
            display_name=display_name,
            email=email,
            club=printed.get(club.strip()) if club else None,
            by=by,
        )
        if tournament.club is not None:
            ClubMembership.objects.get_or_create(club=tournament.club, user=player.user)
    return registration_create(
        tournament=tournament, player=player, seed=seed, checked_in=checked_in, by=by
    )


def _profile(user: AbstractBaseUser, display_name: str) -> Player:
    """The account's player profile; ``display_name`` only names one that does not exist yet."""
    player, _ = Player.objects.get_or_create(
        user=user, defaults={"display_name": display_name.strip() or user.get_username()}
    )
    return player


def _club_for_new_players(
    tournament: Tournament, names: Sequence[str], by: AbstractBaseUser | None
) -> dict[str, Club]:
    """Name -> club for the clubs printed by new players' names (new names become clubs).

    An existing club other than the tournament's is named only by its organisers or staff:
    no club lists new accounts under another club's name."""
    wanted = {name.strip() for name in names if name.strip()}
    clubs = {club.name: club for club in Club.objects.filter(name__in=wanted)}
    foreign = sorted(
        name
        for name, club in clubs.items()
        if club != tournament.club
        and by is not None
        and not selectors.user_organises_club(by, club)
    )
    if foreign:
        raise NotAllowed(
            gettext(
                "{foreign} is another club: only its organisers list new players under its name."
            ).format(foreign=foreign[0])
        )
    missing = wanted - set(clubs)
    if missing:
        Club.objects.bulk_create([Club(name=name) for name in missing], ignore_conflicts=True)
        clubs.update({club.name: club for club in Club.objects.filter(name__in=missing)})
    return clubs


def _first_round_open_to(tournament: Tournament) -> int:
    """A late entrant plays from the next round that is not yet confirmed."""
    draft = tournament.rounds.filter(state=Round.State.DRAFT).order_by("number").first()
    return draft.number if draft else next_round_number(tournament)


@transaction.atomic
def registration_check_in(
    *, registration: Registration, checked_in: bool = True, by: AbstractBaseUser | None = None
) -> Registration:
    """Mark the player present (or absent again before the first round): the organiser's
    tick. ``by`` must run the tournament."""
    check_organiser(by, registration.tournament, "check players in")
    if registration.is_dropped:
        raise WrongState(
            gettext("{display_name} has dropped out.").format(
                display_name=registration.player.display_name
            )
        )
    registration.checked_in = checked_in
    registration.checked_in_at = timezone.now() if checked_in else None
    registration.save(update_fields=["checked_in", "checked_in_at"])
    live.announce(registration.tournament_id, "registrations")
    return registration


@transaction.atomic
def registration_self_check_in(*, tournament: Tournament, by: AbstractBaseUser) -> Registration:
    """A player checks themself in (from their phone, or the venue's QR code) while the
    tournament's check-in window is open (:func:`selectors.check_in_window`)."""
    registration = (
        tournament.registrations.select_related("player", "tournament")
        .filter(player__user_id=by.pk)
        .first()
    )
    if registration is None:
        raise NotAllowed(
            gettext("You are not registered in {name}: register first, then check in.").format(
                name=tournament.name
            )
        )
    if tournament.status == Tournament.Status.FINISHED:
        raise WrongState(gettext("{name} is finished.").format(name=tournament.name))
    window = selectors.check_in_window(tournament)
    if not window.open:
        raise WrongState(window.sentence)
    if registration.checked_in:
        return registration
    return registration_check_in(registration=registration, checked_in=True, by=None)


@transaction.atomic
def registration_drop(
    *, registration: Registration, by: AbstractBaseUser | None = None
) -> Registration:
    """Drop the player after the last confirmed round; their games still count for the others.
    The place they held goes to the first waitlisted player. ``by`` must run the tournament."""
    check_organiser(by, registration.tournament, "drop players")
    if registration.is_dropped:
        raise WrongState(
            gettext("{display_name} has already dropped out.").format(
                display_name=registration.player.display_name
            )
        )
    tournament = Tournament.objects.select_for_update(of=("self",)).get(
        pk=registration.tournament_id
    )
    registration.dropped_after_round = _last_played_round(tournament)
    registration.save(update_fields=["dropped_after_round"])
    waitlist_promote(tournament=tournament)
    live.announce(tournament.id, "registrations")
    return registration


@transaction.atomic
def registration_readd(*, registration: Registration, by: AbstractBaseUser | None) -> Registration:
    """Undo a drop: the player plays again from the next round not yet confirmed, checked in.
    The rounds they missed meanwhile count like a late entrant's (the tournament's late-entry
    award). With the cap reached, they go back on the waitlist (last)."""
    check_organiser(by, registration.tournament, "re-add players")
    tournament = Tournament.objects.select_for_update(of=("self",)).get(
        pk=registration.tournament_id
    )
    registration = Registration.objects.select_related("player").get(pk=registration.pk)
    if not registration.is_dropped:
        raise WrongState(
            gettext("{display_name} has not dropped out.").format(
                display_name=registration.player.display_name
            )
        )
    if tournament.status == Tournament.Status.FINISHED:
        raise WrongState(
            gettext("{name} is finished: it takes no more players.").format(name=tournament.name)
        )
    registration.dropped_after_round = None
    registration.waitlisted = registration.waitlisted or places_left(tournament) == 0
    if tournament.rounds.exists() and not registration.waitlisted:
        first = _first_round_open_to(tournament)
        registration.late_entry_round = max(first, registration.late_entry_round or 0)
    registration.checked_in = True
    registration.checked_in_at = registration.checked_in_at or timezone.now()
    if registration.waitlisted:
        registration.created_at = timezone.now()  # back of the queue
    registration.save()
    live.announce(tournament.id, "registrations")
    return registration


def _check_join_token(tournament: Tournament, token: str) -> None:
    if not tournament.join_token or not secrets.compare_digest(
        tournament.join_token.encode(), token.encode()
    ):
        raise NotAllowed(
            gettext(
                "This join link is not (or no longer) valid: ask the organisers of {name} for "
                "the current one."
            ).format(name=tournament.name)
        )


@transaction.atomic
def registration_join(*, tournament: Tournament, token: str, by: AbstractBaseUser) -> Registration:
    """A signed-in player registers themself with the tournament's join link: they become a
    member of its club (the link is the organisers' invitation) and are entered like anyone
    (waitlisted beyond the cap, a late entry once it runs)."""
    _check_join_token(tournament, token)
    player = player_for_user(user=by)
    if tournament.registrations.filter(player=player).exists():
        raise InvalidInput(
            gettext("You are already registered in {name}.").format(name=tournament.name)
        )
    if tournament.club is not None:
        ClubMembership.objects.get_or_create(club=tournament.club, user=by)
    return registration_create(tournament=tournament, player=player, by=None)


@transaction.atomic
def registration_join_signup(
    *,
    tournament: Tournament,
    token: str,
    username: str,
    display_name: str,
    password: str,
    email: str = "",
) -> Registration:
    """A new account made from the join link (only where the club takes sign-ups,
    :func:`club_signup`), registered at once."""
    _check_join_token(tournament, token)
    if tournament.club is None:
        raise NotAllowed(gettext("This tournament has no club to sign up to."))
    player = club_signup(
        club=tournament.club,
        username=username,
        display_name=display_name,
        password=password,
        email=email,
    )
    return registration_join(tournament=tournament, token=token, by=player.user)


@dataclass(frozen=True)
class ImportRow:
    """One valid line of a players CSV."""

    line: int
    username: str
    display_name: str
    email: str
    club: str
    seed: int


CSV_COLUMNS = ("display_name", "username", "email", "club", "seed")


def import_limits() -> tuple[int, int]:
    """(rows, bytes): the most one CSV import takes (settings HERALD_IMPORT_MAX_ROWS/BYTES)."""
    return (
        int(getattr(settings, "HERALD_IMPORT_MAX_ROWS", 500)),
        int(getattr(settings, "HERALD_IMPORT_MAX_BYTES", 64 * 1024)),
    )


@transaction.atomic
def players_import_csv(
    *, tournament: Tournament, text: str, by: AbstractBaseUser | None = None
) -> list[Registration]:
    """Create (or reuse) the players of a CSV and register them: every row, or none.

    Columns: display_name, username, email, club, seed (header line required; email, club and
    seed may be empty). Every faulty row is named in one :class:`InvalidInput`; a CSV over
    :func:`import_limits` is :class:`TooLarge`. An existing account is reused as it is (its
    name and club unchanged) and must belong to the tournament's club; new accounts join it.
    Whatever the size, a handful of queries: accounts, players and registrations are inserted
    in bulk.
    """
    check_organiser(by, tournament, "import players")
    tournament = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club")
        .get(pk=tournament.pk)
    )
    if tournament.status == Tournament.Status.FINISHED:
        raise WrongState(
            gettext("{name} is finished: it takes no more players.").format(name=tournament.name)
        )
    rows = _parse_players_csv(text, tournament)
    existing, errors = _existing_players(rows, tournament, by)
    try:
        clubs = _club_for_new_players(
            tournament, [r.club for r in rows if r.username not in existing], by
        )
    except NotAllowed as exc:
        errors.append(str(exc).rstrip("."))
    if errors:
        raise InvalidInput("Nothing was imported. " + "; ".join(errors) + ".", lines=errors)
    try:
        with transaction.atomic():
            created = _players_bulk_create(rows, existing, clubs, tournament)
            # One INSERT of invitations for every new account: they claim it with the link.
            new_users = [player.user_id for player in created.values()]
            invitations_create(user_ids=new_users, by=by, void_older=False)
            players = {**existing, **created}
            return _registrations_bulk_create(tournament, rows, players)
    except IntegrityError:
        raise WrongState(
            gettext("Some of these accounts or registrations were created meanwhile: import again.")
        ) from None


def _existing_players(
    rows: Sequence[ImportRow], tournament: Tournament, by: AbstractBaseUser | None
) -> tuple[dict[str, Player], list[str]]:
    """Username -> the player profile of each existing account, and what is wrong with them."""
    usernames = [r.username for r in rows]
    users = dict(User.objects.filter(username__in=usernames).values_list("username", "pk"))
    players = {
        p.user.username: p
        for p in Player.objects.filter(user__username__in=usernames).select_related("user", "club")
    }
    # Herald itself and staff enter anyone; an organiser enters the club's members and themself.
    members = selectors.club_member_ids(tournament.club, users.values())
    if by is None or selectors.user_is_staff(by):
        members = set(users.values())
    else:
        members.add(by.pk)
    errors = []
    for row in rows:
        if row.username not in users:
            continue
        if row.username not in players:
            problem = f"the username {row.username!r} belongs to an account with no player profile"
        elif users[row.username] not in members:
            problem = not_a_member(tournament, repr(row.username)).rstrip(".")
        else:
            continue
        errors.append(f"line {row.line}: {problem}")
    return players, errors


def _players_bulk_create(
    rows: Sequence[ImportRow],
    existing: Mapping[str, Player],
    clubs: Mapping[str, Club],
    tournament: Tournament,
) -> dict[str, Player]:
    """New accounts (no password: they claim them with an invitation) and profiles, in bulk."""
    new = [r for r in rows if r.username not in existing]
    users = User.objects.bulk_create(
        [
            User(username=r.username, email=User.objects.normalize_email(r.email),
                 password=make_password(None))
            for r in new
        ]
    )  # fmt: skip
    players = Player.objects.bulk_create(
        [
            Player(user=user, display_name=r.display_name, club=clubs.get(r.club))
            for r, user in zip(new, users, strict=True)
        ]
    )
    memberships = [
        ClubMembership(club=club, user=player.user)
        for player in players
        for club in {tournament.club, player.club} - {None}
    ]
    ClubMembership.objects.bulk_create(memberships, ignore_conflicts=True)
    return {player.user.username: player for player in players}


def _registrations_bulk_create(
    tournament: Tournament, rows: Sequence[ImportRow], players: Mapping[str, Player]
) -> list[Registration]:
    late = _is_late(tournament)
    now = timezone.now()
    first_round = _first_round_open_to(tournament) if late else None
    free = places_left(tournament)
    created = Registration.objects.bulk_create(
        [
            Registration(
                tournament=tournament,
                player=players[row.username],
                seed=row.seed,
                checked_in=late,
                checked_in_at=now if late else None,
                # Rows beyond the cap go on the waitlist, in the file's order.
                waitlisted=free is not None and index >= free,
                late_entry_round=None if free is not None and index >= free else first_round,
            )
            for index, row in enumerate(rows)
        ]
    )
    live.announce(tournament.id, "registrations")
    return created


def _parse_players_csv(text: str, tournament: Tournament) -> list[ImportRow]:
    max_rows, max_bytes = import_limits()
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise TooLarge(
            gettext(
                "The CSV is {size:,} bytes: one import takes at most {max_bytes:,} bytes "
                "({max_rows:,} players). Split it and import each part."
            ).format(size=size, max_bytes=max_bytes, max_rows=max_rows)
        )
    # newline="": the csv module reads line breaks itself, so a quoted field may hold one.
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff"), newline=""))
    try:
        return _parse_rows(reader, tournament, max_rows)
    except csv.Error as exc:
        raise InvalidInput(
            gettext("The CSV cannot be read at line {line_num}: {exc}.").format(
                line_num=reader.line_num, exc=exc
            )
        ) from None


def _parse_rows(
    reader: csv.DictReader[str], tournament: Tournament, max_rows: int
) -> list[ImportRow]:
    header = [h.strip() for h in reader.fieldnames or []]
    missing = [c for c in ("display_name", "username") if c not in header]
    if missing:
        raise InvalidInput(
            gettext(
                "The CSV needs a header line with the columns {join}; missing: {join2}."
            ).format(join=", ".join(CSV_COLUMNS), join2=", ".join(missing))
        )
    rows: list[ImportRow] = []
    errors: list[str] = []
    seen: set[str] = set()
    registered = set(tournament.registrations.values_list("player__user__username", flat=True))
    for count, raw in enumerate(reader, start=1):
        if count > max_rows:
            raise TooLarge(
                gettext(
                    "The CSV has more than {max_rows:,} players: one import takes at most "
                    "{max_rows:,}. Split it and import each part."
                ).format(max_rows=max_rows)
            )
        line = reader.line_num
        values = {k.strip(): (v or "").strip() for k, v in raw.items() if isinstance(k, str)}
        values["username"] = User.normalize_username(values.get("username", ""))
        problem = _row_problem(values, seen, registered)
        if problem:
            errors.append(f"line {line}: {problem}")
            continue
        seen.add(values["username"])
        rows.append(_import_row(line, values))
    if errors:
        raise InvalidInput("Nothing was imported. " + "; ".join(errors) + ".", lines=errors)
    if not rows:
        raise InvalidInput(gettext("The CSV has a header but no players."))
    return rows


#: The largest seed a CSV gives (seeds order players: 1 is the strongest).
MAX_SEED = 1_000_000


def _row_problem(values: dict[str, str], seen: set[str], registered: set[str]) -> str | None:
    """What is wrong with one row, read alone (no query: accounts are looked up in bulk)."""
    username, name = values.get("username", ""), values.get("display_name", "")
    email, club = values.get("email", ""), values.get("club", "")
    if not username or not name:
        return "display_name and username are both required"
    try:
        User.username_validator(username)
    except ValidationError:
        return f"the username {username!r} may only hold letters, digits and @ . + - _"
    if len(username) > 150 or len(name) > 120 or len(club) > 120 or len(email) > 254:
        return "a username (150), display name, club (120) or e-mail (254) is too long"
    if any(has_control_characters(v) for v in (name, club, email)):
        return "a display name, club or e-mail holds a line break or another control character"
    if username in seen:
        return f"the username {username!r} appears twice"
    if username in registered:
        return f"{username!r} is already registered"
    seed = values.get("seed", "")
    if seed and not (seed.isascii() and seed.isdigit()):
        return f"the seed {seed!r} is not a whole number of 0 or more"
    if seed and int(seed) > MAX_SEED:
        return f"the seed {seed} is too large (at most {MAX_SEED:,})"
    if email:
        try:
            validate_email(email)
        except ValidationError:
            return f"{email!r} is not an e-mail address"
    return None


def _import_row(line: int, values: dict[str, str]) -> ImportRow:
    return ImportRow(
        line=line,
        username=values["username"],
        display_name=values["display_name"],
        email=values.get("email", ""),
        club=values.get("club", ""),
        seed=int(values.get("seed") or 0),
    )
