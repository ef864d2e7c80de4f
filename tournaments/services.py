"""Writes of the tournaments app, and the one bridge to the pure pairing layer.

Every function is keyword-only, checks its input, then changes state in one transaction: a
request either happens whole or not at all. ORM rows become ``tournaments.pairing`` values in
``_pairing_inputs`` and a ``Pairing`` becomes rows in ``_save_draw``; nothing else here pairs.
Services that act for a person take it as ``by`` and check it themselves: creating a
tournament, registering and importing players, pairing and releasing rounds and entering
results are for the organisers of the tournament's club and for staff (``check_organiser``).
``by=None`` is Herald itself (a worker, a management command, a game's own result), never a
request: every API view passes the user who asked.
"""

from __future__ import annotations

import csv
import io
import itertools
import logging
import math
import secrets
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone

from engine.core.errors import EngineError
from tournaments import pairing, selectors
from tournaments.errors import (
    InvalidInput,
    NotAllowed,
    ResultConflict,
    ResultsMissing,
    TooLarge,
    WrongState,
)
from tournaments.games import game_facts, game_options
from tournaments.models import (
    Club,
    ClubMembership,
    Format,
    LateEntryAward,
    Player,
    Registration,
    Result,
    ResultConfirmation,
    Round,
    Stage,
    Table,
    TableSeat,
    Tournament,
)

log = logging.getLogger(__name__)
User = get_user_model()

PAIRED_FORMATS = {Format.SWISS: "swiss", Format.ROUND_ROBIN: "round_robin"}
BRACKET_FORMATS = {"single_elimination", "double_elimination", "knockout"}
#: Warnings a draft may not be confirmed with: the draw itself is broken.
BLOCKING_WARNINGS = {"seated_twice", "missing", "unknown"}
#: The refusal of an unknown late-entry award (``{input}`` is the value sent); the API's too.
LATE_ENTRY_AWARD_REFUSAL = (
    'There is no late entry award "{input}": choose none (0 points), bye (the bye points) or '
    "half_bye (half the bye points) for each round a late entrant missed."
)
#: The largest points, bye points or game score (either sign). Plenty for any game, and far
#: from where sums of them stop being exact or overflow to infinity in the standings.
POINTS_LIMIT = 1_000_000


# -- permissions -------------------------------------------------------------------------------
def check_organiser(by: AbstractBaseUser | None, tournament: Tournament, action: str) -> None:
    """Refuse ``by`` unless they run ``tournament``: its club's organisers, or staff.
    ``None`` is Herald itself (see the module's docstring); ``action`` ends the refusal."""
    if by is None or selectors.user_is_organiser(by, tournament):
        return
    if tournament.club is None:
        raise NotAllowed(f"Only staff may {action}: {tournament.name} has no club.")
    raise NotAllowed(
        f"Only the organisers of {tournament.club.name} (or staff) may {action}: "
        f"they run {tournament.name}."
    )


def _check_may_create(by: AbstractBaseUser, club: Club | None) -> None:
    if selectors.user_is_staff(by):
        return
    if club is None:
        raise NotAllowed(
            "Only staff create a tournament with no club: name your club to create one for it."
        )
    if not selectors.user_organises_club(by, club):
        raise NotAllowed(f"Only the organisers of {club.name} (or staff) create its tournaments.")


def _check_may_enter(by: AbstractBaseUser | None, tournament: Tournament, player: Player) -> None:
    """An existing account is entered only by itself, or when it belongs to the club."""
    if by is None or selectors.user_is_staff(by) or by.pk == player.user_id:
        return
    if player.user_id not in selectors.club_member_ids(tournament.club, [player.user_id]):
        raise NotAllowed(_not_a_member(tournament, player.display_name))


def _not_a_member(tournament: Tournament, name: str) -> str:
    club = tournament.club.name if tournament.club else "no club"
    return (
        f"{name} is not a member of {club}: a club registers its own members, "
        "and a player from elsewhere registers themself (or asks staff)."
    )


def club_member_add(*, club: Club, user: AbstractBaseUser, role: str = "member") -> ClubMembership:
    """Make ``user`` a member (or organiser) of ``club``; an existing role is changed to it.
    For staff, the demo and tests: the admin is where people's roles are managed."""
    if role not in ClubMembership.Role.values:
        raise InvalidInput(f"A club role is member or organiser, not {role!r}.")
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
            f"There is no club called {name!r}: staff add clubs and name their organisers."
        )
    return club


# -- clubs and players -------------------------------------------------------------------------
def club_get_or_create(*, name: str) -> Club:
    """The club called ``name`` (created the first time it is named)."""
    name = name.strip()
    if not name:
        raise InvalidInput("A club needs a name.")
    club, _ = Club.objects.get_or_create(name=name)
    return club


@transaction.atomic
def player_create(
    *, username: str, display_name: str, email: str = "", club: Club | None = None
) -> Player:
    """A new user account with its player profile."""
    username, display_name = username.strip(), display_name.strip()
    _check_new_player(username=username, display_name=display_name, email=email)
    user = User.objects.create_user(username=username, email=email)
    player = Player(user=user, display_name=display_name, club=club)
    _full_clean(player)
    player.save()
    if club is not None:
        club_member_add(club=club, user=user)  # a new account listed under a club belongs to it
    return player


def _check_new_player(*, username: str, display_name: str, email: str) -> None:
    if not username:
        raise InvalidInput("A player needs a username.")
    try:
        User.username_validator(username)
    except ValidationError:
        raise InvalidInput(
            f"The username {username!r} may only hold letters, digits and @ . + - _."
        ) from None
    if len(username) > 150 or len(display_name) > 120:
        raise InvalidInput(f"The username or display name of {username!r} is too long.")
    if not display_name:
        raise InvalidInput(f"The player {username!r} needs a display name.")
    if _has_control_characters(display_name) or _has_control_characters(email):
        raise InvalidInput(f"The display name or e-mail of {username!r} holds a control character.")
    if User.objects.filter(username=username).exists():
        raise InvalidInput(f"The username {username!r} is already taken.")
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise InvalidInput(f"{email!r} is not an e-mail address.") from None


def _has_control_characters(text: str) -> bool:
    """Line breaks, tabs, NUL and the like: nothing a name printed on pairings holds."""
    return any(unicodedata.category(char) == "Cc" for char in text)


def player_for_user(*, user: AbstractBaseUser) -> Player:
    """The user's player profile, created with their username as display name if missing."""
    player, _ = Player.objects.get_or_create(
        user=user, defaults={"display_name": user.get_username()}
    )
    return player


# -- tournaments -------------------------------------------------------------------------------
@transaction.atomic
def tournament_create(
    *,
    name: str,
    game_id: str,
    organiser: AbstractBaseUser,
    club: Club | None = None,
    edition: str = "",
    options: Mapping[str, Any] | None = None,
    format: str = "swiss",
    table_preferred: int | None = None,
    table_allowed: Sequence[int] | None = None,
    points_by_rank: Sequence[float] | None = None,
    tiebreakers: Sequence[str] = ("opponents_points", "game_score"),
    bye_points: float | None = None,
    late_entry_award: str = "none",
    dispute_window_minutes: int = 30,
    rounds_planned: int | None = None,
    pairing_seed: str = "",
) -> Tournament:
    """A tournament in registration, with one stage; sizes and points default from the game.

    ``organiser`` creates it: an organiser of ``club``, or staff (the only ones who create a
    tournament with no club)."""
    _check_may_create(organiser, club)
    facts = game_facts(game_id)
    if edition and edition not in facts.editions:
        raise InvalidInput(
            f"{facts.name} has no edition {edition!r}; editions: {', '.join(facts.editions)}."
        )
    if format not in Format.values:
        raise InvalidInput(f"Unknown format {format!r}; formats: {', '.join(Format.values)}.")
    two_player = format in (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION)
    if two_player and (table_preferred or 2) != 2:
        raise InvalidInput("Single and double elimination brackets are for tables of 2.")
    preferred = table_preferred or (2 if two_player else facts.preferred_table)
    if two_player and not table_allowed:
        table_allowed = [2]
    allowed = _table_allowed(facts.min_players, facts.max_players, preferred, table_allowed)
    points = _points_by_rank(points_by_rank, max(allowed))
    tournament = Tournament(
        name=name.strip(),
        club=club,
        game_id=facts.id,
        edition=edition,
        options=game_options(facts.id, options),
        format=format,
        table_preferred=preferred,
        table_allowed=allowed,
        points_by_rank=points,
        tiebreakers=_tiebreakers(tiebreakers),
        bye_points=points[0] if bye_points is None else _bye_points(bye_points),
        late_entry_award=_late_entry_award(late_entry_award),
        dispute_window_minutes=dispute_window_minutes,
        rounds_planned=rounds_planned,
        pairing_seed=pairing_seed or secrets.token_hex(8),
        status=Tournament.Status.REGISTRATION,
    )
    _full_clean(tournament)
    tournament.save()
    tournament.organisers.add(organiser)
    # A "stages" tournament opens with Swiss groups; stage_cut adds the bracket after them.
    first = "swiss" if format == Format.STAGES else format
    Stage.objects.create(
        tournament=tournament,
        order=1,
        name="Groups" if format == Format.STAGES else "Main",
        format=first,
        rounds_planned=rounds_planned,
    )
    return tournament


def _table_allowed(low: int, high: int, preferred: int, allowed: Sequence[int] | None) -> list[int]:
    sizes = (
        sorted(set(allowed))
        if allowed
        else [s for s in (preferred - 1, preferred, preferred + 1) if low <= s <= high]
    )
    outside = [s for s in sizes if not low <= s <= high]
    if outside or not low <= preferred <= high:
        raise InvalidInput(
            f"This game is for {low} to {high} players: a table of {(outside or [preferred])[0]} cannot play it."
        )
    if preferred not in sizes:
        raise InvalidInput(
            f"The preferred table size {preferred} must be one of the allowed sizes."
        )
    if high >= 2 and sizes == [1]:
        raise InvalidInput("Tables of one player are byes, not tables.")
    return sizes


def _points_by_rank(points: Sequence[float] | None, largest: int) -> list[float]:
    if points is None:
        return [float(p) for p in range(largest - 1, -1, -1)]
    if not points:
        raise InvalidInput("Points by rank need at least one value (the winner's points).")
    values = [_bounded(p, "Points by rank") for p in points]
    if any(a < b for a, b in itertools.pairwise(values)):
        raise InvalidInput("Points by rank must not grow with the rank: 1st place earns the most.")
    return values


def _bounded(value: float, what: str) -> float:
    """``value`` as a float, refused when it is not a number or beyond ``POINTS_LIMIT``."""
    number = float(value)
    if not math.isfinite(number) or abs(number) > POINTS_LIMIT:
        raise InvalidInput(
            f"{what} must be numbers between -{POINTS_LIMIT:,} and {POINTS_LIMIT:,}, not {value!r}."
        )
    return number


def _bye_points(value: float) -> float:
    return _bounded(value, "Bye points")


def _tiebreakers(names: Sequence[str]) -> list[str]:
    unknown = [n for n in names if n not in pairing.TIEBREAKERS]
    if unknown:
        raise InvalidInput(
            f"Unknown tie-breaker {unknown[0]!r}; choose from {', '.join(pairing.TIEBREAKERS)}."
        )
    if len(set(names)) != len(names):
        raise InvalidInput("A tie-breaker is listed twice.")
    return list(names)


def _late_entry_award(value: str) -> str:
    if value not in LateEntryAward.values:
        raise InvalidInput(LATE_ENTRY_AWARD_REFUSAL.format(input=value))
    return value


def _full_clean(instance: Any) -> None:
    try:
        instance.full_clean()
    except ValidationError as exc:
        raise InvalidInput(" ".join(_messages(exc))) from None


def _messages(exc: ValidationError) -> list[str]:
    if hasattr(exc, "message_dict"):
        return [f"{field}: {' '.join(msgs)}" for field, msgs in exc.message_dict.items()]
    return list(exc.messages)


@transaction.atomic
def tournament_update(
    *,
    tournament: Tournament,
    name: str | None = None,
    table_preferred: int | None = None,
    table_allowed: Sequence[int] | None = None,
    points_by_rank: Sequence[float] | None = None,
    tiebreakers: Sequence[str] | None = None,
    bye_points: float | None = None,
    late_entry_award: str | None = None,
    dispute_window_minutes: int | None = None,
    rounds_planned: int | None = None,
) -> Tournament:
    """Change the settings an organiser may change at any time. Standings are recomputed from
    the results, so new points, tie-breakers or a new late-entry award apply to every round;
    new table sizes apply from the next draw. The game, its options and the format are fixed
    at creation."""
    facts = game_facts(tournament.game_id)
    if table_preferred is not None or table_allowed is not None:
        preferred = table_preferred or tournament.table_preferred
        allowed = table_allowed or tournament.table_allowed
        tournament.table_allowed = _table_allowed(
            facts.min_players, facts.max_players, preferred, allowed
        )
        tournament.table_preferred = preferred
    if points_by_rank is not None:
        tournament.points_by_rank = _points_by_rank(points_by_rank, max(tournament.table_allowed))
    if tiebreakers is not None:
        tournament.tiebreakers = _tiebreakers(tiebreakers)
    changes = {
        "name": name.strip() if name is not None else None,
        "bye_points": None if bye_points is None else _bye_points(bye_points),
        "late_entry_award": None
        if late_entry_award is None
        else _late_entry_award(late_entry_award),
        "dispute_window_minutes": dispute_window_minutes,
        "rounds_planned": rounds_planned,
    }
    for field, value in changes.items():
        if value is not None:
            setattr(tournament, field, value)
    _full_clean(tournament)
    tournament.save()
    return tournament


def tournament_finish(*, tournament: Tournament) -> Tournament:
    """Close the tournament: no more rounds or registrations."""
    if tournament.rounds.filter(state=Round.State.DRAFT).exists():
        raise WrongState("A round is still a draft: confirm it or re-pair it before finishing.")
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    return tournament


# -- registrations -----------------------------------------------------------------------------
def _next_round_number(tournament: Tournament) -> int:
    latest = selectors.round_latest(tournament)
    return 1 if latest is None else latest.number + 1


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
    _check_may_enter(by, tournament, player)
    if tournament.status == Tournament.Status.FINISHED:
        raise WrongState(f"{tournament.name} is finished: it takes no more players.")
    if tournament.registrations.filter(player=player).exists():
        raise InvalidInput(f"{player.display_name} is already registered.")
    late = tournament.status == Tournament.Status.RUNNING and tournament.rounds.exists()
    reg = Registration(
        tournament=tournament,
        player=player,
        seed=seed,
        checked_in=checked_in or late,
        checked_in_at=timezone.now() if checked_in or late else None,
        late_entry_round=_first_round_open_to(tournament) if late else None,
    )
    _full_clean(reg)
    reg.save()
    return reg


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
            f"{foreign[0]} is another club: only its organisers list new players under its name."
        )
    missing = wanted - set(clubs)
    if missing:
        Club.objects.bulk_create([Club(name=name) for name in missing], ignore_conflicts=True)
        clubs.update({club.name: club for club in Club.objects.filter(name__in=missing)})
    return clubs


def _first_round_open_to(tournament: Tournament) -> int:
    """A late entrant plays from the next round that is not yet confirmed."""
    draft = tournament.rounds.filter(state=Round.State.DRAFT).order_by("number").first()
    return draft.number if draft else _next_round_number(tournament)


def registration_check_in(*, registration: Registration, checked_in: bool = True) -> Registration:
    """Mark the player present (or absent again before the first round)."""
    if registration.is_dropped:
        raise WrongState(f"{registration.player.display_name} has dropped out.")
    registration.checked_in = checked_in
    registration.checked_in_at = timezone.now() if checked_in else None
    registration.save(update_fields=["checked_in", "checked_in_at"])
    return registration


def registration_drop(*, registration: Registration) -> Registration:
    """Drop the player after the last confirmed round; their games still count for the others."""
    if registration.is_dropped:
        raise WrongState(f"{registration.player.display_name} has already dropped out.")
    registration.dropped_after_round = _last_played_round(registration.tournament)
    registration.save(update_fields=["dropped_after_round"])
    return registration


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
        raise WrongState(f"{tournament.name} is finished: it takes no more players.")
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
            players = {**existing, **_players_bulk_create(rows, existing, clubs, tournament)}
            return _registrations_bulk_create(tournament, rows, players)
    except IntegrityError:
        raise WrongState(
            "Some of these accounts or registrations were created meanwhile: import again."
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
            problem = _not_a_member(tournament, repr(row.username)).rstrip(".")
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
    """New accounts (no password: they set one with a reset) and their profiles, in bulk."""
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
    late = tournament.status == Tournament.Status.RUNNING and tournament.rounds.exists()
    now = timezone.now()
    first_round = _first_round_open_to(tournament) if late else None
    return Registration.objects.bulk_create(
        [
            Registration(
                tournament=tournament,
                player=players[row.username],
                seed=row.seed,
                checked_in=late,
                checked_in_at=now if late else None,
                late_entry_round=first_round,
            )
            for row in rows
        ]
    )


def _parse_players_csv(text: str, tournament: Tournament) -> list[ImportRow]:
    max_rows, max_bytes = import_limits()
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise TooLarge(
            f"The CSV is {size:,} bytes: one import takes at most {max_bytes:,} bytes "
            f"({max_rows:,} players). Split it and import each part."
        )
    # newline="": the csv module reads line breaks itself, so a quoted field may hold one.
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff"), newline=""))
    try:
        return _parse_rows(reader, tournament, max_rows)
    except csv.Error as exc:
        raise InvalidInput(f"The CSV cannot be read at line {reader.line_num}: {exc}.") from None


def _parse_rows(
    reader: csv.DictReader[str], tournament: Tournament, max_rows: int
) -> list[ImportRow]:
    header = [h.strip() for h in reader.fieldnames or []]
    missing = [c for c in ("display_name", "username") if c not in header]
    if missing:
        raise InvalidInput(
            f"The CSV needs a header line with the columns {', '.join(CSV_COLUMNS)}; "
            f"missing: {', '.join(missing)}."
        )
    rows: list[ImportRow] = []
    errors: list[str] = []
    seen: set[str] = set()
    registered = set(tournament.registrations.values_list("player__user__username", flat=True))
    for count, raw in enumerate(reader, start=1):
        if count > max_rows:
            raise TooLarge(
                f"The CSV has more than {max_rows:,} players: one import takes at most "
                f"{max_rows:,}. Split it and import each part."
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
        raise InvalidInput("The CSV has a header but no players.")
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
    if any(_has_control_characters(v) for v in (name, club, email)):
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


# -- the bridge to the pure pairing layer -----------------------------------------------------
def table_rule(tournament: Tournament) -> pairing.TableRule:
    """The tournament's table sizes as the pure layer's rule."""
    return pairing.TableRule(
        preferred=tournament.table_preferred, allowed=tuple(tournament.table_allowed)
    )


@dataclass(frozen=True)
class PairingInputs:
    """What the pure layer needs to draw round ``number``."""

    entrants: list[pairing.Entrant]
    history: pairing.History
    rule: pairing.TableRule


def _pairing_inputs(tournament: Tournament, number: int) -> PairingInputs:
    """Rows → plain values: active entrants with points, byes, seats; earlier tables."""
    played = selectors.played_rounds(tournament, before=number)
    counts = selectors.seat_counts(played)
    rows = {row.entrant: row for row in selectors.standings_rows(tournament, before=number)}
    byes: dict[int, int] = {}
    for r in played:
        for reg in r.byes:
            byes[reg] = byes.get(reg, 0) + 1
    entrants = [
        pairing.Entrant(
            id=reg.id,
            points=rows[reg.id].points if reg.id in rows else 0.0,
            seed=reg.seed,
            byes=byes.get(reg.id, 0),
            seat_counts=counts.get(reg.id, ()),
        )
        for reg in selectors.active_registrations(tournament, number)
    ]
    return PairingInputs(entrants, selectors.pairing_history(played), table_rule(tournament))


def _draw(tournament: Tournament, fmt: str, number: int, attempt: int) -> pairing.Pairing:
    inputs = _pairing_inputs(tournament, number)
    if not inputs.entrants:
        raise InvalidInput("No player is checked in and still playing: there is no one to pair.")
    try:
        return pairing.pair_round(
            fmt,
            inputs.entrants,
            inputs.history,
            inputs.rule,
            round_number=number,
            seed=f"{tournament.pairing_seed}:{number}:{attempt}",
        )
    except pairing.PairingError as exc:
        raise InvalidInput(str(exc)) from None


def _draw_in_groups(
    tournament: Tournament, stage: Stage, fmt: str, number: int, attempt: int
) -> pairing.Pairing:
    """One draw per group (tables never mix groups), merged into one round."""
    inputs = _pairing_inputs(tournament, number)
    groups = _groups_with_late_entries(stage, [e.id for e in inputs.entrants])
    draws = []
    for name in sorted(set(groups.values())):
        members = [e for e in inputs.entrants if groups[e.id] == name]
        if not members:
            continue
        try:
            draws.append(
                pairing.pair_round(
                    fmt,
                    members,
                    inputs.history,
                    inputs.rule,
                    round_number=number,
                    seed=f"{tournament.pairing_seed}:{number}:{attempt}:{name}",
                )
            )
        except pairing.PairingError as exc:
            raise InvalidInput(f"Group {name}: {exc}") from None
    return _merged(draws)


def _groups_with_late_entries(stage: Stage, entrants: Sequence[int]) -> dict[int, str]:
    """Registration id -> group; a late entrant joins the group with the fewest players."""
    groups = {int(reg): name for reg, name in stage.groups.items()}
    for reg in entrants:
        if reg not in groups:
            sizes = dict.fromkeys(sorted(set(groups.values())), 0)
            for other in entrants:
                if other in groups:
                    sizes[groups[other]] += 1
            groups[reg] = min(sizes, key=lambda name: (sizes[name], name))
    if len(groups) != len(stage.groups):
        stage.groups = {str(reg): name for reg, name in groups.items()}
        stage.save(update_fields=["groups"])
    return groups


def _merged(draws: Sequence[pairing.Pairing]) -> pairing.Pairing:
    """Several groups' draws as one: tables in group order, quality figures combined."""
    tables = tuple(t for d in draws for t in d.tables)
    totals = ("repeat_pairs", "floaters", "tables", "byes")
    quality: dict[str, float] = {
        key: float(sum(d.quality.get(key, 0.0) for d in draws)) for key in totals
    }
    for key in ("max_score_spread", "seat_imbalance"):
        quality[key] = float(max((d.quality.get(key, 0.0) for d in draws), default=0.0))
    weighted = sum(d.quality.get("mean_score_spread", 0.0) * len(d.tables) for d in draws)
    quality["mean_score_spread"] = weighted / len(tables) if tables else 0.0
    return pairing.Pairing(
        tables=tables,
        byes=tuple(b for d in draws for b in d.byes),
        quality=quality,
        warnings=tuple(w for d in draws for w in d.warnings),
    )


def _save_draw(round_: Round, draw: pairing.Pairing) -> None:
    """Plain values → rows: one Table per table (seats in order), one per bye."""
    layout = [(seats, False) for seats in draw.tables] + [((reg,), True) for reg in draw.byes]
    # Two INSERTs whatever the size: tables first (their ids come back), then every seat.
    tables = Table.objects.bulk_create(
        Table(round=round_, number=number, is_bye=is_bye)
        for number, (_, is_bye) in enumerate(layout, start=1)
    )
    TableSeat.objects.bulk_create(
        TableSeat(table=table, seat=seat, registration_id=reg)
        for table, (regs, _) in zip(tables, layout, strict=True)
        for seat, reg in enumerate(regs)
    )


def _table_with_seats(
    round_: Round,
    number: int,
    seats: Sequence[int],
    regs: Mapping[int, Registration],
    *,
    is_bye: bool,
) -> Table:
    table = Table.objects.create(round=round_, number=number, is_bye=is_bye)
    TableSeat.objects.bulk_create(
        TableSeat(table=table, seat=seat, registration=regs[reg]) for seat, reg in enumerate(seats)
    )
    return table


def _rendered(
    warnings: Sequence[pairing.DrawWarning], names: Mapping[int, str]
) -> list[dict[str, Any]]:
    return [{"code": w.code, "table": w.table, "text": w.render(names)} for w in warnings]


# -- rounds ------------------------------------------------------------------------------------
@transaction.atomic
def round_pair_next(
    *, tournament: Tournament, by: AbstractBaseUser | None = None, force: bool = False
) -> Round:
    """Draw the next round as a draft.

    Refused while a draft is open, and — unless ``force`` — while tables of earlier rounds
    have no confirmed result (the refusal names them). ``by`` must run the tournament.
    """
    check_organiser(by, tournament, "pair rounds")
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise WrongState(f"{tournament.name} is finished.")
    draft = tournament.rounds.filter(state=Round.State.DRAFT).first()
    if draft is not None:
        raise WrongState(f"Round {draft.number} is still a draft: confirm it or re-pair it first.")
    missing = selectors.tables_missing_results(tournament)
    if missing and not force:
        raise ResultsMissing(
            f"Results are missing for {_name_tables(missing)}. Pair anyway with force.",
            tables=[t.id for t in missing],
        )
    number = _next_round_number(tournament)
    round_ = _round_drawn(tournament, number, attempt=1, by=by)
    if tournament.status != Tournament.Status.RUNNING:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    return round_


def _name_tables(tables: Sequence[Table]) -> str:
    by_round: dict[int, list[str]] = {}
    for table in tables:
        by_round.setdefault(table.round.number, []).append(str(table.number))
    return "; ".join(
        f"round {number}, table{'s' if len(nums) > 1 else ''} {', '.join(nums)}"
        for number, nums in by_round.items()
    )


def _current_stage(tournament: Tournament) -> Stage:
    stage = tournament.stages.order_by("-order").first()
    if stage is None:
        fmt = tournament.format if tournament.format != Format.STAGES else Format.SWISS
        stage = Stage.objects.create(tournament=tournament, order=1, format=fmt)
    return stage


def _round_drawn(
    tournament: Tournament, number: int, *, attempt: int, by: AbstractBaseUser | None
) -> Round:
    stage = _current_stage(tournament)
    if stage.format in BRACKET_FORMATS:
        return _round_from_bracket(tournament, stage, number, attempt=attempt, by=by)
    fmt = PAIRED_FORMATS.get(Format(stage.format))
    if fmt is None:
        raise InvalidInput(f"The stage {stage.name!r} has no format that pairs rounds.")
    if stage.groups:
        draw = _draw_in_groups(tournament, stage, fmt, number, attempt)
    else:
        draw = _draw(tournament, fmt, number, attempt)
    names = selectors.registration_names(tournament)
    round_ = Round.objects.create(
        tournament=tournament,
        stage=stage,
        number=number,
        attempt=attempt,
        quality={k: float(v) for k, v in draw.quality.items()},
        warnings=_rendered(draw.warnings, names),
        created_by=by if by is not None and by.is_authenticated else None,
    )
    _save_draw(round_, draw)
    return round_


@transaction.atomic
def round_repair(*, round_: Round, by: AbstractBaseUser | None = None) -> Round:
    """Draw the round again; the previous draft stays, marked superseded, for comparison."""
    check_organiser(by, round_.tournament, "pair rounds")
    locked = Round.objects.select_for_update().get(pk=round_.pk)
    if locked.state != Round.State.DRAFT:
        raise WrongState(f"Round {locked.number} is {locked.state}: only a draft can be re-paired.")
    locked.state = Round.State.SUPERSEDED
    locked.save(update_fields=["state"])
    attempt = 1 + max(
        locked.tournament.rounds.filter(number=locked.number).values_list("attempt", flat=True)
    )
    return _round_drawn(locked.tournament, locked.number, attempt=attempt, by=by)


def round_check(*, round_: Round) -> list[dict[str, Any]]:
    """Every rule the round's current tables break, with player names."""
    tournament = round_.tournament
    inputs = _pairing_inputs(tournament, round_.number)
    entrants = inputs.entrants
    if round_.stage.format in BRACKET_FORMATS:
        expected = _bracket_round_entrants(round_)
        entrants = [e for e in entrants if e.id in expected]
    tables, byes = _round_layout(round_)
    warnings = pairing.check_tables(tables, byes, entrants, inputs.history, inputs.rule)
    return _rendered(warnings, selectors.registration_names(tournament))


def _round_layout(round_: Round) -> tuple[list[tuple[int, ...]], list[int]]:
    tables: list[tuple[int, ...]] = []
    byes: list[int] = []
    # Played tables are numbered 1..k before the byes, so the pure layer's table index (its
    # position in ``tables``, empty tables included) is the printed table number.
    for table in round_.tables.order_by("number").prefetch_related("seats"):
        regs = tuple(s.registration_id for s in table.seats.order_by("seat"))
        if table.is_bye:
            byes.extend(regs)
        else:
            tables.append(regs)
    return tables, byes


@dataclass(frozen=True)
class TableEdit:
    """A hand-edited table and every rule the round now breaks, in words."""

    table: Table
    warnings: list[dict[str, Any]]


@transaction.atomic
def table_edit(*, table: Table, registrations: Sequence[int]) -> TableEdit:
    """Seat ``registrations`` (ids, seat 0 first) at a draft table; warn, never refuse, on
    rules the draw then breaks (repeat opponents, second bye, size, seated twice, missing)."""
    round_ = Round.objects.select_for_update().get(pk=table.round_id)
    if round_.state != Round.State.DRAFT:
        raise WrongState(
            f"Round {round_.number} is {round_.state}: tables can be edited only in a draft."
        )
    if len(set(registrations)) != len(registrations):
        raise InvalidInput("A player is listed twice at this table.")
    regs = {reg.id: reg for reg in round_.tournament.registrations.filter(id__in=registrations)}
    unknown = [r for r in registrations if r not in regs]
    if unknown:
        raise InvalidInput(f"Registration {unknown[0]} is not part of this tournament.")
    if table.is_bye and len(registrations) > 1:
        raise InvalidInput("A bye seats one player at most.")
    table.seats.all().delete()
    TableSeat.objects.bulk_create(
        TableSeat(table=table, seat=seat, registration=regs[reg])
        for seat, reg in enumerate(registrations)
    )
    warnings = round_check(round_=round_)
    round_.warnings = warnings
    round_.save(update_fields=["warnings"])
    return TableEdit(table=table, warnings=warnings)


@transaction.atomic
def table_add(*, round_: Round, is_bye: bool = False) -> Table:
    """An empty table (or bye) added to a draft, to be filled with :func:`table_edit`."""
    if round_.state != Round.State.DRAFT:
        raise WrongState(
            f"Round {round_.number} is {round_.state}: tables can be added only to a draft."
        )
    if is_bye:
        number = 1 + max(round_.tables.values_list("number", flat=True), default=0)
        return Table.objects.create(round=round_, number=number, is_bye=True)
    played = round_.tables.filter(is_bye=False).values_list("number", flat=True)
    number = 1 + max(played, default=0)
    for bye in round_.tables.filter(is_bye=True, number__gte=number).order_by("-number"):
        bye.number += 1  # keep played tables numbered 1..k, byes after them
        bye.save(update_fields=["number"])
    return Table.objects.create(round=round_, number=number, is_bye=False)


@transaction.atomic
def round_confirm(*, round_: Round) -> Round:
    """Fix the draft's tables; refused while a player is missing, seated twice or unknown."""
    locked = Round.objects.select_for_update().get(pk=round_.pk)
    if locked.state != Round.State.DRAFT:
        raise WrongState(f"Round {locked.number} is {locked.state}: only a draft can be confirmed.")
    warnings = round_check(round_=locked)
    blocking = [w["text"] for w in warnings if w["code"] in BLOCKING_WARNINGS]
    if blocking:
        raise WrongState("The draft cannot be confirmed: " + " ".join(blocking))
    locked.tables.filter(seats__isnull=True).delete()
    _renumber(locked)
    locked.state = Round.State.CONFIRMED
    locked.confirmed_at = timezone.now()
    locked.warnings = warnings
    locked.save(update_fields=["state", "confirmed_at", "warnings"])
    return locked


def _renumber(round_: Round) -> None:
    """Number the tables 1, 2, 3... again (played tables first, then byes) after empty ones
    were removed. Ascending order only ever moves a table to a free, lower number."""
    for number, table in enumerate(round_.tables.order_by("is_bye", "number"), start=1):
        if table.number != number:
            table.number = number
            table.save(update_fields=["number"])


@transaction.atomic
def round_release(*, round_: Round, by: AbstractBaseUser | None = None) -> Round:
    """Publish a confirmed round to the players and open a game stream per table.

    Only those who run the tournament release it: opening its games is theirs, as opening any
    game is for organisers, arbiters and staff."""
    check_organiser(by, round_.tournament, "release rounds")
    locked = Round.objects.select_for_update().get(pk=round_.pk)
    if locked.state != Round.State.CONFIRMED:
        raise WrongState(
            f"Round {locked.number} is {locked.state}: only a confirmed round can be released."
        )
    locked.state = Round.State.RELEASED
    locked.released_at = timezone.now()
    locked.save(update_fields=["state", "released_at"])
    tables_open_streams(round_=locked, by=by if by is not None and by.is_authenticated else None)
    return locked


def _stream_open_service() -> Any:
    """``events.services.stream_open`` once the event store exists; None before."""
    try:
        from events.services import stream_open  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return None
    return stream_open


def tables_open_streams(*, round_: Round, by: AbstractBaseUser | None = None) -> int:
    """Open a game stream for each played table that has none; the number opened."""
    stream_open = _stream_open_service()
    if stream_open is None:
        log.info("no event store yet: round %s is played on paper", round_.pk)
        return 0
    tournament = round_.tournament
    opened = 0
    for table in round_.tables.filter(is_bye=False, stream_id__isnull=True):
        users = [
            s.registration.player.user
            for s in table.seats.select_related("registration__player__user")
        ]
        try:
            stream = stream_open(
                game_id=tournament.game_id,
                seats=users,
                options=tournament.options,
                edition=tournament.edition or None,
                created_by=by,
                context={"tournament": tournament.pk, "tournament_table": table.pk},
            )
        except EngineError as exc:
            raise InvalidInput(
                f"The game of table {table.number} cannot be opened: {exc}"
            ) from None
        table.stream_id = stream.id
        table.save(update_fields=["stream_id"])
        opened += 1
    return opened


# -- results -----------------------------------------------------------------------------------
def _check_ranks(
    table: Table, ranks: Sequence[int], scores: Sequence[float]
) -> tuple[list[int], list[float]]:
    seats = table.seats.count()
    if table.is_bye:
        raise InvalidInput("A bye has no result to report.")
    if len(ranks) != seats:
        raise InvalidInput(
            f"Table {table.number} has {seats} seats: give one rank per seat, not {len(ranks)}."
        )
    if scores and len(scores) != seats:
        raise InvalidInput(f"Give one score per seat ({seats}), or none.")
    values = [int(r) for r in ranks]
    expected = [1 + sum(1 for other in values if other < r) for r in values]
    if values != expected:
        raise InvalidInput(
            "Ranks must be 1-based with ties sharing a place and the next place skipped "
            f"(e.g. 1, 1, 3); got {', '.join(map(str, values))}."
        )
    return values, [_bounded(s, "Game scores") for s in scores]


def _check_result_round(table: Table) -> None:
    state = table.round.state
    if state not in selectors.LIVE_STATES:
        raise WrongState(
            f"Round {table.round.number} is {state}: results come once it is confirmed."
        )


def _next_version(table: Table) -> int:
    return 1 + max(table.results.values_list("version", flat=True), default=0)


def _seated_users(table: Table) -> set[int]:
    return set(table.seats.values_list("registration__player__user_id", flat=True))


@transaction.atomic
def result_report(
    *, table: Table, by: AbstractBaseUser, ranks: Sequence[int], scores: Sequence[float] = ()
) -> Result:
    """A seated player reports a paper game.

    First report: ``submitted``, waiting for the others. The same result again: a
    confirmation. A different result while one is pending: both become ``conflict`` and the
    organiser decides. After a result is confirmed, only the organiser changes it.
    """
    table = Table.objects.select_for_update().select_related("round").get(pk=table.pk)
    _check_result_round(table)
    if by.pk not in _seated_users(table):
        raise NotAllowed(f"Only the players seated at table {table.number} report its result.")
    values, points = _check_ranks(table, ranks, scores)
    current = table.results.exclude(status=Result.Status.DISCARDED).order_by("-version")
    if current.filter(status=Result.Status.CONFIRMED).exists():
        raise ResultConflict(
            f"Table {table.number} already has a confirmed result; ask the organiser to correct it."
        )
    pending = current.filter(status=Result.Status.SUBMITTED).first()
    if pending is not None and pending.ranks == values and (not points or pending.scores == points):
        return _confirm(pending, by)
    status = Result.Status.CONFLICT if current.exists() else Result.Status.SUBMITTED
    result = Result.objects.create(
        table=table,
        version=_next_version(table),
        status=status,
        source=Result.Source.REPORTED,
        ranks=values,
        scores=points,
        submitted_by=by,
    )
    current.exclude(pk=result.pk).filter(status=Result.Status.SUBMITTED).update(
        status=Result.Status.CONFLICT
    )
    return _confirm(result, by) if status == Result.Status.SUBMITTED else result


@transaction.atomic
def result_confirm(*, result: Result, by: AbstractBaseUser) -> Result:
    """A seated player agrees with a submitted result; once all have, it is confirmed."""
    result = Result.objects.select_for_update().select_related("table__round").get(pk=result.pk)
    if by.pk not in _seated_users(result.table):
        raise NotAllowed(
            f"Only the players seated at table {result.table.number} confirm its result."
        )
    if result.status != Result.Status.SUBMITTED:
        raise WrongState(
            f"This result is {result.status}: only a submitted result can be confirmed."
        )
    return _confirm(result, by)


def _confirm(result: Result, by: AbstractBaseUser) -> Result:
    ResultConfirmation.objects.get_or_create(result=result, user=by)
    agreed = set(result.confirmations.values_list("user_id", flat=True))
    if _seated_users(result.table) <= agreed:
        result.status = Result.Status.CONFIRMED
        result.decided_at = timezone.now()
        result.save(update_fields=["status", "decided_at"])
    return result


@transaction.atomic
def result_enter(
    *,
    table: Table,
    by: AbstractBaseUser | None,
    ranks: Sequence[int],
    scores: Sequence[float] = (),
    source: str = "organiser",
) -> Result:
    """The organiser enters (or corrects, or settles a conflict with) a table's result: a new
    confirmed version; every earlier version is discarded.

    ``by`` runs the tournament, or is an arbiter (their rulings on a game land here)."""
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    if by is not None and not selectors.user_is_arbiter(by):
        check_organiser(by, table.round.tournament, "enter results")
    _check_result_round(table)
    values, points = _check_ranks(table, ranks, scores)
    now = timezone.now()
    decider = by if by is not None and by.is_authenticated else None
    _discard_results(table, decider, now)
    return Result.objects.create(
        table=table,
        version=_next_version(table),
        status=Result.Status.CONFIRMED,
        source=source,
        ranks=values,
        scores=points,
        submitted_by=decider,
        decided_by=decider,
        decided_at=now,
    )


def _discard_results(table: Table, decider: AbstractBaseUser | None, when: Any) -> None:
    table.results.exclude(status=Result.Status.DISCARDED).update(
        status=Result.Status.DISCARDED, decided_by=decider, decided_at=when
    )


@transaction.atomic
def table_results_discard(*, table: Table, by: AbstractBaseUser | None = None) -> None:
    """Stop counting the table's game (an arbiter annulled it): every version is discarded."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    decider = by if by is not None and by.is_authenticated else None
    _discard_results(table, decider, timezone.now())


@transaction.atomic
def table_follow_stream(
    *, table: Table, stream_id: Any, by: AbstractBaseUser | None = None
) -> Table:
    """The table's game is now ``stream_id`` (a replay an arbiter ordered): earlier results no
    longer count, and the new stream's result will."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    decider = by if by is not None and by.is_authenticated else None
    _discard_results(table, decider, timezone.now())
    table.stream_id = stream_id
    table.save(update_fields=["stream_id"])
    return table


def result_from_stream(*, table: Table) -> Result:
    """The result of the game played on Herald, read from the table's finished stream."""
    if table.stream_id is None:
        raise WrongState(f"Table {table.number} has no game stream: report its result instead.")
    stream = selectors.table_stream(table)
    outcome = getattr(stream, "result", None) if stream is not None else None
    if not outcome:
        raise WrongState(f"The game of table {table.number} is not finished yet.")
    existing = table.results.filter(status=Result.Status.CONFIRMED, source=Result.Source.STREAM)
    if existing.filter(ranks=list(outcome["ranks"])).exists():
        return existing.get()
    return result_enter(
        table=table,
        by=None,
        ranks=outcome["ranks"],
        scores=outcome.get("scores") or (),
        source=Result.Source.STREAM,
    )


# -- brackets ----------------------------------------------------------------------------------
# A stage's bracket is rebuilt, never edited: the seeds stored with it, then every confirmed
# result of its tables applied by the pure layer. ``Stage.bracket`` keeps the latest picture
# (``Bracket.to_json()``) for pages to draw.
def _bracket_seeds(tournament: Tournament, number: int) -> list[int]:
    """Active players in seeding order: seeded ones first (1 is strongest), then by entry."""
    regs = selectors.active_registrations(tournament, number)
    return [r.id for r in sorted(regs, key=lambda r: (r.seed == 0, r.seed, r.id))]


def _bracket_build(stage: Stage, seeds: Sequence[int]) -> pairing.Bracket:
    tournament = stage.tournament
    try:
        if stage.format == Format.SINGLE_ELIMINATION:
            return pairing.single_elimination(seeds)
        if stage.format == Format.DOUBLE_ELIMINATION:
            return pairing.double_elimination(seeds)
        size = tournament.table_preferred
        return pairing.knockout(seeds, table_size=size, advance=stage.advance or size // 2)
    except pairing.PairingError as exc:
        raise InvalidInput(str(exc)) from None


def _finishing_order(table: Table, result: Result, advance: int) -> list[int]:
    """Registration ids, best first; refused when a tie straddles the places that go on."""
    seats = [s.registration_id for s in table.seats.order_by("seat")]
    ranked = sorted(zip(result.ranks, seats, strict=True))
    if len(ranked) > advance and ranked[advance - 1][0] == ranked[advance][0]:
        raise InvalidInput(
            f"Table {table.number} of round {table.round.number} is tied at the place that "
            "decides who goes on: the organiser must enter a result without that tie."
        )
    return [reg for _, reg in ranked]


def bracket_current(*, stage: Stage) -> pairing.Bracket | None:
    """The stage's bracket with every confirmed result applied (None for a paired stage)."""
    if stage.format not in BRACKET_FORMATS or not stage.bracket:
        return None
    bracket = _bracket_build(stage, stage.bracket["meta"]["seeds"])
    results: dict[str, list[int]] = {}
    tables = Table.objects.filter(
        round__stage=stage, round__state__in=selectors.LIVE_STATES, is_bye=False
    ).exclude(match_id="")
    for table in tables.select_related("round"):
        result = selectors.table_confirmed_result(table)
        if result is not None:
            advance = bracket.match(table.match_id).advance
            results[table.match_id] = _finishing_order(table, result, advance)
    try:
        return pairing.bracket_advance(bracket, results)
    except pairing.PairingError as exc:
        raise InvalidInput(str(exc)) from None


def _playable(match: pairing.Match) -> bool:
    filled = all(e is not None or i in match.bye_slots for i, e in enumerate(match.slots))
    return filled and match.result is None and not match.is_bye


def _round_from_bracket(
    tournament: Tournament, stage: Stage, number: int, *, attempt: int, by: AbstractBaseUser | None
) -> Round:
    """A round of every bracket match whose entrants are known and that has no table yet."""
    if not stage.bracket:
        stage.bracket = _bracket_build(stage, _bracket_seeds(tournament, number)).to_json()
    bracket = bracket_current(stage=stage)
    if bracket is None:
        raise WrongState(f"The stage {stage.name!r} has no bracket.")
    stage.bracket = bracket.to_json()
    stage.save(update_fields=["bracket"])
    tabled = set(
        Table.objects.filter(round__stage=stage)
        .exclude(round__state=Round.State.SUPERSEDED)
        .values_list("match_id", flat=True)
    )
    ready = [m for m in bracket.matches if _playable(m) and m.id not in tabled]
    if not ready:
        champion = pairing.bracket_champion(bracket)
        names = selectors.registration_names(tournament)
        if champion is not None:
            raise WrongState(f"The bracket is complete: {names[champion]} won it.")
        raise WrongState("No bracket match is ready: the matches left wait for results.")
    round_ = Round.objects.create(
        tournament=tournament,
        stage=stage,
        number=number,
        attempt=attempt,
        quality={"matches": float(len(ready))},
        created_by=by if by is not None and by.is_authenticated else None,
    )
    regs = {reg.id: reg for reg in tournament.registrations.all()}
    for table_number, match in enumerate(ready, start=1):
        table = _table_with_seats(round_, table_number, match.entrants, regs, is_bye=False)
        table.match_id = match.id
        table.save(update_fields=["match_id"])
    return round_


def _bracket_round_entrants(round_: Round) -> set[int]:
    bracket = bracket_current(stage=round_.stage)
    if bracket is None:
        return set()
    ids = round_.tables.exclude(match_id="").values_list("match_id", flat=True)
    return {e for match_id in ids for e in bracket.match(match_id).entrants}


@transaction.atomic
def stage_cut(
    *, tournament: Tournament, top: int, format: str, advance: int | None = None
) -> Stage:
    """End the current stage and send its ``top`` players to a new bracket stage, seeded by
    the standings (the best is seed 1)."""
    if format not in BRACKET_FORMATS:
        raise InvalidInput(
            f"A cut leads to a bracket: choose one of {', '.join(sorted(BRACKET_FORMATS))}."
        )
    if tournament.rounds.filter(state=Round.State.DRAFT).exists():
        raise WrongState("A round is still a draft: confirm it or re-pair it before the cut.")
    missing = selectors.tables_missing_results(tournament)
    if missing:
        raise ResultsMissing(f"Results are missing for {_name_tables(missing)}.")
    active = {
        r.id for r in selectors.active_registrations(tournament, _next_round_number(tournament))
    }
    current = _current_stage(tournament)
    groups = {int(reg): name for reg, name in current.groups.items()} or None
    rows = [
        row
        for row in selectors.standings_rows(tournament)
        if row.entrant in active and (groups is None or row.entrant in groups)
    ]
    try:
        seeds = pairing.cut(rows, top=top, groups=groups)
    except pairing.PairingError as exc:
        raise InvalidInput(str(exc)) from None
    stage = Stage.objects.create(
        tournament=tournament,
        order=current.order + 1,
        name="Playoffs",
        format=format,
        cut_top=top,
        advance=advance,
    )
    stage.bracket = _bracket_build(stage, seeds).to_json()
    stage.save(update_fields=["bracket"])
    return stage


@transaction.atomic
def stage_split_groups(*, tournament: Tournament, groups: int) -> Stage:
    """Deal the checked-in players into ``groups`` groups by snake seeding (before round 1):
    each group is paired on its own, then :func:`stage_cut` takes the best of each group."""
    stage = _current_stage(tournament)
    if stage.rounds.exists():
        raise WrongState(
            f"The stage {stage.name!r} has begun: groups are set before its first round."
        )
    if stage.format not in PAIRED_FORMATS:
        raise InvalidInput("Groups are played as Swiss or round robin, not as a bracket.")
    seeds = _bracket_seeds(tournament, _next_round_number(tournament))
    if groups < 1 or groups > max(1, len(seeds) // tournament.table_preferred):
        raise InvalidInput(
            f"{len(seeds)} checked-in players make at most "
            f"{max(1, len(seeds) // tournament.table_preferred)} groups of "
            f"{tournament.table_preferred}, not {groups}."
        )
    dealt = pairing.split_groups(seeds, groups)
    stage.groups = {
        str(reg): chr(ord("A") + index) for index, members in enumerate(dealt) for reg in members
    }
    stage.save(update_fields=["groups"])
    return stage
