"""13 Couronnes on the engine contract: rulebook /work/shared/rules/13-couronnes.txt with the
rulings 13C-1..13C-3 of /work/shared/games/README.md (written up in docs/rules/13-couronnes.md).

A turn is a short sequence of small moves. At the start the player chooses one of: apply the
law (a :class:`Reveal`, :class:`Discard` or :class:`Claim` naming the cards and tokens used),
change the King (:class:`ChangeKing`, after :class:`PayGuard` when an opponent guards it; the
new law may then be applied), or redo the hand
(:class:`RedoDiscard` one card at a time, then :class:`RedoDraw`). A law may be applied again
with cards not revealed yet this turn; a reward needing a choice waits in ``state.pending``
(:class:`TakeToken`, :class:`StealCrowns`, :class:`StealCards`). :class:`EndTurn` closes the
turn, optionally placing a guard on the King in power.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from itertools import combinations_with_replacement
from typing import Any, ClassVar

from engine.core.errors import IllegalMove
from engine.core.game import Game, GameState, Result, Termination, ranks_from_keys
from engine.core.moves import Move
from engine.core.options import Option
from engine.core.rng import Rng
from engine.core.seats import next_seat
from engine.treize_couronnes.cards import (
    ANNOUNCED,
    COLOURS,
    FIRST_KING,
    KINGS,
    ActionKind,
    King,
    Reward,
)
from engine.treize_couronnes.laws import fulfils, ways
from engine.treize_couronnes.state import (
    MOVES,
    NOBODY,
    ChangeKing,
    Claim,
    CouronnesState,
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

HAND_SIZE = 6
CROWNS_TO_WIN = 13
TOKEN_LIMIT = 2
RESERVE_CROWNS = 65
RESERVE_GUARDS = 4
BLASONS_PER_COLOUR = 2
APPLY_PHASES = ("start", "changed", "applied")
END_PHASES = ("changed", "applied", "drawn")
NO_TOKEN = "none"
_PHASE_WORDS = {
    "start": "apply the law, change the King or redo the hand",
    "paid": "play a card as the new King",
    "changed": "apply the new law or end the turn",
    "applied": "apply the law again with other cards or end the turn",
    "redo": "discard another card or draw up to 6",
    "drawn": "end the turn",
}
GUARD = "guard"


class TreizeCouronnes(Game[CouronnesState]):
    """13 Couronnes: be the first to hold 13 crowns by applying the laws of the King in power."""

    id: ClassVar[str] = "13-couronnes"
    name: ClassVar[str] = "13 Couronnes"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    engine_version: ClassVar[str] = "1.2.0"
    editions: ClassVar[tuple[str, ...]] = tuple(KINGS)
    options: ClassVar[tuple[Option, ...]] = (
        Option("max_turns", "integer", 200, "the game ends after this many turns", minimum=1),
        Option("hidden_crowns", "boolean", False, "players see only their own crowns"),
    )
    moves = MOVES
    state_type: ClassVar[type[GameState]] = CouronnesState

    # -- setup ----------------------------------------------------------------------------
    def setup(
        self, players: int, options: dict[str, Any], edition: str, rng: Rng
    ) -> CouronnesState:
        """The 1st King in power, a shuffled draw pile, 6 cards each, compensation crowns."""
        first = FIRST_KING[edition]
        deck = rng.shuffled(sorted(k for k in KINGS[edition] if k != first))
        state = CouronnesState(
            rng=rng,
            edition=edition,
            players=players,
            max_turns=options["max_turns"],
            hidden_crowns=options["hidden_crowns"],
            hands=[sorted(deck[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(players)],
            draw=deck[players * HAND_SIZE :],
            discard=[],
            kings=[first],
            crowns=list(range(players)),  # seat s takes s crowns as compensation (13C-3)
            guards=[0] * players,
            blasons=[[] for _ in range(players)],
            reserve_crowns=RESERVE_CROWNS - sum(range(players)),
            reserve_guards=RESERVE_GUARDS,
            reserve_blasons=dict.fromkeys(COLOURS, BLASONS_PER_COLOUR),
        )
        state.note("chance", "the draw pile is shuffled", {"order": list(deck)}, visible_to=[])
        for seat, hand in enumerate(state.hands):
            state.note("chance", f"seat {seat} is dealt 6 cards", {"hand": hand}, [seat])
        state.note("setup", f"{first} is the King in power; each seat s takes s crowns")
        return state

    # -- whose turn, what they may do -----------------------------------------------------
    def to_act(self, state: CouronnesState) -> list[int]:
        """The seat whose turn it is, or nobody once the game is over."""
        return [] if state.phase == "over" else [state.current]

    def legal_moves(self, state: CouronnesState, seat: int) -> list[Move]:
        """Every move ``seat`` may make now, exactly."""
        if state.phase == "over" or seat != state.current:
            return []
        if state.pending:
            return self._reward_moves(state, seat)
        moves: list[Move] = []
        if state.phase in APPLY_PHASES:
            moves.extend(self._law_moves(state, seat))
        if state.phase in ("start", "paid"):
            moves.extend(self._change_moves(state, seat))
        if state.phase in ("start", "redo"):
            moves.extend(RedoDiscard(card) for card in state.hands[seat])
            moves.append(RedoDraw())
        if state.phase in END_PHASES:
            moves.append(EndTurn(False))
            if self._may_place_guard(state, seat):
                moves.append(EndTurn(True))
        return moves

    def _law_moves(self, state: CouronnesState, seat: int) -> list[Move]:
        action = self.king(state).action
        if action.once:
            if state.phase != "applied" and self._may_claim(state, seat):
                return [Claim()]
            return []
        usable = [c for c in state.hands[seat] if c not in state.revealed]
        found = ways(action, usable, state.blasons[seat], KINGS[state.edition], state.announced)
        kind = Reveal if action.kind is ActionKind.REVEAL else Discard
        return [kind(cards, jokers, blasons) for cards, jokers, blasons in found]

    def _may_claim(self, state: CouronnesState, seat: int) -> bool:
        """Whether a once-per-turn law may be attempted (13C-1)."""
        action = self.king(state).action
        if action.kind is ActionKind.ONCE_HAND_4:
            return len(state.hands[seat]) == 4
        if action.kind is ActionKind.ONCE_FEWEST_CROWNS:
            # hidden crowns: the offer must not tell whether it holds, so it is always made
            return state.hidden_crowns or self._fewest_holds(state, seat)
        # most-<colour>: an attempt needs at least one card of the colour to reveal
        return self._count_colour(state, seat, action.colour) > 0

    def _fewest_holds(self, state: CouronnesState, seat: int) -> bool:
        """Whether ``seat`` has strictly fewer crowns than each opponent."""
        mine = state.crowns[seat]
        return all(mine < state.crowns[o] for o in self._opponents(state, seat))

    def _change_moves(self, state: CouronnesState, seat: int) -> Iterator[Move]:
        """Pay an opponent's guard first (with any card, keeping one to play), else change."""
        hand = state.hands[seat]
        if self._guarded_against(state, seat):
            if len(hand) >= 2:
                yield from (PayGuard(card) for card in hand)
            return
        for card in hand:
            for colour in COLOURS if self._announces(state, card) else ("",):
                yield ChangeKing(card, colour)

    def _guarded_against(self, state: CouronnesState, seat: int) -> bool:
        """True when another seat's guard stands on the King in power."""
        return state.guard_owner not in (NOBODY, seat)

    def _announces(self, state: CouronnesState, card: str) -> bool:
        return KINGS[state.edition][card].action.need[:1] == ((ANNOUNCED, 1),)

    def _may_place_guard(self, state: CouronnesState, seat: int) -> bool:
        return state.guards[seat] > 0 and state.guard_owner == NOBODY

    def _reward_moves(self, state: CouronnesState, seat: int) -> list[Move]:
        kind, _, amount = state.pending[0].partition(":")
        if kind in (GUARD, "blason"):
            return list(self._token_moves(state, seat, kind))
        victims = self._victim_choices(state, seat, kind, int(amount))
        cls = StealCrowns if kind == "steal-crowns" else StealCards
        return [cls(v) for v in victims]

    def _token_moves(self, state: CouronnesState, seat: int, kind: str) -> Iterator[TakeToken]:
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

    def _victim_choices(
        self, state: CouronnesState, seat: int, kind: str, amount: int
    ) -> list[tuple[int, ...]]:
        """Each way to split ``amount`` thefts among opponents who have something to lose.

        With hidden crowns any opponent may be named for every crown: listing only those who
        have crowns would tell the thief who has none (a theft from nobody's crowns is lost)."""
        if kind == "steal-crowns" and state.hidden_crowns:
            have = [amount] * state.players
        else:
            have = state.crowns if kind == "steal-crowns" else [len(h) for h in state.hands]
        caps = {o: min(have[o], amount) for o in self._opponents(state, seat) if have[o] > 0}
        size = min(amount, sum(caps.values()))
        return [
            split
            for split in combinations_with_replacement(sorted(caps), size)
            if all(split.count(o) <= cap for o, cap in caps.items())
        ]

    # -- validation -----------------------------------------------------------------------
    def check(self, state: CouronnesState, seat: int, move: Move) -> None:
        """Raise IllegalMove with the reason unless ``move`` is legal for ``seat`` now."""
        if state.phase == "over":
            raise IllegalMove("the game is over")
        if seat != state.current:
            raise IllegalMove(f"it is seat {state.current}'s turn, not seat {seat}'s")
        if state.pending:
            self._check_reward_move(state, seat, move)
        elif isinstance(move, (Reveal, Discard, Claim)):
            self._check_law_move(state, seat, move)
        elif isinstance(move, ChangeKing):
            self._check_change(state, seat, move)
        elif isinstance(move, PayGuard):
            self._check_pay_guard(state, seat, move)
        elif isinstance(move, (RedoDiscard, RedoDraw)):
            self._check_redo(state, seat, move)
        elif isinstance(move, EndTurn):
            self._check_end(state, seat, move)
        else:
            raise IllegalMove(f"{self.describe(move, seat)} is not allowed now")

    def _check_reward_move(self, state: CouronnesState, seat: int, move: Move) -> None:
        if move not in self._reward_moves(state, seat):
            wanted = state.pending[0].replace(":", " ")
            raise IllegalMove(
                f"{self.describe(move, seat)} is not allowed: seat {seat} must first take the "
                f"reward part '{wanted}' (the choices are in the legal moves)"
            )

    def _check_law_move(self, state: CouronnesState, seat: int, move: Move) -> None:
        king = self.king(state)
        if state.phase not in APPLY_PHASES:
            raise IllegalMove("the law can only be applied at the start of a turn, after "
                              "changing the King, or again right after applying it")  # fmt: skip
        if not self._law_allows(state, seat, move):
            raise IllegalMove(self._why_law_refused(state, seat, move, king))

    def _law_allows(self, state: CouronnesState, seat: int, move: Move) -> bool:
        """The direct check of a law move (the same answer as ``move in _law_moves``)."""
        action = self.king(state).action
        if action.once or isinstance(move, Claim):
            return isinstance(move, Claim) and move in self._law_moves(state, seat)
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
        )

    def _why_law_refused(self, state: CouronnesState, seat: int, move: Move, king: King) -> str:
        action = king.action
        if action.once and state.phase == "applied":
            return f"the law of {king.id} ({king.law}) can be applied only once per turn"
        if action.once:
            return f"seat {seat} does not meet the condition of {king.id} ({king.law})"
        expected = "reveal" if action.kind is ActionKind.REVEAL else "discard"
        if expected != move.TYPE:
            return f"the law of {king.id} ({king.law}) is applied with a '{expected}' move"
        return (
            f"{self.describe(move, seat)} does not carry out {king.law}: the cards must be in "
            f"hand and not revealed yet this turn, of the asked colours, and a joker or a "
            f"blason may only stand in for a missing card"
        )

    def _check_change(self, state: CouronnesState, seat: int, move: ChangeKing) -> None:
        if state.phase not in ("start", "paid"):
            raise IllegalMove("the King can only be changed as the turn's first choice")
        if self._guarded_against(state, seat):
            raise IllegalMove(
                f"the King is guarded by seat {state.guard_owner}: first give them a card "
                f"from your hand (pay-guard)"
            )
        if move.card not in state.hands[seat]:
            raise IllegalMove(f"seat {seat} has no card {move.card} in hand")
        if self._announces(state, move.card) != (move.announce != ""):
            raise IllegalMove(self._announce_words(state, move.card))
        if move.announce and move.announce not in COLOURS:
            raise IllegalMove(f"{move.announce!r} is not a colour ({', '.join(COLOURS)})")

    def _check_pay_guard(self, state: CouronnesState, seat: int, move: PayGuard) -> None:
        if state.phase != "start":
            raise IllegalMove("a guard is paid for only to change the King, as the first choice")
        if not self._guarded_against(state, seat):
            raise IllegalMove("no card is owed: the King in power has no opponent's guard")
        if move.card not in state.hands[seat]:
            raise IllegalMove(f"seat {seat} has no card {move.card} in hand")
        if len(state.hands[seat]) < 2:
            raise IllegalMove("paying the guard would leave no card to play as the new King")

    def _announce_words(self, state: CouronnesState, card: str) -> str:
        if self._announces(state, card):
            return f"{card} asks for a colour: announce one of {', '.join(COLOURS)}"
        return f"{card} does not ask for a colour: announce nothing"

    def _check_redo(self, state: CouronnesState, seat: int, move: Move) -> None:
        if state.phase not in ("start", "redo"):
            raise IllegalMove("the hand can only be redone as the turn's first choice")
        if isinstance(move, RedoDiscard) and move.card not in state.hands[seat]:
            raise IllegalMove(f"seat {seat} has no card {move.card} in hand")

    def _check_end(self, state: CouronnesState, seat: int, move: EndTurn) -> None:
        if state.phase not in END_PHASES:
            raise IllegalMove("the turn cannot end yet: choose an action first (or draw)")
        if move.guard and not self._may_place_guard(state, seat):
            if state.guard_owner != NOBODY:
                raise IllegalMove("the King in power already has a guard")
            raise IllegalMove(f"seat {seat} has no guard to place")

    # -- playing --------------------------------------------------------------------------
    def play(self, state: CouronnesState, seat: int, move: Move) -> None:
        """Carry out a validated move."""
        if isinstance(move, (Reveal, Discard)):
            self._play_law(state, seat, move)
        elif isinstance(move, Claim):
            self._play_claim(state, seat)
        elif isinstance(move, ChangeKing):
            self._play_change(state, seat, move)
        elif isinstance(move, PayGuard):
            self._play_pay_guard(state, seat, move)
        elif isinstance(move, RedoDiscard):
            self._discard_card(state, seat, move.card)
            state.phase = "redo"
        elif isinstance(move, RedoDraw):
            self._draw_up(state, seat)
            state.phase = "drawn"
        elif isinstance(move, TakeToken):
            self._play_take_token(state, seat, move)
        elif isinstance(move, (StealCrowns, StealCards)):
            self._play_steal(state, seat, move)
        elif isinstance(move, EndTurn):
            self._play_end(state, seat, move)

    def _play_law(self, state: CouronnesState, seat: int, move: Reveal | Discard) -> None:
        if isinstance(move, Reveal):
            state.revealed.extend(move.cards)
            state.note("reveal", f"seat {seat} reveals {', '.join(move.cards) or 'no card'}")
        else:
            for card in move.cards:
                self._discard_card(state, seat, card)
        for card in move.jokers:
            self._discard_card(state, seat, card)
        for colour in move.blasons:
            state.blasons[seat].remove(colour)
            state.reserve_blasons[colour] += 1
        self._start_reward(state, seat)

    def _play_claim(self, state: CouronnesState, seat: int) -> None:
        action = self.king(state).action
        state.phase = "applied"
        if action.kind is ActionKind.ONCE_MOST and not self._most_holds(state, seat, action.colour):
            return
        if action.kind is ActionKind.ONCE_FEWEST_CROWNS and not self._fewest_holds(state, seat):
            # offered regardless only under hidden crowns; the failed attempt uses the turn's one
            state.note("law", f"seat {seat} does not have strictly the fewest crowns: no reward")
            return
        self._start_reward(state, seat)

    def _most_holds(self, state: CouronnesState, seat: int, colour: str) -> bool:
        """Reveal the claimant's cards of ``colour`` and those of every opponent with as many."""
        mine = self._count_colour(state, seat, colour)
        shown = {seat: self._of_colour(state, seat, colour)}
        for other in self._opponents(state, seat):
            if self._count_colour(state, other, colour) >= mine:
                shown[other] = self._of_colour(state, other, colour)
        for who, cards in shown.items():
            state.note(
                "reveal", f"seat {who} reveals {len(cards)} {colour} card(s)", {"cards": cards}
            )
        if len(shown) > 1:
            state.note("law", f"seat {seat} does not have strictly the most {colour}: no reward")
            return False
        return True

    def _of_colour(self, state: CouronnesState, seat: int, colour: str) -> list[str]:
        kings = KINGS[state.edition]
        return [c for c in state.hands[seat] if kings[c].colour == colour]

    def _count_colour(self, state: CouronnesState, seat: int, colour: str) -> int:
        return len(self._of_colour(state, seat, colour))

    def _play_pay_guard(self, state: CouronnesState, seat: int, move: PayGuard) -> None:
        owner = state.guard_owner
        state.hands[seat].remove(move.card)
        bisect.insort(state.hands[owner], move.card)
        state.note("guard", f"seat {seat} gives seat {owner} a card for the guard",
                   {"card": move.card}, visible_to=[seat, owner])  # fmt: skip
        self._release_guard(state)
        state.phase = "paid"

    def _release_guard(self, state: CouronnesState) -> None:
        if state.guard_owner != NOBODY:
            state.note("guard", f"the guard of seat {state.guard_owner} returns to the reserve")
            state.reserve_guards += 1
            state.guard_owner = NOBODY

    def _play_change(self, state: CouronnesState, seat: int, move: ChangeKing) -> None:
        state.hands[seat].remove(move.card)
        self._release_guard(state)  # the owner's own guard: ignored and discarded
        state.kings.append(move.card)
        state.announced = move.announce
        state.phase = "changed"

    def _play_take_token(self, state: CouronnesState, seat: int, move: TakeToken) -> None:
        state.pending.pop(0)
        if move.drop:
            self._return_token(state, seat, move.drop)
        if move.token == GUARD:
            state.guards[seat] += 1
            state.reserve_guards -= 1
        elif move.token != NO_TOKEN:
            bisect.insort(state.blasons[seat], move.token)
            state.reserve_blasons[move.token] -= 1
        state.note("reward", f"seat {seat} takes {move.token} token" if move.token != NO_TOKEN
                   else f"seat {seat} lets the token go")  # fmt: skip
        self._continue_reward(state, seat)

    def _return_token(self, state: CouronnesState, seat: int, token: str) -> None:
        if token == GUARD:
            state.guards[seat] -= 1
            state.reserve_guards += 1
        else:
            state.blasons[seat].remove(token)
            state.reserve_blasons[token] += 1
        state.note("reward", f"seat {seat} gives back a {token} token to hold at most 2")

    def _play_steal(self, state: CouronnesState, seat: int, move: StealCrowns | StealCards) -> None:
        state.pending.pop(0)
        for victim in move.victims:
            if state.phase == "over":
                break  # the 13th crown ends the game at once
            if isinstance(move, StealCrowns):
                self._steal_crown(state, seat, victim)
            else:
                self._steal_card(state, seat, victim)
        if state.phase != "over":
            self._continue_reward(state, seat)

    def _steal_crown(self, state: CouronnesState, seat: int, victim: int) -> None:
        """Take one crown from ``victim``; one who has none (only offered under hidden crowns)
        gives nothing and that crown of the reward is lost, as the thief sees at the table."""
        if state.crowns[victim] == 0:
            state.note("reward", f"seat {seat} takes no crown from seat {victim}: that crown "
                       "of the reward is lost", {"lost": 1})  # fmt: skip
            return
        state.crowns[victim] -= 1
        self._gain_crowns(state, seat, 1, f"from seat {victim}")

    def _steal_card(self, state: CouronnesState, seat: int, victim: int) -> None:
        hand = state.hands[victim]
        card = hand.pop(state.rng.randbelow(len(hand)))
        bisect.insort(state.hands[seat], card)
        state.note("chance", f"seat {seat} steals a random card from seat {victim}",
                   {"card": card}, visible_to=[seat, victim])  # fmt: skip

    def _play_end(self, state: CouronnesState, seat: int, move: EndTurn) -> None:
        if move.guard:
            state.guards[seat] -= 1
            state.guard_owner = seat
            state.note("guard", f"seat {seat} places a guard on {state.kings[-1]}")
        state.turns += 1
        state.revealed = []
        state.current = next_seat(seat, state.players)
        state.phase = "over" if state.turns >= state.max_turns else "start"
        if state.phase == "over":
            state.note("end", f"the game reaches its limit of {state.max_turns} turns")

    # -- rewards --------------------------------------------------------------------------
    def _start_reward(self, state: CouronnesState, seat: int) -> None:
        """Queue the parts of the reward showing on the King pile and take what needs no choice."""
        if state.phase != "over":
            state.phase = "applied"
        for reward in self.showing_reward(state):
            if reward.kind in (GUARD, "blason"):
                state.pending.extend([f"{reward.kind}:1"] * reward.amount)
            else:
                state.pending.append(f"{reward.kind}:{reward.amount}")
        self._continue_reward(state, seat)

    def _continue_reward(self, state: CouronnesState, seat: int) -> None:
        """Take the queued reward parts in order until one needs a choice or the game ends."""
        while state.pending and state.phase != "over":
            kind, _, amount = state.pending[0].partition(":")
            if kind == "crowns":
                state.pending.pop(0)
                self._gain_crowns(state, seat, int(amount), "from the reserve")
            elif self._reward_lost(state, seat, kind, int(amount)):
                state.pending.pop(0)
                state.note("reward", f"seat {seat} cannot take {kind} {amount}: it is lost")
            elif kind == GUARD and state.tokens(seat) < TOKEN_LIMIT:
                state.pending.pop(0)
                state.guards[seat] += 1
                state.reserve_guards -= 1
                state.note("reward", f"seat {seat} takes a guard")
            else:
                return  # a choice is needed: the legal moves list it
        if state.phase == "over":
            state.pending.clear()

    def _reward_lost(self, state: CouronnesState, seat: int, kind: str, amount: int) -> bool:
        """A part nobody can give (empty reserve, nothing to steal) or not worth any choice."""
        if kind in (GUARD, "blason"):
            choices = list(self._token_moves(state, seat, kind))
            return choices in ([], [TakeToken(NO_TOKEN, "")])
        return self._victim_choices(state, seat, kind, amount) == [()]

    def _gain_crowns(self, state: CouronnesState, seat: int, amount: int, source: str) -> None:
        private = [seat] if state.hidden_crowns else None
        if source == "from the reserve":
            taken = min(amount, state.reserve_crowns)
            state.reserve_crowns -= taken
            if taken < amount:
                state.note("reward", "the reserve is short: crowns are lost",
                           {"lost": amount - taken}, private)  # fmt: skip
        else:
            taken = amount
        state.crowns[seat] += taken
        key = state.kings[-1]
        state.law_crowns[key] = state.law_crowns.get(key, 0) + taken
        state.note("crowns", f"seat {seat} gains crowns {source}", {"crowns": taken}, private)
        if state.crowns[seat] >= CROWNS_TO_WIN:
            state.winner = seat
            state.phase = "over"
            state.note("end", f"seat {seat} holds 13 crowns and wins at once")

    # -- the deck -------------------------------------------------------------------------
    def _discard_card(self, state: CouronnesState, seat: int, card: str) -> None:
        state.hands[seat].remove(card)
        state.discard.append(card)

    def _draw_up(self, state: CouronnesState, seat: int) -> None:
        """Draw to 6 cards, reshuffling the discards into a new draw pile when it runs out."""
        hand = state.hands[seat]
        drawn = []
        while len(hand) < HAND_SIZE:
            if not state.draw and not self._reshuffle(state):
                state.note("deck", "no card is left to draw")
                break
            card = state.draw.pop()
            drawn.append(card)
            bisect.insort(hand, card)
        if drawn:
            state.note("draw", f"seat {seat} draws {len(drawn)} card(s)", {"cards": drawn}, [seat])

    def _reshuffle(self, state: CouronnesState) -> bool:
        if not state.discard:
            return False
        state.draw = state.rng.shuffled(sorted(state.discard))
        state.discard = []
        state.note("chance", f"the {len(state.draw)} discarded cards are shuffled into a new "
                   "draw pile", {"order": list(state.draw)}, visible_to=[])  # fmt: skip
        return True

    def shuffle_unseen(self, state: CouronnesState) -> None:
        """Shuffle the draw pile again: its order is the one thing no seat has seen. Hands,
        the King pile and the revealed cards are seen; the discard pile stays too (face down,
        but each card in it was seen by the seat that discarded it)."""
        state.rng.shuffle(state.draw)
        state.note(
            "reshuffle",
            f"the arbiter shuffles the draw pile again ({len(state.draw)} cards)",
            {"cards": len(state.draw)},
        )

    def king(self, state: CouronnesState) -> King:
        """The King in power."""
        return KINGS[state.edition][state.kings[-1]]

    def showing_reward(self, state: CouronnesState) -> tuple[Reward, ...]:
        """The reward of the law in power: through hole Kings, the first reward beneath."""
        for card in reversed(state.kings):
            king = KINGS[state.edition][card]
            if not king.hole:
                return king.rewards
        return ()

    def showing_through(self, state: CouronnesState) -> str:
        """The card whose reward shows (the King itself when it has no hole)."""
        for card in reversed(state.kings):
            if not KINGS[state.edition][card].hole:
                return card
        return ""

    def _opponents(self, state: CouronnesState, seat: int) -> list[int]:
        return [o for o in range(state.players) if o != seat]

    # -- views and results ----------------------------------------------------------------
    def view(self, state: CouronnesState, seat: int | None) -> dict[str, Any]:
        """The table as ``seat`` sees it: own hand, counts of the others, the King pile."""
        king = self.king(state)
        return {
            "seat": seat,
            "players": state.players,
            "current": state.current,
            "phase": state.phase,
            "turn": state.turns,
            "max_turns": state.max_turns,
            "king": {
                "card": king.id,
                "colour": king.colour,
                "law": king.law,
                "announced": state.announced or None,
                "guard": None if state.guard_owner == NOBODY else state.guard_owner,
                "reward_from": self.showing_through(state),
                "reward": "+".join(f"{r.kind}:{r.amount}" for r in self.showing_reward(state)),
            },
            "kings": list(state.kings),
            "hand": list(state.hands[seat]) if seat is not None else None,
            "hand_counts": [len(h) for h in state.hands],
            "crowns": [self._crowns_seen(state, s, seat) for s in range(state.players)],
            "guards": list(state.guards),
            "blasons": [list(b) for b in state.blasons],
            "reserve": {
                "crowns": None if state.hidden_crowns else state.reserve_crowns,
                "guards": state.reserve_guards,
                "blasons": dict(state.reserve_blasons),
            },
            "draw_count": len(state.draw),
            "discard_count": len(state.discard),
            "revealed": list(state.revealed),
            "pending": state.pending[0] if state.pending else None,
            "decision": self.decision_words(state),
            "winner": None if state.winner == NOBODY else state.winner,
        }

    def decision_words(self, state: CouronnesState) -> str:
        """What the seat to act is deciding now, in words (the client shows it)."""
        if state.phase == "over":
            return "the game is over"
        who = f"seat {state.current}"
        if state.pending:
            kind, _, amount = state.pending[0].partition(":")
            return f"{who} takes the reward: {kind} {amount}"
        return f"{who}: " + _PHASE_WORDS[state.phase]

    def _crowns_seen(self, state: CouronnesState, owner: int, viewer: int | None) -> int | None:
        if state.hidden_crowns and owner != viewer and state.phase != "over":
            return None
        return state.crowns[owner]

    def result(self, state: CouronnesState) -> Result | None:
        """Crowns decide (the 13-crown winner first), then fewer cards in hand; else tied."""
        if state.phase != "over":
            return None
        keys = [
            (s == state.winner, state.crowns[s], -len(state.hands[s])) for s in range(state.players)
        ]
        return Result(
            scores=tuple(float(c) for c in state.crowns),
            ranks=ranks_from_keys(keys),
            termination=Termination.THIRTEEN_CROWNS
            if state.winner != NOBODY
            else Termination.TURN_LIMIT,
            details={
                "ended_by": "13 crowns" if state.winner != NOBODY else "max_turns",
                "winner": None if state.winner == NOBODY else state.winner,
                "turns": state.turns,
                "crowns": list(state.crowns),
                "cards_in_hand": [len(h) for h in state.hands],
                "tie_breaks": "the 13-crown winner first, then most crowns, then fewest cards "
                "in hand; players equal on both share the rank",
                "law_crowns": dict(sorted(state.law_crowns.items())),
            },
        )

    def describe(self, move: Move, seat: int) -> str:
        """One line for the audit log."""
        who = f"seat {seat}"
        if isinstance(move, (Reveal, Discard)):
            verb = "reveals" if isinstance(move, Reveal) else "discards"
            used = [*move.cards, *(f"joker {j}" for j in move.jokers),
                    *(f"{b} blason" for b in move.blasons)]  # fmt: skip
            return f"{who} applies the law: {verb} {', '.join(used) or 'nothing'}"
        if isinstance(move, Claim):
            return f"{who} applies the once-per-turn law"
        if isinstance(move, ChangeKing):
            extra = f", announcing {move.announce}" if move.announce else ""
            return f"{who} makes {move.card} the King in power{extra}"
        if isinstance(move, PayGuard):
            return f"{who} gives {move.card} to the guard's owner to change the King"
        if isinstance(move, RedoDiscard):
            return f"{who} discards {move.card} to redo the hand"
        if isinstance(move, RedoDraw):
            return f"{who} draws up to 6 cards"
        if isinstance(move, TakeToken):
            drop = f" after giving back a {move.drop} token" if move.drop else ""
            return f"{who} takes the {move.token} token{drop}"
        if isinstance(move, (StealCrowns, StealCards)):
            what = "crown" if isinstance(move, StealCrowns) else "card"
            return f"{who} steals a {what} from " + ", ".join(f"seat {v}" for v in move.victims)
        if isinstance(move, EndTurn):
            return f"{who} ends the turn" + (", placing a guard" if move.guard else "")
        return f"{who} plays {move.to_json()}"

    def public_move(self, move: Move, seat: int) -> dict[str, Any]:
        """Discarded cards are face down, and so is a card given for a guard."""
        data = move.to_json()
        if isinstance(move, Discard):
            data["cards"] = len(move.cards)
            data["jokers"] = len(move.jokers)
        elif isinstance(move, (RedoDiscard, PayGuard)):
            data["card"] = "hidden"
        return data

    def estimate(self, state: CouronnesState, seat: int) -> float:
        """Crowns above all, then tokens, then cards in hand (the greedy bot's aim)."""
        if state.winner == seat:
            return 1000.0
        return 10.0 * state.crowns[seat] + 2.0 * state.tokens(seat) + min(len(state.hands[seat]), 8)

    def clone(self, state: CouronnesState) -> CouronnesState:
        """A fast copy: the state is lists and dicts of immutable values, two levels deep."""
        return copy_state(state)


def copy_state(state: CouronnesState) -> CouronnesState:
    """An independent copy of ``state`` without deepcopy (the hot path of bots and tests)."""
    return CouronnesState(
        rng=Rng(state.rng.seed, state.rng.counter),
        effects=list(state.effects),
        step=state.step,
        edition=state.edition,
        players=state.players,
        max_turns=state.max_turns,
        hidden_crowns=state.hidden_crowns,
        hands=[list(h) for h in state.hands],
        draw=list(state.draw),
        discard=list(state.discard),
        kings=list(state.kings),
        announced=state.announced,
        guard_owner=state.guard_owner,
        crowns=list(state.crowns),
        guards=list(state.guards),
        blasons=[list(b) for b in state.blasons],
        reserve_crowns=state.reserve_crowns,
        reserve_guards=state.reserve_guards,
        reserve_blasons=dict(state.reserve_blasons),
        current=state.current,
        phase=state.phase,
        revealed=list(state.revealed),
        pending=list(state.pending),
        turns=state.turns,
        winner=state.winner,
        law_crowns=dict(state.law_crowns),
    )


GAME = TreizeCouronnes()
