"""The table of Les 7 Blasons as a seat sees it: the engine's view turned into what the
templates draw, and each legal move as a control labelled in words.

Everything here is read from ``engine.view(state, seat)`` and the seat's ``legal_moves``,
never from the full state: the view is the hidden-information boundary, so the drawing cannot
hold more than the seat may see.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.text import slugify
from django.utils.translation import gettext

from engine.sept_blasons import moves as mv
from engine.sept_blasons.cards import STANDARD
from engine.sept_blasons.views import NAMES
from herald.texts import per_language
from play.controls import Control

GAME_ID = "les-7-blasons"


@per_language
def power_words() -> dict[str | None, str]:
    """A character's power in a word, in the viewer's language (keys: the engine's powers)."""
    return {
        "steal": gettext("steals"),
        "take": gettext("takes"),
        "turn-up": gettext("turns up"),
        "remove": gettext("removes"),
        "move": gettext("moves"),
        "exchange": gettext("exchanges"),
        None: gettext("no power"),
    }


# The characters' powers by rank (the standard edition's; the view names characters only).
POWERS: tuple[str | None, ...] = (
    "steal",
    "take",
    "turn-up",
    "remove",
    "move",
    "exchange",
    None,
    None,
)
MALANDRIN, RELIGIEUX = 0, 4


@functools.lru_cache(maxsize=64)
def colour_class(colour: str | None) -> str:
    """The CSS class of a blason colour ("La Ferté" -> "blason-la-ferte"); "" when hidden."""
    return f"blason-{slugify(colour)}" if colour else ""


@dataclass
class Player:
    """One seat at the table, as the viewer may see it."""

    seat: int
    name: str
    colour: str
    colour_class: str
    mine: bool
    leads: bool
    to_act: bool
    cards_in_hand: int
    tricks: int
    total: int
    tokens: list[dict[str, Any]]
    bourgeoisie: dict[str, Any] | None
    # The seat's tricks, one entry per trick won: its number, the cards when the viewer may
    # see them (else None), and the control when a move consults it.
    trick_piles: list[dict[str, Any]] = field(default_factory=list)
    # The cards of the tricks the viewer sees, by colour, with each colour's card points.
    by_colour: list[dict[str, Any]] = field(default_factory=list)
    # Moves aimed at the player: the religieux's "move it here", variant 2's "take the card".
    controls: list[Control] = field(default_factory=list)

    @property
    def face_down(self) -> int:
        """How many of the seat's tokens lie face down."""
        return sum(1 for token in self.tokens if token["face"] == "down")

    @property
    def tricks_shown(self) -> int:
        """How many of the seat's tricks the viewer sees the cards of."""
        return sum(1 for pile in self.trick_piles if pile["cards"] is not None)


@dataclass
class Table:
    """Everything the 7 Blasons drawing needs."""

    viewer_seat: int | None
    round: int
    trick: int
    tricks_per_round: int
    players: list[Player]
    played: list[dict[str, Any]]
    hand: list[dict[str, Any]]
    pile_face_down: int
    pile_face_up: list[dict[str, Any]]
    round_scores: list[list[int]]
    to_act_names: list[str]
    your_turn: bool
    decision: str
    controls: list[Control] = field(default_factory=list)
    final: list[dict[str, Any]] = field(default_factory=list)
    tie_break_rounds: int = 0
    legal_moves: list[dict[str, Any]] = field(default_factory=list)
    last_moves: list[str] = field(default_factory=list)
    # The face-down stack of the draw pile, as a control when a move takes or turns from it.
    pile_control: Control | None = None
    set_aside: list[dict[str, Any]] = field(default_factory=list)
    variants: list[str] = field(default_factory=list)  # the variants played, in words
    # Per round, per seat (by seat): how the round was counted (engine view's round_lines).
    round_lines: list[list[dict[str, Any]]] = field(default_factory=list)
    rounds_played: int = 3  # the edition's rounds: a round after them is a tie-break
    # Drawn for someone looking over the seat's shoulder (play.drawings.Draw): no "you".
    onlooker: bool = False

    @property
    def viewer_name(self) -> str:
        """The name of the seat whose view this is ("" for the public view)."""
        return next((p.name for p in self.players if p.mine), "")

    @property
    def score_rows(self) -> list[dict[str, Any]]:
        """Per player: each round played so far (its score and how it was counted) and the
        total."""
        return [
            {
                "name": p.name,
                "mine": p.mine,
                "rounds": [self.round_cell(r, p.seat) for r in range(len(self.round_scores))],
                "total": p.total,
            }
            for p in self.players
        ]

    def round_cell(self, round_index: int, seat: int) -> dict[str, Any]:
        """One round's score of one seat with its count (colour, card points × tokens) when
        the view gives it."""
        cell: dict[str, Any] = {"score": self.round_scores[round_index][seat]}
        if round_index < len(self.round_lines):
            line = self.round_lines[round_index][seat]
            cell.update(line, colour_class=colour_class(line["colour"]))
        return cell

    @property
    def round_headings(self) -> list[dict[str, Any]]:
        """The score table's columns: round n, or a tie-break round after the edition's."""
        return [
            {"number": n, "tie_break": n > self.rounds_played}
            for n in range(1, len(self.round_scores) + 1)
        ]

    @property
    def hand_class(self) -> str:
        """The colour class of the viewer's cards (their seat's colour)."""
        return next((p.colour_class for p in self.players if p.mine), "")

    @property
    def token_targets(self) -> int:
        """How many tokens in front of the players carry a move now."""
        return sum(1 for p in self.players for t in p.tokens if t.get("control"))

    @property
    def targets_on_table(self) -> int:
        """How many things on the table (not the hand) carry a move now: tokens, the draw
        pile, players, tricks, the cards of the trick in play."""
        return (
            self.token_targets
            + (self.pile_control is not None)
            + sum(1 for t in self.pile_face_up if t["control"])
            + sum(len(p.controls) for p in self.players)
            + sum(1 for p in self.players for pile in p.trick_piles if pile["control"])
            + sum(len(card["steals"]) for card in self.played)
        )

    @property
    def legal_moves_json(self) -> str:
        """Every legal move of the viewer now, as JSON (FRONTEND.md: with the fragment)."""
        return json.dumps(self.legal_moves, sort_keys=True)


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else gettext("seat %(n)s") % {"n": seat + 1}


def _token_words(view: dict[str, Any], names: list[str], seat: int, slot: int) -> str:
    """A token in words: whose, which, and its colour when the viewer may see it."""
    if seat == mv.PILE:
        return gettext("a face-down token of the draw pile, at random")
    tokens = view["players"][seat]["tokens"]
    token = tokens[slot] if 0 <= slot < len(tokens) else {}
    words = {"name": _name(names, seat), "n": slot + 1}
    if token.get("colour"):
        words["colour"] = token["colour"]
        if token.get("face") == "up":
            return gettext("%(name)s's token %(n)s (%(colour)s, face up)") % words
        return gettext("%(name)s's token %(n)s (face down, %(colour)s to you)") % words
    return gettext("%(name)s's token %(n)s (face down)") % words


def _pile_words(view: dict[str, Any], pick: int) -> str:
    if pick == mv.FACE_DOWN:
        return gettext("a face-down token from the draw pile, at random")
    colours = [p["colour"] for p in view["players"]]
    colour = _edition_colour(pick) or (colours[pick] if pick < len(colours) else str(pick))
    return gettext("the face-up %(colour)s token from the draw pile") % {"colour": colour}


def _edition_colour(index: int) -> str | None:
    colours = STANDARD.colours
    return colours[index] if 0 <= index < len(colours) else None


def move_label(move: dict[str, Any], view: dict[str, Any], names: list[str]) -> str:
    """A legal move in the viewer's words (the names are the players' own)."""
    kind = move.get("type")
    if kind == "play":
        card = {"character": _character(move["rank"]), "value": _value(move["rank"])}
        if move.get("bourgeoisie"):
            return (
                gettext("Play the %(character)s (%(value)s) and use your bourgeoisie card") % card
            )
        return gettext("Play the %(character)s (%(value)s)") % card
    if kind == "steal":
        played = view["current_trick"]
        target = played[move["card"]] if 0 <= move["card"] < len(played) else {}
        words = {
            "character": target.get("character", "?"),
            "name": _name(names, target.get("seat", -1)),
        }
        if move["mode"] == "value":
            return gettext("Malandrin: take the value of %(name)s's %(character)s") % words
        return gettext("Malandrin: take the power of %(name)s's %(character)s") % words
    if kind == "take-token":
        return gettext("Take %(token)s") % {"token": _pile_words(view, move["pick"])}
    if kind == "turn-up":
        return gettext("Turn up %(token)s") % {
            "token": _token_words(view, names, move["seat"], move["slot"])
        }
    if kind == "remove-token":
        return gettext("Put %(token)s into the draw pile") % {
            "token": _token_words(view, names, move["seat"], move["slot"])
        }
    if kind == "choose-token":
        return gettext("Choose %(token)s") % {
            "token": _token_words(view, names, move["seat"], move["slot"])
        }
    if kind == "exchange-with":
        target = (
            _pile_words(view, move["slot"])
            if move["seat"] == mv.PILE
            else _token_words(view, names, move["seat"], move["slot"])
        )
        return gettext("Exchange it with %(token)s") % {"token": target}
    if kind == "move-to":
        return gettext("Move it to %(name)s's game") % {"name": _name(names, move["seat"])}
    if kind == "consult-trick":
        return gettext("Look at trick %(n)s of %(name)s") % {
            "n": move["trick"] + 1,
            "name": _name(names, move["seat"]),
        }
    if kind == "take-card":
        return gettext("Take the %(colour)s card from %(name)s's tricks") % {
            "colour": _edition_colour(move["colour"]) or move["colour"],
            "name": _name(names, move["seat"]),
        }
    if kind == "consult-token":
        return gettext("Look at %(token)s") % {
            "token": _token_words(view, names, move["seat"], move["slot"])
        }
    if kind == "finish":
        return gettext("Finish your bourgeoisie action")
    return str(kind)


def _character(rank: int) -> str:
    return NAMES[rank] if 0 <= rank < len(NAMES) else str(rank)


def _value(rank: int) -> str:
    return "*" if rank == 0 else str(rank)


def _power(rank: int, variants: list[int]) -> str:
    power = POWERS[rank] if 0 <= rank < len(POWERS) else None
    if rank == RELIGIEUX and RELIGIEUX not in variants:
        power = None  # the religieux acts only in variant 4
    return power_words()[power]


def _resolving(view: dict[str, Any]) -> dict[str, Any] | None:
    """The card whose power is being used: the engine's ``decision`` names its play position
    (the one statement of it in the view; cards without a power are skipped by the engine)."""
    found = re.search(r"in play position (\d+)", view.get("decision", ""))
    if found is None:
        return None
    position = int(found.group(1))
    return next((c for c in view["current_trick"] if c["position"] == position), None)


def decision_words(view: dict[str, Any], names: list[str], *, onlooker: bool = False) -> str:
    """What the table waits for, by name, or addressed to the viewer when it is their turn
    (unless ``onlooker``: then by name too). The engine's ``decision`` speaks of seat
    numbers, in English."""
    to_act = view["to_act"]
    if not to_act:
        return gettext("The game is over.")
    mine = not onlooker and view["seat"] in to_act
    words = {"name": _name(names, to_act[0])}
    phase = view["phase"]
    if phase == "play":
        return gettext("play a card.") if mine else gettext("%(name)s plays a card.") % words
    if phase == "power":
        card = _resolving(view)
        words["character"] = card["character"] if card else "?"
        words["owner"] = _name(names, card["seat"]) if card else "?"
        if mine and card is not None and card["seat"] == view["seat"]:
            return gettext("use the power of your %(character)s.") % words + _second_step(
                view, names
            )
        if mine:
            return gettext("use the power of %(owner)s's %(character)s.") % words + _second_step(
                view, names
            )
        if card is not None and card["seat"] == to_act[0]:
            return gettext("%(name)s uses the power of their %(character)s.") % words
        return gettext("%(name)s uses the power of %(owner)s's %(character)s.") % words
    if phase == "free":
        if mine:
            return gettext("you won the trick: take a free action.")
        return gettext("%(name)s won the trick and takes a free action.") % words
    card = _bourgeoisie(view["players"][to_act[0]], view["options"]["variants"])
    if card is not None:
        words.update(card=card["name"], effects=gettext("; or ").join(card["effects"]))
        if mine:
            return gettext("use your bourgeoisie card (%(card)s): %(effects)s.") % words
        return gettext("%(name)s uses a bourgeoisie card (%(card)s): %(effects)s.") % words
    if mine:
        return gettext("use your bourgeoisie card.")
    return gettext("%(name)s uses a bourgeoisie card.") % words


def _second_step(view: dict[str, Any], names: list[str]) -> str:
    """What the power in use asks on the table: the malandrin's choice among the trick's cards;
    after the religieux's or the intendant's first step, the token chosen and what the second
    step asks ("" otherwise)."""
    chosen = view.get("chosen_token")
    card = _resolving(view)
    if card is not None and card["character"] == NAMES[MALANDRIN]:
        return " " + gettext(
            "Click a card of the trick: take its value, or the power of a card played after it."
        )
    if chosen is None or card is None:
        return ""
    words = {"token": _token_words(view, names, chosen["seat"], chosen["slot"])}
    if card["character"] == NAMES[RELIGIEUX]:
        return (
            " " + gettext("Chosen: %(token)s. Now click the player whose game receives it.") % words
        )
    return " " + gettext("Chosen: %(token)s. Now click what it is exchanged with.") % words


def table_for(
    view: dict[str, Any], legal_moves: list[dict[str, Any]], names: list[str], *,
    onlooker: bool = False,
) -> Table:  # fmt: skip
    """The drawing of ``view`` (one seat's, or the public one) with the viewer's controls: each
    legal move sits on the object it acts on (a card, a token, the pile, a player, a trick)
    when it is the only move there, and is a button in words otherwise. ``onlooker``: see
    play.drawings.Draw."""
    viewer = view["seat"]
    variants = list(view["options"]["variants"])
    placed, loose = _placements(legal_moves)

    def control(where: tuple[Any, ...]) -> Control | None:
        move = placed.get(where)
        return None if move is None else Control(move_label(move, view, names), move)

    players = [_player(view, p, names, control) for p in view["players"]]
    chosen = view.get("chosen_token")
    if chosen is not None:
        for token in players[chosen["seat"]].tokens:
            token["chosen"] = token["slot"] == chosen["slot"]
    pile = view["pile"]
    return Table(
        viewer_seat=viewer,
        round=view["round"],
        trick=view["trick"],
        tricks_per_round=view["tricks_per_round"],
        players=players,
        played=[_in_trick(card, view, names, variants, control) for card in view["current_trick"]],
        hand=[_in_hand(card, variants, control) for card in view.get("hand", [])],
        pile_face_down=pile["face_down"],
        pile_face_up=_pile_face_up(pile["face_up"], control),
        pile_control=control(("pile", mv.FACE_DOWN)),
        round_scores=view["round_scores"],
        round_lines=view.get("round_lines", []),
        rounds_played=STANDARD.rounds,
        to_act_names=[_name(names, s) for s in view["to_act"]],
        your_turn=not onlooker and viewer is not None and viewer in view["to_act"],
        decision=decision_words(view, names, onlooker=onlooker),
        controls=[Control(move_label(m, view, names), m) for m in loose],
        legal_moves=list(legal_moves),
        set_aside=[_card_drawn(card) for card in view.get("set_aside", [])],
        variants=[variant_words()[v] for v in sorted(variants) if v in variant_words()],
        onlooker=onlooker,
    )


@per_language
def variant_words() -> dict[int, str]:
    """The variants in words, in the viewer's language."""
    return {
        1: gettext("1: the bourgeois consult (tricks)"),
        2: gettext("2: the bourgeois help themselves (a card)"),
        3: gettext("3: the bourgeois are curious (tokens)"),
        4: gettext("4: the religieux is active (moves a token)"),
    }


def _player(view: dict[str, Any], shown: dict[str, Any], names: list[str], control: Any) -> Player:
    """One seat as the viewer may see it, with the moves aimed at it, its tokens and tricks."""
    seat = shown["seat"]
    tokens = [
        {
            **t,
            "colour_class": colour_class(t.get("colour")),
            "control": control(("token", seat, t["slot"])),
        }
        for t in shown["tokens"]
    ]
    aimed = [control(("player", seat))] + [
        control(("take", seat, colour)) for colour in range(len(STANDARD.colours))
    ]
    seen = {trick["index"]: trick["cards"] for trick in shown.get("tricks_seen", [])}
    return Player(
        seat=seat,
        name=_name(names, seat),
        colour=shown["colour"],
        colour_class=colour_class(shown["colour"]),
        mine=seat == view["seat"],
        leads=seat == view["leader"],
        to_act=seat in view["to_act"],
        cards_in_hand=shown["cards_in_hand"],
        tricks=shown["tricks"],
        total=shown["total"],
        tokens=tokens,
        bourgeoisie=_bourgeoisie(shown, view["options"]["variants"]),
        trick_piles=[
            {
                "number": i + 1,
                "cards": [_card_drawn(c) for c in seen[i]] if i in seen else None,
                "control": control(("trick", seat, i)),
            }
            for i in range(shown["tricks"])
        ],
        by_colour=_by_colour(
            [c for cards in seen.values() for c in cards], tokens, shown["colour"]
        ),
        controls=[c for c in aimed if c is not None],
    )


def _card_drawn(card: dict[str, Any]) -> dict[str, Any]:
    return {**card, "colour_class": colour_class(card["colour"])}


def _by_colour(
    cards: list[dict[str, Any]], tokens: list[dict[str, Any]], own: str
) -> list[dict[str, Any]]:
    """The cards seen in a player's tricks by colour, in the edition's order: their values,
    the colour's card points (the malandrin counts 0), the player's face-up tokens of that
    colour and the product, which is what the colour scores (ruling 7B-3: own colour 0)."""
    groups = []
    for colour in STANDARD.colours:
        values = [c["value"] for c in cards if c["colour"] == colour]
        if not values:
            continue
        points = sum(int(v) for v in values if v != "*")
        up = sum(1 for t in tokens if t["face"] == "up" and t.get("colour") == colour)
        counted = 0 if colour == own else up
        groups.append(
            {
                "colour": colour,
                "colour_class": colour_class(colour),
                "values": values,
                "points": points,
                "tokens": counted,
                "own": colour == own,
                "score": points * counted,
            }
        )
    return groups


def _bourgeoisie(shown: dict[str, Any], variants: list[int]) -> dict[str, Any] | None:
    """The seat's bourgeoisie card: its name, what it lets its holder do in the variants
    played (the edition's counts), and whether it is used this round."""
    card = next((b for b in STANDARD.bourgeoisie if b.name == shown.get("bourgeoisie")), None)
    if card is None:
        return None
    words = {"n": card.consult, "character": _character(card.takes)}
    effects = {
        1: gettext("look at %(n)s tricks (one's own and/or one other player's)") % words,
        2: gettext("take a %(character)s from another player's tricks") % words,
        3: gettext("look at %(n)s face-down tokens (one's own and/or one other player's)") % words,
    }
    return {
        "name": bourgeoisie_names().get(card.name, card.name),
        "effects": [effects[v] for v in sorted(variants) if v in effects],
        "used": bool(shown.get("bourgeoisie_used")),
    }


@per_language
def bourgeoisie_names() -> dict[str, str]:
    """The bourgeoisie cards' names in the viewer's language (keys: the edition's)."""
    return {
        "small": gettext("small bourgeois"),
        "medium": gettext("medium bourgeois"),
        "large": gettext("large bourgeois"),
        "high": gettext("high bourgeois"),
    }


def _in_trick(
    card: dict[str, Any], view: dict[str, Any], names: list[str], variants: list[int], control: Any
) -> dict[str, Any]:
    """A card of the trick in play, with the malandrin's choices aimed at it (value, power)."""
    rank = _rank_of(card["character"])
    steals = [control(("steal", card["position"], mode)) for mode in ("value", "power")]
    resolving = _resolving(view) if view["phase"] == "power" else None
    return {
        **card,
        "resolving": resolving is not None and resolving["position"] == card["position"],
        "name": _name(names, card["seat"]),
        "colour_class": colour_class(card["colour"]),
        "power": _power(rank, variants),
        "active_religieux": rank == RELIGIEUX and RELIGIEUX in variants,
        "malandrin_words": malandrin_words(card.get("malandrin_choice")),
        "steals": [
            {"mode": mode, "control": c}
            for mode, c in zip(("value", "power"), steals, strict=True)
            if c is not None
        ],
    }


_MALANDRIN_NOTE = re.compile(r"(value|power) of position (\d+)")


def malandrin_words(note: str | None) -> str:
    """What a malandrin in the trick took, in the viewer's language ("" for none): the engine
    notes it in English for the log ("power of position 2"), which a French table showed as
    "prend la power of position 2"."""
    if not note:
        return ""
    found = _MALANDRIN_NOTE.fullmatch(note)
    if found is None:
        return gettext("takes the %(choice)s") % {"choice": note}
    if found[1] == "value":
        words = gettext("takes the value of play position %(position)s")
    else:
        words = gettext("takes the power of play position %(position)s")
    return words % {"position": found[2]}


def _in_hand(card: dict[str, Any], variants: list[int], control: Any) -> dict[str, Any]:
    """A card of the viewer's hand: playing it, and playing it with the bourgeoisie card."""
    plain = control(("hand", card["rank"], False))
    with_card = control(("hand", card["rank"], True))
    power = _power(card["rank"], variants)
    # The card's spoken name, made here rather than by a {% blocktranslate %} per card.
    words = {"character": card["character"], "value": card["value"], "power": power}
    return {
        **card,
        "power": power,
        "label": gettext("%(character)s, value %(value)s, %(power)s") % words,
        "active_religieux": card["rank"] == RELIGIEUX and RELIGIEUX in variants,
        "move": plain.json if plain else "",
        "with_bourgeoisie": with_card,
    }


def _pile_face_up(colours: list[str], control: Any) -> list[dict[str, Any]]:
    """The draw pile's face-up tokens; the first of each colour carries the move that takes
    (or exchanges with) a face-up token of that colour."""
    drawn, seen = [], set()
    for colour in colours:
        index = STANDARD.colours.index(colour) if colour in STANDARD.colours else -2
        first = colour not in seen
        seen.add(colour)
        drawn.append(
            {
                "colour": colour,
                "colour_class": colour_class(colour),
                "control": control(("pile", index)) if first else None,
            }
        )
    return drawn


def add_result(table: Table, result: dict[str, Any] | None, names: list[str]) -> Table:
    """Put the final scores on ``table`` once the game is over: per player the rank (shared
    ranks marked), the total and each round's score with how it was counted (the colour, its
    card points × its face-up tokens; from the view, else the result's colour alone), best
    rank first."""
    if not result:
        return table
    details = result.get("details") or {}
    ranks = result.get("ranks") or []
    rows = []
    for player in details.get("players", []):
        seat = player["seat"]
        rank = ranks[seat] if seat < len(ranks) else None
        rounds = []
        for index, r in enumerate(player["rounds"]):
            cell = {"score": r["score"], "colour": r.get("scored_with")}
            if index < len(table.round_lines) and seat < len(table.round_lines[index]):
                cell.update(table.round_lines[index][seat])
            cell["colour_class"] = colour_class(cell["colour"])
            rounds.append(cell)
        rows.append(
            {
                "seat": seat,
                "name": _name(names, seat),
                "rank": rank,
                "tied": rank is not None and ranks.count(rank) > 1,
                "total": player["total"],
                "mine": seat == table.viewer_seat,
                "rounds": rounds,
            }
        )
    table.final = sorted(rows, key=lambda row: (row["rank"] or 99, row["seat"]))
    table.tie_break_rounds = int(details.get("tie_break_rounds", 0))
    return table


# The moves whose target is one token in front of a player (or, seat -1, the draw pile).
TOKEN_MOVES = frozenset(
    {"turn-up", "remove-token", "choose-token", "exchange-with", "consult-token"}
)


def _where(move: dict[str, Any]) -> tuple[Any, ...] | None:
    """The object on the table a move acts on, or None for a move with no object (finish)."""
    kind = move.get("type")
    if kind == "play":
        return ("hand", move["rank"], bool(move.get("bourgeoisie")))
    if kind == "steal":
        return ("steal", move["card"], move["mode"])
    if kind in TOKEN_MOVES:
        if move["seat"] == mv.PILE:
            return ("pile", move["slot"])
        return ("token", move["seat"], move["slot"])
    if kind == "take-token":
        return ("pile", move["pick"])
    if kind == "move-to":
        return ("player", move["seat"])
    if kind == "consult-trick":
        return ("trick", move["seat"], move["trick"])
    if kind == "take-card":
        return ("take", move["seat"], move["colour"])
    return None


def _placements(
    moves: list[dict[str, Any]],
) -> tuple[dict[tuple[Any, ...], dict[str, Any]], list[dict[str, Any]]]:
    """The moves drawn on an object, by object, and the others (kept as buttons in words): a
    move goes on its object when no other legal move acts on that object now."""
    found: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    loose = []
    for move in moves:
        where = _where(move)
        if where is None:
            loose.append(move)
        else:
            found.setdefault(where, []).append(move)
    placed = {where: group[0] for where, group in found.items() if len(group) == 1}
    loose += [m for group in found.values() if len(group) > 1 for m in group]
    return placed, loose


def _rank_of(character: str) -> int:
    return NAMES.index(character) if character in NAMES else -1


# -- the replay's words for effects' details --------------------------------------------------

#: Keys of the engine's effect data that name a seat, a blason colour (or a list of them, by
#: the edition's index), or hold one number per seat.
SEAT_KEYS = frozenset({"leader", "seat"})
COLOUR_KEYS = frozenset({"colour", "order", "face_up"})
PER_SEAT_KEYS = frozenset({"scores", "totals"})


@per_language
def effect_labels() -> dict[str, str]:
    """The effect data's keys in the viewer's language."""
    return {
        "leader": gettext("leads"),
        "seat": gettext("player"),
        "colour": gettext("colour"),
        "order": gettext("order"),
        "face_up": gettext("turned up"),
        "scores": gettext("scores"),
        "totals": gettext("totals"),
    }


def effect_words(kind: str, data: dict[str, Any], names: list[str]) -> str | None:
    """An effect's details in words for the replay (play.drawings): seats by the players' names,
    colours by the houses' names, per-seat numbers with the names."""
    labels = effect_labels()
    parts = []
    for key, value in data.items():
        parts.append(f"{labels.get(key, key)}: {_effect_value(key, value, names)}")
    return " · ".join(parts)


def _effect_value(key: str, value: Any, names: list[str]) -> str:
    if key in SEAT_KEYS and isinstance(value, int):
        return _name(names, value)
    if key in COLOUR_KEYS:
        colours = value if isinstance(value, list) else [value]
        return ", ".join(
            _edition_colour(c) or str(c) if isinstance(c, int) else str(c) for c in colours
        )
    if key in PER_SEAT_KEYS and isinstance(value, list):
        return ", ".join(f"{_name(names, seat)} {v}" for seat, v in enumerate(value))
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)
