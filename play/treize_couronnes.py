"""The table of 13 Couronnes as a seat sees it: the engine's view turned into what the
templates draw (play/templates/play/treize_couronnes/), each legal move put on the object it
acts on (a card of the hand, a reward's choice) and labelled in words.

Everything here is read from ``engine.view(state, seat)`` and the seat's ``legal_moves``,
never from the full state: the view is the hidden-information boundary, so the drawing cannot
hold more than the seat may see. The King cards' printed faces (colour, law, joker, hole) come
from the edition's card list, which is public.

Applying a law is one move made of several choices (the cards to reveal or discard, jokers and
blasons standing in): the hand is a choice group (play/static/play/choices.js) whose candidates
are exactly the legal ``reveal`` / ``discard`` moves, each as the list of its parts —
``"B04"`` for a card shown as itself, ``"joker:B13"`` for a special card standing in,
``"blason:blue"`` for a blason token given up.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from engine.treize_couronnes import words
from engine.treize_couronnes.cards import (
    ANNOUNCED,
    COLOURS,
    EDITIONS,
    KINGS,
    PAIR,
    ActionKind,
    King,
    Reward,
)
from engine.treize_couronnes.words import (
    COLOUR_WORDS,
    action_text,
    king_text,
    reward_part_text,
    reward_text,
)
from herald.texts import per_language, render
from play import controls

GAME_ID = "13-couronnes"
JOKER = "joker:"
BLASON = "blason:"
BENEATH_SHOWN = 4  # the Kings drawn under the King in power; older ones are counted


def colour_name(colour: str) -> str:
    """A colour in the viewer's language ("" for none)."""
    return render(COLOUR_WORDS[colour]) if colour in COLOUR_WORDS else colour


def colour_class(colour: str) -> str:
    """The CSS class of a King's colour ("blue" -> "tc-blue"); "tc-any" for a colour of choice."""
    return f"tc-{colour}" if colour in COLOURS else "tc-any"


# -- the printed face of a King: its law as icons and words ---------------------------------


@dataclass(frozen=True)
class Icon:
    """One drawn sign of a law: ``symbol`` names the SVG symbol (``tc-<symbol>`` in
    static/play/treize_couronnes-signs.svg), ``count`` how many are drawn side by side,
    ``mark`` a short sign over it ("=", "?", ">", "<", "4")."""

    symbol: str
    colour_class: str = ""
    count: int = 1
    mark: str = ""

    @property
    def times(self) -> range:
        """One per sign drawn."""
        return range(self.count)


@dataclass(frozen=True)
class Face:
    """A King card as printed: colour, joker and hole marks, its law in icons and words."""

    id: str
    colour: str
    colour_name: str
    colour_class: str
    special: bool
    hole: bool
    once: bool
    action: str
    reward: str
    action_icons: tuple[Icon, ...]
    reward_icons: tuple[Icon, ...]
    name: str  # the card in a sentence ("Make … the King"): its colour and its law

    @property
    def label(self) -> str:
        """The card for a screen reader: its colour, joker, and its law (the edition's id,
        "B07", is no word of the table's)."""
        words = {"colour": self.colour_name, "action": self.action, "reward": self.reward}
        if self.special:
            return gettext("%(colour)s King, joker: %(action)s → %(reward)s") % words
        return gettext("%(colour)s King: %(action)s → %(reward)s") % words


def action_icons(king: King, announced: str = "") -> tuple[Icon, ...]:
    """The signs of a King's action: an eye (reveal) or a cross (discard), then what is asked."""
    action = king.action
    kind = action.kind
    if kind is ActionKind.ONCE_MOST:
        return (Icon("card", colour_class(action.colour), 2, ">"),)
    if kind is ActionKind.ONCE_FEWEST_CROWNS:
        return (Icon("crown", "", 1, "<"),)
    if kind is ActionKind.ONCE_HAND_4:
        return (Icon("card", "tc-any", 4, "="),)
    if kind is ActionKind.DISCARD_BLASON:
        return (Icon("discard"), Icon("blason", "tc-any"))
    verb = Icon("reveal" if kind is ActionKind.REVEAL else "discard")
    colour = action.need[0][0]
    if colour == PAIR:
        return (verb, Icon("card", "tc-any", 2, "="))
    if colour == ANNOUNCED:
        return (verb, Icon("card", colour_class(announced), 1, "" if announced else "?"))
    return (verb, *(Icon("card", colour_class(c), n) for c, n in action.need))


def reward_icons(rewards: tuple[Reward, ...]) -> tuple[Icon, ...]:
    """The signs of a reward, part after part (a hole is a ring)."""
    icons: list[Icon] = []
    for reward in rewards:
        if reward.kind == "crowns":
            icons.append(Icon("crown", "", reward.amount))
        elif reward.kind == "guard":
            icons.append(Icon("guard", "", reward.amount))
        elif reward.kind == "blason":
            icons.append(Icon("blason", "tc-any", reward.amount))
        elif reward.kind == "steal-crowns":
            icons.extend((Icon("steal"), Icon("crown", "", reward.amount)))
        elif reward.kind == "steal-cards":
            icons.extend((Icon("steal"), Icon("card", "tc-back", reward.amount)))
        else:
            icons.append(Icon("hole"))
    return tuple(icons)


@per_language
def face(king: King, announced: str = "") -> Face:
    """The printed face of ``king``; ``announced`` is the colour named when it was played.
    Made once per card, announced colour and language (a face is frozen): every seat's drawing
    after every move prints the same faces in the same words."""
    return Face(
        id=king.id,
        colour=king.colour,
        colour_name=colour_name(king.colour),
        colour_class=colour_class(king.colour),
        special=king.special,
        hole=king.hole,
        once=king.action.once,
        action=render(action_text(king.action, announced)),
        reward=render(reward_text(king.rewards)),
        action_icons=action_icons(king, announced),
        reward_icons=reward_icons(king.rewards),
        name=render(king_text(king, announced)),
    )


def card_words(card_id: Any) -> str:
    """A King card named in words from its edition id (the id itself when no edition has it)."""
    return render(words.card_words(str(card_id)))


def _kings(view: dict[str, Any]) -> dict[str, King]:
    edition = view.get("edition") or EDITIONS[0]
    return KINGS.get(edition, KINGS[EDITIONS[0]])


# -- the table's parts -----------------------------------------------------------------------


@dataclass
class Control(controls.Control):
    """One legal move as a button (play.controls.Control), with what 13 Couronnes adds."""

    colour_class: str = ""  # a colour the button stands for (an announced colour, a blason)
    short: str = ""  # the words on a small button (``label`` is its full name)


@dataclass
class HandCard:
    """A card of the viewer's hand and what may be done with it now."""

    face: Face
    revealed: bool  # revealed this turn: it cannot be shown again this turn
    choice: bool = False  # shown as itself in some legal way of the law
    joker_choice: bool = False  # standing in as a joker in some legal way of the law
    crown: list[Control] = field(default_factory=list)  # change-king (one per announced colour)
    give: Control | None = None  # pay-guard: given to the guard's owner
    discard: Control | None = None  # redo-discard

    @property
    def joker_id(self) -> str:
        """The choice that uses this card as a joker."""
        return JOKER + self.face.id


@dataclass
class LawGroup:
    """Applying the law by choosing its parts: ``candidates`` are the legal moves as lists of
    choices (choices.js enables the confirm button on the one equal to the selection)."""

    verb: str  # "reveal" or "discard"
    candidates: list[dict[str, Any]]
    blasons: list[dict[str, str]]  # the viewer's blason tokens that may stand in

    @property
    def candidates_json(self) -> str:
        """For ``data-candidates``."""
        return json.dumps(self.candidates, sort_keys=True)

    @property
    def ways(self) -> int:
        """How many different ways the law may be applied now."""
        return len(self.candidates)


@dataclass
class Player:
    """One seat at the table, as the viewer may see it."""

    seat: int
    name: str
    mine: bool
    to_act: bool
    crowns: int | None  # None: hidden from the viewer (hidden_crowns)
    guards: int
    blasons: list[dict[str, str]]
    cards_in_hand: int
    guards_the_king: bool

    @property
    def guard_range(self) -> range:
        """One per guard held."""
        return range(self.guards)


@dataclass
class Table:
    """Everything the 13 Couronnes drawing needs."""

    viewer_seat: int | None
    players: list[Player]
    king: Face
    announced: str  # the announced colour's name ("" when the King asks none)
    guard_name: str  # whose guard stands on the King in power ("" for none)
    showing: Face | None  # for a hole King: the card whose reward shows through
    beneath: list[Face]
    beneath_more: int
    revealed: list[Face]
    hand: list[HandCard]
    law: LawGroup | None
    controls: list[Control]
    reserve_crowns: int | None
    reserve_guards: int
    reserve_blasons: list[dict[str, Any]]
    draw_count: int
    discard_count: int
    turn: int
    max_turns: int
    phase: str
    your_turn: bool
    decision: str
    legal_moves: list[dict[str, Any]] = field(default_factory=list)
    last_moves: list[str] = field(default_factory=list)
    final: list[dict[str, Any]] = field(default_factory=list)
    winner_name: str = ""
    ended_by_limit: bool = False
    # Drawn for someone looking over the seat's shoulder (play.drawings.Draw): no "you".
    onlooker: bool = False

    @property
    def viewer_name(self) -> str:
        """The name of the seat whose view this is ("" for the public view)."""
        return next((p.name for p in self.players if p.mine), "")

    @property
    def legal_moves_json(self) -> str:
        """Every legal move of the viewer now, as JSON (FRONTEND.md: with the fragment)."""
        return json.dumps(self.legal_moves, sort_keys=True)

    @property
    def showing_reward(self) -> str:
        """The reward of the law in power in words (through the hole when it has one)."""
        if not self.king.hole:
            return self.king.reward
        return self.showing.reward if self.showing else render(reward_text(()))


def _name(names: list[str], seat: int) -> str:
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return gettext("seat %(n)s") % {"n": seat + 1}


def _blason(colour: str) -> dict[str, str]:
    return {"colour": colour, "name": colour_name(colour), "colour_class": colour_class(colour)}


# -- moves in words --------------------------------------------------------------------------


def token_words(token: str) -> str:
    """A token a reward gives or a player gives back: "the guard", "the blue blason"."""
    if token == "guard":
        return gettext("the guard")
    return gettext("the %(colour)s blason") % {"colour": colour_name(token)}


def victims_words(victims: list[int], names: list[str]) -> str:
    """Who is stolen from, each once with how many: "Bob ×2, Cid"."""
    counted = []
    for seat in sorted(set(victims)):
        times = victims.count(seat)
        counted.append(_name(names, seat) + (f" ×{times}" if times > 1 else ""))
    return ", ".join(counted)


def move_label(move: dict[str, Any], table_king: str, names: list[str]) -> str:
    """A legal move drawn as a button, in the viewer's words."""
    kind = move.get("type")
    if kind == "claim":
        return gettext("Apply the law")
    if kind == "redo-draw":
        return gettext("Draw up to 6 cards")
    if kind == "end-turn":
        if move.get("guard"):
            return gettext("End your turn, putting a guard on %(king)s") % {
                "king": card_words(table_king)
            }
        return gettext("End your turn")
    if kind == "take-token":
        return _token_label(move)
    if kind in ("steal-crowns", "steal-cards"):
        victims = list(move.get("victims") or [])
        if not victims:
            return gettext("Nobody has anything to steal: go on")
        words = {"victims": victims_words(victims, names)}
        if kind == "steal-crowns":
            if len(victims) == 1:
                return gettext("Steal a crown from %(victims)s") % words
            return gettext("Steal crowns from %(victims)s") % words
        if len(victims) == 1:
            return gettext("Steal a card from %(victims)s") % words
        return gettext("Steal cards from %(victims)s") % words
    if kind == "change-king":
        return _change_label(move)
    if kind == "pay-guard":
        return gettext("Give %(card)s for the guard") % {"card": card_words(move.get("card"))}
    if kind == "redo-discard":
        return gettext("Discard %(card)s") % {"card": card_words(move.get("card"))}
    return str(kind)


def _token_label(move: dict[str, Any]) -> str:
    token = str(move.get("token", ""))
    if token == "none":
        return gettext("Let it go (you already hold 2 tokens)")
    if move.get("drop"):
        return gettext("Take %(token)s, giving back %(drop)s") % {
            "token": token_words(token),
            "drop": token_words(str(move["drop"])),
        }
    return gettext("Take %(token)s") % {"token": token_words(token)}


def _change_label(move: dict[str, Any]) -> str:
    words = {
        "card": card_words(move.get("card")),
        "colour": colour_name(str(move.get("announce", ""))),
    }
    if move.get("announce"):
        return gettext("Make %(card)s the King, announcing %(colour)s") % words
    return gettext("Make %(card)s the King") % words


# -- what the table waits for ----------------------------------------------------------------


def _phase_words(phase: str, mine: bool, name: str) -> str:
    words = {"name": name}
    if phase == "start":
        if mine:
            return gettext("apply the law, change the King or redo your hand.")
        return gettext("%(name)s applies the law, changes the King or redoes the hand.") % words
    if phase == "paid":
        if mine:
            return gettext("the guard is paid: play a card as the new King.")
        return gettext("%(name)s paid the guard and plays a new King.") % words
    if phase == "changed":
        if mine:
            return gettext("apply the new law, or end your turn.")
        return gettext("%(name)s may apply the new law or end the turn.") % words
    if phase == "applied":
        if mine:
            return gettext("apply the law again with other cards, or end your turn.")
        return gettext("%(name)s may apply the law again or end the turn.") % words
    if phase == "redo":
        if mine:
            return gettext("discard more cards, or draw up to 6.")
        return gettext("%(name)s redoes the hand.") % words
    if mine:
        return gettext("end your turn (you may put a guard on the King).")
    return gettext("%(name)s ends the turn.") % words


def decision_words(view: dict[str, Any], names: list[str], *, onlooker: bool = False) -> str:
    """What the table waits for, by name, or addressed to the viewer when it is their turn
    (unless ``onlooker``: then by name too)."""
    if view["phase"] == "over":
        return gettext("The game is over.")
    current = view["current"]
    mine = not onlooker and view["seat"] == current
    name = _name(names, current)
    pending = view.get("pending")
    if pending:
        kind, _sep, amount = str(pending).partition(":")
        reward = render(reward_part_text(Reward(kind, int(amount or 0))))
        if mine:
            return gettext("your reward: %(reward)s. Choose below.") % {"reward": reward}
        return gettext("%(name)s takes the reward: %(reward)s.") % {"name": name, "reward": reward}
    return _phase_words(view["phase"], mine, name)


# -- the drawing -----------------------------------------------------------------------------


def _players(view: dict[str, Any], names: list[str]) -> list[Player]:
    viewer = view["seat"]
    guard = view["king"]["guard"]
    acting = view["current"] if view["phase"] != "over" else None
    return [
        Player(
            seat=seat,
            name=_name(names, seat),
            mine=seat == viewer,
            to_act=seat == acting,
            crowns=view["crowns"][seat],
            guards=view["guards"][seat],
            blasons=[_blason(c) for c in view["blasons"][seat]],
            cards_in_hand=view["hand_counts"][seat],
            guards_the_king=seat == guard,
        )
        for seat in range(view["players"])
    ]


def _law_group(
    view: dict[str, Any], law_moves: list[dict[str, Any]], hand: list[HandCard]
) -> LawGroup | None:
    """The hand as a choice group for the law's reveal or discard moves; None without any."""
    if not law_moves:
        return None
    candidates = [{"choices": law_choices(m), "move": m} for m in law_moves]
    parts = {c for cand in candidates for c in cand["choices"]}
    for card in hand:
        card.choice = card.face.id in parts
        card.joker_choice = card.joker_id in parts
    held = view["blasons"][view["seat"]] if view["seat"] is not None else []
    blasons = [_blason(c) for c in held if BLASON + c in parts]
    for blason in blasons:
        blason["choice"] = BLASON + blason["colour"]
    return LawGroup(verb=str(law_moves[0]["type"]), candidates=candidates, blasons=blasons)


def law_choices(move: dict[str, Any]) -> list[str]:
    """A law move as the parts a player picks: its cards, its jokers, its blasons."""
    return [
        *move.get("cards", []),
        *(JOKER + j for j in move.get("jokers", [])),
        *(BLASON + b for b in move.get("blasons", [])),
    ]


def _hand(view: dict[str, Any], kings: dict[str, King]) -> list[HandCard]:
    revealed = set(view.get("revealed") or [])
    return [
        HandCard(face=face(kings[card]), revealed=card in revealed)
        for card in view.get("hand") or []
        if card in kings
    ]


def _place_card_moves(
    hand: list[HandCard], moves: list[dict[str, Any]], king_id: str, names: list[str]
) -> list[dict[str, Any]]:
    """Put each move aimed at one card of the hand on that card; return the others."""
    by_card = {card.face.id: card for card in hand}
    rest = []
    for move in moves:
        card = by_card.get(str(move.get("card", "")))
        kind = move.get("type")
        if card is None or kind not in ("change-king", "pay-guard", "redo-discard"):
            rest.append(move)
            continue
        control = Control(move_label(move, king_id, names), move)
        if kind == "change-king":
            announce = str(move.get("announce", ""))
            control.colour_class = colour_class(announce) if announce else ""
            control.short = colour_name(announce) if announce else gettext("King")
            card.crown.append(control)
        elif kind == "pay-guard":
            control.short = gettext("Give")
            card.give = control
        else:
            control.short = gettext("Discard")
            card.discard = control
    return rest


def _control(move: dict[str, Any], king_id: str, names: list[str]) -> Control:
    """A move drawn as a button in the decision area; a blason taken shows its colour."""
    control = Control(move_label(move, king_id, names), move)
    if move.get("type") == "take-token" and move.get("token") in COLOURS:
        control.colour_class = colour_class(str(move["token"]))
    return control


def table_for(
    view: dict[str, Any], legal_moves: list[dict[str, Any]], names: list[str], *,
    onlooker: bool = False,
) -> Table:  # fmt: skip
    """The drawing of ``view`` (one seat's, or the public one) with the viewer's controls;
    ``onlooker``: see play.drawings.Draw."""
    kings = _kings(view)
    in_power = view["king"]
    king = kings[in_power["card"]]
    pile = [kings[c] for c in reversed(view["kings"][:-1]) if c in kings]  # top first
    showing = kings.get(in_power.get("reward_from") or "")
    hand = _hand(view, kings)
    law_moves = [m for m in legal_moves if m.get("type") in ("reveal", "discard")]
    others = [m for m in legal_moves if m.get("type") not in ("reveal", "discard")]
    rest = _place_card_moves(hand, others, king.id, names)
    reserve = view["reserve"]
    guard = in_power.get("guard")
    announced = in_power.get("announced") or ""
    return Table(
        viewer_seat=view["seat"],
        players=_players(view, names),
        king=face(king, announced),
        announced=colour_name(announced) if announced else "",
        guard_name="" if guard is None else _name(names, guard),
        showing=face(showing) if king.hole and showing is not None else None,
        beneath=[face(k) for k in pile[:BENEATH_SHOWN]],
        beneath_more=max(len(pile) - BENEATH_SHOWN, 0),
        revealed=[face(kings[c]) for c in view.get("revealed") or [] if c in kings],
        hand=hand,
        law=_law_group(view, law_moves, hand),
        controls=[_control(m, king.id, names) for m in rest],
        reserve_crowns=reserve["crowns"],
        reserve_guards=reserve["guards"],
        reserve_blasons=[{**_blason(c), "count": reserve["blasons"].get(c, 0)} for c in COLOURS],
        draw_count=view["draw_count"],
        discard_count=view["discard_count"],
        turn=view["turn"],
        max_turns=view["max_turns"],
        phase=view["phase"],
        your_turn=not onlooker
        and view["seat"] is not None
        and view["seat"] == view["current"]
        and view["phase"] != "over",
        decision=decision_words(view, names, onlooker=onlooker),
        legal_moves=list(legal_moves),
        onlooker=onlooker,
    )


def add_result(table: Table, result: dict[str, Any] | None, names: list[str]) -> Table:
    """Put the final standing on ``table`` once the game is over: the winner named (or the
    turn limit said), then per player the rank, crowns and cards in hand, best rank first."""
    if not result:
        return table
    details = result.get("details") or {}
    ranks = result.get("ranks") or []
    crowns = details.get("crowns") or [int(s) for s in result.get("scores") or []]
    cards = details.get("cards_in_hand") or []
    rows = [
        {
            "seat": seat,
            "name": _name(names, seat),
            "rank": ranks[seat] if seat < len(ranks) else None,
            "crowns": crowns[seat],
            "cards": cards[seat] if seat < len(cards) else None,
            "mine": seat == table.viewer_seat,
            "winner": seat == details.get("winner"),
        }
        for seat in range(len(crowns))
    ]
    table.final = sorted(rows, key=lambda row: (row["rank"] or 99, row["seat"]))
    winner = details.get("winner")
    table.winner_name = "" if winner is None else _name(names, int(winner))
    table.ended_by_limit = winner is None
    return table
