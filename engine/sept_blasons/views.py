"""What a seat may see of a game of Les 7 Blasons, and moves in words.

Hidden from everyone: face-down tokens' colours (unless the viewer consulted them), the draw
pile's order. Hidden from others: a player's hand (only its size is shown) and tricks (only
their count; in variant 1 a player sees only the tricks it consulted, its own included).

Once the game is over nothing is hidden any more (the seed is revealed, so anyone can replay
every shuffle): the face-down tokens in front of the players show their colours, marked
``revealed``, and every player's tricks of the last round are shown to everyone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.text import Seat, Text, _
from engine.sept_blasons import moves as mv
from engine.sept_blasons.cards import EDITIONS, MALANDRIN, RANKS_PER_COLOUR, STANDARD
from engine.sept_blasons.legality import TRICK_CODE
from engine.sept_blasons.play import STEAL_WORDS
from engine.sept_blasons.state import BOURGEOISIE, FREE, OVER, PLAY, POWER, SeptState, Token

if TYPE_CHECKING:
    from engine.core import Move
    from engine.sept_blasons.game import SeptBlasons

NAMES = tuple(c.name for c in STANDARD.characters)


def _value_words(rank: int) -> str:
    return "*" if rank == MALANDRIN else str(rank)


def _card(state: SeptState, code: int) -> dict[str, Any]:
    colour, rank = divmod(code, RANKS_PER_COLOUR)
    return {
        "colour": EDITIONS[state.edition].colours[colour],
        "character": NAMES[rank],
        "value": _value_words(rank),
    }


def _token(state: SeptState, slot: int, token: Token, viewer: int | None) -> dict[str, Any]:
    shown: dict[str, Any] = {"slot": slot, "face": "up" if token.up else "down"}
    if token.up or (viewer is not None and viewer in token.known_by):
        shown["colour"] = EDITIONS[state.edition].colours[token.colour]
    elif state.phase == OVER:
        shown["colour"] = EDITIONS[state.edition].colours[token.colour]
        shown["revealed"] = True
    if not token.up and token.known_by:
        shown["consulted_by"] = list(token.known_by)
    return shown


def _tricks_seen(state: SeptState, owner: int, viewer: int | None) -> list[dict[str, Any]]:
    """The tricks of ``owner`` that ``viewer`` may look at, with their index."""
    if state.phase == OVER:
        return [
            {"index": i, "cards": [_card(state, code) for code in trick]}
            for i, trick in enumerate(state.tricks[owner])
        ]
    if viewer is None:
        return []
    everything = owner == viewer and 1 not in state.variants
    seen = state.seen_tricks[viewer]
    return [
        {"index": i, "cards": [_card(state, code) for code in trick]}
        for i, trick in enumerate(state.tricks[owner])
        if everything or owner * TRICK_CODE + i in seen
    ]


def _player(state: SeptState, seat: int, viewer: int | None) -> dict[str, Any]:
    edition = EDITIONS[state.edition]
    level = state.bourgeoisie[seat]
    card = next((b.name for b in edition.bourgeoisie if b.level == level), None)
    shown: dict[str, Any] = {
        "seat": seat,
        "colour": edition.colours[seat],
        "total": state.totals[seat],
        "cards_in_hand": len(state.hands[seat]),
        "tricks": len(state.tricks[seat]),
        "tokens": [_token(state, i, t, viewer) for i, t in enumerate(state.fronts[seat])],
        "bourgeoisie": card,
        "bourgeoisie_used": state.b_used[seat],
    }
    seen = _tricks_seen(state, seat, viewer)
    if seen:
        shown["tricks_seen"] = seen
    return shown


def _played(state: SeptState) -> list[dict[str, Any]]:
    trick = state.trick
    return [
        {
            "position": card.position,
            "seat": card.seat,
            **_card(state, card.seat * RANKS_PER_COLOUR + card.rank),
            "carries_value": None
            if card.value_from is None
            else _value_words(trick[card.value_from].rank),
            "power_used_by": trick[card.power_by].seat,
            "power_done": card.used,
            "malandrin_choice": card.note or None,
        }
        for card in trick
    ]


def _round_lines(state: SeptState) -> list[list[dict[str, Any]]]:
    """How each finished round was counted, per seat: the colour that scored, the card points
    of that colour in the seat's tricks and its face-up tokens of it (public: a round's tricks
    and tokens are counted in the open). Empty for a game whose earlier rounds were played
    before the engine kept the count (its snapshot lacks it): then no round is shown."""
    if len(state.round_lines) != len(state.round_scores):
        return []
    colours = EDITIONS[state.edition].colours
    return [
        [
            {
                "colour": colours[colour] if colour >= 0 else None,
                "card_points": points,
                "tokens": tokens,
                "points": points * tokens,
            }
            for colour, points, tokens in lines
        ]
        for lines in state.round_lines
    ]


def _decision(game: SeptBlasons, state: SeptState) -> str:
    actor = game.actor(state)
    if actor is None:
        return "the game is over"
    if state.phase == PLAY:
        return f"seat {actor} plays a card"
    if state.phase == POWER:
        card = state.trick[state.resolving]
        step = " (second step)" if state.picked_seat >= 0 else ""
        return (
            f"seat {actor} uses the power of the {NAMES[card.rank]} in play position "
            f"{card.position}{step}"
        )
    if state.phase == FREE:
        return f"seat {actor} won the trick and takes a free action"
    assert state.phase == BOURGEOISIE
    card_name = game.bourgeoisie_card(state, actor).name
    return f"seat {actor} uses its {card_name} bourgeoisie card"


def view(game: SeptBlasons, state: SeptState, seat: int | None) -> dict[str, Any]:
    """Everything ``seat`` (None: a spectator) may see now."""
    edition = EDITIONS[state.edition]
    shown: dict[str, Any] = {
        "seat": seat,
        "options": {"tie_rule": state.tie_rule, "variants": list(state.variants)},
        "round": state.round,
        "trick": state.trick_no + 1,
        "tricks_per_round": RANKS_PER_COLOUR,
        "leader": state.leader,
        "phase": state.phase,
        "to_act": game.to_act(state),
        "decision": _decision(game, state),
        "players": [_player(state, s, seat) for s in range(state.players)],
        "current_trick": _played(state),
        "pile": {
            "face_down": sum(1 for t in state.pile if not t.up),
            "face_up": sorted(edition.colours[t.colour] for t in state.pile if t.up),
        },
        "set_aside": [_card(state, code) for code in state.set_aside],
        "round_scores": [list(r) for r in state.round_scores],
        "round_lines": _round_lines(state),
        "last": [effect.public_json(seat) for effect in state.effects],
    }
    if seat is not None:
        shown["hand"] = [
            {"rank": r, "character": NAMES[r], "value": _value_words(r)}
            for r in sorted(state.hands[seat])
        ]
        shown["can_activate_bourgeoisie"] = game.can_activate(state, seat)
    if state.phase == POWER and state.picked_seat >= 0:
        shown["chosen_token"] = {"seat": state.picked_seat, "slot": state.picked_slot}
    return shown


def _colour_words(colour: int) -> str:
    colours = STANDARD.colours
    return colours[colour] if 0 <= colour < len(colours) else f"colour {colour}"


def _pile_words(pick: int) -> Text:
    if pick == mv.FACE_DOWN:
        return _("a face-down token from the draw pile, at random")
    return _("the face-up {colour} token from the draw pile", colour=_colour_words(pick))


def _token_words(seat: int, slot: int) -> Text:
    if seat == mv.PILE:
        return _("a face-down token of the draw pile, at random")
    return _("token slot {slot} of {seat}", slot=slot, seat=Seat(seat))


def describe(move: Move, seat: int) -> Text:
    """One line a person reads in the audit log."""
    who = Seat(seat)
    if isinstance(move, mv.PlayCard):
        name = NAMES[move.rank] if 0 <= move.rank < RANKS_PER_COLOUR else f"rank {move.rank}"
        if move.bourgeoisie:
            return _(
                "{seat} plays the {character} ({value}) and activates its bourgeoisie card",
                seat=who, character=name, value=_value_words(move.rank),
            )  # fmt: skip
        return _(
            "{seat} plays the {character} ({value})",
            seat=who, character=name, value=_value_words(move.rank),
        )  # fmt: skip
    if isinstance(move, mv.Steal):
        return _(
            "{seat}'s malandrin takes the {mode} of the card in play position {position}",
            seat=who, mode=STEAL_WORDS.get(move.mode, move.mode), position=move.card,
        )  # fmt: skip
    if isinstance(move, mv.TakeToken):
        return _("{seat} takes {token}", seat=who, token=_pile_words(move.pick))
    if isinstance(move, mv.TurnUp):
        return _("{seat} turns up {token}", seat=who, token=_token_words(move.seat, move.slot))
    if isinstance(move, mv.RemoveToken):
        return _(
            "{seat} puts token slot {slot} of {owner} into the draw pile",
            seat=who, slot=move.slot, owner=Seat(move.seat),
        )  # fmt: skip
    if isinstance(move, mv.ChooseToken):
        return _(
            "{seat} chooses token slot {slot} of {owner}",
            seat=who, slot=move.slot, owner=Seat(move.seat),
        )  # fmt: skip
    if isinstance(move, mv.ExchangeWith):
        target = (
            _pile_words(move.slot) if move.seat == mv.PILE else _token_words(move.seat, move.slot)
        )
        return _("{seat} exchanges it with {token}", seat=who, token=target)
    if isinstance(move, mv.MoveTo):
        return _("{seat} moves it to {owner}'s game", seat=who, owner=Seat(move.seat))
    if isinstance(move, mv.ConsultTrick):
        return _(
            "{seat} consults trick {trick} of {owner}",
            seat=who, trick=move.trick, owner=Seat(move.seat),
        )  # fmt: skip
    if isinstance(move, mv.TakeCard):
        return _(
            "{seat} takes the {colour} card of its bourgeoisie character from {owner}'s tricks",
            seat=who, colour=_colour_words(move.colour), owner=Seat(move.seat),
        )  # fmt: skip
    if isinstance(move, mv.ConsultToken):
        return _(
            "{seat} looks at token slot {slot} of {owner}",
            seat=who, slot=move.slot, owner=Seat(move.seat),
        )  # fmt: skip
    return _("{seat} finishes its bourgeoisie action", seat=who)
