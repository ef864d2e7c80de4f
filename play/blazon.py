"""The table of Blazon as a seat sees it: the engine's view turned into what the templates draw
(the shields as SVG, the centre, the hand as cards) and each legal move as a control on the
object it concerns.

Everything here is read from ``engine.view(state, seat)`` and the seat's ``legal_moves``,
never from the full state: the view is the hidden-information boundary, so the drawing cannot
hold more than the seat may see. The board, the cards' faces and the distinctions' rules are
the edition's public data (engine/blazon/data/).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils.translation import gettext, ngettext

from engine.blazon.cards import EDITIONS, Clause, Edition
from engine.blazon.shield import BLAZON_LANGUAGES, TABLES, shield_blazon
from engine.blazon.words import ALIGN_WORDS, SYMBOL_WORDS, word
from herald.texts import active_language, per_language, render
from play.controls import Control

GAME_ID = "blazon"
HAND_LIMIT = 7
TRACK_END = 50  # the prestige track's last milestone; the counter stops drawing there

# -- colours ---------------------------------------------------------------------------------

#: The four players' colours (the rulebook has four, unnamed): seat n plays the n-th.
SEAT_COLOURS = ("red", "blue", "green", "yellow")

#: Each tincture as it is painted: its colour and the ink that reads on it. Furs are drawn
#: with a pattern (play/templates/play/blazon/defs.svg) on their ground colour.
TINCTURE_PAINT = {
    "Or": ("#e2b42b", "#1a1a1a"),
    "Argent": ("#eceff1", "#1a1a1a"),
    "Gules": ("#c62828", "#ffffff"),
    "Azure": ("#1e5aa8", "#ffffff"),
    "Vert": ("#2e7d32", "#ffffff"),
    "Sable": ("#1d1d1d", "#ffffff"),
    "Purpure": ("#7b3f98", "#ffffff"),
}
FURS = {
    "Ermine": "ermine",
    "Erminois": "erminois",
    "Vair": "vair",
    "Countervair": "countervair",
    "Potent": "potent",
}
DEVICE_PAINT = ("#f4ead2", "#2b2118")  # parchment: a device card is drawn, not painted
UNKNOWN_PAINT = ("#dddddd", "#1a1a1a")


@per_language
def seat_colour_words() -> dict[str, str]:
    """A player's colour in the viewer's language."""
    return {
        "red": gettext("red"),
        "blue": gettext("blue"),
        "green": gettext("green"),
        "yellow": gettext("yellow"),
    }


@per_language
def augmentation_words() -> dict[str, str]:
    """The five augmentations and the wild symbol, in the viewer's language."""
    return {
        "fleur-de-lis": gettext("fleur-de-lis"),
        "castle": gettext("castle"),
        "swords": gettext("swords"),
        "crown": gettext("crown"),
        "lion": gettext("lion"),
        "wild": gettext("wild"),
    }


@per_language
def category_words() -> dict[str, str]:
    """Tincture or device, as a card's category (French heraldry: émail, meuble)."""
    return {"tincture": gettext("tincture card"), "device": gettext("device card")}


@per_language
def deck_words() -> dict[str, str]:
    """The two decks' names, as written on the centre board."""
    return {"tincture": gettext("Tincture deck"), "device": gettext("Device deck")}


@per_language
def _symbol(key: str) -> str:
    """A symbol's word in the active language: made once per word and language, since every
    space and card of every drawing names its symbols."""
    return render(word(SYMBOL_WORDS, key))


# -- the board's geometry (SVG user units; the CSS of the targets repeats it in percent) ----

SHIELD_WIDTH, SHIELD_HEIGHT = 300, 380
GRID_LEFT, GRID_TOP, CELL = 24, 18, 84
INSET = 3  # a space's rectangle inside its cell
STRIP = 20  # the height of a symbol's strip (top or bottom alignment)
CARD_W, CARD_H = CELL - 2 * INSET, CELL - 2 * INSET - STRIP - 2
CADENCY_BOX = (108, 280, CELL, 60)
# A symbol's word longer than LONG_SYMBOL is set smaller ("arrangement"); longer than
# LONGEST_SYMBOL, it is fitted to its strip ("pièce honorable").
LONG_SYMBOL = 9
LONGEST_SYMBOL = 13


def _space_box(row: int, col: int) -> tuple[int, int, int, int]:
    if row == 0:
        return CADENCY_BOX
    return (GRID_LEFT + (col - 1) * CELL, GRID_TOP + (row - 1) * CELL, CELL, CELL)


# -- the parts of the drawing ---------------------------------------------------------------


@dataclass
class Face:
    """An Element card's face, as every card of the table is drawn (shield, hand, centre)."""

    number: int
    name: str
    category: str
    type: str
    augmentation: str
    prestige: int
    fill: str
    ink: str
    fur: str  # the fur's pattern name, "" for a plain tincture or a device
    lines: list[str]
    small: bool  # a long name: the smaller type
    type_word: str
    category_word: str
    augmentation_word: str
    fits: list[dict[str, Any]] = field(default_factory=list)  # the mini-map's marks

    @property
    def label(self) -> str:
        """The card in words for a screen reader."""
        return gettext(
            "%(name)s, %(category)s (%(type)s), %(augmentation)s, prestige %(prestige)s"
        ) % {
            "name": self.name,
            "category": self.category_word,
            "type": self.type_word,
            "augmentation": self.augmentation_word,
            "prestige": self.prestige,
        }

    @property
    def fits_label(self) -> str:
        """Where the card fits on a shield, in words."""
        return gettext("fits: %(places)s") % {
            "places": ", ".join(mark["words"] for mark in self.fits if mark["fits"])
        }


@dataclass
class Target:
    """A lit half of one of the viewer's shield spaces: placing the chosen card there."""

    card: int
    space: int
    align: str
    css: str  # the class that puts the button over its half of the space
    control: Control
    shown: bool  # the card is the one selected when the table is drawn


@dataclass
class SpaceDrawing:
    """One space of a shield: its two symbols and the card on it, if any."""

    index: int
    name: str
    words: str
    row: int
    col: int
    x: int
    y: int
    w: int
    h: int
    cadency: bool
    top_word: str
    bottom_word: str
    top_category: str
    bottom_category: str
    card: Face | None = None
    align: str = ""
    abated: bool = False

    @property
    def top_small(self) -> bool:
        """The top symbol's word is long: it is set smaller to stay in its strip."""
        return len(self.top_word) > LONG_SYMBOL

    @property
    def bottom_small(self) -> bool:
        return len(self.bottom_word) > LONG_SYMBOL

    @property
    def top_squeezed(self) -> bool:
        """The top symbol's word is too long even when small: it is fitted to its strip."""
        return len(self.top_word) > LONGEST_SYMBOL

    @property
    def bottom_squeezed(self) -> bool:
        return len(self.bottom_word) > LONGEST_SYMBOL

    @property
    def card_y(self) -> int:
        """Where the placed card's box starts: it covers the other alignment's symbol."""
        if self.cadency:
            return self.y + INSET + STRIP
        return self.y + (INSET + STRIP + 2 if self.align == "top" else INSET)

    @property
    def card_h(self) -> int:
        return self.h - 2 * INSET - STRIP if self.cadency else CARD_H

    @property
    def inner_x(self) -> int:
        return self.x + INSET

    @property
    def inner_y(self) -> int:
        return self.y + INSET

    @property
    def inner_w(self) -> int:
        return self.w - 2 * INSET

    @property
    def inner_h(self) -> int:
        return self.h - 2 * INSET

    @property
    def mid_x(self) -> int:
        return self.x + self.w // 2

    @property
    def top_text_y(self) -> int:
        return self.y + INSET + 14

    @property
    def bottom_strip_y(self) -> int:
        return self.y + self.h - INSET - STRIP

    @property
    def bottom_text_y(self) -> int:
        return self.y + self.h - INSET - 6

    @property
    def words_full(self) -> str:
        """The space, its symbols and its card, for a screen reader."""
        if self.cadency:
            symbols = self.top_word
        else:
            symbols = gettext("top %(top)s, bottom %(bottom)s") % {
                "top": self.top_word,
                "bottom": self.bottom_word,
            }
        if self.card is None:
            return gettext("%(space)s (%(symbols)s): empty") % {
                "space": self.words,
                "symbols": symbols,
            }
        return gettext("%(space)s (%(symbols)s): %(card)s, %(align)s") % {
            "space": self.words,
            "symbols": symbols,
            "card": self.card.label,
            "align": render(ALIGN_WORDS[self.align]),
        }


@dataclass
class RowMark:
    """The alignment a row of a shield is in (a small arrow at its right), when it has cards."""

    row: int
    align: str
    y: int
    words: str


@dataclass
class Milestone:
    """A milestone of the prestige track, and who took its animal token."""

    mark: int
    x: str  # an SVG coordinate (see _track_x)
    taken_by: int  # seat, or -1
    colour: str
    words: str


@dataclass
class Player:
    """One seat at the table, its shield and its tokens, as the viewer may see them."""

    seat: int
    name: str
    colour: str
    colour_word: str
    mine: bool
    to_act: bool
    hand_count: int
    prestige: int
    heralds: int
    animals: int
    abatement_token: bool
    markers_left: int
    claimed: list[str]
    spaces: list[SpaceDrawing]
    rows: list[RowMark]
    blazon: str
    track_x: str
    milestones: list[Milestone]
    targets: list[Target] = field(default_factory=list)

    @property
    def markers_range(self) -> range:
        return range(self.markers_left)


@dataclass
class Spot:
    """A space and alignment a card of the hand may be placed in, and the ways to pay."""

    words: str
    controls: list[Control]  # labelled by the way of paying (the words say where)


@dataclass
class HandCard:
    """A card of the viewer's hand and what may be done with it now."""

    face: Face
    drawn: bool  # drawn by this Acquire (it may still be exchanged)
    selected: bool
    placements: list[Control]  # every placement of this card (normal, Herald, abatement)
    actions: list[Control]  # pay with it, or discard it (hand limit)
    spots: list[Spot] = field(default_factory=list)  # the placements by space and alignment
    payable: bool = False  # it is one of the cards of a legal payment (``pay_cards``)

    @property
    def choosable(self) -> bool:
        """Placing it is possible (the card is a choice that lights up its spaces), or paying
        with it (a choice of the payment)."""
        return bool(self.placements) or self.payable


@dataclass
class Payment:
    """Paying for the card just placed in one move: the hand is a choice group whose
    candidates are the legal ``pay_cards`` moves (choices.js), with the total and what is due."""

    due: int
    moves: list[dict[str, Any]]

    @property
    def candidates_json(self) -> str:
        """The group's ``data-candidates``: each legal payment as its cards and its move."""
        return json.dumps(
            [{"choices": [str(c) for c in m["cards"]], "move": m} for m in self.moves],
            sort_keys=True,
        )


@dataclass
class DisplaySlot:
    """A face-up card of the display and the moves on it (exchange, Herald take)."""

    slot: int
    deck: str
    face: Face | None
    controls: list[Control]


@dataclass
class Pile:
    """A deck (face down, its count) and its discard pile (its top card face up)."""

    deck: str
    words: str
    count: int
    discards: int
    top: Face | None
    draw: list[Control]
    take_top: list[Control]


@dataclass
class Award:
    """An award space of a distinction card: its value and whose marker lies on it."""

    value: int
    seat: int  # -1 when free
    colour: str
    name: str


@dataclass
class DistinctionCard:
    """One of the five distinctions in play."""

    ident: str
    category: str
    name: str
    requirement: str
    awards: list[Award]
    claim: Control | None


@dataclass
class Table:
    """Everything the Blazon drawing needs."""

    viewer_seat: int | None
    phase: str
    turn_number: int
    your_turn: bool
    decision: str
    end_words: str
    players: list[Player]
    hand: list[HandCard]
    display: list[DisplaySlot]
    piles: list[Pile]
    distinctions: list[DistinctionCard]
    herald_pile: int
    pay_due: int
    controls: list[Control]
    legal_moves: list[dict[str, Any]]
    last_moves: list[str] = field(default_factory=list)
    final: list[dict[str, Any]] = field(default_factory=list)
    final_words: str = ""
    payment: Payment | None = None
    # Drawn for someone looking over the seat's shoulder (play.drawings.Draw): no "you".
    onlooker: bool = False

    @property
    def legal_moves_json(self) -> str:
        """Every legal move of the viewer now, as JSON (FRONTEND.md: with the fragment)."""
        return json.dumps(self.legal_moves, sort_keys=True)

    @property
    def me(self) -> Player | None:
        """The viewer's own seat (None for a spectator)."""
        return next((p for p in self.players if p.mine), None)

    @property
    def others(self) -> list[Player]:
        """The other seats, in seat order after the viewer's."""
        if self.viewer_seat is None:
            return self.players
        count = len(self.players)
        return [self.players[(self.viewer_seat + k) % count] for k in range(1, count)]

    @property
    def device_slots(self) -> list[DisplaySlot]:
        return [slot for slot in self.display if slot.deck == "device"]

    @property
    def tincture_slots(self) -> list[DisplaySlot]:
        return [slot for slot in self.display if slot.deck == "tincture"]

    @property
    def final_lines(self) -> list[dict[str, Any]]:
        """The final scoring line by line (the rulebook's order), each with the players'
        figures in the order of ``final`` (best rank first)."""
        words = final_line_words()
        return [
            {"key": key, "words": words[key], "values": [row["lines"][i] for row in self.final]}
            for i, key in enumerate(FINAL_LINES)
        ]

    @property
    def placing(self) -> bool:
        """Some card of the hand can be placed now."""
        return any(card.placements for card in self.hand)


# -- words -----------------------------------------------------------------------------------


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else gettext("seat %(n)s") % {"n": seat + 1}


@per_language
def space_words(name: str, row: int, col: int) -> str:
    """A space of the shield as a person says it."""
    if row == 0:
        return gettext("the cadency space")
    return gettext("row %(row)s, column %(col)s") % {"row": row, "col": col}


def clause_words(clause: Clause) -> str:
    """One clause of a distinction's requirement in words (ruling BZ-3's language)."""
    kind, n = clause.kind, clause.n
    if kind == "aug":
        return gettext("%(symbol)s × %(n)s") % {
            "symbol": augmentation_words().get(clause.subject, clause.subject),
            "n": n,
        }
    if kind == "type":
        return gettext("%(symbol)s × %(n)s") % {"symbol": _symbol(clause.subject), "n": n}
    counted = {
        "augs-distinct": ngettext(
            "%(n)s different augmentation", "%(n)s different augmentations", n
        ),
        "aug-pairs": ngettext(
            "%(n)s augmentation twice", "%(n)s different augmentations twice each", n
        ),
        "types-distinct": ngettext(
            "%(n)s different element type", "%(n)s different element types", n
        ),
        "tinctures-distinct": ngettext("%(n)s different tincture", "%(n)s different tinctures", n),
        "row-same-aug": ngettext(
            "%(n)s full row of one augmentation", "%(n)s full rows of one augmentation each", n
        ),
        "row-distinct-augs": ngettext(
            "%(n)s full row of three different augmentations",
            "%(n)s full rows of three different augmentations",
            n,
        ),
        "cards": ngettext("%(n)s card on the shield", "%(n)s cards on the shield", n),
    }
    if kind in counted:
        return counted[kind] % {"n": n}
    if kind == "row-full":
        return gettext("row %(row)s full") % {"row": n}
    if kind == "space":
        return gettext("a card on the cadency space")
    return kind


def requirement_words(clauses: tuple[Clause, ...]) -> str:
    """A distinction's requirement: all its clauses, joined."""
    return _requirement_words(clauses, active_language())


# The edition's distinctions, worded once per language in this process: every seat's drawing
# shows all five, and wording them anew was a fifth of a Blazon table's context.
@functools.lru_cache(maxsize=256)
def _requirement_words(clauses: tuple[Clause, ...], language: str | None) -> str:
    return " + ".join(clause_words(clause) for clause in clauses)


def decision_words(view: dict[str, Any], names: list[str], *, onlooker: bool = False) -> str:
    """What the table waits for: addressed to the viewer on their turn (unless ``onlooker``),
    else by name."""
    seat, turn, phase = view["seat"], view["turn"], view["phase"]
    if phase == "over":
        return gettext("The game is over.")
    if seat == turn and not onlooker:
        return _my_decision(view)
    words = {"name": _name(names, turn)}
    waiting = {
        "main": gettext("%(name)s chooses an action."),
        "draw": gettext("%(name)s draws a second card."),
        "exchange": gettext("%(name)s may exchange the drawn cards with the display."),
        "pay": gettext("%(name)s pays for a card placed on their shield."),
        "blazon": gettext("%(name)s is placing cards on their shield."),
        "end": gettext("%(name)s is ending their turn."),
        "claim": gettext("%(name)s chooses a distinction to claim."),
    }
    return waiting.get(phase, gettext("%(name)s is to play.")) % words


def _my_decision(view: dict[str, Any]) -> str:
    phase = view["phase"]
    if phase == "pay":
        return ngettext(
            "pay %(due)s more prestige for the card you placed: discard cards from your hand (no change is given).",
            "pay %(due)s more prestige for the card you placed: discard cards from your hand (no change is given).",
            view["pay_due"],
        ) % {"due": view["pay_due"]}
    if phase == "end":
        held = len(view.get("hand", []))
        if held > HAND_LIMIT:
            return gettext("discard down to 7 cards (you hold %(held)s).") % {"held": held}
        return gettext("end your turn (a Herald action or a refresh first, if you like).")
    mine = {
        "main": gettext(
            "draw two cards (Acquire) or place cards from your hand on your shield (Blazon)."
        ),
        "draw": gettext("draw your second card."),
        "exchange": gettext(
            "exchange the drawn cards with the display, like for like, or keep them."
        ),
        "blazon": gettext("place another card, or finish the Blazon action."),
        "claim": gettext("you meet several distinctions: choose the one to claim."),
    }
    return mine.get(phase, gettext("your move."))


def end_words(view: dict[str, Any], names: list[str]) -> str:
    """The end trigger, once it has fired: who, why, and that the others play once more."""
    trigger = view.get("end_trigger")
    if not trigger:
        return ""
    reasons = {
        "prestige": gettext("reached 50 prestige"),
        "full-shield": gettext("filled their shield"),
        "distinctions": gettext("claimed their last distinction"),
    }
    if trigger["trigger"] == "stalled":
        return gettext("Nobody could draw or place a card for a whole round: the game ends.")
    return gettext("%(name)s %(reason)s: every other player takes one final turn.") % {
        "name": _name(names, trigger["seat"]),
        "reason": reasons.get(trigger["trigger"], trigger["trigger"]),
    }


# -- cards -----------------------------------------------------------------------------------


def _lines(name: str, width: int = 10) -> list[str]:
    """A card's name on at most two lines of about ``width`` characters."""
    lines: list[str] = []
    for part in name.split():
        if lines and len(lines[-1]) + 1 + len(part) <= width:
            lines[-1] += " " + part
        elif len(lines) < 2:
            lines.append(part)
        else:
            lines[-1] += " " + part
    return lines or [name]


def _paint(card: dict[str, Any]) -> tuple[str, str, str]:
    """(fill, ink, fur pattern) of a card: tinctures in their colour, devices on parchment."""
    if card["category"] == "device":
        return (*DEVICE_PAINT, "")
    fur = FURS.get(card["name"], "")
    if fur:
        return f"url(#bz-fur-{fur})", "#1a1a1a", fur
    return (*TINCTURE_PAINT.get(card["name"], UNKNOWN_PAINT), "")


def face_of(card: dict[str, Any], edition: str, *, fits: bool = False) -> Face:
    """The drawing of a card of a view (``{"number", "name", "category", "type", ...}``);
    ``fits``: with the mini-map of the spaces it fits (the hand's cards). A copy of the face
    made once per card, edition and language (every drawing draws the same cards again)."""
    made = _face_in(tuple(sorted(card.items())), edition, fits, active_language())
    return replace(made, lines=list(made.lines), fits=list(made.fits))


@functools.lru_cache(maxsize=2048)
def _face_in(
    items: tuple[tuple[str, Any], ...], edition: str, fits: bool, language: str | None
) -> Face:
    card = dict(items)
    fill, ink, fur = _paint(card)
    lines = _lines(card["name"])
    return Face(
        number=card["number"],
        name=card["name"],
        category=card["category"],
        type=card["type"],
        augmentation=card["augmentation"],
        prestige=card["prestige"],
        fill=fill,
        ink=ink,
        fur=fur,
        lines=lines,
        small=any(len(line) > 10 for line in lines),
        type_word=_symbol(card["type"]),
        category_word=category_words().get(card["category"], card["category"]),
        augmentation_word=augmentation_words().get(card["augmentation"], card["augmentation"]),
        fits=list(fit_marks(card["number"], edition, active_language())) if fits else [],
    )


@functools.lru_cache(maxsize=1024)
def fit_marks(number: int, edition: str, language: str | None) -> tuple[dict[str, Any], ...]:
    """The mini-map of where a card fits: per space and alignment, its cell and whether it fits
    (the edition's board; a card of another edition fits nowhere). The same for every game:
    made once per card and language."""
    tables = TABLES.get(edition)
    if tables is None or number not in tables.fit_spots:
        return ()
    spots = set(tables.fit_spots[number])
    marks = []
    for space in tables.board.spaces:
        aligns = (0,) if space.row == 0 else (0, 1)
        for align in aligns:
            x = 11 if space.row == 0 else (space.col - 1) * 11
            y = 34 if space.row == 0 else (space.row - 1) * 11 + align * 5
            marks.append({
                "x": x,
                "y": y,
                "h": 5 if space.row else 6,
                "fits": (space.index, align) in spots,
                "words": _spot_words(space.name, space.row, space.col, align),
            })  # fmt: skip
    return tuple(marks)


@per_language
def _spot_words(name: str, row: int, col: int, align: int) -> str:
    where = space_words(name, row, col)
    if row == 0:
        return where
    return gettext("%(space)s (%(align)s)") % {
        "space": where,
        "align": render(ALIGN_WORDS[("top", "bottom")[align]]),
    }


# -- the shields -----------------------------------------------------------------------------


def _edition(view: dict[str, Any]) -> Edition:
    return EDITIONS.get(view["edition"]) or EDITIONS[next(iter(EDITIONS))]


def shield_spaces(player: dict[str, Any], edition: str) -> list[SpaceDrawing]:
    """A seat's shield: each space of the board with its symbols and the card on it. Shields
    are public and change one card at a time, so each is drawn once per cards and language in
    this process and its spaces are shared (read only) by every drawing that shows it."""
    shield = json.dumps(player["shield"], sort_keys=True)
    return list(_shield_spaces(shield, edition, active_language()))


# About 40 objects a shield, which the garbage collector scans while the cache holds them: room
# for the shields of some 250 four-seat tables, each as it is now.
@functools.lru_cache(maxsize=1024)
def _shield_spaces(shield: str, edition: str, language: str | None) -> tuple[SpaceDrawing, ...]:
    board = (EDITIONS.get(edition) or EDITIONS[next(iter(EDITIONS))]).board
    spaces = []
    for space, placed in zip(board.spaces, json.loads(shield), strict=False):
        x, y, w, h = _space_box(space.row, space.col)
        drawn = SpaceDrawing(
            index=space.index,
            name=space.name,
            words=space_words(space.name, space.row, space.col),
            row=space.row,
            col=space.col,
            x=x,
            y=y,
            w=w,
            h=h,
            cadency=space.row == 0,
            top_word=_symbol(space.top),
            bottom_word=_symbol(space.bottom),
            top_category="tincture" if _is_tincture_symbol(space.top) else "device",
            bottom_category="tincture" if _is_tincture_symbol(space.bottom) else "device",
        )
        if placed:
            drawn.card = face_of(placed["card"], edition)
            drawn.align = placed["align"]
            drawn.abated = bool(placed.get("abated"))
        spaces.append(drawn)
    return tuple(spaces)


def _is_tincture_symbol(symbol: str) -> bool:
    return symbol in ("metal", "colour", "fur", "tincture")


def row_marks(spaces: list[SpaceDrawing]) -> list[RowMark]:
    """Each grid row holding cards, with the alignment its cards share (or the first's)."""
    marks = []
    for row in (1, 2, 3):
        placed = [s for s in spaces if s.row == row and s.card]
        if placed:
            align = placed[0].align
            marks.append(
                RowMark(
                    row=row,
                    align=align,
                    y=_space_box(row, 1)[1] + CELL // 2,
                    words=gettext("row %(row)s: %(align)s alignment")
                    % {"row": row, "align": render(ALIGN_WORDS[align])},
                )
            )
    return marks


def _milestones(view: dict[str, Any], names: list[str]) -> list[Milestone]:
    marks = []
    for mark, seat in sorted(view["milestones"].items(), key=lambda item: int(item[0])):
        value = int(mark)
        marks.append(
            Milestone(
                mark=value,
                x=_track_x(value),
                taken_by=seat,
                colour=SEAT_COLOURS[seat % len(SEAT_COLOURS)] if seat >= 0 else "",
                words=gettext("%(mark)s: animal token taken by %(name)s")
                % {"mark": value, "name": _name(names, seat)}
                if seat >= 0
                else gettext("%(mark)s: animal token still to take") % {"mark": value},
            )
        )
    return marks


def _track_x(prestige: int) -> str:
    """Where ``prestige`` lies on the drawn track (0 at the left, 50 and beyond at the right),
    as an SVG coordinate: written here, not by the template, which would localise the decimal
    point (a French page would write "67,2", which SVG refuses)."""
    return f"{12 + 276 * min(max(prestige, 0), TRACK_END) / TRACK_END:.1f}"


def blazon_words(shown: dict[str, Any], edition: str) -> str:
    """A seat's blazon in the viewer's language: the view carries the English one; the engine
    composes it in French from the cards the view shows on the shield."""
    language = (active_language() or "en").split("-")[0]
    tables = TABLES.get(edition)
    if language == "en" or language not in BLAZON_LANGUAGES or tables is None:
        return str(shown["blazon"])
    shield = [placed["card"]["number"] if placed else 0 for placed in shown["shield"]]
    return shield_blazon(shield, tables, language)


def player_for(
    shown: dict[str, Any], view: dict[str, Any], names: list[str], milestones: list[Milestone]
) -> Player:
    """One seat of the view as drawn."""
    seat = shown["seat"]
    edition = view["edition"]
    by_id = _edition(view).distinction_by_id
    spaces = shield_spaces(shown, edition)
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    return Player(
        seat=seat,
        name=_name(names, seat),
        colour=colour,
        colour_word=seat_colour_words()[colour],
        mine=seat == view["seat"],
        to_act=seat == view["turn"] and view["phase"] != "over",
        hand_count=shown["hand_count"],
        prestige=shown["prestige"],
        heralds=shown["heralds"],
        animals=shown["animals"],
        abatement_token=bool(shown["abatement_token"]) and bool(view["options"]["abatement"]),
        markers_left=max(len(view["distinctions"]) - len(shown["distinctions"]), 0),
        claimed=[by_id[d].name if d in by_id else d for d in shown["distinctions"]],
        spaces=spaces,
        rows=row_marks(spaces),
        blazon=blazon_words(shown, edition),
        track_x=_track_x(shown["prestige"]),
        milestones=milestones,
    )


# -- moves on the objects --------------------------------------------------------------------


def _by_type(legal_moves: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for move in legal_moves:
        found.setdefault(str(move.get("type")), []).append(move)
    return found


def placement_where(move: dict[str, Any], board_spaces: list[SpaceDrawing]) -> str:
    """Where a placement puts its card: the space and the alignment."""
    space = next((s for s in board_spaces if s.index == move["space"]), None)
    if space is not None and space.cadency:
        return space.words
    return gettext("%(space)s, %(align)s") % {
        "space": space.words if space is not None else str(move["space"]),
        "align": render(ALIGN_WORDS.get(move["align"], move["align"])),
    }


def placement_cost_words(move: dict[str, Any], cost: int) -> str:
    """How a placement is paid: the card's prestige, or 1 with a herald; with the abatement
    token when it breaks a placement rule."""
    words = {"cost": cost}
    if move.get("herald") and move.get("abate"):
        return gettext("herald and abatement token: pay 1") % words
    if move.get("herald"):
        return gettext("with a herald: pay 1") % words
    if move.get("abate"):
        return gettext("abatement token: pay %(cost)s") % words
    return gettext("pay %(cost)s") % words


def placement_label(move: dict[str, Any], board_spaces: list[SpaceDrawing], cost: int) -> str:
    """A placement in words: where, in which alignment, and how it is paid."""
    return gettext("%(where)s — %(paid)s") % {
        "where": placement_where(move, board_spaces),
        "paid": placement_cost_words(move, cost),
    }


def _target_css(space: SpaceDrawing, align: str) -> str:
    if space.cadency:
        return "bz-at-cadency"
    return f"bz-col-{space.col} bz-half-{space.row}-{align}"


def hand_cards(
    view: dict[str, Any], moves: dict[str, list[dict[str, Any]]], me: Player | None
) -> list[HandCard]:
    """The viewer's hand as cards, each with its placements and what it pays or discards."""
    edition = view["edition"]
    drawn_left = [card["number"] for card in view.get("drawn", [])]
    placements: dict[int, list[dict[str, Any]]] = {}
    for move in moves.get("place", []):
        placements.setdefault(move["card"], []).append(move)
    payments = moves.get("pay_cards", [])
    payable = {card for m in payments for card in m["cards"]}
    # With payments in one move the cards are chosen; a game set up before them pays by card.
    pays = {} if payments else {m["card"]: m for m in moves.get("pay", [])}
    discards = {m["card"]: m for m in moves.get("discard", [])}
    due = int(view.get("pay_due") or 0)
    spaces = me.spaces if me is not None else []
    cards = []
    selected_one = False
    for card in view.get("hand", []):
        face = face_of(card, edition, fits=True)
        number = card["number"]
        mine = sorted(
            placements.get(number, []),
            key=lambda m: (m["space"], m["align"], bool(m.get("herald")), bool(m.get("abate"))),
        )
        actions = []
        if number in pays:
            actions.append(Control(_pay_label(face.prestige, due), pays[number]))
        if number in discards:
            actions.append(Control(gettext("Discard"), discards[number]))
        # The first card that can be placed is chosen when the table is drawn, so that a
        # placement is one click away (and a test that clicks moves only can place cards).
        selected = bool(mine) and not selected_one
        selected_one = selected_one or selected
        cards.append(
            HandCard(
                face=face,
                drawn=number in drawn_left,
                selected=selected,
                placements=[
                    Control(placement_label(m, spaces, _cost(m, face.prestige)), m) for m in mine
                ],
                actions=actions,
                spots=_spots(mine, spaces, face.prestige),
                payable=number in payable,
            )
        )
    return cards


def _spots(mine: list[dict[str, Any]], spaces: list[SpaceDrawing], prestige: int) -> list[Spot]:
    """A card's placements grouped by space and alignment, in board order."""
    spots: dict[tuple[int, str], Spot] = {}
    for move in mine:
        where = (move["space"], move["align"])
        if where not in spots:
            spots[where] = Spot(placement_where(move, spaces), [])
        label = placement_cost_words(move, _cost(move, prestige))
        spots[where].controls.append(Control(label, move))
    return list(spots.values())


def _cost(move: dict[str, Any], prestige: int) -> int:
    return 1 if move.get("herald") else prestige


def _pay_label(worth: int, due: int) -> str:
    if worth > due:
        return gettext("Pay %(worth)s (no change given)") % {"worth": worth}
    return gettext("Pay %(worth)s") % {"worth": worth}


def shield_targets(me: Player, hand: list[HandCard]) -> list[Target]:
    """The lit halves of the viewer's shield: per card, one button per space and alignment it
    may be placed in now (the plain placement when there is one, else the first other)."""
    by_index = {space.index: space for space in me.spaces}
    targets = []
    for card in hand:
        seen: set[tuple[int, str]] = set()
        for control in card.placements:
            move = control.move
            where = (move["space"], move["align"])
            space = by_index.get(move["space"])
            if where in seen or space is None:
                continue
            seen.add(where)
            plain = next(
                (
                    c
                    for c in card.placements
                    if (c.move["space"], c.move["align"]) == where
                    and not c.move.get("herald")
                    and not c.move.get("abate")
                ),
                control,
            )
            targets.append(
                Target(
                    card=card.face.number,
                    space=move["space"],
                    align=move["align"],
                    css=_target_css(space, move["align"]),
                    control=Control(
                        gettext("Place %(card)s on %(where)s")
                        % {"card": card.face.name, "where": plain.label},
                        plain.move,
                    ),
                    shown=card.selected,
                )
            )
    return targets


def display_slots(
    view: dict[str, Any], moves: dict[str, list[dict[str, Any]]], names: list[str]
) -> list[DisplaySlot]:
    """The six display cards with the exchanges and the Herald take aimed at each."""
    edition = view["edition"]
    drawn = {card["number"]: card["name"] for card in view.get("drawn", [])}
    slots = []
    for slot, card in enumerate(view["display"]):
        controls = [
            Control(
                gettext("Give %(card)s for it") % {"card": drawn.get(m["card"], "?")},
                m,
            )
            for m in moves.get("exchange", [])
            if m["slot"] == slot
        ]
        controls += [
            Control(gettext("Take it with a herald"), m)
            for m in moves.get("herald_take", [])
            if m["slot"] == slot
        ]
        slots.append(
            DisplaySlot(
                slot=slot,
                deck="device" if slot < 4 else "tincture",
                face=face_of(card, edition) if card else None,
                controls=controls,
            )
        )
    return slots


def piles(view: dict[str, Any], moves: dict[str, list[dict[str, Any]]]) -> list[Pile]:
    """The two decks (counts, the draws) and their discard piles (top card, the Herald take)."""
    edition = view["edition"]
    found = []
    for deck in ("tincture", "device"):
        discards = view["discards"][deck]
        found.append(
            Pile(
                deck=deck,
                words=deck_words()[deck],
                count=view["decks"][deck],
                discards=len(discards),
                top=face_of(discards[-1], edition) if discards else None,
                draw=[
                    Control(gettext("Draw"), m) for m in moves.get("draw", []) if m["deck"] == deck
                ]
                + [
                    Control(gettext("Draw with a herald"), m)
                    for m in moves.get("herald_draw", [])
                    if m["deck"] == deck
                ],
                take_top=[
                    Control(gettext("Take the top card with a herald"), m)
                    for m in moves.get("herald_discard_pile", [])
                    if m["deck"] == deck
                ],
            )
        )
    return found


def distinction_cards(
    view: dict[str, Any], moves: dict[str, list[dict[str, Any]]], names: list[str]
) -> list[DistinctionCard]:
    """The five distinctions: requirement in words, award spaces with the markers on them."""
    by_id = _edition(view).distinction_by_id
    claims = {m["distinction"]: m for m in moves.get("claim", [])}
    cards = []
    for shown in view["distinctions"]:
        known = by_id.get(shown["id"])
        markers = list(shown["markers"])
        awards = [
            Award(
                value=value,
                seat=markers[i] if i < len(markers) else -1,
                colour=SEAT_COLOURS[markers[i] % len(SEAT_COLOURS)] if i < len(markers) else "",
                name=_name(names, markers[i]) if i < len(markers) else "",
            )
            for i, value in enumerate(shown["awards"])
        ]
        claim = claims.get(shown["id"])
        cards.append(
            DistinctionCard(
                ident=shown["id"],
                category=shown["category"],
                name=shown["name"],
                requirement=requirement_words(known.clauses) if known else shown["requirement"],
                awards=awards,
                claim=Control(gettext("Claim this distinction"), claim) if claim else None,
            )
        )
    return cards


#: Moves drawn as buttons in words (the others lie on the objects they concern).
BUTTON_WORDS = {
    "keep": lambda: gettext("Keep the drawn cards"),
    "finish": lambda: gettext("Finish the Blazon action"),
    "end_turn": lambda: gettext("End the turn"),
    "pass": lambda: gettext("Pass (nothing can be drawn or placed)"),
    "refresh": lambda: gettext("Refresh the display (three alike)"),
    "herald_refresh": lambda: gettext("Discard and refill the display with a herald"),
}


def viewer_of(view: dict[str, Any]) -> int | None:
    """The seat whose view this is: the one player shown with a hand (None: the public view)."""
    return next((p["seat"] for p in view["players"] if "hand" in p), None)


def table_for(
    view: dict[str, Any], legal_moves: list[dict[str, Any]], names: list[str], *,
    onlooker: bool = False,
) -> Table:  # fmt: skip
    """The drawing of ``view`` (one seat's, or the public one) with the viewer's controls;
    ``onlooker``: see play.drawings.Draw."""
    seat = viewer_of(view)
    own = view["players"][seat]["hand"] if seat is not None else []
    view = {**view, "seat": seat, "hand": own}
    moves = _by_type(legal_moves)
    milestones = _milestones(view, names)
    players = [player_for(p, view, names, milestones) for p in view["players"]]
    me = next((p for p in players if p.mine), None)
    hand = hand_cards(view, moves, me)
    if me is not None:
        me.targets = shield_targets(me, hand)
    controls = [
        Control(words(), move)
        for kind, words in BUTTON_WORDS.items()
        for move in moves.get(kind, [])
    ]
    return Table(
        viewer_seat=view["seat"],
        phase=view["phase"],
        turn_number=view["turn_number"],
        your_turn=not onlooker
        and view["seat"] is not None
        and view["seat"] == view["turn"]
        and bool(legal_moves),
        decision=decision_words(view, names, onlooker=onlooker),
        end_words=end_words(view, names),
        players=players,
        hand=hand,
        display=display_slots(view, moves, names),
        piles=piles(view, moves),
        distinctions=distinction_cards(view, moves, names),
        herald_pile=view["herald_pile"],
        pay_due=int(view.get("pay_due") or 0),
        controls=controls,
        legal_moves=list(legal_moves),
        payment=(
            Payment(int(view.get("pay_due") or 0), moves["pay_cards"])
            if moves.get("pay_cards")
            else None
        ),
        onlooker=onlooker,
    )


# -- game over -------------------------------------------------------------------------------

#: The lines of the final scoring, in the rulebook's order (result details' keys).
FINAL_LINES = (
    "track",
    "augmentations",
    "distinctions",
    "heralds",
    "animals",
    "full_shield",
    "abatement",
)


@per_language
def final_line_words() -> dict[str, str]:
    """The final scoring's lines as column headings."""
    return {
        "track": gettext("Prestige track"),
        "augmentations": gettext("Augmentations"),
        "distinctions": gettext("Distinctions"),
        "heralds": gettext("Heralds"),
        "animals": gettext("Animals"),
        "full_shield": gettext("Full shield"),
        "abatement": gettext("Abatement"),
    }


def add_result(table: Table, result: dict[str, Any] | None, names: list[str]) -> Table:
    """Put the final scoring on ``table`` once the game is over: per player each line of the
    final scoring, the total and the tie-break figures, best rank first."""
    if not result:
        return table
    details = result.get("details") or {}
    ranks = result.get("ranks") or []
    augs = augmentation_words()
    blazons = {player.seat: player.blazon for player in table.players}  # the viewer's language
    rows = []
    for seat, line in enumerate(details.get("players", [])):
        rows.append({
            "seat": seat,
            "name": _name(names, seat),
            "colour": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
            "mine": seat == table.viewer_seat,
            "rank": ranks[seat] if seat < len(ranks) else None,
            "lines": [line.get(key, 0) for key in FINAL_LINES],
            "total": line.get("total", 0),
            "hand_prestige": line.get("hand_prestige", 0),
            "augmentations_won": ", ".join(augs.get(a, a) for a in line.get("augmentations_won", [])),
            "blazon": blazons.get(seat, line.get("blazon", "")),
        })  # fmt: skip
    table.final = sorted(rows, key=lambda row: (row["rank"] or 99, row["seat"]))
    table.final_words = _final_reason(details, names)
    return table


def _final_reason(details: dict[str, Any], names: list[str]) -> str:
    trigger, seat = details.get("trigger", ""), details.get("trigger_seat", -1)
    words = {"name": _name(names, seat), "turns": details.get("turns", 0)}
    if trigger == "prestige":
        return (
            gettext("%(name)s reached 50 prestige; the game ended after %(turns)s turns.") % words
        )
    if trigger == "full-shield":
        return (
            gettext("%(name)s filled their shield; the game ended after %(turns)s turns.") % words
        )
    if trigger == "distinctions":
        return (
            gettext(
                "%(name)s claimed their last distinction; the game ended after %(turns)s turns."
            )
            % words
        )
    if trigger == "stalled":
        return gettext("Nobody could draw or place a card for a whole round: the game ended.")
    return ""


# -- the replay's words for chance outcomes ----------------------------------------------------


@per_language
def effect_labels() -> dict[str, str]:
    """The keys of Blazon's effect details (engine/blazon/play.py) in words."""
    return {
        "order": gettext("order, top last"),
        "hand": gettext("hand"),
        "card": gettext("card"),
        "slot": gettext("display slot"),
        "distinctions": gettext("distinctions"),
        "deck": gettext("deck"),
        "cards": gettext("cards"),
        "kept_at_bottom": gettext("kept at the bottom"),
    }


def effect_words(kind: str, data: dict[str, Any], names: list[str]) -> str | None:
    """An effect's details in words for the replay viewer (``Drawing.effect_words``): cards
    by their names, distinctions by theirs, a display slot counted from 1."""
    labels = effect_labels()
    return " · ".join(
        f"{labels.get(key, key)}: {_effect_value(key, value)}" for key, value in data.items()
    )


def _effect_value(key: str, value: Any) -> str:
    edition = EDITIONS[next(iter(EDITIONS))]
    if key in ("order", "hand", "card"):
        numbers = value if isinstance(value, list) else [value]
        return ", ".join(
            edition.cards[n].name if isinstance(n, int) and n in edition.cards else str(n)
            for n in numbers
        )
    if key == "distinctions" and isinstance(value, list):
        by_id = edition.distinction_by_id
        return ", ".join(by_id[d].name if d in by_id else str(d) for d in value)
    if key == "slot" and isinstance(value, int):
        return str(value + 1)
    if key == "deck" and isinstance(value, str):
        return deck_words().get(value, value)
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)
