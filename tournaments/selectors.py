"""Reads of the tournaments app: rounds that count, history, standings, printouts, permissions.

The services build on these too; nothing here writes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Exists, Max, Min, OuterRef, Prefetch, Q, QuerySet
from django.utils import formats, timezone
from django.utils.translation import gettext, gettext_lazy

from events.models import Stream
from herald.invitations import invitations_pending
from herald.models import Invitation
from herald.roles import ARBITERS, in_group
from tournaments import games, pairing
from tournaments.errors import InvalidInput
from tournaments.models import (
    Club,
    ClubMembership,
    Format,
    LateEntryAward,
    Player,
    Registration,
    Result,
    ResultEvent,
    Round,
    Season,
    Stage,
    Table,
    TableSeat,
    Tournament,
)
from tournaments.words import ordinal

#: Rounds whose tables count (history, standings, results): confirmed or published.
LIVE_STATES = (Round.State.CONFIRMED, Round.State.RELEASED)
#: Rounds anyone may see: published only. A confirmed round's tables are fixed but stay with
#: the organisers until they publish it (docs/tournaments.md, "A round", step 7).
PUBLIC_STATES = (Round.State.RELEASED,)
AnyUser = Any  # an authenticated user or AnonymousUser (no Django stubs here)


# -- permissions -------------------------------------------------------------------------------
def user_is_staff(user: AnyUser) -> bool:
    """True for an authenticated staff user: staff may do everything a club organiser does."""
    return bool(user.is_authenticated and getattr(user, "is_staff", False))


def club_role(user: AnyUser, club: Club | None) -> str | None:
    """``"member"``, ``"organiser"`` or None: ``user``'s role in ``club``."""
    if club is None or not user.is_authenticated:
        return None
    role: str | None = (
        ClubMembership.objects.filter(club=club, user_id=user.pk)
        .values_list("role", flat=True)
        .first()
    )
    return role


def user_organises_club(user: AnyUser, club: Club | None) -> bool:
    """True for staff and for the organisers of ``club``."""
    return user_is_staff(user) or club_role(user, club) == ClubMembership.Role.ORGANISER


def user_is_organiser(user: AnyUser, tournament: Tournament) -> bool:
    """True for staff and for the organisers of the tournament's club: they run it.

    A tournament with no club is run by staff only. Being listed in ``Tournament.organisers``
    (who created it) is not enough: the role comes from the club, so taking it away stops it.
    """
    return user_organises_club(user, tournament.club)


def user_is_arbiter(user: AnyUser) -> bool:
    """True for the members of the arbiters group (they rule on games, and so on results)."""
    return in_group(user, ARBITERS)


def club_member_ids(club: Club | None, user_ids: Iterable[int]) -> set[int]:
    """Those of ``user_ids`` who belong to ``club`` (as members or organisers)."""
    if club is None:
        return set()
    return set(
        ClubMembership.objects.filter(club=club, user_id__in=list(user_ids)).values_list(
            "user_id", flat=True
        )
    )


def user_seat(user: AnyUser, table: Table) -> int | None:
    """The seat ``user`` holds at ``table``, or None."""
    if not user.is_authenticated:
        return None
    seat = table.seats.filter(registration__player__user_id=user.pk).first()
    return None if seat is None else seat.seat


# -- rounds and tables -------------------------------------------------------------------------
def tournament_rounds(tournament: Tournament) -> QuerySet[Round]:
    """Rounds that are not superseded drafts, in order."""
    return tournament.rounds.exclude(state=Round.State.SUPERSEDED).order_by("number")


def round_live(tournament: Tournament, number: int) -> Round | None:
    """The round with this number (its current draw, not a superseded draft)."""
    return tournament_rounds(tournament).filter(number=number).first()


def round_latest(tournament: Tournament) -> Round | None:
    """The highest-numbered round that is not superseded."""
    return tournament_rounds(tournament).order_by("-number").first()


def round_visible_to(round_: Round, user: AnyUser) -> bool:
    """Whether ``user`` may see ``round_``'s tables: a published round by anyone; a draft, a
    superseded draft or a confirmed round not yet published only by those who run it."""
    return round_.state in PUBLIC_STATES or user_is_organiser(user, round_.tournament)


def rounds_visible_to(tournament: Tournament, user: AnyUser) -> QuerySet[Round]:
    """Every round of ``tournament`` ``user`` may see (only published ones but for its
    organisers)."""
    rounds = tournament.rounds.all()
    if user_is_organiser(user, tournament):
        return rounds
    return rounds.filter(state__in=PUBLIC_STATES)


def round_live_for(tournament: Tournament, number: int, user: AnyUser) -> Round | None:
    """Round ``number`` as ``user`` may see it: None for a round not yet published (a draft,
    a confirmed round) unless they run the tournament."""
    round_ = round_live(tournament, number)
    if round_ is None or not round_visible_to(round_, user):
        return None
    return round_


def round_latest_for(tournament: Tournament, user: AnyUser) -> Round | None:
    """The latest round ``user`` may see."""
    rounds = tournament_rounds(tournament)
    if not user_is_organiser(user, tournament):
        rounds = rounds.filter(state__in=PUBLIC_STATES)
    return rounds.order_by("-number").first()


def round_tables(round_: Round) -> QuerySet[Table]:
    """The round's tables with seats, players and results loaded (byes last)."""
    return round_.tables.order_by("is_bye", "number").prefetch_related(
        Prefetch(
            "seats",
            queryset=TableSeat.objects.select_related("registration__player").order_by("seat"),
        ),
        "results",
    )


def table_confirmed_result(table: Table) -> Result | None:
    """The confirmed version of the table's result, if any."""
    for result in table.results.all():
        if result.status == Result.Status.CONFIRMED:
            return result
    return None


def tables_missing_results(tournament: Tournament) -> list[Table]:
    """Played tables of confirmed or released rounds with no confirmed result yet."""
    return list(
        Table.objects.filter(
            round__tournament=tournament, round__state__in=LIVE_STATES, is_bye=False
        )
        .exclude(results__status=Result.Status.CONFIRMED)
        .select_related("round")
        .order_by("round__number", "number")
    )


def registration_names(tournament: Tournament) -> dict[int, str]:
    """Registration id -> the player's display name."""
    rows = tournament.registrations.values_list("id", "player__display_name")
    return dict(rows)


def active_registrations(tournament: Tournament, round_number: int) -> list[Registration]:
    """Players who take part in ``round_number``: checked in, not dropped, entered by then."""
    regs = tournament.registrations.filter(
        checked_in=True, dropped_after_round__isnull=True, waitlisted=False
    )
    return [
        reg
        for reg in regs.select_related("player").order_by("id")
        if reg.late_entry_round is None or reg.late_entry_round <= round_number
    ]


def table_stream(table: Table) -> Stream | None:
    """The event store's Stream of ``table`` (None when the table has no game stream)."""
    if table.stream_id is None:
        return None
    return Stream.objects.filter(pk=table.stream_id).first()


# -- history and standings ---------------------------------------------------------------------
@dataclass(frozen=True)
class PlayedRound:
    """The tables and byes of one confirmed or released round, as registration ids."""

    number: int
    tables: list[tuple[int, ...]]
    table_ids: list[int]
    byes: list[int]


def played_rounds(tournament: Tournament, *, before: int | None = None) -> list[PlayedRound]:
    """Every confirmed or released round (before round ``before``), seats in order."""
    rounds = tournament.rounds.filter(state__in=LIVE_STATES).order_by("number")
    if before is not None:
        rounds = rounds.filter(number__lt=before)
    seats = (
        TableSeat.objects.filter(table__round__in=rounds)
        .order_by("table__round__number", "table__number", "seat")
        .values_list("table__round__number", "table_id", "table__is_bye", "registration_id")
    )
    by_table: dict[tuple[int, int, bool], list[int]] = defaultdict(list)
    for number, table_id, is_bye, reg in seats:
        by_table[(number, table_id, is_bye)].append(reg)
    played = {r.number: PlayedRound(r.number, [], [], []) for r in rounds}
    for (number, table_id, is_bye), regs in by_table.items():
        if is_bye:
            played[number].byes.extend(regs)
        else:
            played[number].tables.append(tuple(regs))
            played[number].table_ids.append(table_id)
    return list(played.values())


def pairing_history(rounds: Sequence[PlayedRound]) -> pairing.History:
    """The pure layer's History of the played tables."""
    tables = [table for r in rounds for table in r.tables]
    numbers = [r.number for r in rounds for _ in r.tables]
    return pairing.History(tables=tuple(tables), round_numbers=tuple(numbers))


def seat_counts(rounds: Sequence[PlayedRound]) -> dict[int, tuple[int, ...]]:
    """Registration id -> how often it sat in seat 0, 1, 2... over the played tables."""
    width = max((len(t) for r in rounds for t in r.tables), default=0)
    counts: dict[int, list[int]] = defaultdict(lambda: [0] * width)
    for r in rounds:
        for table in r.tables:
            for seat, reg in enumerate(table):
                counts[reg][seat] += 1
    return {reg: tuple(c) for reg, c in counts.items()}


#: Share of the bye points a late entrant earns for each round missed, by award.
LATE_ENTRY_SHARE = {
    LateEntryAward.NOTHING: 0.0,
    LateEntryAward.BYE: 1.0,
    LateEntryAward.HALF_BYE: 0.5,
}


def late_entry_points(tournament: Tournament) -> float:
    """What a late entrant earns for each round played before they entered."""
    return LATE_ENTRY_SHARE[LateEntryAward(tournament.late_entry_award)] * tournament.bye_points


def standing_rule(tournament: Tournament) -> pairing.StandingRule:
    """The tournament's points, bye points, late-entry award and tie-breakers as the pure
    layer's rule."""
    return pairing.StandingRule(
        points_by_rank=tuple(float(p) for p in tournament.points_by_rank),
        bye_points=float(tournament.bye_points),
        tiebreakers=tuple(tournament.tiebreakers),
        late_entry_points=late_entry_points(tournament),
    )


def game_records(tournament: Tournament, *, before: int | None = None) -> list[pairing.GameRecord]:
    """Every counted game (confirmed result) and bye of the played rounds."""
    rounds = played_rounds(tournament, before=before)
    confirmed = {
        r.table_id: r
        for r in Result.objects.filter(
            table__round__tournament=tournament, status=Result.Status.CONFIRMED
        )
    }
    records: list[pairing.GameRecord] = []
    for played in rounds:
        for table, table_id in zip(played.tables, played.table_ids, strict=True):
            result = confirmed.get(table_id)
            if result is None:
                continue
            records.append(
                pairing.GameRecord(
                    table=table,
                    ranks=tuple(result.ranks),
                    scores=tuple(float(s) for s in result.scores),
                    round_number=played.number,
                )
            )
        records.extend(
            pairing.GameRecord(table=(reg,), ranks=(1,), round_number=played.number, bye=True)
            for reg in played.byes
        )
    return records + late_entry_records(tournament, rounds)


def late_entry_records(
    tournament: Tournament, rounds: Sequence[PlayedRound]
) -> list[pairing.GameRecord]:
    """One record per round a late entrant missed, when the tournament awards something.

    With no award there is none, so the standings are exactly what they were without the
    setting. A round where the entrant was seated after all (a hand-edited table) is not missed.
    """
    if tournament.late_entry_award == LateEntryAward.NOTHING:
        return []
    late = tournament.registrations.filter(late_entry_round__isnull=False).values_list(
        "id", "late_entry_round"
    )
    return [
        pairing.GameRecord(table=(reg,), ranks=(1,), round_number=played.number, late_entry=True)
        for reg, first_round in late
        for played in rounds
        if played.number < first_round and not _took_part(reg, played)
    ]


def _took_part(reg: int, played: PlayedRound) -> bool:
    return reg in played.byes or any(reg in table for table in played.tables)


def standings_rows(
    tournament: Tournament, *, before: int | None = None
) -> list[pairing.StandingRow]:
    """The pure standings of every registration that has played or may still play."""
    records = game_records(tournament, before=before)
    entrants = sorted(
        {reg for record in records for reg in record.table}
        | {
            reg.id
            for reg in tournament.registrations.filter(
                dropped_after_round__isnull=True, waitlisted=False
            )
        }
    )
    return pairing.standings(entrants, records, standing_rule(tournament))


@dataclass(frozen=True)
class StandingLine:
    """One line of the printed or served standings."""

    rank: int
    registration: int
    name: str
    club: str
    points: float
    tiebreaks: dict[str, float]
    games: int
    wins: int
    byes: int
    dropped: bool
    group: str = ""
    late_byes: int = 0

    def tiebreak_values(self, names: Sequence[str]) -> list[float]:
        """The tie-breaks in the tournament's order (0 for one not computed)."""
        return [self.tiebreaks.get(name, 0.0) for name in names]


def tournament_standings(
    tournament: Tournament, *, before: int | None = None
) -> list[StandingLine]:
    """The standings with names, clubs and drops, best first (of the rounds before round
    ``before`` when it is given)."""
    regs = {
        reg.id: reg
        for reg in tournament.registrations.select_related("player__club").order_by("id")
    }
    grouped = tournament.stages.exclude(groups={}).order_by("order").first()
    groups = grouped.groups if grouped is not None else {}
    lines = []
    for row in standings_rows(tournament, before=before):
        reg = regs[row.entrant]
        lines.append(
            StandingLine(
                rank=row.rank,
                registration=reg.id,
                name=reg.player.display_name,
                club=reg.player.club.name if reg.player.club else "",
                points=row.points,
                tiebreaks=dict(row.tiebreaks),
                games=row.games,
                wins=row.wins,
                byes=row.byes,
                dropped=reg.is_dropped,
                group=groups.get(str(reg.id), ""),
                late_byes=row.late_byes,
            )
        )
    return lines


def round_first_unpublished(tournament: Tournament) -> int | None:
    """The number of the first round that is confirmed but not yet published (None: none)."""
    first: int | None = (
        tournament.rounds.filter(state=Round.State.CONFIRMED)
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )
    return first


def standings_before_for(tournament: Tournament, user: AnyUser) -> int | None:
    """The round the standings ``user`` sees stop before: a confirmed round's byes count only
    once it is published, except for those who run the tournament (None: every round)."""
    if user_is_organiser(user, tournament):
        return None
    return round_first_unpublished(tournament)


def tournament_standings_for(tournament: Tournament, user: AnyUser) -> list[StandingLine]:
    """The standings as ``user`` may see them (:func:`standings_before_for`)."""
    return tournament_standings(tournament, before=standings_before_for(tournament, user))


# -- a "stages" night: groups, then the cut to a playoff bracket --------------------------------
#: The formats of a bracket stage (what a cut leads to).
BRACKET_STAGE_FORMATS = (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION, Format.KNOCKOUT)


@dataclass(frozen=True)
class StagesProgress:
    """Where a stages tournament stands, for the console: its groups stage (rounds played
    of those planned, groups dealt), whether the groups may still be dealt (before their
    first round), whether the cut is due (the planned rounds played, every result in, no
    draft), and the playoff once the cut is made."""

    groups_stage: Stage
    playoff: Stage | None
    groups: list[str]  # the groups' names ([]: everyone in one group)
    may_split: bool
    played: int
    planned: int | None
    cut_ready: bool
    top: int | None  # the cut the tournament planned (per group, when dealt into groups)
    formats: list[tuple[str, str]]  # the brackets the game can play after the cut
    table_size: int  # a knockout's tables
    advance: int  # of each knockout table, how many go on unless the organiser says
    checked_in: int


def stages_progress(tournament: Tournament) -> StagesProgress | None:
    """A stages tournament's progress (None for every other format)."""
    if tournament.format != Format.STAGES:
        return None
    stages = list(tournament.stages.order_by("order"))
    if not stages:
        return None
    first = stages[0]
    playoff = next((s for s in stages[1:] if s.format in BRACKET_STAGE_FORMATS), None)
    rounds = first.rounds.exclude(state=Round.State.SUPERSEDED)
    played = rounds.filter(state__in=LIVE_STATES).values("number").distinct().count()
    planned = tournament.rounds_planned
    cut_ready = (
        playoff is None
        and played > 0
        and (planned is None or played >= planned)
        and not rounds.filter(state=Round.State.DRAFT).exists()
        and not tables_missing_results(tournament)
    )
    counts = registration_counts(tournament)
    return StagesProgress(
        groups_stage=first,
        playoff=playoff,
        groups=sorted(set(first.groups.values())),
        may_split=playoff is None and not rounds.exists(),
        played=played,
        planned=planned,
        cut_ready=cut_ready,
        top=first.cut_top,
        formats=_cut_formats(tournament),
        table_size=tournament.table_preferred,
        advance=max(1, tournament.table_preferred // 2),
        checked_in=counts.checked_in,
    )


def _cut_formats(tournament: Tournament) -> list[tuple[str, str]]:
    """The brackets a cut may lead to: elimination at tables of 2 when the game seats 2, a
    multiplayer knockout at the tournament's tables when they seat 3 or more."""
    try:
        two = games.game_facts(tournament.game_id).min_players <= 2
    except InvalidInput:  # a game the engine no longer knows: its own table sizes say
        two = min(tournament.table_allowed or [tournament.table_preferred]) <= 2
    labels = dict(Format.choices)
    chosen = [Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION] if two else []
    if tournament.table_preferred >= 3:
        chosen.append(Format.KNOCKOUT)
    return [(str(value), str(labels[value])) for value in chosen]


# -- printouts ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class SeatLine:
    """One seat of a printed table."""

    seat: int
    registration: int
    name: str
    points: float


@dataclass(frozen=True)
class TableLine:
    """One printed table (or bye)."""

    id: int
    number: int
    is_bye: bool
    seats: list[SeatLine]
    result: dict[str, Any] | None
    stream_id: Any = None  # the table's game stream, when it is played on Herald
    on_paper: bool = False  # played with physical cards: results reported, no game stream


def pairings_by_table(round_: Round) -> list[TableLine]:
    """The round's tables in order, with names and points before the round."""
    points = {
        row.entrant: row.points for row in standings_rows(round_.tournament, before=round_.number)
    }
    lines = []
    for table in round_tables(round_):
        result = table_confirmed_result(table)
        seats = [
            SeatLine(
                seat=seat.seat + 1,
                registration=seat.registration_id,
                name=seat.registration.player.display_name,
                points=points.get(seat.registration_id, 0.0),
            )
            for seat in table.seats.all()
        ]
        shown = None if result is None else {"ranks": result.ranks, "scores": result.scores}
        lines.append(
            TableLine(
                table.id, table.number, table.is_bye, seats, shown, table.stream_id, table.on_paper
            )
        )
    return lines


@dataclass(frozen=True)
class NameLine:
    """One line of the alphabetical list: a player, their table and seat."""

    name: str
    table: int | None
    seat: int | None
    is_bye: bool


def pairings_by_name(tables: Iterable[TableLine]) -> list[NameLine]:
    """Everyone seated this round, alphabetically (case-insensitive), with table and seat."""
    lines = [
        NameLine(seat.name, table.number, seat.seat if not table.is_bye else None, table.is_bye)
        for table in tables
        for seat in table.seats
    ]
    return sorted(lines, key=lambda line: (line.name.casefold(), line.name))


# -- lists for the site's pages --------------------------------------------------------------
def club_list() -> QuerySet[Club]:
    """Every club, by name."""
    return Club.objects.order_by("name")


def tournament_list() -> QuerySet[Tournament]:
    """Tournaments, newest first, with their club, ``round_count`` (rounds that are not
    superseded drafts) and ``has_bracket`` (a stage has drawn a bracket) in the same query."""
    drawn = Stage.objects.filter(tournament=OuterRef("pk"), bracket__isnull=False)
    return (
        Tournament.objects.select_related("club")
        .annotate(
            round_count=Count("rounds", filter=~Q(rounds__state=Round.State.SUPERSEDED)),
            has_bracket=Exists(drawn),
        )
        .order_by("-created_at", "-pk")
    )


def tables_by_stream(stream_ids: Iterable[Any]) -> dict[Any, Table]:
    """Stream id -> its table, with round and tournament loaded (for naming a rated game); a
    paper table is found by its report id (``Table.report_id``)."""
    ids = list(stream_ids)
    tables = Table.objects.filter(Q(stream_id__in=ids) | Q(report_id__in=ids)).select_related(
        "round__tournament"
    )
    found: dict[Any, Table] = {}
    for table in tables:
        found[table.report_id if table.stream_id is None else table.stream_id] = table
    return found


def display_names(user_ids: Iterable[int]) -> dict[int, str]:
    """User id -> the player's display name, for users who are players."""
    rows = Player.objects.filter(user_id__in=list(user_ids)).values_list("user_id", "display_name")
    return dict(rows)


@dataclass(frozen=True)
class TournamentGroups:
    """The tournaments of the index pages, in the three groups a visitor looks for."""

    running: list[Tournament]
    upcoming: list[Tournament]
    finished: list[Tournament]


#: Statuses of a tournament that has not started yet (the index's "upcoming").
UPCOMING = (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION)


def tournament_list_dated() -> QuerySet[Tournament]:
    """:func:`tournament_list` with ``first_round_at`` and ``last_round_at``: when its first and
    latest published rounds were confirmed (None before the first)."""
    published = Q(rounds__state__in=LIVE_STATES)
    return tournament_list().annotate(
        first_round_at=Min("rounds__confirmed_at", filter=published),
        last_round_at=Max("rounds__confirmed_at", filter=published),
    )


def tournaments_grouped(tournaments: Iterable[Tournament] | None = None) -> TournamentGroups:
    """Tournaments split into running, upcoming (draft or registration open) and finished,
    each newest first; every tournament when ``tournaments`` is not given (one query)."""
    rows = list(tournament_list_dated() if tournaments is None else tournaments)
    return TournamentGroups(
        running=[t for t in rows if t.status == Tournament.Status.RUNNING],
        upcoming=[t for t in rows if t.status in UPCOMING],
        finished=[t for t in rows if t.status == Tournament.Status.FINISHED],
    )


# -- clubs -------------------------------------------------------------------------------------
def club_list_counted() -> QuerySet[Club]:
    """Every club by name, with ``member_count`` and ``tournament_count``."""
    return Club.objects.annotate(
        member_count=Count("memberships", distinct=True),
        tournament_count=Count("tournaments", distinct=True),
    ).order_by("name")


def club_organiser_names(club: Club) -> list[str]:
    """The names of ``club``'s organisers, as players see them (display name, else username)."""
    memberships = (
        ClubMembership.objects.filter(club=club, role=ClubMembership.Role.ORGANISER)
        .select_related("user__player")
        .order_by("user__username")
    )
    names = []
    for membership in memberships:
        player = getattr(membership.user, "player", None)
        names.append(player.display_name if player else membership.user.get_username())
    return sorted(names, key=str.casefold)


def club_tournaments(club: Club) -> QuerySet[Tournament]:
    """The club's tournaments, newest first, dated like the index's."""
    return tournament_list_dated().filter(club=club)


def user_only_club(user: AnyUser) -> Club | None:
    """The club ``user`` belongs to when they belong to exactly one (the nav's "My club")."""
    if not user.is_authenticated:
        return None
    memberships = list(ClubMembership.objects.filter(user_id=user.pk).select_related("club")[:2])
    return memberships[0].club if len(memberships) == 1 else None


# -- invitations -------------------------------------------------------------------------------
@dataclass(frozen=True)
class InvitationRow:
    """One player of a tournament on the invitations sheet."""

    user_id: int
    username: str
    display_name: str
    email: str
    unclaimed: bool  # the account has no password yet: it is claimed with an invitation
    claimed_at: Any  # when the last invitation was used, if one was
    pending_until: Any  # when the current link expires, if one is usable


def tournament_invitation_rows(tournament: Tournament) -> list[InvitationRow]:
    """The tournament's players by name, with where their account stands (three queries)."""
    registrations = list(
        tournament.registrations.select_related("player__user").order_by("player__display_name")
    )
    user_ids = [reg.player.user_id for reg in registrations]
    pending = invitations_pending(user_ids)
    claimed = dict(
        Invitation.objects.filter(user_id__in=user_ids, used_at__isnull=False)
        .order_by("user_id", "used_at")
        .values_list("user_id", "used_at")
    )
    rows = []
    for reg in registrations:
        user = reg.player.user
        invitation = pending.get(user.pk)
        rows.append(
            InvitationRow(
                user_id=user.pk,
                username=user.get_username(),
                display_name=reg.player.display_name,
                email=user.email,
                unclaimed=not user.has_usable_password(),
                claimed_at=claimed.get(user.pk),
                pending_until=invitation.expires_at if invitation else None,
            )
        )
    return rows


# -- a player's own page ("My Herald") ----------------------------------------------------------
@dataclass(frozen=True)
class MyTable:
    """A table of a released round where the player sits and no result counts yet."""

    tournament_id: int
    tournament_name: str
    game_id: str
    round_number: int
    table_number: int
    seat: int  # 1-based, as printed on the pairings
    opponents: list[str]
    stream_id: Any


def player_current_tables(player: Player) -> list[MyTable]:
    """The player's tables in released rounds of unfinished tournaments with no confirmed result.

    Two queries whatever the number of tables: the player's seats, then every seat of those
    tables (for the opponents' names).
    """
    seats = (
        TableSeat.objects.filter(
            registration__player=player,
            table__round__state=Round.State.RELEASED,
            table__is_bye=False,
        )
        .exclude(table__round__tournament__status=Tournament.Status.FINISHED)
        .exclude(table__results__status=Result.Status.CONFIRMED)
        .select_related("table__round__tournament")
        .prefetch_related(
            Prefetch(
                "table__seats",
                queryset=TableSeat.objects.select_related("registration__player").order_by("seat"),
            )
        )
        .order_by("-table__round__tournament__created_at", "table__round__number")
    )
    return [_my_table(seat) for seat in seats]


def _my_table(mine: TableSeat) -> MyTable:
    table = mine.table
    tournament = table.round.tournament
    return MyTable(
        tournament_id=tournament.pk,
        tournament_name=tournament.name,
        game_id=tournament.game_id,
        round_number=table.round.number,
        table_number=table.number,
        seat=mine.seat + 1,
        opponents=[
            seat.registration.player.display_name
            for seat in table.seats.all()
            if seat.pk != mine.pk
        ],
        stream_id=table.stream_id,
    )


@dataclass(frozen=True)
class MyTournament:
    """A tournament the player is registered in, with their standing when it was worked out."""

    tournament: Tournament
    dropped: bool
    rank: int | None
    points: float | None
    entrants: int | None


#: The standings are worked out (a handful of queries each) for this many of the player's
#: started tournaments, newest first: the page's cost does not grow with a long history.
MY_STANDINGS_LIMIT = 3
STARTED = (Tournament.Status.RUNNING, Tournament.Status.FINISHED)


def player_tournaments(player: Player) -> list[MyTournament]:
    """The player's tournaments, newest first, with rank and points in the started ones.

    Standings cost a few queries per tournament, so only the ``MY_STANDINGS_LIMIT`` newest
    running or finished tournaments get them; the others link to their standings page.
    """
    registrations = (
        Registration.objects.filter(player=player)
        .select_related("tournament__club")
        .order_by("-tournament__created_at", "-tournament_id")
    )
    lines = []
    budget = MY_STANDINGS_LIMIT
    for registration in registrations:
        tournament = registration.tournament
        rank = points = entrants = None
        if tournament.status in STARTED and budget > 0:
            budget -= 1
            rows = standings_rows(tournament)
            mine = next((row for row in rows if row.entrant == registration.pk), None)
            if mine is not None:
                rank, points, entrants = mine.rank, mine.points, len(rows)
        lines.append(MyTournament(tournament, registration.is_dropped, rank, points, entrants))
    return lines


# -- registration and check-in (the console's setup part) -----------------------------------
@dataclass(frozen=True)
class CheckInWindow:
    """Whether players may check themselves in now, and the sentence that says when."""

    open: bool
    sentence: str


def _when(moment: Any) -> str:
    return str(formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT"))


def check_in_window(tournament: Tournament, now: Any = None) -> CheckInWindow:
    """The check-in window of ``tournament`` at ``now``: open from ``check_in_opens_at``
    (empty: already) until ``check_in_closes_at`` (empty: until the end)."""
    now = now or timezone.now()
    opens, closes = tournament.check_in_opens_at, tournament.check_in_closes_at
    if opens is not None and now < opens:
        return CheckInWindow(False, gettext("Check-in opens on {when}.").format(when=_when(opens)))
    if closes is not None and now >= closes:
        return CheckInWindow(
            False,
            gettext("Check-in closed on {when}: ask the organisers at the desk.").format(
                when=_when(closes)
            ),
        )
    if closes is not None:
        return CheckInWindow(
            True, gettext("Check-in is open until {when}.").format(when=_when(closes))
        )
    return CheckInWindow(True, gettext("Check-in is open."))


@dataclass(frozen=True)
class LateEntry:
    """What a player entered now gets: the round they start in and the points for the
    rounds they missed (the tournament's late-entry award), or None before any round."""

    first_round: int
    rounds_missed: int
    points: float


def late_entry_now(tournament: Tournament) -> LateEntry | None:
    """What a player registered now would get, once the tournament runs (None before)."""
    if tournament.status != Tournament.Status.RUNNING or not tournament.rounds.exists():
        return None
    draft = tournament.rounds.filter(state=Round.State.DRAFT).order_by("number").first()
    latest = round_latest(tournament)
    first = draft.number if draft else (latest.number + 1 if latest else 1)
    missed = first - 1
    return LateEntry(first, missed, missed * late_entry_points(tournament))


def registration_rows(tournament: Tournament) -> list[Registration]:
    """The console's list: registered players by name, then the waitlist in its order."""
    regs = list(
        tournament.registrations.select_related("player__user").order_by(
            "player__display_name", "id"
        )
    )
    playing = [r for r in regs if not r.waitlisted]
    waiting = sorted((r for r in regs if r.waitlisted), key=lambda r: (r.created_at, r.id))
    return playing + waiting


@dataclass(frozen=True)
class RegistrationCounts:
    registered: int
    checked_in: int
    waitlisted: int
    dropped: int


def registration_counts(tournament: Tournament) -> RegistrationCounts:
    """How many are in (not dropped or waitlisted), checked in, on the waitlist, dropped."""
    counts = tournament.registrations.aggregate(
        registered=Count("id", filter=Q(waitlisted=False, dropped_after_round__isnull=True)),
        checked_in=Count(
            "id",
            filter=Q(waitlisted=False, dropped_after_round__isnull=True, checked_in=True),
        ),
        waitlisted=Count("id", filter=Q(waitlisted=True, dropped_after_round__isnull=True)),
        dropped=Count("id", filter=Q(dropped_after_round__isnull=False)),
    )
    return RegistrationCounts(**counts)


def user_registration(user: AnyUser, tournament: Tournament) -> Registration | None:
    """``user``'s registration in ``tournament``, if any."""
    if not user.is_authenticated:
        return None
    return tournament.registrations.filter(player__user_id=user.pk).first()


def club_members_to_register(tournament: Tournament) -> list[Player]:
    """The club's players not yet registered in ``tournament``, by name (the add form)."""
    if tournament.club is None:
        return []
    registered = tournament.registrations.values("player_id")
    members = ClubMembership.objects.filter(club=tournament.club).values("user_id")
    return list(
        Player.objects.filter(user_id__in=members)
        .exclude(pk__in=registered)
        .select_related("user")
        .order_by("display_name")
    )


def clubs_organised(user: AnyUser) -> list[Club]:
    """The clubs whose tournaments ``user`` may create (staff: every club)."""
    if not user.is_authenticated:
        return []
    if user_is_staff(user):
        return list(Club.objects.order_by("name"))
    return list(
        Club.objects.filter(
            memberships__user_id=user.pk, memberships__role=ClubMembership.Role.ORGANISER
        ).order_by("name")
    )


# -- seasons -----------------------------------------------------------------------------------
def club_seasons(club: Club) -> QuerySet[Season]:
    """The club's seasons, the latest first."""
    return Season.objects.filter(club=club).order_by("-starts_on", "-created_at", "name")


def tournament_day(tournament: Tournament) -> Any:
    """The day a tournament was played: its first published round's, else its creation's
    (``tournament`` from :func:`tournament_list_dated`)."""
    when = getattr(tournament, "first_round_at", None) or tournament.created_at
    return when.date()


def season_tournaments(season: Season) -> list[Tournament]:
    """The season's finished tournaments, oldest first: those it lists, else the club's
    finished tournaments played between its dates (either may be open)."""
    listed = set(season.tournaments.values_list("pk", flat=True))
    finished = tournament_list_dated().filter(club=season.club, status=Tournament.Status.FINISHED)
    chosen = []
    for tournament in finished:
        day = tournament_day(tournament)
        if listed:
            keep = tournament.pk in listed
        else:
            keep = (season.starts_on is None or season.starts_on <= day) and (
                season.ends_on is None or day <= season.ends_on
            )
        if keep:
            chosen.append(tournament)
    return sorted(chosen, key=lambda t: (tournament_day(t), t.pk))


@dataclass(frozen=True)
class SeasonCell:
    """What one tournament gave a player: place and points (None: did not play it)."""

    place: int
    points: float

    @property
    def place_words(self) -> str:
        """ "1st", "2nd" in the viewer's language."""
        return ordinal(self.place)


@dataclass(frozen=True)
class SeasonLine:
    """A player's line of a season's ranking, ``cells`` in the order of the tournaments."""

    rank: int
    player: int
    name: str
    points: float
    played: int
    best: int
    cells: list[SeasonCell | None]

    @property
    def best_words(self) -> str:
        return ordinal(self.best)


@dataclass(frozen=True)
class SeasonStanding:
    """A season's ranking and the tournaments it counts, oldest first."""

    tournaments: list[Tournament]
    lines: list[SeasonLine]


def season_standing(season: Season) -> SeasonStanding:
    """The club's players ranked over ``season`` from each tournament's final standings."""
    tournaments = season_tournaments(season)
    finals = []
    for tournament in tournaments:
        player_of = dict(tournament.registrations.values_list("id", "player_id"))
        places = {
            player_of[line.registration]: line.rank for line in tournament_standings(tournament)
        }
        finals.append(pairing.SeasonTournament(tournament.pk, places))
    rows = pairing.season_ranking(finals, season.points_by_place, season.tie_rule)
    names = dict(
        Player.objects.filter(pk__in=[r.player for r in rows]).values_list("pk", "display_name")
    )
    order = [t.pk for t in tournaments]
    lines = []
    for row in rows:
        by_tournament = {e.tournament: SeasonCell(e.place, e.points) for e in row.entries}
        lines.append(
            SeasonLine(
                rank=row.rank,
                player=row.player,
                name=names.get(row.player, "—"),
                points=row.points,
                played=row.played,
                best=row.best,
                cells=[by_tournament.get(pk) for pk in order],
            )
        )
    return SeasonStanding(tournaments=tournaments, lines=lines)


# -- a table's result, as the report page and the console show it -------------------------------
@dataclass(frozen=True)
class TableResultState:
    """Where a table's result stands: ``waiting`` (nothing reported), ``reported`` (waiting
    for confirmations), ``confirmed``, or ``disagreement`` (the organiser decides)."""

    table: Table
    state: str
    current: Result | None  # the confirmed one, or the report waiting for confirmations
    disputed: list[Result]  # the versions in conflict, newest first
    agreed: frozenset[int]  # user ids that agreed with ``current`` (a report)
    events: list[ResultEvent]

    @property
    def label(self) -> str:
        return str(RESULT_STATE_LABELS[self.state])


RESULT_STATE_LABELS = {
    "waiting": gettext_lazy("waiting"),
    "reported": gettext_lazy("reported"),
    "confirmed": gettext_lazy("confirmed"),
    "disagreement": gettext_lazy("disagreement"),
}


def table_result_state(table: Table) -> TableResultState:
    """The table's result: its state, its current version, what disputes it, its stream."""
    results = list(table.results.exclude(status=Result.Status.DISCARDED).order_by("-version"))
    events = list(table.result_events.select_related("by", "result").order_by("seq"))
    confirmed = next((r for r in results if r.status == Result.Status.CONFIRMED), None)
    disputed = [r for r in results if r.status == Result.Status.CONFLICT]
    pending = next((r for r in results if r.status == Result.Status.SUBMITTED), None)
    if confirmed is not None:
        state, current = "confirmed", confirmed
    elif disputed:
        state, current = "disagreement", None
    elif pending is not None:
        state, current = "reported", pending
    else:
        state, current = "waiting", None
    agreed = (
        frozenset(current.confirmations.values_list("user_id", flat=True))
        if current is not None and state == "reported"
        else frozenset()
    )
    return TableResultState(table, state, current, disputed, agreed, events)


def round_result_states(round_: Round) -> list[TableResultState]:
    """Every played table of ``round_`` with where its result stands, by table number."""
    return [table_result_state(t) for t in round_tables(round_).filter(is_bye=False)]
