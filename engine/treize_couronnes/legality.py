"""Which 13 Couronnes moves are legal now, and why a move is refused: applying the law
(``laws``), changing the King and paying its guard, redoing the hand, ending the turn, and the
choices of a reward. The queries of the table (the King in power, the reward showing) live here
too."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations_with_replacement
from typing import Any

from engine.core.errors import IllegalMove
from engine.core.game import GAME_OVER, rules_since
from engine.core.moves import Move
from engine.core.text import Seat, Text, _
from engine.treize_couronnes import views
from engine.treize_couronnes.cards import (
    ANNOUNCED,
    COLOURS,
    KINGS,
    ActionKind,
    King,
)
from engine.treize_couronnes.laws import fulfils, ways
from engine.treize_couronnes.moves import (
    ChangeKing,
    Claim,
    Discard,
    EndTurn,
    PayGuard,
    RedoDiscard,
    RedoDraw,
    Reveal,
    StealCards,
    StealCrowns,
    TakeToken,
)
from engine.treize_couronnes.state import (
    BLASON_FOR_ANY_CARD,
    GUARD,
    NO_TOKEN,
    NOBODY,
    TOKEN_LIMIT,
    CouronnesState,
    count_colour,
    king_in_power,
    opponents,
)
from engine.treize_couronnes.words import (
    COLOUR_WORDS,
    REWARD_WORDS,
    card_words,
    king_text,
    word,
)

APPLY_PHASES = ("start", "changed", "applied")
END_PHASES = ("changed", "applied", "drawn")


def legal_moves(state: CouronnesState, seat: int) -> list[Move]:
    """Every move ``seat`` may make now, exactly."""
    if state.phase == "over" or seat != state.current:
        return []
    if state.pending:
        return _reward_moves(state, seat)
    moves: list[Move] = []
    if state.phase in APPLY_PHASES:
        moves.extend(_law_moves(state, seat))
    if state.phase in ("start", "paid"):
        moves.extend(_change_moves(state, seat))
    if state.phase in ("start", "redo"):
        moves.extend(RedoDiscard(card) for card in state.hands[seat])
        moves.append(RedoDraw())
    if state.phase in END_PHASES:
        moves.append(EndTurn(False))
        if _may_place_guard(state, seat):
            moves.append(EndTurn(True))
    return moves


def _law_moves(state: CouronnesState, seat: int) -> list[Move]:
    action = king_in_power(state).action
    if action.once:
        if state.phase != "applied" and _may_claim(state, seat):
            return [Claim()]
        return []
    usable = [c for c in state.hands[seat] if c not in state.revealed]
    found = ways(
        action,
        usable,
        state.blasons[seat],
        KINGS[state.edition],
        state.announced,
        blason_for_any=rules_since(state, BLASON_FOR_ANY_CARD),
    )
    kind = Reveal if action.kind is ActionKind.REVEAL else Discard
    return [kind(cards, jokers, blasons) for cards, jokers, blasons in found]


def _may_claim(state: CouronnesState, seat: int) -> bool:
    """Whether a once-per-turn law may be attempted (13C-1)."""
    action = king_in_power(state).action
    if action.kind is ActionKind.ONCE_HAND_4:
        return len(state.hands[seat]) == 4
    if action.kind is ActionKind.ONCE_FEWEST_CROWNS:
        # hidden crowns: the offer must not tell whether it holds, so it is always made
        return state.hidden_crowns or fewest_holds(state, seat)
    # most-<colour>: an attempt needs at least one card of the colour to reveal
    return count_colour(state, seat, action.colour) > 0


def fewest_holds(state: CouronnesState, seat: int) -> bool:
    """Whether ``seat`` has strictly fewer crowns than each opponent."""
    mine = state.crowns[seat]
    return all(mine < state.crowns[o] for o in opponents(state, seat))


def _change_moves(state: CouronnesState, seat: int) -> Iterator[Move]:
    """Pay an opponent's guard first (with any card, keeping one to play), else change."""
    hand = state.hands[seat]
    if _guarded_against(state, seat):
        if len(hand) >= 2:
            yield from (PayGuard(card) for card in hand)
        return
    for card in hand:
        for colour in COLOURS if _announces(state, card) else ("",):
            yield ChangeKing(card, colour)


def _guarded_against(state: CouronnesState, seat: int) -> bool:
    """True when another seat's guard stands on the King in power."""
    return state.guard_owner not in (NOBODY, seat)


def _announces(state: CouronnesState, card: str) -> bool:
    return KINGS[state.edition][card].action.need[:1] == ((ANNOUNCED, 1),)


def _may_place_guard(state: CouronnesState, seat: int) -> bool:
    return state.guards[seat] > 0 and state.guard_owner == NOBODY


def _reward_moves(state: CouronnesState, seat: int) -> list[Move]:
    kind, _sep, amount = state.pending[0].partition(":")
    if kind in (GUARD, "blason"):
        return list(token_moves(state, seat, kind))
    victims = victim_choices(state, seat, kind, int(amount))
    cls = StealCrowns if kind == "steal-crowns" else StealCards
    return [cls(v) for v in victims]


def token_moves(state: CouronnesState, seat: int, kind: str) -> Iterator[TakeToken]:
    """Take a guard or a blason (each colour left), giving one back first when holding 2."""
    if kind == GUARD:
        offered = [GUARD] if state.reserve_guards else []
    else:
        offered = [c for c in COLOURS if state.reserve_blasons[c]]
    full = state.tokens(seat) >= TOKEN_LIMIT
    if full:
        yield TakeToken(NO_TOKEN, "")
    held = ([GUARD] if state.guards[seat] else []) + sorted(set(state.blasons[seat]))
    for token in offered:
        for drop in held if full else [""]:
            if drop != token:
                yield TakeToken(token, drop)


def victim_choices(
    state: CouronnesState, seat: int, kind: str, amount: int
) -> list[tuple[int, ...]]:
    """Each way to split ``amount`` thefts among opponents who have something to lose.

    With hidden crowns any opponent may be named for every crown: listing only those who
    have crowns would tell the thief who has none (a theft from nobody's crowns is lost)."""
    caps = _theft_caps(state, seat, kind, amount)
    size = min(amount, sum(caps.values()))
    return [
        split
        for split in combinations_with_replacement(sorted(caps), size)
        if all(split.count(o) <= cap for o, cap in caps.items())
    ]


def _theft_caps(state: CouronnesState, seat: int, kind: str, amount: int) -> dict[int, int]:
    """Per opponent with something to lose, the most of ``amount`` thefts they can suffer."""
    if kind == "steal-crowns" and state.hidden_crowns:
        have = [amount] * state.players
    else:
        have = state.crowns if kind == "steal-crowns" else [len(h) for h in state.hands]
    return {o: min(have[o], amount) for o in opponents(state, seat) if have[o] > 0}


def check(state: CouronnesState, seat: int, move: Move) -> None:
    """Raise IllegalMove with the reason unless ``move`` is legal for ``seat`` now."""
    if state.phase == "over":
        raise IllegalMove(GAME_OVER)
    if seat != state.current:
        raise IllegalMove(
            _("it is {current}'s turn, not {seat}'s", current=Seat(state.current), seat=Seat(seat))
        )
    if state.pending:
        _check_reward_move(state, seat, move)
        return
    checker = _CHECKS.get(move.__class__)  # the moves' classes have no subclasses
    if checker is None:
        raise IllegalMove(_("{move} is not allowed now", move=views.describe(move, seat)))
    checker(state, seat, move)


def _reward_allows(state: CouronnesState, seat: int, move: Move) -> bool:
    """Whether ``move`` is among :func:`_reward_moves`, a theft checked without listing every
    split of it (those grow fast with the amount and the opponents): the victims are a sorted
    tuple of the split's size naming opponents with something to lose, none more often than
    what they hold."""
    kind, _sep, amount = state.pending[0].partition(":")
    if kind in (GUARD, "blason"):
        return move in list(token_moves(state, seat, kind))
    cls = StealCrowns if kind == "steal-crowns" else StealCards
    if move.__class__ is not cls:
        return False
    assert isinstance(move, (StealCrowns, StealCards))
    victims = move.victims
    if victims.__class__ is not tuple:
        return False
    caps = _theft_caps(state, seat, kind, int(amount))
    if len(victims) != min(int(amount), sum(caps.values())):
        return False
    if any(v not in caps for v in victims) or list(victims) != sorted(victims):
        return False
    return all(victims.count(o) <= cap for o, cap in caps.items())


def _check_reward_move(state: CouronnesState, seat: int, move: Move) -> None:
    if not _reward_allows(state, seat, move):
        kind, _sep, amount = state.pending[0].partition(":")
        raise IllegalMove(
            _(
                "{move} is not allowed: {seat} must first take the reward part '{kind} {amount}' "
                "(the choices are in the legal moves)",
                move=views.describe(move, seat), seat=Seat(seat),
                kind=word(REWARD_WORDS, kind), amount=amount,
            )
        )  # fmt: skip


def _check_law_move(state: CouronnesState, seat: int, move: Move) -> None:
    king = king_in_power(state)
    if state.phase not in APPLY_PHASES:
        raise IllegalMove(_("the law can only be applied at the start of a turn, after "
                            "changing the King, or again right after applying it"))  # fmt: skip
    if not _law_allows(state, seat, move):
        raise IllegalMove(_why_law_refused(state, seat, move, king))


def _law_allows(state: CouronnesState, seat: int, move: Move) -> bool:
    """The direct check of a law move (the same answer as ``move in _law_moves``)."""
    action = king_in_power(state).action
    if action.once or isinstance(move, Claim):
        return isinstance(move, Claim) and move in _law_moves(state, seat)
    expected = Reveal if action.kind is ActionKind.REVEAL else Discard
    if not isinstance(move, expected):
        return False
    usable = [c for c in state.hands[seat] if c not in state.revealed]
    way = (move.cards, move.jokers, move.blasons)
    kings = KINGS[state.edition]
    return fulfils(
        action,
        way,
        usable=usable,
        blasons=state.blasons[seat],
        kings=kings,
        announced=state.announced,
        blason_for_any=rules_since(state, BLASON_FOR_ANY_CARD),
    )


def _why_law_refused(state: CouronnesState, seat: int, move: Move, king: King) -> Text:
    """Why a law move is refused; the King in power named by its colour and law, as the table
    names it (never by the edition's id and law code)."""
    action = king.action
    named = king_text(king, state.announced)
    if action.once and state.phase == "applied":
        return _("the law of {king} can be applied only once per turn", king=named)
    if action.once:
        return _("{seat} does not meet the condition of {king}", seat=Seat(seat), king=named)
    expected = "reveal" if action.kind is ActionKind.REVEAL else "discard"
    if expected != move.TYPE:
        return _(
            "the law of {king} is applied with a '{expected}' move", king=named, expected=expected
        )
    if rules_since(state, BLASON_FOR_ANY_CARD):
        return _(
            "{move} does not carry out the law of {king}: the cards must be in hand and not "
            "revealed yet this turn, of the asked colours, a joker may only stand in for a "
            "missing card and a blason for a card of its colour",
            move=views.describe(move, seat), king=named,
        )  # fmt: skip
    return _(
        "{move} does not carry out the law of {king}: the cards must be in hand and not "
        "revealed yet this turn, of the asked colours, a joker may only stand in for a missing "
        "card and a blason for a card of its colour that is missing",
        move=views.describe(move, seat), king=named,
    )  # fmt: skip


def _check_change(state: CouronnesState, seat: int, move: ChangeKing) -> None:
    if state.phase not in ("start", "paid"):
        raise IllegalMove(_("the King can only be changed as the turn's first choice"))
    if _guarded_against(state, seat):
        raise IllegalMove(
            _(
                "the King is guarded by {owner}: first give them a card from your hand (pay-guard)",
                owner=Seat(state.guard_owner),
            )
        )
    if move.card not in state.hands[seat]:
        raise IllegalMove(_no_card(seat, move.card))
    if _announces(state, move.card) != (move.announce != ""):
        raise IllegalMove(_announce_words(state, move.card))
    if move.announce and move.announce not in COLOURS:
        raise IllegalMove(
            _("{announce} is not a colour ({colours})", announce=repr(move.announce),
              colours=_colour_list())
        )  # fmt: skip


def _no_card(seat: int, card: str) -> Text:
    """A card the seat does not hold, named as the table names it (its colour and law)."""
    return _("{seat} does not hold {card}", seat=Seat(seat), card=card_words(card))


def _colour_list() -> tuple[Text, ...]:
    return tuple(COLOUR_WORDS[c] for c in COLOURS)


def _check_pay_guard(state: CouronnesState, seat: int, move: PayGuard) -> None:
    if state.phase != "start":
        raise IllegalMove(_("a guard is paid for only to change the King, as the first choice"))
    if not _guarded_against(state, seat):
        raise IllegalMove(_("no card is owed: the King in power has no opponent's guard"))
    if move.card not in state.hands[seat]:
        raise IllegalMove(_no_card(seat, move.card))
    if len(state.hands[seat]) < 2:
        raise IllegalMove(_("paying the guard would leave no card to play as the new King"))


def _announce_words(state: CouronnesState, card: str) -> Text:
    if _announces(state, card):
        return _(
            "{card} asks for a colour: announce one of {colours}", card=card_words(card),
            colours=_colour_list(),
        )  # fmt: skip
    return _("{card} does not ask for a colour: announce nothing", card=card_words(card))


def _check_redo(state: CouronnesState, seat: int, move: Move) -> None:
    if state.phase not in ("start", "redo"):
        raise IllegalMove(_("the hand can only be redone as the turn's first choice"))
    if isinstance(move, RedoDiscard) and move.card not in state.hands[seat]:
        raise IllegalMove(_no_card(seat, move.card))


def _check_end(state: CouronnesState, seat: int, move: EndTurn) -> None:
    if state.phase not in END_PHASES:
        raise IllegalMove(_("the turn cannot end yet: choose an action first (or draw)"))
    if move.guard and not _may_place_guard(state, seat):
        if state.guard_owner != NOBODY:
            raise IllegalMove(_("the King in power already has a guard"))
        raise IllegalMove(_("{seat} has no guard to place", seat=Seat(seat)))


#: The check of each kind of move outside a reward (looked up by class: a replay checks
#: thousands of moves, and a chain of ``isinstance`` tests costs more than one lookup).
_CHECKS: dict[type[Move], Callable[[CouronnesState, int, Any], None]] = {
    Reveal: _check_law_move,
    Discard: _check_law_move,
    Claim: _check_law_move,
    ChangeKing: _check_change,
    PayGuard: _check_pay_guard,
    RedoDiscard: _check_redo,
    RedoDraw: _check_redo,
    EndTurn: _check_end,
}
