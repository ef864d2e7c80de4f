"""Blazon's state: plain dataclasses the codec serialises (the moves are in ``moves.py``).

Cards are referred to by their number (T001 → 1, D083 → 83). Decks are lists whose END is the
top. A shield is two parallel lists over the ten board spaces: the card number on each space
(0 = empty) and its alignment (0 = top, 1 = bottom).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.game import GameState

TOP, BOTTOM = 0, 1
ALIGNS = ("top", "bottom")
DECKS = ("tincture", "device")
DEVICE_SLOTS = (0, 1, 2, 3)
TINCTURE_SLOTS = (4, 5)
HAND_LIMIT = 7
SPACES = 10

# Phases of a turn (see docs/rules/blazon.md, "A turn as moves").
MAIN = "main"  # choose: draw (Acquire) or place (Blazon); herald action; refresh
DRAW = "draw"  # the second draw of an Acquire
EXCHANGE = "exchange"  # exchange drawn cards with the display, like for like, then keep
PAY = "pay"  # discard hand cards one at a time until the placed card is paid
BLAZON = "blazon"  # after a placement: place more, or finish the Blazon action
END = "end"  # action done: herald action, refresh, discard to 7, end the turn
CLAIM = "claim"  # several distinctions are met: choose the one to claim
OVER = "over"


@dataclass(kw_only=True, slots=True)
class PlayerState:
    """One seat: hand, shield, prestige track and tokens."""

    hand: list[int]
    shield: list[int] = field(default_factory=lambda: [0] * SPACES)
    aligns: list[int] = field(default_factory=lambda: [0] * SPACES)
    prestige: int = 0
    heralds: int = 1
    animals: int = 0
    abatement: bool = False  # holds an unused abatement token
    abated_space: int = -1  # the space whose card carries the token in use, or -1
    markers: list[str] = field(default_factory=list)  # distinctions claimed, in order
    distinction_points: int = 0

    def copy(self) -> PlayerState:
        """An independent copy (cheaper than deepcopy: every field is flat)."""
        return PlayerState(
            hand=self.hand[:],
            shield=self.shield[:],
            aligns=self.aligns[:],
            prestige=self.prestige,
            heralds=self.heralds,
            animals=self.animals,
            abatement=self.abatement,
            abated_space=self.abated_space,
            markers=self.markers[:],
            distinction_points=self.distinction_points,
        )


@dataclass(kw_only=True)
class BlazonState(GameState):
    """The whole table."""

    edition: str
    abatement_rule: bool
    players: list[PlayerState]
    decks: dict[str, list[int]]  # "tincture"/"device" → cards, top at the end
    discards: dict[str, list[int]]  # face-up discard piles, top at the end
    display: list[int]  # 6 slots: 0-3 device, 4-5 tincture; 0 = empty
    herald_pile: int
    milestones: list[int]  # seat that took each milestone's animal token, or -1
    distinctions: list[str]  # the five in play, categories A..E
    awards: list[list[int]]  # per distinction: seats on its award spaces, left to right
    turn: int = 0
    turn_number: int = 1
    phase: str = MAIN
    drawn: list[int] = field(default_factory=list)  # drawn this Acquire, not yet exchanged
    draws: int = 0  # cards drawn in this Acquire
    pay_due: int = 0
    after_pay: str = MAIN
    herald_used: bool = False
    refresh_used: bool = False
    claimable: list[str] = field(default_factory=list)
    trigger: str = ""  # the end trigger that fired: "prestige", "full-shield", "distinctions"
    trigger_seat: int = -1
    passes: int = 0  # consecutive turns in which nothing could be drawn or placed
    pending_row: int = 0  # a row being changed to the other alignment (override), or 0
    pending_align: int = 0  # the alignment that row is changing to
    # per deck: how many cards at its bottom a seat has seen (a redrawn starting hand goes
    # back there); they stay in place when the arbiter reshuffles the rest (reshuffle_unseen)
    seen_at_bottom: dict[str, int] = field(default_factory=dict)

    def copy(self) -> BlazonState:
        """An independent copy built field by field (the replay hot path avoids deepcopy)."""
        return BlazonState(
            rng=type(self.rng)(self.rng.seed, self.rng.counter),
            effects=list(self.effects),
            step=self.step,
            engine_version=self.engine_version,
            edition=self.edition,
            abatement_rule=self.abatement_rule,
            players=[p.copy() for p in self.players],
            decks={k: v[:] for k, v in self.decks.items()},
            discards={k: v[:] for k, v in self.discards.items()},
            display=self.display[:],
            herald_pile=self.herald_pile,
            milestones=self.milestones[:],
            distinctions=self.distinctions[:],
            awards=[a[:] for a in self.awards],
            turn=self.turn,
            turn_number=self.turn_number,
            phase=self.phase,
            drawn=self.drawn[:],
            draws=self.draws,
            pay_due=self.pay_due,
            after_pay=self.after_pay,
            herald_used=self.herald_used,
            refresh_used=self.refresh_used,
            claimable=self.claimable[:],
            trigger=self.trigger,
            trigger_seat=self.trigger_seat,
            passes=self.passes,
            pending_row=self.pending_row,
            pending_align=self.pending_align,
            seen_at_bottom=dict(self.seen_at_bottom),
        )
