"""13 Couronnes on the engine contract: the rulebook with the rulings 13C-1..13C-3, as written
up in docs/rules/13-couronnes.md (the rulebook's words, each ruling and the tests that pin it).

A turn is a short sequence of small moves. At the start the player chooses one of: apply the
law (a :class:`Reveal`, :class:`Discard` or :class:`Claim` naming the cards and tokens used),
change the King (:class:`ChangeKing`, after :class:`PayGuard` when an opponent guards it; the
new law may then be applied), or redo the hand
(:class:`RedoDiscard` one card at a time, then :class:`RedoDraw`). A law may be applied again
with cards not revealed yet this turn; a reward needing a choice waits in ``state.pending``
(:class:`TakeToken`, :class:`StealCrowns`, :class:`StealCards`). :class:`EndTurn` closes the
turn, optionally placing a guard on the King in power.

``legality`` says which moves are legal (and why not), ``play`` carries them out and moves the
game on, ``scoring`` makes the result, ``views`` says what a seat may see and puts moves in
words; ``laws`` holds the pure rules of applying a law.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.core.game import Game, GameState, Result
from engine.core.moves import Move
from engine.core.options import Option
from engine.core.rng import Rng
from engine.core.text import Seat, Text, _
from engine.treize_couronnes import legality, play, scoring, views
from engine.treize_couronnes.cards import COLOURS, FIRST_KING, KINGS, King, Reward
from engine.treize_couronnes.moves import MOVES
from engine.treize_couronnes.state import (
    BLASONS_PER_COLOUR,
    HAND_SIZE,
    RESERVE_CROWNS,
    RESERVE_GUARDS,
    CouronnesState,
    copy_state,
    king_in_power,
    showing_reward,
    showing_through,
)


class TreizeCouronnes(Game[CouronnesState]):
    """13 Couronnes: be the first to hold 13 crowns by applying the laws of the King in power."""

    id: ClassVar[str] = "13-couronnes"
    name: ClassVar[str] = "13 Couronnes"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    engine_version: ClassVar[str] = "1.3.0"
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
        state.note("chance", _("the draw pile is shuffled"), {"order": list(deck)}, visible_to=[])
        for seat, hand in enumerate(state.hands):
            state.note(
                "chance", _("{seat} is dealt 6 cards", seat=Seat(seat)), {"hand": hand}, [seat]
            )
        state.note(
            "setup", _("{king} is the King in power; each seat s takes s crowns", king=first)
        )
        return state

    # -- whose turn, what they may do -----------------------------------------------------
    def to_act(self, state: CouronnesState) -> list[int]:
        """The seat whose turn it is, or nobody once the game is over."""
        return [] if state.phase == "over" else [state.current]

    def legal_moves(self, state: CouronnesState, seat: int) -> list[Move]:
        """Every move ``seat`` may make now, exactly."""
        return legality.legal_moves(state, seat)

    def check(self, state: CouronnesState, seat: int, move: Move) -> None:
        """Raise IllegalMove with the reason unless ``move`` is legal for ``seat`` now."""
        legality.check(state, seat, move)

    # -- playing --------------------------------------------------------------------------
    def play(self, state: CouronnesState, seat: int, move: Move) -> None:
        """Carry out a validated move."""
        play.carry_out(state, seat, move)

    def shuffle_unseen(self, state: CouronnesState) -> None:
        """Shuffle the draw pile again: its order is the one thing no seat has seen (see
        :func:`play.shuffle_unseen`)."""
        play.shuffle_unseen(state)

    def king(self, state: CouronnesState) -> King:
        """The King in power."""
        return king_in_power(state)

    def showing_reward(self, state: CouronnesState) -> tuple[Reward, ...]:
        """The reward of the law in power: through hole Kings, the first reward beneath."""
        return showing_reward(state)

    def showing_through(self, state: CouronnesState) -> str:
        """The card whose reward shows (the King itself when it has no hole)."""
        return showing_through(state)

    # -- views and results ----------------------------------------------------------------
    def view(self, state: CouronnesState, seat: int | None) -> dict[str, Any]:
        """The table as ``seat`` sees it: own hand, counts of the others, the King pile."""
        return views.view(state, seat)

    def decision_words(self, state: CouronnesState) -> str:
        """What the seat to act is deciding now, in words (the client shows it)."""
        return views.decision_words(state)

    def result(self, state: CouronnesState) -> Result | None:
        """Crowns decide (the 13-crown winner first), then fewer cards in hand; else tied."""
        return scoring.result(state)

    def describe_text(self, move: Move, seat: int) -> Text:
        """One line for the audit log."""
        return views.describe(move, seat)

    def public_move(self, move: Move, seat: int) -> dict[str, Any]:
        """Discarded cards are face down, and so is a card given for a guard."""
        return views.public_move(move, seat)

    def estimate(self, state: CouronnesState, seat: int) -> float:
        """Crowns above all, then tokens, then cards in hand (the greedy bot's aim)."""
        return scoring.estimate(state, seat)

    def clone(self, state: CouronnesState) -> CouronnesState:
        """A fast copy: the state is lists and dicts of immutable values, two levels deep."""
        return copy_state(state)


GAME = TreizeCouronnes()
