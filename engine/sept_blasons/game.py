"""Les 7 Blasons on the engine contract: setup, turn order, legality, and the flow of a trick.

A trick: from the leader each seat plays a card (PLAY); powers resolve in play order (POWER),
each decision made by the seat holding that card's power slot (7B-1); the winner takes a free
action (FREE); bourgeoisie users act between table turns (BOURGEOISIE). Impossible powers and
actions are skipped automatically and noted as effects.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.core import IllegalMove, Move, Option, Result, Rng, ranks_from_keys
from engine.core.game import Game
from engine.sept_blasons import flow, views
from engine.sept_blasons import moves as mv
from engine.sept_blasons.cards import (
    EDITIONS,
    INTENDANT,
    MAGISTRAT,
    MALANDRIN,
    MANANT,
    MENETRIER,
    RANKS_PER_COLOUR,
    RELIGIEUX,
    STANDARD,
    Bourgeoisie,
)
from engine.sept_blasons.flow import MAX_TIE_BREAK_ROUNDS, TRICK_CODE
from engine.sept_blasons.rules import cards_won, round_score
from engine.sept_blasons.state import (
    BOURGEOISIE,
    FREE,
    OVER,
    PLAY,
    POWER,
    Played,
    SeptState,
    Token,
)

_DEFAULT_POWERED = frozenset(
    c.rank for c in STANDARD.characters if c.power is not None and c.variant is None
)


class SeptBlasons(Game[SeptState]):
    """Les 7 Blasons, 3–7 players, with rulings 7B-1..7B-4 and variants 1–4."""

    id: ClassVar[str] = "les-7-blasons"
    name: ClassVar[str] = "Les 7 Blasons"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 7
    engine_version: ClassVar[str] = "1.0.0"
    editions: ClassVar[tuple[str, ...]] = ("standard",)
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "tie_rule", "string", "cascade",
            "How tied highest cards are settled: 'cascade' (ruling 7B-2: the highest value "
            "held by exactly one card wins) or 'strict' (a tie on the next value too: nobody).",
            choices=("cascade", "strict"),
        ),
        Option(
            "variants", "integer-set", [],
            "Variants played: 1 the bourgeois consult tricks, 2 they help themselves, "
            "3 they are curious (tokens), 4 the religieux is active.",
            choices=(1, 2, 3, 4),
        ),
    )  # fmt: skip
    moves = mv.MOVES
    state_type = SeptState

    # -- setup ------------------------------------------------------------------------------
    def setup(self, players: int, options: dict[str, Any], edition: str, rng: Rng) -> SeptState:
        state = SeptState(
            rng=rng, players=players, edition=edition, tie_rule=options["tie_rule"],
            variants=list(options["variants"]), bourgeoisie=[0] * players,
            totals=[0] * players,
        )  # fmt: skip
        state.leader = rng.randbelow(players)
        state.note(
            "chance", f"seat {state.leader} is drawn to lead the first trick",
            {"leader": state.leader},
        )  # fmt: skip
        self.deal(state)
        return state

    def deal(self, state: SeptState) -> None:
        """Shuffle every token face down into the draw pile and deal them (rulebook, Setup)."""
        n, edition = state.players, EDITIONS[state.edition]
        tokens = [Token(c, False) for c in range(n) for _ in range(edition.tokens_per_colour)]
        state.rng.shuffle(tokens)
        state.note(
            "chance", f"round {state.round}: the {len(tokens)} blason tokens are shuffled",
            {"order": [t.colour for t in tokens]}, visible_to=[],
        )  # fmt: skip
        down, up = edition.deal[n]
        state.fronts = []
        for seat in range(n):
            front = [tokens.pop(0) for _ in range(down + up)]
            for token in front[down:]:
                token.up = True
            state.fronts.append(front)
            shown = ", ".join(edition.colours[t.colour] for t in front[down:])
            state.note(
                "chance", f"seat {seat} takes {down} token(s) face down and turns up {shown}",
                {"seat": seat, "face_up": [t.colour for t in front[down:]]},
            )  # fmt: skip
        state.pile = tokens
        state.hands = [list(range(RANKS_PER_COLOUR)) for _ in range(n)]
        state.tricks = [[] for _ in range(n)]
        state.set_aside = []
        state.seen_tricks = [[] for _ in range(n)]
        state.b_used = [False] * n
        state.trick, state.trick_no, state.resolving, state.phase = [], 0, 0, PLAY

    # -- whose turn -------------------------------------------------------------------------
    def actor(self, state: SeptState) -> int | None:
        """The seat that decides now, or None once the game is over."""
        phase = state.phase
        if phase == PLAY:
            return (state.leader + len(state.trick)) % state.players
        if phase == POWER:
            trick = state.trick
            return trick[trick[state.resolving].power_by].seat
        if phase == FREE:
            return state.winner
        if phase == BOURGEOISIE:
            return state.activated[0]
        return None

    def to_act(self, state: SeptState) -> list[int]:
        seat = self.actor(state)
        return [] if seat is None else [seat]

    def powered(self, state: SeptState, rank: int) -> bool:
        """Whether a character's power acts in this game (the religieux only in variant 4)."""
        return rank in _DEFAULT_POWERED or (rank == RELIGIEUX and 4 in state.variants)

    # -- legality ---------------------------------------------------------------------------
    def check(self, state: SeptState, seat: int, move: Move) -> None:
        actor = self.actor(state)
        if actor is None:
            raise IllegalMove("the game is over")
        if seat != actor:
            raise IllegalMove(f"seat {seat} is not to act now (waiting for seat {actor})")
        reason = self._refusal(state, seat, move)
        if reason:
            raise IllegalMove(reason)

    def _refusal(self, state: SeptState, seat: int, move: Move) -> str:
        """Why ``move`` is not allowed for the seat to act, or "" when it is."""
        phase = state.phase
        if phase == PLAY:
            if isinstance(move, mv.PlayCard):
                return self._play_refusal(state, seat, move)
            return f"seat {seat} must play a card now"
        if phase == POWER:
            return self._power_refusal(state, seat, move)
        if phase == FREE:
            return self._free_refusal(state, move)
        return self._bourgeoisie_refusal(state, seat, move)

    def legal_moves(self, state: SeptState, seat: int) -> list[Move]:
        if seat != self.actor(state):
            return []
        phase = state.phase
        if phase == PLAY:
            return self._play_moves(state, seat)
        if phase == POWER:
            return self._power_moves(state, seat)
        if phase == FREE:
            return self._free_moves(state)
        return self._bourgeoisie_moves(state, seat)

    # -- playing a card ---------------------------------------------------------------------
    def can_activate(self, state: SeptState, seat: int) -> bool:
        """Whether ``seat`` may activate its bourgeoisie card with the card it plays now."""
        return (
            state.bourgeoisie[seat] > 0
            and not state.b_used[seat]
            and state.trick_no < RANKS_PER_COLOUR - 1
        )

    def _play_refusal(self, state: SeptState, seat: int, move: mv.PlayCard) -> str:
        if move.rank not in state.hands[seat]:
            if 0 <= move.rank < RANKS_PER_COLOUR:
                name = STANDARD.characters[move.rank].name
                return f"seat {seat} has already played its {name}"
            return f"there is no card of rank {move.rank} (ranks run 0 to 7)"
        if move.bourgeoisie and not self.can_activate(state, seat):
            return f"seat {seat} cannot activate a bourgeoisie card now"
        return ""

    def _play_moves(self, state: SeptState, seat: int) -> list[Move]:
        flags = (False, True) if self.can_activate(state, seat) else (False,)
        return [mv.PlayCard(rank, flag) for rank in sorted(state.hands[seat]) for flag in flags]

    # -- powers -----------------------------------------------------------------------------
    def _power_refusal(self, state: SeptState, seat: int, move: Move) -> str:
        card = state.trick[state.resolving]
        rank = card.rank
        name = STANDARD.characters[rank].name
        if rank == MALANDRIN:
            if isinstance(move, mv.Steal):
                return self._steal_refusal(state, card, move)
        elif rank == MANANT:
            if isinstance(move, mv.TakeToken):
                return self._pick_refusal(state, move.pick)
        elif rank == MENETRIER:
            if isinstance(move, mv.TurnUp):
                return self._turn_up_refusal(state, move, pile_allowed=True)
        elif rank == MAGISTRAT:
            if isinstance(move, mv.RemoveToken):
                if move.seat == seat:
                    return "the magistrat removes a token of another player, not one's own"
                return self._front_refusal(state, move.seat, move.slot)
        elif state.picked_seat < 0:
            if isinstance(move, mv.ChooseToken):
                return self._choose_refusal(state, rank, move)
        elif rank == INTENDANT:
            if isinstance(move, mv.ExchangeWith):
                return self._exchange_refusal(state, move)
        elif isinstance(move, mv.MoveTo):
            return self._move_to_refusal(state, move)
        return f"seat {seat} must now use the power of the {name} in play position {card.position}"

    def _steal_refusal(self, state: SeptState, card: Played, move: mv.Steal) -> str:
        trick = state.trick
        if not 0 <= move.card < len(trick):
            return f"there is no card in play position {move.card}"
        if move.mode == "value":
            return ""
        if move.mode != "power":
            return f"the malandrin takes a 'value' or a 'power', not {move.mode!r}"
        target = trick[move.card]
        if move.card <= card.position:
            return "the malandrin can only take the power of a card later in play order"
        if not self.powered(state, target.rank):
            return f"the {STANDARD.characters[target.rank].name} has no power to take"
        if target.power_by == card.power_by:
            return "that power is already yours"
        return ""

    def _steal_moves(self, state: SeptState, card: Played) -> list[Move]:
        moves: list[Move] = [mv.Steal(p, "value") for p in range(len(state.trick))]
        for target in state.trick[card.position + 1 :]:
            if self.powered(state, target.rank) and target.power_by != card.power_by:
                moves.append(mv.Steal(target.position, "power"))
        return moves

    def _pick_refusal(self, state: SeptState, pick: int) -> str:
        if pick == mv.FACE_DOWN:
            if any(not t.up for t in state.pile):
                return ""
            return "the draw pile has no face-down token"
        if any(t.up and t.colour == pick for t in state.pile):
            return ""
        return f"the draw pile has no face-up token of colour {pick}"

    def pile_picks(self, state: SeptState) -> list[int]:
        """What may be taken from the pile: -1 (a random face-down token), face-up colours."""
        picks = sorted({t.colour for t in state.pile if t.up})
        if any(not t.up for t in state.pile):
            picks.insert(0, mv.FACE_DOWN)
        return picks

    def _front_refusal(self, state: SeptState, seat: int, slot: int) -> str:
        if not 0 <= seat < state.players:
            return f"there is no seat {seat}"
        if not 0 <= slot < len(state.fronts[seat]):
            return f"seat {seat} has no token in slot {slot}"
        return ""

    def _turn_up_refusal(self, state: SeptState, move: mv.TurnUp, *, pile_allowed: bool) -> str:
        if move.seat == mv.PILE and pile_allowed:
            if move.slot != mv.FACE_DOWN:
                return "a token of the draw pile is turned up at random: use slot -1"
            return self._pick_refusal(state, mv.FACE_DOWN)
        reason = self._front_refusal(state, move.seat, move.slot)
        if reason:
            return reason
        if state.fronts[move.seat][move.slot].up:
            return f"token slot {move.slot} of seat {move.seat} is already face up"
        return ""

    def _turn_up_moves(self, state: SeptState, *, pile_allowed: bool) -> list[Move]:
        moves: list[Move] = [
            mv.TurnUp(seat, slot)
            for seat, front in enumerate(state.fronts)
            for slot, token in enumerate(front)
            if not token.up
        ]
        if pile_allowed and any(not t.up for t in state.pile):
            moves.append(mv.TurnUp(mv.PILE, mv.FACE_DOWN))
        return moves

    def _has_partner(self, state: SeptState, seat: int) -> bool:
        """Whether a token of ``seat`` has something to be exchanged with (intendant)."""
        return bool(state.pile) or any(f for s, f in enumerate(state.fronts) if s != seat)

    def _choose_refusal(self, state: SeptState, rank: int, move: mv.ChooseToken) -> str:
        reason = self._front_refusal(state, move.seat, move.slot)
        if reason:
            return reason
        if rank == INTENDANT and not self._has_partner(state, move.seat):
            return "there is no other token to exchange that one with"
        return ""

    def _exchange_refusal(self, state: SeptState, move: mv.ExchangeWith) -> str:
        if move.seat == mv.PILE:
            return self._pick_refusal(state, move.slot)
        if move.seat == state.picked_seat:
            return "the intendant exchanges with another player's game or the draw pile"
        return self._front_refusal(state, move.seat, move.slot)

    def _move_to_refusal(self, state: SeptState, move: mv.MoveTo) -> str:
        if not 0 <= move.seat < state.players:
            return f"there is no seat {move.seat}"
        if move.seat == state.picked_seat:
            return "the token must move to another player's game"
        return ""

    def _power_moves(self, state: SeptState, seat: int) -> list[Move]:
        card = state.trick[state.resolving]
        rank = card.rank
        if rank == MALANDRIN:
            return self._steal_moves(state, card)
        if rank == MANANT:
            return [mv.TakeToken(pick) for pick in self.pile_picks(state)]
        if rank == MENETRIER:
            return self._turn_up_moves(state, pile_allowed=True)
        if rank == MAGISTRAT:
            return [
                mv.RemoveToken(s, slot)
                for s, front in enumerate(state.fronts)
                if s != seat
                for slot in range(len(front))
            ]
        if state.picked_seat < 0:
            return [
                mv.ChooseToken(s, slot)
                for s, front in enumerate(state.fronts)
                if rank != INTENDANT or self._has_partner(state, s)
                for slot in range(len(front))
            ]
        if rank == INTENDANT:
            moves: list[Move] = [
                mv.ExchangeWith(s, slot)
                for s, front in enumerate(state.fronts)
                if s != state.picked_seat
                for slot in range(len(front))
            ]
            return moves + [mv.ExchangeWith(mv.PILE, pick) for pick in self.pile_picks(state)]
        return [mv.MoveTo(s) for s in range(state.players) if s != state.picked_seat]

    def power_possible(self, state: SeptState, rank: int, seat: int) -> bool:
        """Whether the power can be used at all now (else it is skipped, 'simply ignored')."""
        if rank == MANANT:
            return bool(state.pile)
        if rank == MENETRIER:
            return any(not t.up for t in state.pile) or any(
                not t.up for front in state.fronts for t in front
            )
        if rank == MAGISTRAT:
            return any(front for s, front in enumerate(state.fronts) if s != seat)
        if rank == RELIGIEUX:
            return any(state.fronts)
        if rank == INTENDANT:
            with_tokens = sum(1 for front in state.fronts if front)
            return with_tokens >= 2 or (with_tokens == 1 and bool(state.pile))
        return True

    # -- the winner's free action -----------------------------------------------------------
    def _free_refusal(self, state: SeptState, move: Move) -> str:
        if isinstance(move, mv.TurnUp):
            return self._turn_up_refusal(state, move, pile_allowed=False)
        if isinstance(move, mv.TakeToken):
            return self._pick_refusal(state, move.pick)
        return "the winner of the trick must turn a token face up or take one from the draw pile"

    def _free_moves(self, state: SeptState) -> list[Move]:
        moves = self._turn_up_moves(state, pile_allowed=False)
        return moves + [mv.TakeToken(pick) for pick in self.pile_picks(state)]

    def free_possible(self, state: SeptState) -> bool:
        """Whether the winner has any free action (a face-down token to turn, or a pile)."""
        return bool(state.pile) or any(not t.up for front in state.fronts for t in front)

    # -- bourgeoisie (variants 1-3) ---------------------------------------------------------
    def bourgeoisie_card(self, state: SeptState, seat: int) -> Bourgeoisie:
        """The bourgeoisie card ``seat`` holds (it must hold one)."""
        level = state.bourgeoisie[seat]
        return next(b for b in EDITIONS[state.edition].bourgeoisie if b.level == level)

    def _kind_refusal(self, state: SeptState, kind: int) -> str:
        if kind not in state.variants:
            return f"variant {kind} is not played in this game"
        if state.b_kind not in (0, kind):
            return f"this bourgeoisie card is already used for variant {state.b_kind}"
        return ""

    def _consult_refusal(self, state: SeptState, seat: int, owner: int, kind: int) -> str:
        reason = self._kind_refusal(state, kind)
        if reason:
            return reason
        if state.b_count >= self.bourgeoisie_card(state, seat).consult:
            return "every consultation of this bourgeoisie card is used"
        if not 0 <= owner < state.players:
            return f"there is no seat {owner}"
        if owner != seat and state.b_other not in (-1, owner):
            return f"only one other player may be consulted, and it is seat {state.b_other}"
        return ""

    def _bourgeoisie_refusal(self, state: SeptState, seat: int, move: Move) -> str:
        if isinstance(move, mv.Finish):
            return ""
        if isinstance(move, mv.ConsultTrick):
            return self._consult_refusal(state, seat, move.seat, 1) or self._trick_refusal(
                state, seat, move
            )
        if isinstance(move, mv.ConsultToken):
            return self._consult_refusal(state, seat, move.seat, 3) or self._token_refusal(
                state, seat, move
            )
        if isinstance(move, mv.TakeCard):
            return self._take_card_refusal(state, seat, move)
        return f"seat {seat} must use its bourgeoisie card or finish"

    def _trick_refusal(self, state: SeptState, seat: int, move: mv.ConsultTrick) -> str:
        tricks = state.tricks[move.seat]
        if not 0 <= move.trick < len(tricks) or not tricks[move.trick]:
            return f"seat {move.seat} has no trick {move.trick}"
        if move.seat * TRICK_CODE + move.trick in state.seen_tricks[seat]:
            return f"seat {seat} has already looked at that trick"
        return ""

    def _token_refusal(self, state: SeptState, seat: int, move: mv.ConsultToken) -> str:
        reason = self._front_refusal(state, move.seat, move.slot)
        if reason:
            return reason
        token = state.fronts[move.seat][move.slot]
        if token.up:
            return "that token is face up: everyone sees it"
        if seat in token.known_by:
            return f"seat {seat} already knows that token"
        return ""

    def _take_card_refusal(self, state: SeptState, seat: int, move: mv.TakeCard) -> str:
        reason = self._kind_refusal(state, 2)
        if reason or state.b_kind == 2:
            return reason or "the card is already taken"
        if not 0 <= move.seat < state.players or move.seat == seat:
            return "the card is taken from another player's tricks"
        if not 0 <= move.colour < state.players:
            return f"there is no colour {move.colour} at this table"
        wanted = move.colour * RANKS_PER_COLOUR + self.bourgeoisie_card(state, seat).takes
        if any(wanted in trick for trick in state.tricks[move.seat]):
            return ""
        return f"seat {move.seat}'s tricks hold no such card"

    def _bourgeoisie_moves(self, state: SeptState, seat: int) -> list[Move]:
        moves: list[Move] = [mv.Finish()]
        if not self._consult_refusal(state, seat, seat, 1):
            moves += self._trick_consultations(state, seat)
        if not self._consult_refusal(state, seat, seat, 3):
            moves += self._token_consultations(state, seat)
        if not self._kind_refusal(state, 2) and state.b_kind == 0:
            rank = self.bourgeoisie_card(state, seat).takes
            moves += [
                mv.TakeCard(owner, colour)
                for owner in range(state.players)
                if owner != seat
                for colour in sorted(
                    {c // RANKS_PER_COLOUR for t in state.tricks[owner] for c in t
                     if c % RANKS_PER_COLOUR == rank}
                )
            ]  # fmt: skip
        return moves

    def _consultable(self, state: SeptState, seat: int) -> list[int]:
        return [o for o in range(state.players) if o == seat or state.b_other in (-1, o)]

    def _trick_consultations(self, state: SeptState, seat: int) -> list[Move]:
        seen = state.seen_tricks[seat]
        return [
            mv.ConsultTrick(owner, index)
            for owner in self._consultable(state, seat)
            for index, trick in enumerate(state.tricks[owner])
            if trick and owner * TRICK_CODE + index not in seen
        ]

    def _token_consultations(self, state: SeptState, seat: int) -> list[Move]:
        return [
            mv.ConsultToken(owner, slot)
            for owner in self._consultable(state, seat)
            for slot, token in enumerate(state.fronts[owner])
            if not token.up and seat not in token.known_by
        ]

    # -- carrying out moves -----------------------------------------------------------------
    def play(self, state: SeptState, seat: int, move: Move) -> None:
        flow.carry_out(self, state, seat, move)

    def decode_move(self, data: Any) -> Move:
        """A move from its JSON form (raises BadMove when malformed), fast for valid moves."""
        return mv.decode(data)

    # -- reading ----------------------------------------------------------------------------
    def view(self, state: SeptState, seat: int | None) -> dict[str, Any]:
        return views.view(self, state, seat)

    def result(self, state: SeptState) -> Result | None:
        if state.phase != OVER:
            return None
        edition = EDITIONS[state.edition]
        details: dict[str, Any] = {
            "rounds": [list(scores) for scores in state.round_scores],
            "tie_break_rounds": max(0, state.round - edition.rounds),
            "players": [self._breakdown(state, seat) for seat in range(state.players)],
            "rule": "highest total over the rounds wins; while the top total is tied after "
            f"{edition.rounds} rounds, another round is played (at most {MAX_TIE_BREAK_ROUNDS}; "
            "a tie that remains shares the rank); each round scores the player's best colour",
        }
        return Result(tuple(float(t) for t in state.totals), ranks_from_keys(state.totals), details)

    def _breakdown(self, state: SeptState, seat: int) -> dict[str, Any]:
        """One player's colour, total and, per round, the score and the colour that made it."""
        colours = EDITIONS[state.edition].colours
        return {
            "seat": seat,
            "colour": colours[seat],
            "total": state.totals[seat],
            "rounds": [
                {
                    "score": scores[seat],
                    "scored_with": colours[best[seat]] if best[seat] >= 0 else None,
                }
                for scores, best in zip(state.round_scores, state.round_colours, strict=True)
            ],
        }

    def describe(self, move: Move, seat: int) -> str:
        return views.describe(move, seat)

    def estimate(self, state: SeptState, seat: int) -> float:
        """Total so far plus what the current tricks and face-up tokens would score."""
        now = round_score(cards_won(state.tricks[seat]), state.fronts[seat], seat, state.players)
        return float(state.totals[seat] + now)

    def clone(self, state: SeptState) -> SeptState:
        """A deep copy written out by hand (much faster than ``copy.deepcopy``)."""
        return SeptState(
            rng=Rng(state.rng.seed, state.rng.counter), effects=list(state.effects),
            step=state.step, players=state.players, edition=state.edition,
            tie_rule=state.tie_rule, variants=list(state.variants), phase=state.phase,
            round=state.round, trick_no=state.trick_no, leader=state.leader,
            hands=[list(h) for h in state.hands],
            fronts=[[t.copy() for t in front] for front in state.fronts],
            pile=[t.copy() for t in state.pile],
            tricks=[[list(t) for t in tricks] for tricks in state.tricks],
            trick=[card.copy() for card in state.trick],
            set_aside=list(state.set_aside), resolving=state.resolving,
            picked_seat=state.picked_seat, picked_slot=state.picked_slot, winner=state.winner,
            activated=list(state.activated), b_kind=state.b_kind, b_other=state.b_other,
            b_count=state.b_count, bourgeoisie=list(state.bourgeoisie),
            b_used=list(state.b_used), seen_tricks=[list(s) for s in state.seen_tricks],
            totals=list(state.totals), round_scores=[list(r) for r in state.round_scores],
            round_colours=[list(r) for r in state.round_colours],
            stats=state.stats.copy(),
        )  # fmt: skip
