"""Les 7 Blasons on the engine contract: setup, whose turn it is, result, copies.

A trick: from the leader each seat plays a card (PLAY); powers resolve in play order (POWER),
each decision made by the seat holding that card's power slot (7B-1); the winner takes a free
action (FREE); bourgeoisie users act between table turns (BOURGEOISIE). Impossible powers and
actions are skipped automatically and noted as effects.

``legality`` says which moves are legal (and why not), ``play`` carries them out and moves the
game on, ``views`` says what a seat may see, ``rules`` says who wins a trick and ``scoring`` what a
round scores, the result and the bots' estimate.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.core import IllegalMove, Move, Option, Result, Rng
from engine.core.game import GAME_OVER, Game
from engine.core.text import Seat, Text, _
from engine.sept_blasons import legality, play, scoring, views
from engine.sept_blasons import moves as mv
from engine.sept_blasons.cards import Bourgeoisie
from engine.sept_blasons.state import BOURGEOISIE, FREE, PLAY, POWER, SeptState


class SeptBlasons(Game[SeptState]):
    """Les 7 Blasons, 3–7 players, with rulings 7B-1..7B-4 and variants 1–4."""

    id: ClassVar[str] = "les-7-blasons"
    name: ClassVar[str] = "Les 7 Blasons"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 7
    engine_version: ClassVar[str] = "1.2.0"
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
            "chance", _("{seat} is drawn to lead the first trick", seat=Seat(state.leader)),
            {"leader": state.leader},
        )  # fmt: skip
        play.deal(state)
        return state

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
        return legality.powered(state, rank)

    # -- legality ---------------------------------------------------------------------------
    def check(self, state: SeptState, seat: int, move: Move) -> None:
        actor = self.actor(state)
        if actor is None:
            raise IllegalMove(GAME_OVER)
        if seat != actor:
            raise IllegalMove(
                _(
                    "{seat} is not to act now (waiting for {waiting})",
                    seat=Seat(seat), waiting=Seat(actor),
                )
            )  # fmt: skip
        reason = legality.refusal(state, seat, move)
        if reason:
            raise IllegalMove(reason)

    def legal_moves(self, state: SeptState, seat: int) -> list[Move]:
        if seat != self.actor(state):
            return []
        return legality.legal_moves(state, seat)

    def can_activate(self, state: SeptState, seat: int) -> bool:
        """Whether ``seat`` may activate its bourgeoisie card with the card it plays now."""
        return legality.can_activate(state, seat)

    def bourgeoisie_card(self, state: SeptState, seat: int) -> Bourgeoisie:
        """The bourgeoisie card ``seat`` holds (it must hold one)."""
        return legality.bourgeoisie_card(state, seat)

    # -- carrying out moves -----------------------------------------------------------------
    def play(self, state: SeptState, seat: int, move: Move) -> None:
        play.carry_out(state, seat, move)

    def shuffle_unseen(self, state: SeptState) -> None:
        """The face-down tokens nobody has consulted, in the pile and in front of players,
        change colours among themselves (see :func:`play.shuffle_unseen_tokens`); later
        rounds are dealt with the fresh RNG too."""
        play.shuffle_unseen_tokens(state)

    # -- reading ----------------------------------------------------------------------------
    def view(self, state: SeptState, seat: int | None) -> dict[str, Any]:
        return views.view(self, state, seat)

    def result(self, state: SeptState) -> Result | None:
        return scoring.result(state)

    def describe_text(self, move: Move, seat: int) -> Text:
        return views.describe(move, seat)

    def estimate(self, state: SeptState, seat: int) -> float:
        return scoring.estimate(state, seat)

    def clone(self, state: SeptState) -> SeptState:
        """A deep copy written out by hand (much faster than ``copy.deepcopy``)."""
        return SeptState(
            rng=Rng(state.rng.seed, state.rng.counter), effects=list(state.effects),
            step=state.step, engine_version=state.engine_version, players=state.players, edition=state.edition,
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
            round_lines=[[list(line) for line in r] for r in state.round_lines],
            stats=state.stats.copy(),
        )  # fmt: skip
