"""The Shield board: placement rules (ruling BZ-1), distinction requirements (BZ-3), the blazon
(in English here, in French by engine/blazon/french.py).

Pure functions over one :class:`~engine.blazon.state.PlayerState` and the edition's tables,
which are precomputed once at import (which card fits which space in which alignment).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from engine.blazon.cards import (
    AUGMENTATIONS,
    EDITIONS,
    TYPES,
    WILD,
    WILD_TINCTURE_SYMBOL,
    Board,
    Card,
    Clause,
    Edition,
    category_of_symbol,
)
from engine.blazon.french import blazon as french_blazon
from engine.blazon.state import ALIGNS, PlayerState
from engine.blazon.words import (
    ALIGN_WORDS,
    CARD_KINDS,
    SYMBOL_KINDS,
    SYMBOL_WORDS,
    TYPE_WORDS,
    word,
)
from engine.core.text import Text, _

CADENCY_ROW = 0


def symbol_fits(card: Card, symbol: str) -> bool:
    """A card fits a symbol of its own type; the wild tincture symbol takes any tincture."""
    if symbol == WILD_TINCTURE_SYMBOL:
        return card.category == "tincture"
    return card.type == symbol


@dataclass(frozen=True, slots=True, eq=False)  # hashed by identity: one per edition
class Tables:
    """Per-edition lookups by card number, built once."""

    edition: Edition
    board: Board
    prestige: tuple[int, ...]
    category: tuple[str, ...]
    fits: dict[tuple[int, int, int], bool]  # (card, space, align) → symbol matches
    same_kind: dict[tuple[int, int, int], bool]  # (card, space, align) → same category
    row_of: tuple[int, ...]  # space → row (0: cadency)
    row_mates: tuple[tuple[int, ...], ...]  # space → the other spaces of its row
    tincture_mates: tuple[tuple[int, ...], ...]  # space → spaces it may not repeat a tincture of
    fit_spots: dict[int, tuple[tuple[int, int], ...]]  # card → (space, align) whose symbol fits
    kind_spots: dict[int, tuple[tuple[int, int], ...]]  # card → (space, align) of its category
    # card → the name two identical tinctures share ("" for a device): the identical-tincture
    # rule compares these, one tuple index per card instead of two Card lookups
    tincture_names: tuple[str, ...]
    # card → frozenset of the (space, align) it may go to by the symbol rules alone (category,
    # symbol, the cadency space's single alignment): the common placement's check in one test
    fit_sets: tuple[frozenset[tuple[int, int]], ...]
    # card → its element type and augmentation symbol as 4-bit counters of one int (0 for no
    # card): summed over the display they count each symbol at once (display_refreshable)
    symbol_counters: tuple[int, ...]


def build_tables(edition: Edition) -> Tables:
    """Precompute the lookups of one edition."""
    board = edition.board
    top = max(edition.cards)
    prestige = [0] * (top + 1)
    category = [""] * (top + 1)
    fits: dict[tuple[int, int, int], bool] = {}
    same_kind: dict[tuple[int, int, int], bool] = {}
    for number, card in edition.cards.items():
        prestige[number] = card.prestige
        category[number] = card.category
        for space in board.spaces:
            for align in (0, 1):
                symbol = space.symbol(align)
                fits[number, space.index, align] = symbol_fits(card, symbol)
                same_kind[number, space.index, align] = category_of_symbol(symbol) == card.category
    row_of = tuple(space.row for space in board.spaces)
    mates = tuple(
        tuple(t for t in board.rows[s.row] if t != s.index) if s.row else () for s in board.spaces
    )
    tincture_mates = tuple(
        tuple(
            t for group in board.tincture_groups if s.index in group for t in group if t != s.index
        )
        for s in board.spaces
    )
    aligns_of = [(s.index, a) for s in board.spaces for a in ((0, 1) if s.row else (0,))]
    fit_spots = {c: tuple(sa for sa in aligns_of if fits[c, sa[0], sa[1]]) for c in edition.cards}
    symbols = (*TYPES, *AUGMENTATIONS, WILD)
    counters = [0] * (top + 1)
    for number, card in edition.cards.items():
        counters[number] = (1 << 4 * symbols.index(card.type)) + (
            1 << 4 * symbols.index(card.augmentation)
        )
    tincture_names = [""] * (top + 1)
    fit_sets: list[frozenset[tuple[int, int]]] = [frozenset()] * (top + 1)
    for number, card in edition.cards.items():
        tincture_names[number] = card.name if card.category == "tincture" else ""
        fit_sets[number] = frozenset(fit_spots[number])
    return Tables(
        edition, board, tuple(prestige), tuple(category), fits, same_kind, row_of, mates,
        tincture_mates,
        fit_spots=fit_spots,
        kind_spots={c: tuple(sa for sa in aligns_of if same_kind[c, sa[0], sa[1]]) for c in edition.cards},
        tincture_names=tuple(tincture_names),
        fit_sets=tuple(fit_sets),
        symbol_counters=tuple(counters),
    )  # fmt: skip


TABLES = {name: build_tables(edition) for name, edition in EDITIONS.items()}


# -- placement (ruling BZ-1) ------------------------------------------------------------------


def is_flexible(tables: Tables, card: int, space: int) -> bool:
    """True when the card fits both alignments of its space (it may shift while alone)."""
    return tables.fits[card, space, 0] and tables.fits[card, space, 1]


def row_shift(player: PlayerState, tables: Tables, space: int, align: int) -> tuple[bool, int]:
    """Whether placing on ``space`` in ``align`` keeps its row in one alignment.

    Returns ``(ok, shifted)``: ``shifted`` is the space of a lone card that must shift to the
    new alignment to keep the row legal (the tincture shift), or -1. Cards under the
    abatement token, and the card being covered, are left out.
    """
    # A plain loop over the (at most two) row mates: this runs for every placement checked.
    shield, aligns, abated = player.shield, player.aligns, player.abated_space
    others = wrong = 0
    last_wrong = -1
    for t in tables.row_mates[space]:
        if shield[t] and t != abated:
            others += 1
            if aligns[t] != align:
                wrong += 1
                last_wrong = t
    if not wrong:
        return True, -1
    if others == 1 and is_flexible(tables, shield[last_wrong], last_wrong):
        return True, last_wrong
    return False, -1


def row_conflicts(player: PlayerState, tables: Tables, space: int, align: int) -> tuple[int, ...]:
    """Spaces of the row that a placement on ``space`` in ``align`` leaves in the other alignment.

    Empty when the row stays in one alignment (a lone flexible card shifts). Otherwise these
    cards must be covered by cards in ``align`` before the turn ends (the override rule).
    """
    ok, _ = row_shift(player, tables, space, align)
    if ok:
        return ()
    return tuple(
        t
        for t in tables.row_mates[space]
        if player.shield[t] and t != player.abated_space and player.aligns[t] != align
    )


def repeated_tincture(player: PlayerState, tables: Tables, card: int, space: int) -> int:
    """The space of an identical tincture that forbids ``card`` on ``space``, or -1."""
    return tincture_clash(tables, player.shield, card, space)


def tincture_clash(tables: Tables, shield: Sequence[int], card: int, space: int) -> int:
    """:func:`repeated_tincture` for the cards on ``shield`` (the card number on each space)."""
    name = tables.tincture_names[card]
    if not name:  # a device: the rule is about tinctures only
        return -1
    names = tables.tincture_names
    for other in tables.tincture_mates[space]:
        placed = shield[other]
        if placed and names[placed] == name:
            return other
    return -1


def can_finish_row_change(
    tables: Tables,
    *,
    shield: tuple[int, ...],
    hand: tuple[int, ...],
    due: int,
    conflicts: tuple[int, ...],
    align: int,
    herald: bool,
) -> bool:
    """Whether the hand can pay ``due`` and then cover every space of ``conflicts`` in ``align``.

    Each covering card fits its space and is paid separately (no change); ``herald``: one of
    them may be the Herald placement (pay 1). This is what makes a temporary two-alignment row
    legal: the player must be able to make the row legal before the turn ends.
    """
    return _finishable(
        tables,
        shield=shield,
        hand=tuple(sorted(hand)),
        due=due,
        conflicts=conflicts,
        align=align,
        herald=herald,
    )


@functools.lru_cache(maxsize=65536)
def _finishable(
    tables: Tables,
    *,
    shield: tuple[int, ...],
    hand: tuple[int, ...],
    due: int,
    conflicts: tuple[int, ...],
    align: int,
    herald: bool,
) -> bool:
    return any(
        can_pay_all(tuple(tables.prestige[c] for c in rest), (due, *costs))
        for rest, costs in _covers(
            tables, shield=shield, hand=hand, conflicts=conflicts, align=align, herald=herald
        )
    )


def _covers(
    tables: Tables,
    *,
    shield: tuple[int, ...],
    hand: tuple[int, ...],
    conflicts: tuple[int, ...],
    align: int,
    herald: bool,
) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Ways to cover ``conflicts``: (cards left to pay with, the cost of each cover)."""
    if not conflicts:
        return [(hand, ())]
    space, later = conflicts[0], conflicts[1:]
    ways = []
    for i, card in enumerate(hand):
        if not tables.fits[card, space, align] or tincture_clash(tables, shield, card, space) >= 0:
            continue
        after = (*shield[:space], card, *shield[space + 1 :])
        rest = hand[:i] + hand[i + 1 :]
        for rest_after, costs in _covers(
            tables, shield=after, hand=rest, conflicts=later, align=align, herald=herald
        ):
            ways.append((rest_after, (tables.prestige[card], *costs)))
        if herald:
            for rest_after, costs in _covers(
                tables, shield=after, hand=rest, conflicts=later, align=align, herald=False
            ):
                ways.append((rest_after, (1, *costs)))
    return ways


def can_pay_all(values: tuple[int, ...], costs: tuple[int, ...]) -> bool:
    """Whether cards of these values split into groups paying each cost (no change given).

    >>> can_pay_all((3, 1, 1), (2, 2))
    True
    >>> can_pay_all((3, 1), (2, 2))
    False
    """
    if sum(values) < sum(costs):
        return False
    states = {tuple(sorted(c for c in costs if c > 0))}
    for value in sorted(values, reverse=True):
        if () in states:
            return True
        grown = set(states)
        for needs in states:
            for i in range(len(needs)):
                left = needs[i] - value
                grown.add(
                    tuple(sorted((*needs[:i], *needs[i + 1 :], *([left] if left > 0 else []))))
                )
        states = grown
    return () in states


def placement_problem(
    player: PlayerState,
    tables: Tables,
    *,
    card: int,
    space: int,
    align: int,
    abate: bool,
    abatement_rule: bool,
    row_change: bool = False,
    row_ok: bool | None = None,
) -> Text | None:
    """Why the placement is refused (one sentence), or None when the placement rules allow it.

    ``card`` must be a card number of the edition and ``space``/``align`` in range; payment
    and turn order are checked by the caller. ``row_change``: a row left in two alignments is
    not refused here (the caller checks that the row can be made legal before the turn ends).
    ``row_ok``: the row check when the caller already made it.
    """
    if tables.row_of[space] == CADENCY_ROW and align != 0:
        return _("the cadency space has a single alignment: place it with align top")
    if not tables.same_kind[card, space, align]:
        return _wording(tables, card, space, align, "category")
    if player.shield[space] == card:
        return _wording(tables, card, space, align, "same")
    clash = repeated_tincture(player, tables, card, space)
    if clash >= 0:
        return _(
            "an identical tincture ({card}) is already on {space}",
            card=tables.edition.cards[card].name, space=tables.board.spaces[clash].name,
        )  # fmt: skip
    symbol_ok = tables.fits[card, space, align]
    if row_ok is None:
        row_ok, _shifted = row_shift(player, tables, space, align)
    if abate:
        return _abatement_problem(player, (not symbol_ok) + (not row_ok), abatement_rule, space)
    if not symbol_ok:
        return _wording(tables, card, space, align, "symbol")
    if not row_ok and not row_change:
        return _("row {row} already holds cards in the other alignment", row=tables.row_of[space])
    return None


def _wording(tables: Tables, card: int, space: int, align: int, problem: str) -> Text:
    """The sentence for a card that does not fit a space (built only when a move is refused)."""
    shown = tables.board.spaces[space]
    where = _("{space} ({align})", space=shown.name, align=ALIGN_WORDS[ALIGNS[align]])
    name = tables.edition.cards[card].name
    symbol = shown.symbol(align)
    if problem == "category":
        return _(
            "{card} is {kind}; {where} shows {symbol}",
            card=name, kind=CARD_KINDS[tables.category[card]], where=where,
            symbol=SYMBOL_KINDS[category_of_symbol(symbol)],
        )  # fmt: skip
    if problem == "same":
        return _("{card} is already on {space}", card=name, space=shown.name)
    return _(
        "{card} is {type}; {where} shows {symbol}",
        card=name, type=word(TYPE_WORDS, tables.edition.cards[card].type), where=where,
        symbol=word(SYMBOL_WORDS, symbol),
    )  # fmt: skip


def _abatement_problem(player: PlayerState, broken: int, rule: bool, space: int) -> Text | None:
    if not rule:
        return _("abatement tokens are not in play (option abatement is off)")
    if not player.abatement:
        return _("your abatement token is already on your shield")
    if broken == 0:
        return _("this placement is legal without the abatement token")
    if broken > 1:
        return _("an abatement token breaks only one placement rule, this placement breaks two")
    return None


def shield_full(player: PlayerState) -> bool:
    """Every space of the shield holds a card."""
    return all(player.shield)


# -- distinctions (ruling BZ-3) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShieldFacts:
    """What the requirement language asks about a shield, counted once."""

    augs: Counter[str]
    wilds: int
    types: Counter[str]
    tincture_names: frozenset[str]
    full_rows: tuple[int, ...]
    same_aug_rows: int
    distinct_aug_rows: int
    cadency: bool
    cards: int


def shield_facts(player: PlayerState, tables: Tables) -> ShieldFacts:
    """Count augmentations, types, tinctures and full rows of a shield."""
    cards = tables.edition.cards
    placed = [cards[n] for n in player.shield if n]
    augs = Counter(c.augmentation for c in placed if c.augmentation != WILD)
    full_rows, same, distinct = [], 0, 0
    for row, members in tables.board.rows.items():
        if all(player.shield[s] for s in members):
            full_rows.append(row)
            named = [cards[player.shield[s]].augmentation for s in members]
            real = [a for a in named if a != WILD]
            same += len(set(real)) <= 1
            distinct += len(set(real)) == len(real)
    cadency = any(player.shield[s.index] for s in tables.board.spaces if s.row == CADENCY_ROW)
    return ShieldFacts(
        augs=augs,
        wilds=sum(1 for c in placed if c.augmentation == WILD),
        types=Counter(c.type for c in placed),
        tincture_names=frozenset(c.name for c in placed if c.category == "tincture"),
        full_rows=tuple(full_rows),
        same_aug_rows=same,
        distinct_aug_rows=distinct,
        cadency=cadency,
        cards=len(placed),
    )


def augmentation_pairs(facts: ShieldFacts) -> int:
    """Different augmentations with 2+ symbols each, wilds assigned to the player's advantage."""
    pairs = sum(1 for a in AUGMENTATIONS if facts.augs[a] >= 2)
    singles = sum(1 for a in AUGMENTATIONS if facts.augs[a] == 1)
    completed = min(singles, facts.wilds)
    spare = facts.wilds - completed
    return min(len(AUGMENTATIONS), pairs + completed + spare // 2)


def clause_holds(clause: Clause, facts: ShieldFacts) -> bool:
    """One clause of the requirement language, each wild counted to the player's advantage."""
    kind, n = clause.kind, clause.n
    if kind == "aug":
        return facts.augs[clause.subject] + facts.wilds >= n
    if kind == "augs-distinct":
        return min(len(AUGMENTATIONS), len(facts.augs) + facts.wilds) >= n
    if kind == "aug-pairs":
        return augmentation_pairs(facts) >= n
    if kind == "type":
        return facts.types[clause.subject] >= n
    if kind == "types-distinct":
        return len(facts.types) >= n
    if kind == "tinctures-distinct":
        return len(facts.tincture_names) >= n
    if kind == "row-full":
        return n in facts.full_rows
    if kind == "row-same-aug":
        return facts.same_aug_rows >= n
    if kind == "row-distinct-augs":
        return facts.distinct_aug_rows >= n
    if kind == "space":
        return facts.cadency
    if kind == "cards":
        return facts.cards >= n
    raise ValueError(f"unknown clause kind {kind!r}")  # the loader accepts no other kind


def requirement_met(clauses: tuple[Clause, ...], facts: ShieldFacts) -> bool:
    """All clauses hold (a card may count for several clauses)."""
    return all(clause_holds(clause, facts) for clause in clauses)


# -- the blazon -------------------------------------------------------------------------------

NUMBER_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def pluralize(noun_phrase: str) -> str:
    """Plural of a charge: the first word takes the plural ("lion rampant" → "lions rampant")."""
    head, sep, rest = noun_phrase.partition(" ")
    stem, hyphen, tail = head.partition("-")
    plural = stem + ("es" if stem.endswith(("s", "x", "ch", "sh")) else "s")
    return plural + hyphen + tail + sep + rest


def _strip_article(name: str) -> str:
    for article in ("a ", "an "):
        if name.startswith(article):
            return name[len(article) :]
    return name


def blazon_line(cards: list[Card], *, field: bool) -> str:
    """One row of the shield in words, left to right, the number moved to the front.

    A row holding a charge and an arrangement that starts with a number reads "four roundels in
    cross argent" (rulebook, "Your Blazon"). Tinctures keep their capital in the field (row 1).
    """
    names = [c.name if field or c.category != "tincture" else c.name.lower() for c in cards]
    charge = next((i for i, c in enumerate(cards) if c.type == "charge"), None)
    arranged = next((i for i, c in enumerate(cards) if c.type == "arrangement"), None)
    if charge is None or arranged is None:
        return ", ".join(names)
    number, _, rest = cards[arranged].name.partition(" ")
    if number not in NUMBER_WORDS:
        return ", ".join(names)
    merged = " ".join(
        part for part in (number, pluralize(_strip_article(names[charge])), rest) if part
    )
    others = [n for i, n in enumerate(names) if i not in (charge, arranged)]
    return " ".join([merged, *others])


#: The languages a blazon is composed in (French: engine/blazon/french.py).
BLAZON_LANGUAGES = ("en", "fr")


def blazon_text(player: PlayerState, tables: Tables, language: str = "en") -> str:
    """The blazon of a shield: its rows left to right, top to bottom, then the cadency mark.

    English lines are separated by " / "; an empty shield reads "" (nothing to blazon yet).
    ``language`` "fr": the French blazon (:func:`shield_blazon`).
    """
    return shield_blazon(player.shield, tables, language)


def shield_blazon(shield: Sequence[int], tables: Tables, language: str = "en") -> str:
    """The blazon of the cards on a shield: ``shield`` holds the card number on each space of
    the board (0: empty), as a state does and as a view shows it.

    >>> shield_blazon([0] * 10, TABLES["reconstructed-1"], "fr")
    ''
    """
    if language not in BLAZON_LANGUAGES:
        raise ValueError(f"no blazon in {language!r} (only {', '.join(BLAZON_LANGUAGES)})")
    rows = [
        (row, [s for s in members if shield[s]])
        for row, members in sorted(tables.board.rows.items())
    ]
    marks = [s.index for s in tables.board.spaces if s.row == CADENCY_ROW and shield[s.index]]
    edition = tables.edition
    if language == "fr":
        french = edition.french
        return french_blazon(
            [
                (row, [(edition.cards[shield[s]].type, french[shield[s]]) for s in spaces])
                for row, spaces in rows
            ],
            [(edition.cards[shield[s]].type, french[shield[s]]) for s in marks],
        )
    lines = [
        blazon_line([edition.cards[shield[s]] for s in spaces], field=row == 1)
        for row, spaces in rows
        if spaces
    ]
    return " / ".join(lines + [edition.cards[shield[s]].name for s in marks])
