"""The laws in words (engine/treize_couronnes/words.py): every King of the edition has its
action and reward said as a sentence template with parameters, never as the data's code; and
a move others see face down is told without a card."""

from __future__ import annotations

import re

import pytest

from engine.treize_couronnes.cards import KINGS, Reward
from engine.treize_couronnes.game import GAME
from engine.treize_couronnes.moves import PayGuard, RedoDiscard
from engine.treize_couronnes.words import action_text, reward_part_text, reward_text

EDITION = KINGS["reconstructed-1"]
CODE = re.compile(r"[a-z]+:[a-z]|\*|->")  # the law language: reveal:blue*2 -> crowns:2


@pytest.mark.parametrize("card", sorted(EDITION))
def test_every_law_is_said_in_words(card: str) -> None:
    king = EDITION[card]
    action, reward = str(action_text(king.action, "green")), str(reward_text(king.rewards))
    assert action
    assert reward
    assert not CODE.search(action), action
    assert not CODE.search(reward), reward


def test_the_rulebooks_examples_in_words() -> None:
    assert str(action_text(EDITION["B01"].action)) == "reveal 1 blue card and 1 orange card"
    assert str(reward_text(EDITION["B01"].rewards)) == "1 crown and 1 guard"
    assert str(action_text(EDITION["B06"].action)) == "discard 1 blason"
    assert str(reward_text(EDITION["B06"].rewards)) == "steal 1 crown from an opponent"
    assert str(action_text(EDITION["B04"].action)) == "reveal 4 blue cards"
    assert str(action_text(EDITION["G13"].action)) == (
        "reveal 1 green card, 1 purple card and 1 orange card"
    )


def test_the_announced_colour_is_named_once_announced() -> None:
    law = EDITION["P07"].action
    assert (
        str(action_text(law)) == "reveal 1 card of the colour announced when this King was played"
    )
    assert str(action_text(law, "orange")) == "reveal 1 orange card, the announced colour"


def test_amounts_of_one_and_more() -> None:
    assert str(reward_part_text(Reward("crowns", 1))) == "1 crown"
    assert str(reward_part_text(Reward("crowns", 3))) == "3 crowns"
    assert str(reward_part_text(Reward("steal-cards", 2))) == (
        "steal 2 cards at random from opponents"
    )
    assert str(reward_text(())) == "no reward"


def test_a_card_given_or_discarded_face_down_is_told_without_it() -> None:
    """Others see such a move with its card withheld (public_move): its words name no card."""
    for move in (RedoDiscard("B04"), PayGuard("B04")):
        public = GAME.decode_move(GAME.public_move(move, 1))
        seen = str(GAME.describe_text(public, 1))
        assert "hidden" not in seen, seen
        assert "blue King" not in seen, seen
        assert "the blue King (reveal 4 blue cards" in str(GAME.describe_text(move, 1))
