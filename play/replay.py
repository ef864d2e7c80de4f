"""Reads of the replay viewer: a stream's game at any move, as the one who opens it may see it.

**Move n is the n-th move** (the stream's n-th ``MoveMade`` event; move 0 is the game as set
up), as the audit API's ``?move=n``, the disputes and the "replay from move n" ruling count
them. A step of the replay is one move and the events that follow it before the next move
(the end of the game, a ruling, a reshuffle); the page names the move's event too ("move 5 —
event 7").

Who sees what (:func:`replay_sight`): arbiters and staff who do not play in the game, and
everyone once it has ended, see every hand: each seat's own view, drawn one after the other
(the omniscient replay). While the game runs a seated player sees their own seat's view and a
spectator the public one. Everything drawn comes from ``engine.view(state, seat)`` of the
replayed state through the game's drawing (play.drawings), as on the live table; the words
come from the moves as the viewer may see them (the events selector withholds the rest), the
chance outcomes' details only where the viewer may see them. A running game's replay ends at
the move the game is at: there is nothing later to show.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from engine.core import Effect, EngineError, GameState, Seat, Text
from events.access import StreamAccess
from events.models import Event, EventType, Stream
from events.selectors import (
    Check,
    check_hash_chain,
    describe_event,
    event_for_access,
    stream_verify_cached,
)
from events.states import EventReplayError, StreamReplay, game_of
from herald.params import whole_number
from herald.texts import render, seat_words
from play.drawings import Drawing
from play.selectors import GameSummary

# -- who sees what ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ReplaySight:
    """What one viewer's replay shows: the views drawn (seats; None is the public view) and
    whether that is every hand (``omniscient``: arbiters and staff, everyone after the end)."""

    omniscient: bool
    seats: tuple[int | None, ...]
    finished: bool  # the game has ended (everyone then sees everything)
    privileged: bool  # an arbiter or staff member who does not play in the game
    viewer_seat: int | None = None  # the viewer's own seat in the game, if they play in it

    def looks_over(self, seat: int | None) -> bool:
        """Whether ``seat``'s view is drawn for someone else looking over its shoulder (every
        hand shown): its words then name that seat instead of saying "you"."""
        return seat is not None and seat != self.viewer_seat

    @property
    def own_seat(self) -> int | None:
        """The viewer's seat when they see only their own view, else None."""
        return None if self.omniscient else self.seats[0]

    def sees_details(self, effect: Effect) -> bool:
        """Whether the viewer may read ``effect``'s details (what was drawn, dealt, shuffled)."""
        return self.omniscient or effect.visible_for(self.own_seat)


def replay_sight(access: StreamAccess) -> ReplaySight:
    """The views ``access.user`` may see in the replay: every seat's when they see everything
    (``StreamAccess.sees_everything``), else their own seat's (the public one for a spectator).
    An arbiter seated in the game sees it as a player, as everywhere."""
    stream = access.stream
    if access.sees_everything:
        seats: tuple[int | None, ...] = tuple(range(stream.players))
    else:
        seats = (access.seat,)
    return ReplaySight(
        omniscient=access.sees_everything,
        seats=seats,
        finished=stream.is_finished,
        privileged=access.privileged,
        viewer_seat=access.seat,
    )


# -- move numbers ------------------------------------------------------------------------------


class MoveOutOfRange(LookupError):
    """A move the game does not have (a 404): ``detail`` says which moves it has."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


def move_seqs(events: Iterable[Event]) -> list[int]:
    """The seq of each move's event, in order: move n is ``move_seqs(...)[n - 1]``."""
    return [event.seq for event in events if event.type == EventType.MOVE_MADE]


def requested_move(raw: str | None, *, moves: int) -> int:
    """The move asked for by ``?move=`` (the last one when absent): a whole number from 0 to
    ``moves``. Raises ``BadNumber`` (a 400) or :class:`MoveOutOfRange` (a 404) with a sentence."""
    if raw is None:
        return moves
    number = whole_number(raw, name="move")
    if number > moves:
        raise MoveOutOfRange(
            gettext(
                "This game has {moves} moves so far: there is no move {move}. "
                "Ask for a move from 0 (the deal) to {moves}."
            ).format(moves=moves, move=number)
        )
    return number


# -- one step ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class StepEvent:
    """One event of the step, in words, with its hash when the viewer may see it."""

    seq: int
    type: str
    words: str
    hash: str | None


@dataclass(frozen=True)
class StepEffect:
    """An effect of the step (a chance outcome, a score...) as the viewer may see it: its words,
    and its details when the viewer may read them (``withheld`` when they may not)."""

    words: str
    details: str
    chance: bool
    withheld: bool


@dataclass
class Board:
    """One view drawn as the live table draws it: ``seat`` None is the public view;
    ``before`` is the same view one move earlier (None at the deal), to tell what changed."""

    seat: int | None
    name: str
    game: GameSummary  # the summary as of this step (version, finished) for the drawing
    table: Any
    before: Any = None
    html: str = ""


@dataclass
class ReplayStep:
    """Everything the replay page shows at one move."""

    move: int
    moves: int
    seq: int  # the move's event (1: GameCreated, for move 0)
    last_seq: int  # the step's last event (the end, a ruling... after the move)
    events: list[StepEvent]
    words: str
    effects: list[StepEffect]
    affected: list[int]  # the seats the step touches (0-based), as the viewer may tell
    names: list[str]
    boards: list[Board]
    sight: ReplaySight
    chain: Check  # the hash chain from event 1 up to the step's last event
    verification: dict[str, Any]  # the whole stream's report (stream_verify_cached), or {}
    chain_break: int | None = None  # the first event the chain does not vouch for
    chain_break_move: int | None = None  # the move whose step holds that event
    replay_error: str = ""
    final: bool = False  # the step shows the game's end

    @property
    def previous(self) -> int | None:
        return self.move - 1 if self.move > 0 else None

    @property
    def next(self) -> int | None:
        return self.move + 1 if self.move < self.moves else None

    @property
    def affected_names(self) -> list[str]:
        return [seat_words(seat, self.names) for seat in self.affected]

    @property
    def failed_checks(self) -> list[tuple[str, str]]:
        """The whole stream's failed checks: (name, detail)."""
        checks = self.verification.get("checks", {})
        return [(name, check["detail"]) for name, check in checks.items() if not check["ok"]]


def replay_step(
    access: StreamAccess, summary: GameSummary, drawing: Drawing, *, move: int
) -> ReplayStep:
    """The replay of ``access.stream`` at ``move`` (0 to the number of moves), for its viewer.

    The state is rebuilt from event 1 (events.states.StreamReplay, as the audit and the
    verification do), so every step is the truth of the log, not a snapshot.
    """
    stream = access.stream
    shown = shown_version(access)
    events = list(Event.objects.filter(stream=stream, seq__lte=shown).order_by("seq"))
    step = _step_in_log(access, summary, events, move=move)
    try:
        replayed = replay_to(stream, events, move=move, seats=step.sight.seats)
    except (EngineError, EventReplayError, KeyError, ValueError, TypeError) as exc:
        step.replay_error = str(exc)
        return step
    mover = next(e for e in events if e.seq == step.seq) if move else None
    _tell(step, replayed, access, drawing, mover=mover)
    step.boards = _boards(step, summary, drawing, replayed)
    return step


def _step_in_log(
    access: StreamAccess, summary: GameSummary, events: list[Event], *, move: int
) -> ReplayStep:
    """The step's place in the log: its events in words, the chain up to it, the verdict."""
    stream = access.stream
    seqs = move_seqs(events)
    names = [seat.name for seat in summary.seats]
    seq = 1 if move == 0 else seqs[move - 1]
    last_seq = seqs[move] - 1 if move < len(seqs) else events[-1].seq
    told = [_step_event(e, access, names) for e in events if seq <= e.seq <= last_seq]
    step = ReplayStep(
        move=move,
        moves=len(seqs),
        seq=seq,
        last_seq=last_seq,
        events=told,
        words=told[0].words,
        effects=[],
        affected=[],
        names=names,
        boards=[],
        sight=replay_sight(access),
        chain=check_hash_chain(stream, [e for e in events if e.seq <= last_seq]),
        # The whole stream's report speaks of its last move: not for a viewer kept behind.
        verification={} if shown_version(access) < stream.version else stream_verify_cached(stream),
        final=stream.is_finished and move == len(seqs),
    )
    _locate_break(step, stream, events, seqs)
    return step


def _tell(
    step: ReplayStep,
    replayed: Replayed,
    access: StreamAccess,
    drawing: Drawing,
    *,
    mover: Event | None,
) -> None:
    """The step's effects as the viewer may see them, and the seats it touches."""
    step.effects = [_step_effect(e, step.sight, step.names, drawing) for e in replayed.effects]
    said = [effect.message for effect in replayed.effects if effect.message is not None]
    told = None if mover is None else move_text(mover, event_for_access(mover, access))
    if told is not None:  # the move's own words, as the viewer received the move
        said.append(told)
    step.affected = affected_seats(
        replayed, mover=None if mover is None else mover.seat, words=said
    )


# -- the replay itself -------------------------------------------------------------------------


@dataclass(frozen=True)
class Replayed:
    """The views of the sight's seats after move n and after move n - 1 (None for move 0), and
    the effects of move n (of the setup for move 0)."""

    views: list[dict[str, Any]]
    previous: list[dict[str, Any]] | None
    effects: tuple[Effect, ...]


def replay_to(
    stream: Stream, events: Sequence[Event], *, move: int, seats: Sequence[int | None]
) -> Replayed:
    """Replay ``events`` from event 1 up to ``move`` and draw nothing yet: take each of
    ``seats``' views there and one move before (views are plain data, taken as they are)."""
    run = StreamReplay(stream, events)
    game = game_of(stream)

    def views(state: GameState) -> list[dict[str, Any]]:
        return [game.view(state, seat) for seat in seats]

    if move == 0:
        return Replayed(views(run.state), None, run.trail[0].effects)
    previous = views(run.state) if move == 1 else None
    for event, _payload in run.steps():
        if run.run.moves == move - 1:
            previous = views(run.state)  # after the move before (and any reshuffle after it)
        elif run.run.moves == move and event.type == EventType.MOVE_MADE:
            return Replayed(views(run.state), previous, run.trail[-1].effects)
    raise EventReplayError(events[-1].seq, run.run.moves, f"the log has no move {move}")


def affected_seats(replayed: Replayed, *, mover: int | None, words: Iterable[Text]) -> list[int]:
    """The seats the step touches, from what the viewer sees only: the mover, every seat the
    step's words name, and every seat whose entry in a view's ``players`` list changed."""
    seats = set() if mover is None else {mover}
    for text in words:
        seats.update(_seats_named(text))
    for now, before in zip(replayed.views, replayed.previous or [], strict=False):
        seats.update(_changed_players(now, before))
    return sorted(seats)


def _seats_named(text: Text) -> set[int]:
    found: set[int] = set()
    for value in text.params.values():
        for item in value if isinstance(value, (tuple, list)) else (value,):
            if isinstance(item, Seat):
                found.add(item.index)
            elif isinstance(item, Text):
                found.update(_seats_named(item))
    return found


def _changed_players(now: dict[str, Any], before: dict[str, Any]) -> set[int]:
    """Seats whose entry in the view's ``players`` list differs (games whose view has one)."""
    players, earlier = now.get("players"), before.get("players")
    if not isinstance(players, list) or not isinstance(earlier, list):
        return set()
    return {i for i, (a, b) in enumerate(zip(players, earlier, strict=False)) if a != b}


# -- words -------------------------------------------------------------------------------------


def _step_event(event: Event, access: StreamAccess, names: list[str]) -> StepEvent:
    """An event in words as the viewer may see it (a hidden move as its public part)."""
    shown = event_for_access(event, access)
    return StepEvent(event.seq, event.type, event_words(event, shown, names), shown["hash"])


def event_words(event: Event, shown: dict[str, Any], names: list[str]) -> str:
    """One line a person reads: a move by the engine's own words (``describe_text``) from the
    move as the viewer received it, with the players' names; the other events in words."""
    if event.type == EventType.GAME_CREATED:
        return gettext("The game is set up for {players}.").format(players=", ".join(names))
    if event.type == EventType.GAME_ENDED:
        return gettext("The game ends; its seed is revealed.")
    if event.type != EventType.MOVE_MADE:
        return describe_event(event, names=names)
    text = move_text(event, shown)
    if text is None:
        return gettext("{seat} makes a move this server cannot read.").format(
            seat=seat_words(event.seat or 0, names)
        )
    return render(text, names)


def move_text(event: Event, shown: dict[str, Any]) -> Text | None:
    """The engine's words for a move event as the viewer received it (``shown``, from the events
    selector: another seat's hidden move is its public part), or None when unreadable."""
    payload = shown["payload"]
    move = payload.get("move") if isinstance(payload, dict) else None
    game = game_of(event.stream)
    try:
        return game.describe_text(game.decode_move(move), event.seat or 0)
    except EngineError:
        return None


def _step_effect(
    effect: Effect, sight: ReplaySight, names: list[str], drawing: Drawing
) -> StepEffect:
    words = render(effect.message if effect.message is not None else effect.text, names)
    chance = effect.kind == "chance"
    # A public effect's words already say what it did; a chance outcome's or a hidden
    # effect's details are what was drawn, dealt or shuffled.
    telling = chance or effect.visible_to is not None
    visible = sight.sees_details(effect)
    details = effect_details(effect, names, drawing) if visible and telling else ""
    return StepEffect(words, details, chance, withheld=not visible)


def effect_details(effect: Effect, names: list[str], drawing: Drawing) -> str:
    """An effect's details (what was drawn, dealt, shuffled) in words: the drawing's own words
    when it has them (``Drawing.effect_words``), else each value plainly."""
    if not effect.data:
        return ""
    words = drawing.effect_words
    said = words(effect.kind, dict(effect.data), names) if words else None
    return said if said is not None else plain_details(effect.data)


def plain_details(data: dict[str, Any]) -> str:
    """``{"order": [3, 1, 2], "seat": 1}`` as ``order: 3, 1, 2 · seat: 1``."""

    def value(item: Any) -> str:
        if isinstance(item, (list, tuple)):
            return ", ".join(value(i) for i in item)
        if isinstance(item, dict):
            return "; ".join(f"{k}: {value(v)}" for k, v in item.items())
        return str(item)

    return " · ".join(f"{key}: {value(item)}" for key, item in data.items())


# -- the drawings ------------------------------------------------------------------------------


def _boards(
    step: ReplayStep, summary: GameSummary, drawing: Drawing, replayed: Replayed
) -> list[Board]:
    """Each view of the sight drawn by the game's drawing, with no controls (nothing is played
    from a replay), the final scores on the step that ends the game."""
    result = summary.result if step.final else None
    previous: list[dict[str, Any] | None] = [None] * len(replayed.views)
    if replayed.previous is not None:
        previous = list(replayed.previous)
    boards = []
    for seat, view, earlier in zip(step.sight.seats, replayed.views, previous, strict=True):
        onlooker = step.sight.looks_over(seat)
        table = drawing.draw(view, [], step.names, onlooker=onlooker)
        table = drawing.add_result(table, result, step.names)
        game = dataclasses.replace(
            summary, finished=step.final, version=step.last_seq, viewer_seat=seat
        )
        name = "" if seat is None else seat_words(seat, step.names)
        before = (
            None if earlier is None else drawing.draw(earlier, [], step.names, onlooker=onlooker)
        )
        boards.append(Board(seat=seat, name=name, game=game, table=table, before=before))
    return boards


_SEAT_ELEMENT = re.compile(r'(<[a-z][a-z0-9]*\b[^>]*\bdata-player-seat="(\d+)")')


def mark_changed(html: str, seats: Iterable[int]) -> str:
    """The drawing's HTML with ``data-changed`` on the elements of the affected seats: a
    drawing marks each seat's part with ``data-player-seat="n"`` (0-based)."""
    wanted = {str(seat) for seat in seats}

    def mark(found: re.Match[str]) -> str:
        return f"{found.group(1)} data-changed" if found.group(2) in wanted else found.group(1)

    return _SEAT_ELEMENT.sub(mark, html)


_LEAF_ITEM = re.compile(r"<li\b(?:(?!<li\b).)*?</li>", flags=re.DOTALL)
# What a list item belongs to: the section (the last h2 before it) and, within it, the seat's
# part (data-player-seat); a seat's own headings (its name, "to play") change between moves.
_PLACE = re.compile(r'<h2\b[^>]*>(.*?)</h2>|data-player-seat="(\d+)"', flags=re.DOTALL)


def mark_new_items(html: str, before: str) -> str:
    """The drawing's HTML with ``data-changed`` on each list item (without items inside it:
    a card, a token) that the drawing of the move before did not have in the same place (under
    the same heading, in the same seat's part): what the move brought to the table, found the
    same way in every game's drawing."""
    earlier = Counter(_placed_items(before))
    places = _places(html)

    def mark(found: re.Match[str]) -> str:
        item = (_place_at(places, found.start()), _squeeze(found.group(0)))
        if earlier[item] > 0:
            earlier[item] -= 1
            return found.group(0)
        return "<li data-changed" + found.group(0)[3:]

    return _LEAF_ITEM.sub(mark, html)


def _places(html: str) -> list[tuple[int, str]]:
    places, section = [], ""
    for found in _PLACE.finditer(html):
        if found.group(2) is None:
            section = _squeeze(found.group(1))
            places.append((found.start(), section))
        else:
            places.append((found.start(), f"{section}|seat {found.group(2)}"))
    return places


def _place_at(places: list[tuple[int, str]], position: int) -> str:
    index = bisect.bisect(places, (position, "")) - 1
    return places[index][1] if index >= 0 else ""


def _placed_items(html: str) -> list[tuple[str, str]]:
    places = _places(html)
    return [(_place_at(places, m.start()), _squeeze(m.group(0))) for m in _LEAF_ITEM.finditer(html)]


def _squeeze(html: str) -> str:
    return " ".join(html.split())


# -- the chain ---------------------------------------------------------------------------------


def _locate_break(step: ReplayStep, stream: Stream, events: list[Event], seqs: list[int]) -> None:
    """Where the chain stops vouching for the log, when the whole stream's check fails: the
    first event of the longest prefix that still chains (found by halving: the prefixes that
    chain are those before the break)."""
    chain = step.verification.get("checks", {}).get("hash_chain", {})
    if chain.get("ok", True):
        return
    good, bad = 0, len(events)
    if check_hash_chain(stream, events).ok:
        return  # the events chain; it is the stream's head that does not match them
    while bad - good > 1:
        middle = (good + bad) // 2
        if check_hash_chain(stream, events[:middle]).ok:
            good = middle
        else:
            bad = middle
    step.chain_break = events[bad - 1].seq
    step.chain_break_move = sum(1 for seq in seqs if seq <= step.chain_break)


def shown_version(access: StreamAccess) -> int:
    """The last event the viewer may be shown: the stream's version, or an earlier one for a
    spectator kept some moves behind the game (``StreamAccess.shown_version``, where the access
    has it), so the replay never runs ahead of what the live table shows them."""
    return int(getattr(access, "shown_version", access.stream.version))


def moves_of(access: StreamAccess) -> int:
    """How many moves the viewer's replay holds: the stream's ``MoveMade`` events up to
    :func:`shown_version` (the replay's last step)."""
    shown = Event.objects.filter(stream=access.stream, seq__lte=shown_version(access))
    return shown.filter(type=EventType.MOVE_MADE).count()
