"""What a ruling would change, worked out before the arbiter confirms it: nothing is written.

Two reads, each done twice in memory, as the game counts now and as it would count after the
ruling, and compared:

- the tournament's standings: the pure standings (``tournaments.pairing.standings``) over the
  tournament's counted games, the disputed table's result replaced, dropped or put back;
- the pool's ratings: TrueSkill (``ratings.rating.rate_ranks``, the function the pool rates
  with) over the pool's counted games from the disputed one on, from everyone's rating just
  before it, which is what the recompute job will do.

The rows shown are those that move, and the disputed table's players in any case.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.db.models import Q, QuerySet

from events.models import Stream
from ratings.models import Dispute, RatedGame, RatingChange, RatingPool
from ratings.rating import Skill, rate_ranks
from ratings.selectors import stream_outcome
from tournaments import pairing
from tournaments import selectors as tournaments
from tournaments.models import Table

#: Rating differences below this are rounding, not a change a person should read.
EPSILON = 1e-9


@dataclass(frozen=True)
class CountedAs:
    """How the disputed game counts: with these ranks (and scores), or not at all."""

    counts: bool
    ranks: tuple[int, ...] = ()
    scores: tuple[float, ...] = ()


@dataclass(frozen=True)
class StandingMove:
    """One entrant's line of the standings, now and after the ruling."""

    name: str
    at_table: bool
    rank_now: int
    rank_after: int
    points_now: float
    points_after: float

    @property
    def moved(self) -> bool:
        return (
            self.rank_now != self.rank_after or abs(self.points_now - self.points_after) > EPSILON
        )


@dataclass(frozen=True)
class RatingMove:
    """One player's rating (μ − 3σ) in the pool, now and after the ruling and the recompute."""

    name: str
    at_table: bool
    now: float
    after: float

    @property
    def delta(self) -> float:
        return self.after - self.now

    @property
    def moved(self) -> bool:
        return abs(self.delta) > EPSILON


@dataclass(frozen=True)
class Consequences:
    """Everything the preview shows; a ``*_note`` says why a part is empty (no tournament...)."""

    now: CountedAs
    after: CountedAs
    tournament_name: str
    standings: list[StandingMove]
    standings_note: str
    ratings: list[RatingMove]
    ratings_note: str
    games_rerated: int


# -- how the game counts after the ruling ---------------------------------------------------------


def counted_after(now: CountedAs, *, ruling: str, ranks: Sequence[int] | None) -> CountedAs:
    """How the game would count after ``ruling``, as ``ratings.selectors.stream_outcome`` reads
    the ruling once it is an event: upheld counts as now (again, if it was annulled), amended
    counts with the new ranks and no scores, annulled or replayed does not count.

    >>> counted_after(CountedAs(True, (1, 2)), ruling="amend", ranks=[2, 1])
    CountedAs(counts=True, ranks=(2, 1), scores=())
    >>> counted_after(CountedAs(True, (1, 2)), ruling="annul", ranks=None).counts
    False
    """
    if ruling == Dispute.Ruling.UPHOLD:
        return CountedAs(bool(now.ranks), now.ranks, now.scores)
    if ruling == Dispute.Ruling.AMEND and ranks is not None:
        return CountedAs(True, tuple(ranks))
    return CountedAs(False)


def counted_now(stream: Stream) -> CountedAs:
    """How the game counts now, after the rulings already made on it."""
    outcome = stream_outcome(stream=stream)
    if not outcome.counts or outcome.ranks is None:
        return CountedAs(False, tuple(outcome.ranks or ()), tuple(outcome.scores or ()))
    return CountedAs(True, tuple(outcome.ranks), tuple(outcome.scores or ()))


def ruling_consequences(
    *, dispute: Dispute, ruling: str, ranks: Sequence[int] | None = None
) -> Consequences:
    """The standings rows and ratings that ``ruling`` on ``dispute`` would move (no write).

    ``ranks`` are the checked ranks of an "amend" ruling (``ratings.disputes.check_ruling``).
    """
    stream = Stream.objects.get(pk=dispute.stream_id)
    now = counted_now(stream)
    after = counted_after(now, ruling=ruling, ranks=ranks)
    names = _seat_names(stream)
    table = Table.objects.filter(stream_id=stream.pk).select_related("round__tournament").first()
    standings, standings_note = _standings_moves(table, stream, after)
    rated = RatedGame.objects.filter(stream_id=stream.pk).select_related("pool").first()
    rating_moves, rerated, ratings_note = _rating_moves(rated, after, names)
    return Consequences(
        now=now,
        after=after,
        tournament_name="" if table is None else table.round.tournament.name,
        standings=standings,
        standings_note=standings_note,
        ratings=rating_moves,
        ratings_note=ratings_note,
        games_rerated=rerated,
    )


def _seat_names(stream: Stream) -> dict[int, str]:
    """The seated users' names by user id: display name, else username."""
    seats = stream.seats.select_related("user")
    usernames = {seat.user_id: seat.user.get_username() for seat in seats}
    return {**usernames, **tournaments.display_names(usernames)}


# -- standings ------------------------------------------------------------------------------------


def _standings_moves(
    table: Table | None, stream: Stream, after: CountedAs
) -> tuple[list[StandingMove], str]:
    if table is None:
        return [], "no-tournament"
    tournament = table.round.tournament
    rows_now = tournaments.standings_rows(tournament)
    regs = tuple(table.seats.order_by("seat").values_list("registration_id", flat=True))
    records = _records_with(
        tournaments.game_records(tournament),
        table=regs,
        round_number=table.round.number,
        counted=_with_stream_scores(after, stream),
    )
    entrants = sorted({row.entrant for row in rows_now} | {e for r in records for e in r.table})
    rows_after = pairing.standings(entrants, records, tournaments.standing_rule(tournament))
    names = dict(
        tournament.registrations.select_related("player").values_list("id", "player__display_name")
    )
    moves = _compare_standings(rows_now, rows_after, names, set(regs))
    return moves, ""


def _with_stream_scores(after: CountedAs, stream: Stream) -> CountedAs:
    """The tournament takes the game's own scores when the ranks are the game's own (the
    table's result is then read from the stream), none with an arbiter's ranks."""
    result = stream.result or {}
    if after.counts and list(after.ranks) == list(result.get("ranks", [])):
        return CountedAs(True, after.ranks, tuple(float(s) for s in result.get("scores") or ()))
    return after


def _records_with(
    records: Sequence[pairing.GameRecord],
    *,
    table: tuple[int, ...],
    round_number: int,
    counted: CountedAs,
) -> list[pairing.GameRecord]:
    """``records`` with the disputed table's game as ``counted`` (replaced, dropped or added).

    A table is the same game when it is in the same round with the same entrants in the same
    seats: a round seats each entrant once.
    """
    kept = [
        record
        for record in records
        if record.bye
        or record.late_entry
        or (record.round_number, record.table) != (round_number, table)
    ]
    if counted.counts:
        kept.append(
            pairing.GameRecord(
                table=table, ranks=counted.ranks, scores=counted.scores, round_number=round_number
            )
        )
    return kept


def _compare_standings(
    rows_now: Iterable[pairing.StandingRow],
    rows_after: Iterable[pairing.StandingRow],
    names: Mapping[int, str],
    at_table: set[int],
) -> list[StandingMove]:
    before = {row.entrant: row for row in rows_now}
    moves = []
    for row in rows_after:
        old = before.get(row.entrant)
        move = StandingMove(
            name=names.get(row.entrant, str(row.entrant)),
            at_table=row.entrant in at_table,
            rank_now=old.rank if old else row.rank,
            rank_after=row.rank,
            points_now=old.points if old else 0.0,
            points_after=row.points,
        )
        if move.moved or move.at_table:
            moves.append(move)
    return moves


# -- ratings --------------------------------------------------------------------------------------


def _at_or_after(game: RatedGame) -> Q:
    """The pool's games at or after ``game`` in completion order (the order it rates in)."""
    return Q(completed_at__gt=game.completed_at) | Q(
        completed_at=game.completed_at, stream_id__gte=game.stream_id
    )


def _rating_moves(
    rated: RatedGame | None, after: CountedAs, seat_names: Mapping[int, str]
) -> tuple[list[RatingMove], int, str]:
    if rated is None:
        return [], 0, "not-rated"
    pool = rated.pool
    later = list(pool.games.filter(_at_or_after(rated)).order_by("completed_at", "stream_id"))
    players = {player for game in later for player in game.players}
    start = skills_before(pool, rated, players)
    history_now = [
        (game.players, game.ranks) for game in later if game.status != RatedGame.Status.EXCLUDED
    ]
    history_after = [
        (game.players, list(after.ranks) if after.counts else None)
        if game.stream_id == rated.stream_id
        else (game.players, game.ranks if game.status != RatedGame.Status.EXCLUDED else None)
        for game in later
    ]
    prior = Skill(pool.mu, pool.sigma)
    skills_now = rate_in_order(pool, start, history_now, prior=prior)
    skills_after = rate_in_order(
        pool, start, [(p, r) for p, r in history_after if r is not None], prior=prior
    )
    names = tournaments.display_names(players)
    table = set(rated.players)
    moves = [
        RatingMove(
            name=names.get(player) or seat_names.get(player) or str(player),
            at_table=player in table,
            now=_conservative(skills_now.get(player, prior)),
            after=_conservative(skills_after.get(player, prior)),
        )
        for player in sorted(players)
    ]
    shown = [move for move in moves if move.moved or move.at_table]
    shown.sort(key=lambda move: (not move.at_table, -abs(move.delta), move.name))
    counted = sum(1 for _, ranks in history_after if ranks is not None)
    return shown, counted, ""


def skills_before(pool: RatingPool, game: RatedGame, players: Iterable[int]) -> dict[int, Skill]:
    """Each of ``players``' skill just before ``game``: the ``after`` of their last current
    change in an earlier game of the pool (players with none start at the pool's prior)."""
    earlier: QuerySet[RatedGame] = pool.games.exclude(_at_or_after(game))
    changes = (
        RatingChange.objects.filter(
            pool=pool, current=True, game__in=earlier, player_id__in=list(players)
        )
        .order_by("player_id", "sequence")
        .values_list("player_id", "mu_after", "sigma_after")
    )
    return {player: Skill(mu, sigma) for player, mu, sigma in changes}


def rate_in_order(
    pool: RatingPool,
    start: Mapping[int, Skill],
    games: Iterable[tuple[Sequence[int], Sequence[int]]],
    *,
    prior: Skill,
) -> dict[int, Skill]:
    """Skills after rating ``games`` (players in seat order, ranks) one by one from ``start``,
    in memory, as the pool rates them (a player's first game starts from ``prior``)."""
    skills = dict(start)
    for players, ranks in games:
        before = [skills.get(player, prior) for player in players]
        for player, skill in zip(players, rate_ranks(pool.params, before, ranks), strict=True):
            skills[player] = skill
    return skills


def _conservative(skill: Skill) -> float:
    return skill.mu - 3 * skill.sigma
