"""Reads of the arbiter's desk and of the players' dispute lines: a dispute named by its game.

A dispute holds a stream id; a person knows a game by its name, tournament, round, table and
players. These reads put the two together in a bounded number of queries, say who may do
what on a dispute (asking the services' own checks), and put a ruling in words.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count
from django.urls import reverse
from django.utils.translation import gettext, ngettext, pgettext

import engine
from events.models import Event, EventType, Stream, StreamSeat
from events.selectors import describe_event
from herald.roles import is_privileged
from ratings.disputes import (
    DisputeError,
    check_may_rule,
    dispute_open_refusal,
    dispute_window_ends,
    moves_played,
)
from ratings.models import Dispute, DisputeStatement, RecomputeJob
from tournaments import selectors as tournaments
from tournaments.models import Table


def game_name(game_id: str) -> str:
    """The game's name as its engine gives it (the id for a game no engine knows)."""
    return next((game.name for game in engine.games() if game.id == game_id), game_id)


@dataclass(frozen=True)
class SeatName:
    """One seat of a disputed game: counted from 1, the player, their rank in the result."""

    index: int  # 0-based, as the services count seats
    user_id: int
    name: str
    rank: int | None

    @property
    def number(self) -> int:
        return self.index + 1


@dataclass(frozen=True)
class DisputedGame:
    """A game as a person knows it: name, where it was played, who sat where."""

    stream_id: uuid.UUID
    game_name: str
    finished_at: dt.datetime | None
    seats: list[SeatName]
    tournament_id: int | None = None
    tournament_name: str = ""
    round_number: int | None = None
    table_number: int | None = None

    @property
    def player_names(self) -> list[str]:
        return [seat.name for seat in self.seats]


def disputed_games(stream_ids: Iterable[uuid.UUID]) -> dict[uuid.UUID, DisputedGame]:
    """Stream id -> its game named, in four queries whatever the number of streams."""
    wanted = set(stream_ids)
    streams = Stream.objects.filter(pk__in=wanted).only("pk", "game", "finished_at", "result")
    seats = list(
        StreamSeat.objects.filter(stream_id__in=wanted).select_related("user").order_by("seat")
    )
    names = tournaments.display_names(seat.user_id for seat in seats)
    tables = tournaments.tables_by_stream(wanted)
    by_stream: dict[uuid.UUID, list[StreamSeat]] = {}
    for seat in seats:
        by_stream.setdefault(seat.stream_id, []).append(seat)
    return {
        stream.pk: _disputed_game(
            stream, by_stream.get(stream.pk, []), names, tables.get(stream.pk)
        )
        for stream in streams
    }


def _disputed_game(
    stream: Stream, seats: list[StreamSeat], names: dict[int, str], table: Table | None
) -> DisputedGame:
    ranks = list((stream.result or {}).get("ranks") or [])
    lines = [
        SeatName(
            index=seat.seat,
            user_id=seat.user_id,
            name=names.get(seat.user_id) or seat.user.get_username(),
            rank=ranks[seat.seat] if seat.seat < len(ranks) else None,
        )
        for seat in seats
    ]
    game = DisputedGame(stream.pk, game_name(stream.game), stream.finished_at, lines)
    if table is None:
        return game
    return DisputedGame(
        game.stream_id,
        game.game_name,
        game.finished_at,
        lines,
        table.round.tournament_id,
        table.round.tournament.name,
        table.round.number,
        table.number,
    )


def unknown_game(stream_id: uuid.UUID) -> DisputedGame:
    """A dispute's game whose stream is gone (it never should be): named by its id."""
    return DisputedGame(stream_id, str(stream_id)[:8], None, [])


# -- the arbiter's list ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DisputeLine:
    """One dispute of the arbiter's list, its game named."""

    dispute: Dispute
    game: DisputedGame
    opened_by: str  # a name, or "" when verification opened it


def dispute_desk(*, status: str) -> list[DisputeLine]:
    """The open disputes, oldest first (the first waiting is the first to rule), or the ruled
    ones, most recently ruled first; each with its game named."""
    disputes = Dispute.objects.filter(status=status).select_related("opened_by")
    if status == Dispute.Status.OPEN:
        disputes = disputes.order_by("opened_at", "pk")
    else:
        disputes = disputes.order_by("-ruled_at", "-pk")
    found = list(disputes[:200])
    games = disputed_games(d.stream_id for d in found)
    names = tournaments.display_names(d.opened_by_id for d in found if d.opened_by_id)
    return [
        DisputeLine(
            dispute,
            games.get(dispute.stream_id) or unknown_game(dispute.stream_id),
            _opener_name(dispute, names),
        )
        for dispute in found
    ]


def _opener_name(dispute: Dispute, names: dict[int, str]) -> str:
    if dispute.opened_by is None:
        return ""
    return names.get(dispute.opened_by.pk) or dispute.opened_by.get_username()


def dispute_counts() -> dict[str, int]:
    """How many disputes are open and ruled (the list's tabs), in one query."""
    counts = dict.fromkeys(Dispute.Status.values, 0)
    rows = Dispute.objects.order_by().values_list("status").annotate(n=Count("pk"))
    counts.update(dict(rows))
    return counts


# -- one dispute ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Statement:
    """One side of the dispute: the opener's reason, or another seated player's statement."""

    name: str
    text: str
    made_at: dt.datetime
    opener: bool


@dataclass(frozen=True)
class DisputePage:
    """What the dispute's page shows ``viewer`` and what it lets them do."""

    dispute: Dispute
    game: DisputedGame
    opened_by: str
    statements: list[Statement]
    moves: int
    move_words: str  # the disputed move in words, "" when the dispute names none
    privileged: bool  # an arbiter or staff member: the desk is theirs
    may_rule: bool
    rule_refusal: str  # why the viewer may not rule, for an arbiter seated in the game
    may_state: bool
    ruling_words: str
    job: RecomputeJob | None
    replay_url: str


def dispute_for(*, dispute_id: int, user: Any) -> Dispute | None:
    """The dispute if ``user`` may read it: arbiters and staff, and the game's seated players
    (they state their side and read the ruling). None otherwise: its existence is not told."""
    dispute = Dispute.objects.filter(pk=dispute_id).select_related("opened_by", "recompute").first()
    if dispute is None:
        return None
    if is_privileged(user):
        return dispute
    seated = StreamSeat.objects.filter(stream_id=dispute.stream_id, user_id=user.pk).exists()
    return dispute if seated else None


def dispute_page(*, dispute: Dispute, user: Any) -> DisputePage:
    """The dispute named by its game, its statements, the disputed move in words, and what
    ``user`` may do: rule (the services' ``check_may_rule``) or add a statement."""
    game = disputed_games([dispute.stream_id]).get(dispute.stream_id) or unknown_game(
        dispute.stream_id
    )
    statements = list(DisputeStatement.objects.filter(dispute=dispute).select_related("author"))
    names = tournaments.display_names(
        [s.author_id for s in statements] + ([dispute.opened_by_id] if dispute.opened_by_id else [])
    )
    opener = _opener_name(dispute, names)
    sides = [
        Statement(opener or gettext("the verification"), dispute.reason, dispute.opened_at, True)
    ]
    sides += [
        Statement(names.get(s.author_id) or s.author.get_username(), s.text, s.made_at, False)
        for s in statements
    ]
    refusal = _rule_refusal(user, dispute)
    authors = {s.author_id for s in statements}
    return DisputePage(
        dispute=dispute,
        game=game,
        opened_by=opener,
        statements=sides,
        moves=moves_played(dispute.stream_id),
        move_words=_move_words(dispute, game),
        privileged=is_privileged(user),
        may_rule=is_privileged(user) and not refusal and dispute.status == Dispute.Status.OPEN,
        rule_refusal=refusal,
        may_state=_may_state(dispute, user, game, authors),
        ruling_words=ruling_words(dispute, game) if dispute.ruling else "",
        job=dispute.recompute,
        replay_url=replay_url(dispute.stream_id, dispute.move),
    )


def _rule_refusal(user: Any, dispute: Dispute) -> str:
    """The services' refusal of ``user`` ruling on ``dispute``, in words ("" when they may)."""
    try:
        check_may_rule(user, dispute)
    except DisputeError as refusal:
        return refusal.detail
    return ""


def _may_state(dispute: Dispute, user: Any, game: DisputedGame, authors: set[int]) -> bool:
    return (
        dispute.status == Dispute.Status.OPEN
        and dispute.opened_by_id != user.pk
        and user.pk not in authors
        and any(seat.user_id == user.pk for seat in game.seats)
    )


def _move_words(dispute: Dispute, game: DisputedGame) -> str:
    """The disputed move in words with the players' names (the game is over: every move is
    public by then, and only finished games are disputed)."""
    if not dispute.move:
        return ""
    event = (
        Event.objects.filter(stream_id=dispute.stream_id, type=EventType.MOVE_MADE)
        .select_related("stream")
        .order_by("seq")[dispute.move - 1 : dispute.move]
        .first()
    )
    if event is None:
        return ""
    return describe_event(event, names=game.player_names)


def replay_url(stream_id: uuid.UUID, move: int | None) -> str:
    """The game's replay viewer (``play:replay``) opened at ``move`` (the first move when none
    is named)."""
    return reverse("play:replay", args=[stream_id]) + f"?move={move or 1}"


# -- a ruling in words ----------------------------------------------------------------------------


def ruling_words(dispute: Dispute, game: DisputedGame) -> str:
    """What the arbiter decided, as the players read it on their game page and /me/."""
    ruling = dispute.ruling
    if ruling == Dispute.Ruling.UPHOLD:
        return gettext("the result stands")
    if ruling == Dispute.Ruling.ANNUL:
        return gettext("the game is annulled and counts for neither standings nor ratings")
    if ruling == Dispute.Ruling.AMEND:
        return gettext("the result is amended to {ranks}").format(
            ranks=ranks_words(dispute.amended_ranks or [], game.player_names)
        )
    if ruling == Dispute.Ruling.REPLAY:
        return gettext("the game is played again from move {move}").format(
            move=(dispute.replay_from or 0) + 1
        )
    return ""


def ranks_words(ranks: list[int], names: list[str]) -> str:
    """``[2, 1]`` with names ``["Ann", "Bo"]`` as "Bo 1st, Ann 2nd" (best first)."""
    order = sorted(range(len(ranks)), key=lambda seat: (ranks[seat], seat))
    return ", ".join(
        f"{names[seat] if seat < len(names) else seat + 1} {place_words(ranks[seat])}"
        for seat in order
    )


def place_words(rank: int) -> str:
    """1 as "1st", 21 as "21st" (French "1er", "21e"): the suffixes of the tournaments' pages,
    one per language's rule, from the same catalogue entries."""
    if rank == 1:  # French says "1er" but "21e": 1 has a suffix of its own
        suffix = pgettext("ordinal suffix of 1", "st")
    elif 10 <= rank % 100 <= 20:
        suffix = pgettext("ordinal suffix of 11 to 20", "th")
    else:
        suffix = _SUFFIXES.get(rank % 10, _SUFFIXES[0])()
    return f"{rank}{suffix}"


_SUFFIXES = {
    0: lambda: pgettext("ordinal suffix of 4 to 9, 24...", "th"),
    1: lambda: pgettext("ordinal suffix of 1, 21, 31...", "st"),
    2: lambda: pgettext("ordinal suffix of 2, 22, 32...", "nd"),
    3: lambda: pgettext("ordinal suffix of 3, 23, 33...", "rd"),
}


# -- the game page and /me/: the players are told ------------------------------------------------


@dataclass(frozen=True)
class RulingLine:
    """One ruling on a game the reader plays in: "The arbiter ruled … on <date>: <reason>"."""

    dispute: Dispute
    words: str
    ruled_at: dt.datetime | None
    reason: str
    game: DisputedGame


@dataclass(frozen=True)
class GamePanel:
    """The dispute lines of a game's page for ``user``."""

    stream_id: uuid.UUID
    rulings: list[RulingLine]
    open_dispute: Dispute | None
    seated: bool
    privileged: bool
    may_open: bool
    why_not: str
    window_ends: dt.datetime | None

    @property
    def shows_anything(self) -> bool:
        finished_and_seated = self.seated and self.window_ends is not None
        return bool(self.rulings or self.open_dispute or self.may_open or finished_and_seated)


def game_dispute_panel(*, stream_id: uuid.UUID, user: Any) -> GamePanel:
    """What the game's page says about disputes: its rulings, an open dispute, and whether the
    reader may dispute it (a seated player of the finished game within the window)."""
    disputes = list(Dispute.objects.filter(stream_id=stream_id).order_by("opened_at", "pk"))
    authenticated = bool(getattr(user, "is_authenticated", False))
    seated = (
        authenticated and StreamSeat.objects.filter(stream_id=stream_id, user_id=user.pk).exists()
    )
    privileged = is_privileged(user)
    if not (seated or privileged):
        disputes = [d for d in disputes if d.status == Dispute.Status.RULED]
    game = disputed_games([stream_id]).get(stream_id) or unknown_game(stream_id)
    refusal = dispute_open_refusal(stream_id=stream_id, user=user) if seated else None
    why_not = "" if refusal is None else refusal.detail
    return GamePanel(
        stream_id=stream_id,
        rulings=[_ruling_line(d, game) for d in disputes if d.status == Dispute.Status.RULED],
        open_dispute=next((d for d in disputes if d.status == Dispute.Status.OPEN), None),
        seated=seated,
        privileged=privileged,
        may_open=seated and not why_not,
        why_not=why_not,
        window_ends=dispute_window_ends(stream_id=stream_id) if seated else None,
    )


def _ruling_line(dispute: Dispute, game: DisputedGame) -> RulingLine:
    return RulingLine(
        dispute, ruling_words(dispute, game), dispute.ruled_at, dispute.ruling_reason, game
    )


def rulings_for_player(*, user_id: int, limit: int = 20) -> list[RulingLine]:
    """Rulings on games the user plays in, most recent first (the /me/ page's lines)."""
    played = StreamSeat.objects.filter(user_id=user_id).values("stream_id")
    ruled = list(
        Dispute.objects.filter(stream_id__in=played, status=Dispute.Status.RULED).order_by(
            "-ruled_at", "-pk"
        )[:limit]
    )
    games = disputed_games(d.stream_id for d in ruled)
    return [_ruling_line(d, games.get(d.stream_id) or unknown_game(d.stream_id)) for d in ruled]


# -- the recompute job's progress -----------------------------------------------------------------


def job_progress(job: RecomputeJob | None) -> dict[str, Any]:
    """The recompute job's state for the page that follows it: status, done, total, whether it
    is over, and a sentence in the reader's language."""
    if job is None:
        return {
            "status": "none",
            "done": 0,
            "total": 0,
            "finished": True,
            "text": gettext("Nothing to re-rate: the game is not in a rating pool yet."),
        }
    job.refresh_from_db(fields=["status", "done", "total", "error"])
    finished = job.status in {RecomputeJob.Status.DONE, RecomputeJob.Status.FAILED}
    return {
        "status": job.status,
        "done": job.done,
        "total": job.total,
        "finished": finished,
        "text": _progress_words(job),
    }


def _progress_words(job: RecomputeJob) -> str:
    if job.status == RecomputeJob.Status.QUEUED:
        return gettext("The ratings are waiting for a worker to re-rate the pool.")
    if job.status == RecomputeJob.Status.RUNNING:
        return gettext("Re-rating the pool: {done} of {total} games.").format(
            done=job.done, total=job.total
        )
    if job.status == RecomputeJob.Status.FAILED:
        return gettext("The re-rating failed; the admin's recompute jobs say why.")
    return ngettext(
        "Done: the pool is re-rated ({total} game rated again).",
        "Done: the pool is re-rated ({total} games rated again).",
        job.total,
    ).format(total=job.total)
