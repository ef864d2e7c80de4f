"""The bracket page's selector: each bracket stage laid out, named and worded for drawing.

The geometry is the pure layer's (:func:`tournaments.pairing.layout.bracket_layout`); this
module adds what needs the database and a language: players' names, round titles, seeds as
"(3)", places as "1st", the sentence of an empty slot ("Winner of W1-2") and the champion.
The template draws exactly these values (an SVG of boxes and lines) and computes nothing.

A bracket holds only published rounds' confirmed results (``services.bracket_current``), so
this drawing shows nothing a draft pairing would reveal: it is the same for every viewer.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, ngettext, pgettext

from tournaments import selectors, services
from tournaments.models import Stage, Tournament
from tournaments.pairing.layout import (
    SLOT_HEIGHT,
    BracketLayout,
    Feed,
    MatchBox,
    RoundTitle,
    SlotBox,
    bracket_layout,
)
from tournaments.words import ordinal

#: Characters of a name that fit a box; a longer name is cut with "…" (the full name is in
#: the box's title, read by screen readers and shown on hover).
NAME_FIT = 17
SEED_WIDTH = 30


@dataclass(frozen=True)
class SlotDrawn:
    """One line of a match box, worded: ``seed`` is "(3)" or "", ``place`` "1st" or ""."""

    y: float
    height: float
    text_y: float
    name: str
    full_name: str
    seed: str
    place: str
    winner: bool
    goes_on: bool
    bye: bool
    empty: bool
    registration: int | None


@dataclass(frozen=True)
class MatchDrawn:
    """A match box and its lines; ``summary`` is the sentence a screen reader reads."""

    id: str
    x: float
    y: float
    width: float
    height: float
    right: float
    label_y: float
    name_x: float
    seed_x: float
    place_x: float
    slots: tuple[SlotDrawn, ...]
    decided: bool
    is_bye: bool
    summary: str


@dataclass(frozen=True)
class ColumnDrawn:
    x: float
    y: float
    title: str


@dataclass(frozen=True)
class BracketDrawing:
    """One stage's bracket, ready for ``tournaments/_bracket.html``."""

    stage: Stage
    kind: str
    width: float
    height: float
    columns: tuple[ColumnDrawn, ...]
    matches: tuple[MatchDrawn, ...]
    connectors: tuple[tuple[str, bool], ...]  # (SVG points, filled)
    champion: str
    advance_note: str


def bracket_drawings(tournament: Tournament) -> list[BracketDrawing]:
    """Every bracket stage of ``tournament`` in order, drawn (empty when none has a bracket)."""
    names = selectors.registration_names(tournament)
    drawings = []
    for stage in tournament.stages.order_by("order"):
        current = services.bracket_current(stage=stage)
        if current is not None:
            drawings.append(_drawing(stage, bracket_layout(current), names))
    return drawings


def round_title(title: RoundTitle) -> str:
    """A column's name in the viewer's language."""
    fixed = {
        "final": pgettext("bracket round", "Final"),
        "semi_final": pgettext("bracket round", "Semi-finals"),
        "quarter_final": pgettext("bracket round", "Quarter-finals"),
        "winners_semi_final": gettext("Winners' semi-finals"),
        "winners_final": gettext("Winners' final"),
        "losers_final": gettext("Losers' final"),
        "grand_final": gettext("Grand final"),
        "grand_final_reset": gettext("Reset (if needed)"),
        "final_table": gettext("Final table"),
    }
    if title.key in fixed:
        return fixed[title.key]
    if title.key == "round_of":
        return gettext("Round of %(number)s") % {"number": title.number}
    if title.key == "winners_round":
        return gettext("Winners' round %(number)s") % {"number": title.number}
    if title.key == "losers_round":
        return gettext("Losers' round %(number)s") % {"number": title.number}
    return gettext("Round %(number)s") % {"number": title.number}


def _drawing(stage: Stage, layout: BracketLayout, names: dict[int, str]) -> BracketDrawing:
    connectors = tuple(
        (" ".join(f"{x:g},{y:g}" for x, y in line.points), line.filled)
        for line in layout.connectors
    )
    advance_note = ""
    if layout.kind == "knockout":
        advance_note = ngettext(
            "The winner of each table goes on to the next round.",
            "The top %(count)s of each table go on to the next round.",
            layout.advance,
        ) % {"count": layout.advance}
    return BracketDrawing(
        stage=stage,
        kind=layout.kind,
        width=layout.width,
        height=layout.height,
        columns=tuple(ColumnDrawn(c.x, c.y, round_title(c.title)) for c in layout.columns),
        matches=tuple(_match(m, names) for m in layout.matches),
        connectors=connectors,
        champion=names.get(layout.champion, "") if layout.champion is not None else "",
        advance_note=advance_note,
    )


def _match(box: MatchBox, names: dict[int, str]) -> MatchDrawn:
    slots = tuple(_slot(slot, names) for slot in box.slots)
    return MatchDrawn(
        id=box.id,
        x=box.x,
        y=box.y,
        width=box.width,
        height=box.height,
        right=box.x + box.width,
        label_y=box.label_y,
        seed_x=box.x + 6,
        name_x=box.x + 6 + SEED_WIDTH,
        place_x=box.x + box.width - 6,
        slots=slots,
        decided=box.decided,
        is_bye=box.is_bye,
        summary=_summary(box.id, slots),
    )


def _slot(slot: SlotBox, names: dict[int, str]) -> SlotDrawn:
    if slot.entrant is not None:
        full = names.get(slot.entrant, "—")
    elif slot.bye:
        full = gettext("bye")
    elif slot.feed is not None:
        full = _feed_words(slot.feed)
    else:
        full = "—"
    short = full if len(full) <= NAME_FIT else full[: NAME_FIT - 1].rstrip() + "…"
    return SlotDrawn(
        y=slot.y,
        height=SLOT_HEIGHT,
        text_y=slot.y + SLOT_HEIGHT / 2 + 4.5,
        name=short,
        full_name=full,
        seed=f"({slot.seed})" if slot.seed is not None else "",
        place=ordinal(slot.place) if slot.place is not None else "",
        winner=slot.place == 1,
        goes_on=slot.goes_on,
        bye=slot.bye,
        empty=slot.entrant is None,
        registration=slot.entrant,
    )


def _feed_words(feed: Feed) -> str:
    """ "Winner of W1-2", "Loser of W2-1" (two players), "2nd of K1-3" (a table of more)."""
    if feed.duel:
        if feed.place == 1:
            return gettext("Winner of %(match)s") % {"match": feed.match}
        return gettext("Loser of %(match)s") % {"match": feed.match}
    return gettext("%(place)s of %(match)s") % {"place": ordinal(feed.place), "match": feed.match}


def _summary(match_id: str, slots: tuple[SlotDrawn, ...]) -> str:
    """ "W1-1: Ysolde Aubert, seed 1, 1st; Xavier Bonnet, seed 8, 2nd"."""
    parts = []
    for slot in slots:
        words = [slot.full_name]
        if slot.seed:
            words.append(gettext("seed %(seed)s") % {"seed": slot.seed.strip("()")})
        if slot.place:
            words.append(slot.place)
        parts.append(", ".join(words))
    return f"{match_id}: " + "; ".join(parts)
