"""The state of a 13 Couronnes game, the quantities of the table and the queries of it.

Cards are named by their id (``"B04"``); hands are kept sorted. The King pile is ``kings``,
bottom first: the last card is the King in power; the Kings it covers are played cards and go
back into the draw pile when it is reformed (engine 1.3.0; before, nothing beneath the King in
power ever left, ruling 13C-2 as first written). ``pending`` holds the parts of a reward still to be taken, in order, when one of them
needs a decision (a blason's colour, a token to give up, whom to steal from).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.game import GameState
from engine.core.rng import Rng
from engine.treize_couronnes.cards import KINGS, King, Reward

NOBODY = -1
HAND_SIZE = 6
CROWNS_TO_WIN = 13
TOKEN_LIMIT = 2
RESERVE_CROWNS = 65
RESERVE_GUARDS = 4
BLASONS_PER_COLOUR = 2
NO_TOKEN = "none"
GUARD = "guard"

#: Engine versions from which a rule plays as it does now (games set up under an earlier
#: version keep the earlier rule: ``engine.core.rules_since``).
PLAYED_KINGS_RESHUFFLED = "1.3.0"  # the covered Kings go back into a reformed draw pile
BLASON_FOR_ANY_CARD = "1.3.0"  # a blason stands in for a card of its colour, held or not


@dataclass(kw_only=True)
class CouronnesState(GameState):
    """Everything about a game in progress. ``phase`` says what the seat to act may do:

    ``start`` (choose: apply the law, change the King, redo the hand), ``paid`` (a guard was
    paid for: change the King), ``changed`` (the King was
    changed: apply the new law or end the turn), ``applied`` (apply again or end the turn),
    ``redo`` (discard more or draw), ``drawn`` (end the turn), ``over``.
    """

    edition: str
    players: int
    max_turns: int
    hidden_crowns: bool
    hands: list[list[str]]
    draw: list[str]
    discard: list[str]
    kings: list[str]
    announced: str = ""
    guard_owner: int = NOBODY  # the seat whose guard stands on the King in power
    crowns: list[int]
    guards: list[int]
    blasons: list[list[str]]  # blason token colours held by each seat, sorted
    reserve_crowns: int
    reserve_guards: int
    reserve_blasons: dict[str, int]
    current: int = 0
    phase: str = "start"
    revealed: list[str] = field(default_factory=list)  # cards revealed this turn
    pending: list[str] = field(default_factory=list)  # reward parts awaiting a decision
    turns: int = 0
    winner: int = NOBODY
    law_crowns: dict[str, int] = field(default_factory=dict)  # crowns gained under each King

    def tokens(self, seat: int) -> int:
        """Guards plus blasons held by ``seat`` (never more than 2)."""
        return self.guards[seat] + len(self.blasons[seat])


def of_colour(state: CouronnesState, seat: int, colour: str) -> list[str]:
    """The cards of ``colour`` in ``seat``'s hand."""
    kings = KINGS[state.edition]
    return [c for c in state.hands[seat] if kings[c].colour == colour]


def count_colour(state: CouronnesState, seat: int, colour: str) -> int:
    """How many cards of ``colour`` ``seat`` holds."""
    return len(of_colour(state, seat, colour))


def king_in_power(state: CouronnesState) -> King:
    """The King in power."""
    return KINGS[state.edition][state.kings[-1]]


def showing_reward(state: CouronnesState) -> tuple[Reward, ...]:
    """The reward of the law in power: through hole Kings, the first reward beneath."""
    for card in reversed(state.kings):
        king = KINGS[state.edition][card]
        if not king.hole:
            return king.rewards
    return ()


def kept_kings(state: CouronnesState) -> int:
    """How many Kings at the top of the pile a reshuffle leaves: the King in power and, when
    it has a hole, the Kings down to the one whose reward shows through ("if the King in power
    is a card with a hole, also keep the card whose reward is visible through the hole")."""
    for depth, card in enumerate(reversed(state.kings), start=1):
        if not KINGS[state.edition][card].hole:
            return depth
    return len(state.kings)


def showing_through(state: CouronnesState) -> str:
    """The card whose reward shows (the King itself when it has no hole)."""
    for card in reversed(state.kings):
        if not KINGS[state.edition][card].hole:
            return card
    return ""


def opponents(state: CouronnesState, seat: int) -> list[int]:
    """Every other seat, in seat order."""
    return [o for o in range(state.players) if o != seat]


def copy_state(state: CouronnesState) -> CouronnesState:
    """An independent copy of ``state`` without deepcopy (the hot path of bots and tests)."""
    return CouronnesState(
        rng=Rng(state.rng.seed, state.rng.counter),
        effects=list(state.effects),
        step=state.step,
        engine_version=state.engine_version,
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
