"""A bracket laid out for drawing: boxes in columns by round, connector lines, round names.

:func:`bracket_layout` turns a :class:`~tournaments.pairing.types.Bracket` into plain
geometry (in SVG user units, one unit a CSS pixel at the page's size) so that a template only
draws what it is given: a box per match at ``(x, y)``, a line per slot, a polyline per
connector, a title per column. Nothing here knows names or languages: a slot carries its
entrant id, its **seed** (the entrant's position in the bracket's seeding, 1 the strongest)
and, once the match is decided, its **place** in the match (1 the winner); column titles are
keys (:class:`RoundTitle`) the page translates.

Sections sit side by side or stacked: a single elimination or a knockout is one section of
columns; a double elimination stacks the winners' bracket over the losers' bracket and puts
the grand final in the columns after both. A match's box is centred on the boxes that feed it
(a tree bracket); a knockout's tables, whose qualifiers are dealt across the next round by
snake seeding, are spread evenly over the column before. A connector runs from a box to the
slot a finisher goes to (the places that go on only: a loser dropping into the losers'
bracket is written in the empty slot instead, as its :class:`Feed`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.pairing.types import Bracket, Match

#: Geometry, in SVG user units.
BOX_WIDTH = 210
COLUMN_GAP = 44
SLOT_HEIGHT = 26
LABEL_HEIGHT = 16  # the match's id above its box
MATCH_GAP = 14
HEADER_HEIGHT = 30  # a column's title above its first box
SECTION_GAP = 30
MARGIN = 6


@dataclass(frozen=True)
class RoundTitle:
    """What a column is called: ``key`` is one of ``final``, ``semi_final``,
    ``quarter_final``, ``round_of`` (``number`` entrants left), ``winners_round``,
    ``winners_semi_final``, ``winners_final``, ``losers_round``, ``losers_final``,
    ``grand_final``, ``grand_final_reset``, ``knockout_round`` (``number`` the round) and
    ``final_table``."""

    key: str
    number: int = 0


@dataclass(frozen=True)
class Feed:
    """Where a slot's entrant will come from: the finisher of ``place`` (1-based) in ``match``,
    a match of two players when ``duel`` (its places read "winner" and "loser")."""

    match: str
    place: int
    duel: bool = True


@dataclass(frozen=True)
class SlotBox:
    """One line of a match box: ``y`` is its top; ``seed`` and ``place`` are 1-based."""

    index: int
    y: float
    entrant: int | None
    seed: int | None
    place: int | None
    goes_on: bool
    bye: bool
    feed: Feed | None


@dataclass(frozen=True)
class MatchBox:
    """A match drawn as a box at ``(x, y)`` (its top left), ``label_y`` the baseline of its id."""

    id: str
    section: str
    round: int
    x: float
    y: float
    width: float
    height: float
    label_y: float
    slots: tuple[SlotBox, ...]
    decided: bool
    is_bye: bool
    advance: int


@dataclass(frozen=True)
class Column:
    """A column's title, centred at ``x`` on the baseline ``y``."""

    section: str
    round: int
    title: RoundTitle
    x: float
    y: float


@dataclass(frozen=True)
class Connector:
    """A line from a match to the slot a finisher goes to; ``filled`` once they got there."""

    source: str
    target: str
    points: tuple[tuple[float, float], ...]
    filled: bool


@dataclass(frozen=True)
class BracketLayout:
    """Everything a page draws of one bracket, and the size of the drawing."""

    kind: str
    width: float
    height: float
    columns: tuple[Column, ...]
    matches: tuple[MatchBox, ...]
    connectors: tuple[Connector, ...]
    champion: int | None
    advance: int


def bracket_layout(bracket: Bracket) -> BracketLayout:
    """The drawing of ``bracket``: boxes, connectors and column titles.

    >>> from tournaments.pairing.brackets import single_elimination
    >>> drawn = bracket_layout(single_elimination([11, 12, 13, 14]))
    >>> [(c.title.key, c.x) for c in drawn.columns]
    [('semi_final', 111.0), ('final', 365.0)]
    >>> [(s.entrant, s.seed) for s in drawn.matches[0].slots]
    [(11, 1), (14, 4)]
    """
    sections = _sections(bracket)
    column_index = _column_indices(sections)
    centres: dict[str, float] = {}
    tops: dict[str, float] = {}
    top = float(MARGIN + HEADER_HEIGHT)
    for name in ("winners", "losers", "knockout"):
        if name in sections:
            bottom = _place_section(sections[name], centres, top, spread=name == "knockout")
            tops[name] = top
            top = bottom + SECTION_GAP + HEADER_HEIGHT
    if "final" in sections:
        _place_final(sections["final"], bracket, centres)
        first = sections["final"][0][0]
        tops["final"] = centres[first.id] - _block(first) / 2
    boxes = {
        m.id: _box(m, column_index[(m.section, m.round)], centres[m.id], bracket)
        for column in _all_columns(sections)
        for m in column
    }
    columns = tuple(
        Column(
            section=section,
            round=column[0].round,
            title=_title(bracket, section, column[0].round, len(column), len(rounds)),
            x=_column_x(column_index[(section, column[0].round)]) + BOX_WIDTH / 2,
            y=tops[section] - HEADER_HEIGHT / 2 + 4,
        )
        for section, rounds in sections.items()
        for column in rounds
    )
    ordered = tuple(boxes[m.id] for m in bracket.matches if m.id in boxes)
    width = max(b.x + b.width for b in ordered) + MARGIN
    height = max(b.y + b.height for b in ordered) + MARGIN
    final = bracket.meta.get("final")
    champion = None
    if isinstance(final, str):
        decided = bracket.match(final).result
        champion = decided[0] if decided else None
    return BracketLayout(
        kind=bracket.kind,
        width=width,
        height=height,
        columns=columns,
        matches=ordered,
        connectors=_connectors(bracket, boxes),
        champion=champion,
        advance=int(str(bracket.meta.get("advance", 1))),
    )


# --- columns and titles ------------------------------------------------------------------


def _sections(bracket: Bracket) -> dict[str, list[list[Match]]]:
    """Section name -> its rounds in order, each the round's matches in bracket order."""
    sections: dict[str, dict[int, list[Match]]] = {}
    for match in bracket.matches:
        sections.setdefault(match.section, {}).setdefault(match.round, []).append(match)
    return {name: [rounds[n] for n in sorted(rounds)] for name, rounds in sections.items()}


def _all_columns(sections: dict[str, list[list[Match]]]) -> list[list[Match]]:
    return [column for rounds in sections.values() for column in rounds]


def _column_indices(sections: dict[str, list[list[Match]]]) -> dict[tuple[str, int], int]:
    """Which column each (section, round) is drawn in: the grand final after every other."""
    indices: dict[tuple[str, int], int] = {}
    widest = 0
    for name, rounds in sections.items():
        if name == "final":
            continue
        for i, column in enumerate(rounds):
            indices[(name, column[0].round)] = i
        widest = max(widest, len(rounds))
    for i, column in enumerate(sections.get("final", [])):
        indices[("final", column[0].round)] = widest + i
    return indices


def _column_x(index: int) -> float:
    return float(MARGIN + index * (BOX_WIDTH + COLUMN_GAP))


def _title(bracket: Bracket, section: str, number: int, matches: int, rounds: int) -> RoundTitle:
    from_end = rounds - number
    if section == "final":
        return RoundTitle("grand_final" if number == 1 else "grand_final_reset")
    if section == "knockout":
        return RoundTitle("final_table") if from_end == 0 else RoundTitle("knockout_round", number)
    if section == "losers":
        return RoundTitle("losers_final") if from_end == 0 else RoundTitle("losers_round", number)
    if bracket.kind == "double_elimination":
        if from_end == 0:
            return RoundTitle("winners_final")
        if from_end == 1:
            return RoundTitle("winners_semi_final")
        return RoundTitle("winners_round", number)
    names = {0: "final", 1: "semi_final", 2: "quarter_final"}
    if from_end in names:
        return RoundTitle(names[from_end])
    return RoundTitle("round_of", 2 * matches)


# --- vertical placement --------------------------------------------------------------------


def _block(match: Match) -> float:
    """The height a match takes: its id's line and its box."""
    return LABEL_HEIGHT + len(match.slots) * SLOT_HEIGHT


def _feeders(match: Match, previous: Sequence[Match]) -> list[Match]:
    """The matches of the column before whose places that go on are sent to ``match``."""
    return [
        m
        for m in previous
        if any(r is not None and r.match == match.id for r in m.routes[: m.advance])
    ]


def _place_section(
    rounds: Sequence[Sequence[Match]], centres: dict[str, float], top: float, *, spread: bool
) -> float:
    """Set the vertical centre of every match of a section below ``top``; return its bottom."""
    bottom = top
    for i, column in enumerate(rounds):
        ideal: list[float] = []
        if i == 0:
            y = top
            for match in column:
                ideal.append(y + _block(match) / 2)
                y += _block(match) + MATCH_GAP
        elif spread:
            ideal = _spread(column, rounds[i - 1], centres)
        else:
            for match in column:
                fed = [centres[m.id] for m in _feeders(match, rounds[i - 1])]
                ideal.append(sum(fed) / len(fed) if fed else top + _block(match) / 2)
        previous_bottom = top - MATCH_GAP
        for match, wanted in zip(column, ideal, strict=True):
            half = _block(match) / 2
            centre = max(wanted, previous_bottom + MATCH_GAP + half)
            centres[match.id] = centre
            previous_bottom = centre + half
        bottom = max(bottom, previous_bottom)
    return bottom


def _spread(
    column: Sequence[Match], previous: Sequence[Match], centres: dict[str, float]
) -> list[float]:
    """Centres for a knockout column: evenly spaced, the whole centred on the column before."""
    middle = (centres[previous[0].id] + centres[previous[-1].id]) / 2
    pitch = _block(column[0]) + MATCH_GAP
    first = middle - pitch * (len(column) - 1) / 2
    return [first + pitch * i for i in range(len(column))]


def _place_final(
    rounds: Sequence[Sequence[Match]], bracket: Bracket, centres: dict[str, float]
) -> None:
    """The grand final midway between the matches that feed it; a reset level with it."""
    feeding = [
        centres[m.id]
        for m in bracket.matches
        if m.section != "final" and any(r is not None and r.match == "GF-1" for r in m.routes)
    ]
    centre = sum(feeding) / len(feeding) if feeding else MARGIN + HEADER_HEIGHT + 40.0
    for column in rounds:
        for match in column:
            centres[match.id] = centre


# --- boxes and connectors ------------------------------------------------------------------


def _box(match: Match, column: int, centre: float, bracket: Bracket) -> MatchBox:
    seeds = [int(s) for s in bracket.meta.get("seeds", [])]
    seed_of = {entrant: i + 1 for i, entrant in enumerate(seeds)}
    feeds = _feeds(bracket)
    block = _block(match)
    box_top = centre - block / 2 + LABEL_HEIGHT
    result = match.result or ()
    slots = []
    for index, entrant in enumerate(match.slots):
        place = result.index(entrant) + 1 if entrant is not None and entrant in result else None
        bye = entrant is None and index in match.bye_slots
        if match.is_bye:  # nobody played: no place, and whoever is there goes on
            place, through = None, entrant is not None
        else:
            through = place is not None and place <= match.advance
        slots.append(
            SlotBox(
                index=index,
                y=box_top + index * SLOT_HEIGHT,
                entrant=entrant,
                seed=seed_of.get(entrant) if entrant is not None else None,
                place=place,
                goes_on=through,
                bye=bye,
                feed=None if entrant is not None or bye else feeds.get((match.id, index)),
            )
        )
    return MatchBox(
        id=match.id,
        section=match.section,
        round=match.round,
        x=_column_x(column),
        y=box_top,
        width=BOX_WIDTH,
        height=len(match.slots) * SLOT_HEIGHT,
        label_y=box_top - 4,
        slots=tuple(slots),
        decided=match.result is not None,
        is_bye=match.is_bye,
        advance=match.advance,
    )


def _feeds(bracket: Bracket) -> dict[tuple[str, int], Feed]:
    """(match, slot) -> the finisher of which match fills it."""
    feeds: dict[tuple[str, int], Feed] = {}
    for match in bracket.matches:
        for place, route in enumerate(match.routes, start=1):
            if route is not None:
                duel = len(match.slots) == 2
                feeds.setdefault((route.match, route.slot), Feed(match.id, place, duel))
    return feeds


def _connectors(bracket: Bracket, boxes: dict[str, MatchBox]) -> tuple[Connector, ...]:
    lines = []
    for match in bracket.matches:
        source = boxes[match.id]
        for route in match.routes[: match.advance]:
            if route is None or route.match not in boxes:
                continue
            target = boxes[route.match]
            slot = target.slots[route.slot]
            start = (source.x + source.width, source.y + source.height / 2)
            end = (target.x, slot.y + SLOT_HEIGHT / 2)
            bend = target.x - COLUMN_GAP / 2
            points = (start, (bend, start[1]), (bend, end[1]), end)
            lines.append(Connector(match.id, route.match, points, filled=slot.entrant is not None))
    return tuple(lines)
