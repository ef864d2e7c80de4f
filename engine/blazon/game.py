"""Blazon (2–4 players) on the engine contract: turns as small moves, exact legal moves.

A turn: Acquire (``draw`` twice, ``exchange``/``keep``) or Blazon (``place`` + ``pay``... or
one ``pay_cards``, then ``finish``); a Herald action at any step between them, once per turn; the
free ``refresh``; then ``discard`` down to 7, ``end_turn``, and a ``claim`` when several
distinctions are met.
docs/rules/blazon.md gives the rulebook's words, the rulings and the tests that pin them.

``legality`` says which moves are legal (and why not), ``play`` carries them out and moves the
game on, ``scoring`` makes the result, ``views`` says what a seat may see and puts moves in
words; ``shield`` holds the pure rules of the Shield board.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.blazon import legality, play, scoring, views
from engine.blazon.cards import DISTINCTION_CATEGORIES, EDITIONS
from engine.blazon.legality import SLOT_DECK
from engine.blazon.moves import MOVES
from engine.blazon.shield import TABLES
from engine.blazon.state import DECKS, OVER, BlazonState, PlayerState
from engine.blazon.words import DECK_NAMES
from engine.core.errors import IllegalMove
from engine.core.game import GAME_OVER, Game, Result
from engine.core.moves import Move
from engine.core.options import Option
from engine.core.rng import Rng
from engine.core.text import Seat, Text, _


@functools.cache
def _deck_cards(edition: str, deck: str) -> tuple[int, ...]:
    """The numbers of an edition's cards of one deck, in increasing order (before shuffling)."""
    return tuple(sorted(n for n, c in EDITIONS[edition].cards.items() if c.category == deck))


class BlazonGame(Game[BlazonState]):
    """Blazon, the reconstructed edition (games/README.md, rulings BZ-1..BZ-5)."""

    id = "blazon"
    name = "Blazon"
    min_players = 2
    max_players = 4
    engine_version = "1.3.0"
    editions = tuple(EDITIONS)
    options = (
        Option(
            "abatement",
            "boolean",
            False,
            "Abatement tokens: each player may break one placement rule, -8 at the end if still in use",
        ),
    )
    moves = MOVES
    state_type = BlazonState

    # -- setup --------------------------------------------------------------------------------
    def setup(self, players: int, options: dict[str, Any], edition: str, rng: Rng) -> BlazonState:
        tables = TABLES[edition]
        decks = {deck: rng.shuffled(_deck_cards(edition, deck)) for deck in DECKS}
        # Each category is shuffled and its bottom card (index 0: tops are at the end) is used.
        chosen = [
            rng.shuffled(tables.edition.distinctions[c])[0].id for c in DISTINCTION_CATEGORIES
        ]
        state = BlazonState(
            rng=rng,
            edition=edition,
            abatement_rule=bool(options["abatement"]),
            players=[
                PlayerState(hand=[], abatement=bool(options["abatement"])) for _ in range(players)
            ],
            decks=decks,
            discards={deck: [] for deck in DECKS},
            display=[0] * len(SLOT_DECK),
            herald_pile=tables.board.herald_tokens - players,
            milestones=[-1] * len(tables.board.milestones),
            distinctions=chosen,
            awards=[[] for _ in chosen],
        )
        for deck in DECKS:
            state.note(
                "chance", _("{deck} is shuffled", deck=DECK_NAMES[deck]), {"order": decks[deck][:]},
                [],
            )  # fmt: skip
        state.note(
            "chance",
            _("distinctions in play: {distinctions}", distinctions=tuple(chosen)),
            {"distinctions": chosen[:]},
        )
        play.refill_display(state)
        for seat in range(players):
            play.deal_starting_hand(state, tables, seat)
        return state

    # -- who acts -----------------------------------------------------------------------------
    def to_act(self, state: BlazonState) -> list[int]:
        return [] if state.phase == OVER else [state.turn]

    def clone(self, state: BlazonState) -> BlazonState:
        return state.copy()

    # -- legality -----------------------------------------------------------------------------
    def legal_moves(self, state: BlazonState, seat: int) -> list[Move]:
        return legality.legal_moves(state, seat)

    def check(self, state: BlazonState, seat: int, move: Move) -> None:
        if state.phase == OVER:
            raise IllegalMove(GAME_OVER)
        if seat != state.turn:
            raise IllegalMove(
                _(
                    "{seat} is not to act now (waiting for {waiting})",
                    seat=Seat(seat), waiting=Seat(state.turn),
                )
            )  # fmt: skip
        # legality.problem, its dispatch written out: replay checks every move through here
        kind = type(move)
        refused_in, rule = legality.RULES.get(kind) or legality.rule_of(kind)
        phase = state.phase
        if phase in refused_in:
            raise IllegalMove(legality.STEP_REFUSALS[phase](state))
        problem = rule(state, state.players[seat], move)
        if problem is not None:
            raise IllegalMove(problem)

    # -- playing ------------------------------------------------------------------------------
    def play(self, state: BlazonState, seat: int, move: Move) -> None:
        # play.carry_out, written out: replay plays every move through here
        kind = type(move)
        (play.PLAYS.get(kind) or play.play_of(kind))(state, seat, move)
        play.settle(state)

    def shuffle_unseen(self, state: BlazonState) -> None:
        """Shuffle each deck again, but for the redrawn starting-hand cards a seat saw go to its
        bottom (see :func:`play.shuffle_unseen`)."""
        play.shuffle_unseen(state)

    def claimable(self, state: BlazonState, seat: int) -> list[str]:
        """Distinctions ``seat`` meets now, has no marker on, and which have a free award space."""
        return play.claimable(state, seat)

    # -- results ------------------------------------------------------------------------------
    def augmentation_awards(self, state: BlazonState) -> list[dict[str, int]]:
        """Per seat, the augmentations it scores 2 for (rulebook Final Scoring, step 1)."""
        return scoring.augmentation_awards(state)

    def final_breakdown(self, state: BlazonState) -> list[dict[str, Any]]:
        """Per seat, each line of the final scoring and the total."""
        return scoring.final_breakdown(state)

    def result(self, state: BlazonState) -> Result | None:
        return scoring.result(state)

    def estimate(self, state: BlazonState, seat: int) -> float:
        return scoring.estimate(state, seat)

    # -- words and views ----------------------------------------------------------------------
    def describe_text(self, move: Move, seat: int) -> Text:
        return views.describe(move, seat)

    def view(self, state: BlazonState, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)
