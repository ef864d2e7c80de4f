"""Where a continued game's unseen cards are shuffled again: the one statement of the rule.

A game continued by an arbiter's "replay from move n" ruling is dealt with the old game's
(public) seed, so its first n moves replay as they were played; right after move n, before move
n + 1, what no seat has seen is shuffled again with the game's own secret seed
(:meth:`engine.core.Game.reshuffle_unseen`). Any other game is never reshuffled. The event
store's service that appends the reshuffle, its replay of a stream (events.states) and the
offline verifier of game records (engine.record) all ask :class:`ReshuffleRule`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReshuffleRule:
    """Where a game's unseen cards may be shuffled again with its own seed: a game continued
    after move n (``continued_after`` n) exactly once, right after move n, before move n + 1;
    any other game (``continued_after`` None) never. Each answer is None (allowed) or the
    sentence saying why not."""

    continued_after: int | None

    def refuses_reshuffle(self, *, moves: int, reshuffled: bool) -> str | None:
        """Why the unseen cards may not be shuffled again after ``moves`` moves."""
        if self.continued_after is None:
            return (
                "only a game continued by a 'replay from move n' ruling has its unseen cards "
                "shuffled again: this game was dealt with its own seed"
            )
        if reshuffled:
            return "the unseen cards of this game were already shuffled again"
        if moves != self.continued_after:
            return (
                f"this game continues the old one after move {self.continued_after}, but it "
                f"holds {moves} moves: the unseen cards are shuffled again right after move "
                f"{self.continued_after}"
            )
        return None

    def refuses_move(self, *, moves: int, reshuffled: bool) -> str | None:
        """Why move number ``moves`` may not stand where it was played."""
        if self.continued_after is not None and moves > self.continued_after and not reshuffled:
            return f"move {moves} was played before the unseen cards were shuffled again"
        return None
