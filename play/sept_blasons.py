"""The table of Les 7 Blasons as a seat sees it: the engine's view turned into what the
templates draw, and each legal move as a control labelled in words.

Everything here is read from ``engine.view(state, seat)`` and the seat's ``legal_moves``,
never from the full state: the view is the hidden-information boundary, so the drawing cannot
hold more than the seat may see.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.text import slugify
from django.utils.translation import gettext

from engine.sept_blasons import moves as mv
from engine.sept_blasons.cards import STANDARD
from engine.sept_blasons.views import NAMES

GAME_ID = "les-7-blasons"


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
RELIGIEUX = 4


def colour_class(colour: str | None) -> str:
    """The CSS class of a blason colour ("La Ferté" -> "blason-la-ferte"); "" when hidden."""
    return f"blason-{slugify(colour)}" if colour else ""


@dataclass
class Control:
    """One legal move as a button: its words and its JSON (``data-move``)."""

    label: str
    move: dict[str, Any]

    @property
    def json(self) -> str:
        """The move as the API takes it, for ``data-move``."""
        return json.dumps(self.move, sort_keys=True)


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
    bourgeoisie: str | None

    @property
    def face_down(self) -> int:
        """How many of the seat's tokens lie face down."""
        return sum(1 for token in self.tokens if token["face"] == "down")


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
    pile_face_up: list[dict[str, str]]
    round_scores: list[list[int]]
    to_act_names: list[str]
    your_turn: bool
    decision: str
    controls: list[Control] = field(default_factory=list)
    final: list[dict[str, Any]] = field(default_factory=list)
    tie_break_rounds: int = 0
    legal_moves: list[dict[str, Any]] = field(default_factory=list)
    last_moves: list[str] = field(default_factory=list)

    @property
    def score_rows(self) -> list[dict[str, Any]]:
        """Per player: the scores of the rounds played so far and the total."""
        return [
            {
                "name": p.name,
                "mine": p.mine,
                "rounds": [r[p.seat] for r in self.round_scores],
                "total": p.total,
            }
            for p in self.players
        ]

    @property
    def token_targets(self) -> int:
        """How many tokens on the table carry a move now."""
        return sum(1 for p in self.players for t in p.tokens if t.get("control"))

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


def decision_words(view: dict[str, Any], names: list[str]) -> str:
    """What the table waits for, by name, or addressed to the viewer when it is their turn
    (the engine's ``decision`` speaks of seat numbers, in English)."""
    to_act = view["to_act"]
    if not to_act:
        return gettext("The game is over.")
    mine = view["seat"] in to_act
    words = {"name": _name(names, to_act[0])}
    phase = view["phase"]
    if phase == "play":
        return gettext("play a card.") if mine else gettext("%(name)s plays a card.") % words
    if phase == "power":
        card = _resolving(view)
        words["character"] = card["character"] if card else "?"
        words["owner"] = _name(names, card["seat"]) if card else "?"
        if mine and card is not None and card["seat"] == view["seat"]:
            return gettext("use the power of your %(character)s.") % words
        if mine:
            return gettext("use the power of %(owner)s's %(character)s.") % words
        return gettext("%(name)s uses the power of %(owner)s's %(character)s.") % words
    if phase == "free":
        if mine:
            return gettext("you won the trick: take a free action.")
        return gettext("%(name)s won the trick and takes a free action.") % words
    if mine:
        return gettext("use your bourgeoisie card.")
    return gettext("%(name)s uses a bourgeoisie card.") % words


def table_for(view: dict[str, Any], legal_moves: list[dict[str, Any]], names: list[str]) -> Table:
    """The drawing of ``view`` (one seat's, or the public one) with the viewer's controls."""
    viewer = view["seat"]
    variants = list(view["options"]["variants"])
    to_act = list(view["to_act"])
    players = [
        Player(
            seat=p["seat"],
            name=_name(names, p["seat"]),
            colour=p["colour"],
            colour_class=colour_class(p["colour"]),
            mine=p["seat"] == viewer,
            leads=p["seat"] == view["leader"],
            to_act=p["seat"] in to_act,
            cards_in_hand=p["cards_in_hand"],
            tricks=p["tricks"],
            total=p["total"],
            tokens=[{**t, "colour_class": colour_class(t.get("colour"))} for t in p["tokens"]],
            bourgeoisie=p.get("bourgeoisie"),
        )
        for p in view["players"]
    ]
    played = [
        {
            **card,
            "name": _name(names, card["seat"]),
            "colour_class": colour_class(card["colour"]),
            "power": _power(_rank_of(card["character"]), variants),
        }
        for card in view["current_trick"]
    ]
    plays = {
        m["rank"]: m for m in legal_moves if m.get("type") == "play" and not m.get("bourgeoisie")
    }
    hand = [
        {
            **card,
            "power": _power(card["rank"], variants),
            "move": json.dumps(plays[card["rank"]], sort_keys=True)
            if card["rank"] in plays
            else "",
        }
        for card in view.get("hand", [])
    ]
    others = [m for m in legal_moves if not (m.get("type") == "play" and not m.get("bourgeoisie"))]
    on_tokens = _token_targets(others)
    for player in players:
        for token in player.tokens:
            move = on_tokens.get((player.seat, token["slot"]))
            if move is not None:
                token["control"] = Control(move_label(move, view, names), move)
    placed = [id(m) for m in on_tokens.values()]
    controls = [Control(move_label(m, view, names), m) for m in others if id(m) not in placed]
    pile = view["pile"]
    return Table(
        viewer_seat=viewer,
        round=view["round"],
        trick=view["trick"],
        tricks_per_round=view["tricks_per_round"],
        players=players,
        played=played,
        hand=hand,
        pile_face_down=pile["face_down"],
        pile_face_up=[{"colour": c, "colour_class": colour_class(c)} for c in pile["face_up"]],
        round_scores=view["round_scores"],
        to_act_names=[_name(names, s) for s in to_act],
        your_turn=viewer is not None and viewer in to_act,
        decision=decision_words(view, names),
        controls=controls,
        legal_moves=list(legal_moves),
    )


def add_result(table: Table, result: dict[str, Any] | None, names: list[str]) -> Table:
    """Put the final scores on ``table`` once the game is over: per player the rank, the
    total and each round's score with the colour it was counted in, best rank first."""
    if not result:
        return table
    details = result.get("details") or {}
    ranks = result.get("ranks") or []
    rows = []
    for player in details.get("players", []):
        seat = player["seat"]
        rows.append(
            {
                "seat": seat,
                "name": _name(names, seat),
                "rank": ranks[seat] if seat < len(ranks) else None,
                "total": player["total"],
                "mine": seat == table.viewer_seat,
                "rounds": [
                    {
                        "score": r["score"],
                        "colour": r.get("scored_with"),
                        "colour_class": colour_class(r.get("scored_with")),
                    }
                    for r in player["rounds"]
                ],
            }
        )
    table.final = sorted(rows, key=lambda row: (row["rank"] or 99, row["seat"]))
    table.tie_break_rounds = int(details.get("tie_break_rounds", 0))
    return table


# The moves whose target is one token in front of a player: drawn on the token itself.
TOKEN_MOVES = frozenset(
    {"turn-up", "remove-token", "choose-token", "exchange-with", "consult-token"}
)


def _token_targets(moves: list[dict[str, Any]]) -> dict[tuple[int, int], dict[str, Any]]:
    """The moves to put on a token, by (seat, slot): those aimed at a player's token, when
    that token is the target of no other move now (else the move stays a button in words)."""
    targets: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for move in moves:
        if move.get("type") in TOKEN_MOVES and move["seat"] != mv.PILE:
            targets.setdefault((move["seat"], move["slot"]), []).append(move)
    return {where: found[0] for where, found in targets.items() if len(found) == 1}


def _rank_of(character: str) -> int:
    return NAMES.index(character) if character in NAMES else -1


# -- the replay's words for effects' details --------------------------------------------------

#: Keys of the engine's effect data that name a seat, a blason colour (or a list of them, by
#: the edition's index), or hold one number per seat.
SEAT_KEYS = frozenset({"leader", "seat"})
COLOUR_KEYS = frozenset({"colour", "order", "face_up"})
PER_SEAT_KEYS = frozenset({"scores", "totals"})


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
