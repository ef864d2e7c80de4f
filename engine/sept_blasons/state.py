"""The state of a game of Les 7 Blasons: plain dataclasses the codec can serialise.

Seat ``s`` plays colour ``s`` (fixed assignment in seat order). Tokens are small objects that
move between the players' games (``fronts``) and the draw pile; a face-down token's colour is
hidden from everyone, so views refer to it by its slot only. ``known_by`` lists the seats that
consulted it (variant 3) and may see its colour while it stays out of the draw pile.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core import GameState

PLAY, POWER, FREE, BOURGEOISIE, OVER = "play", "power", "free", "bourgeoisie", "over"


@dataclass(slots=True)
class Token:
    """A blason token: its colour (a seat index), its face, and who has consulted it."""

    colour: int
    up: bool
    known_by: list[int] = field(default_factory=list)

    def copy(self) -> Token:
        return Token(self.colour, self.up, list(self.known_by))


@dataclass(slots=True)
class Played:
    """A card of the current trick with its power slot and the value it now carries.

    ``value_from``: the play position whose printed value this card carries (itself at first;
    None once robbed or after a malandrin took a power). ``power_by``: the play position of the
    card whose player uses this card's power (itself unless a malandrin stole it).
    """

    seat: int
    rank: int
    position: int
    value_from: int | None
    power_by: int
    used: bool = False
    note: str = ""

    def copy(self) -> Played:
        return Played(
            self.seat, self.rank, self.position, self.value_from, self.power_by, self.used,
            self.note,
        )  # fmt: skip


@dataclass(slots=True)
class Stats:
    """Counters for the bench summary (public facts only)."""

    tricks: int = 0
    nobody: int = 0
    malandrin_wins: int = 0
    rounds: int = 0

    def copy(self) -> Stats:
        return Stats(self.tricks, self.nobody, self.malandrin_wins, self.rounds)


@dataclass(kw_only=True)
class SeptState(GameState):
    """Everything about one game; snapshotted after every move, so kept compact."""

    players: int
    edition: str
    tie_rule: str
    variants: list[int]
    phase: str = PLAY
    round: int = 1
    trick_no: int = 0
    leader: int = 0
    hands: list[list[int]] = field(default_factory=list)  # ranks still in hand, per seat
    fronts: list[list[Token]] = field(default_factory=list)  # the tokens in front of each seat
    pile: list[Token] = field(default_factory=list)  # the draw pile (order hidden)
    tricks: list[list[list[int]]] = field(default_factory=list)  # per seat: tricks of card codes
    trick: list[Played] = field(default_factory=list)  # the current trick in play order
    set_aside: list[int] = field(default_factory=list)  # cards of tricks nobody won this round
    resolving: int = 0  # play position whose power is being resolved
    picked_seat: int = -1  # intendant/religieux: the token chosen at the first step
    picked_slot: int = -1
    winner: int | None = None
    activated: list[int] = field(default_factory=list)  # bourgeoisie users of this trick
    b_kind: int = 0  # the variant (1, 2, 3) the current bourgeoisie user chose; 0: not yet
    b_other: int = -1  # the single other player whose tricks/tokens they consult
    b_count: int = 0
    bourgeoisie: list[int] = field(default_factory=list)  # level held per seat (0: none)
    b_used: list[bool] = field(default_factory=list)
    seen_tricks: list[list[int]] = field(default_factory=list)  # per seat: owner * 64 + index
    totals: list[int] = field(default_factory=list)
    round_scores: list[list[int]] = field(default_factory=list)  # per round, per seat
    round_colours: list[list[int]] = field(default_factory=list)  # the scoring colour (-1: none)
    # How each round was counted, per round, per seat: [colour (-1: none), the card points of
    # that colour in the seat's tricks, its face-up tokens]; the tricks are gone once the next
    # round is dealt, and the table shows the count at the end. Not part of the result (whose
    # stored form replays compare), so games recorded before it still verify.
    round_lines: list[list[list[int]]] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
