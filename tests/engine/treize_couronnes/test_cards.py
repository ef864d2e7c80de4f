"""The King card list: loaded and checked at import; a bad row names the card."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from engine.treize_couronnes.cards import (
    COLUMNS,
    DATA_DIR,
    FIRST_KING,
    KINGS,
    Action,
    ActionKind,
    EditionError,
    Reward,
    load_edition,
    parse_action,
    parse_reward,
)

KINGS_1 = KINGS["reconstructed-1"]


def test_the_reconstructed_edition_has_52_kings_13_per_colour() -> None:
    assert len(KINGS_1) == 52
    for colour in ("blue", "orange", "green", "purple"):
        of_colour = [k for k in KINGS_1.values() if k.colour == colour]
        assert len(of_colour) == 13
        assert sum(k.special for k in of_colour) == 1  # one joker per colour
        assert sum(k.hole for k in of_colour) == 1  # one hole King per colour
    assert FIRST_KING["reconstructed-1"] == "B03"


#: SHA-256 of 13-couronnes-kings.csv, the card list the reconstructed edition was copied from.
SOURCE_SHA256 = "f6ed381f2fa8a6c49e6a7c3ff2644e045aaff48bb1e83f73b8b79a371284e8aa"


def test_the_data_file_is_the_source_card_list_byte_for_byte() -> None:
    """The edition is data: an edit to the file (not a new edition) would change recorded games."""
    data = (DATA_DIR / "reconstructed-1.csv").read_bytes()
    assert hashlib.sha256(data).hexdigest() == SOURCE_SHA256


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("reveal:blue+orange", Action(ActionKind.REVEAL, (("blue", 1), ("orange", 1)))),
        ("reveal:blue*4", Action(ActionKind.REVEAL, (("blue", 4),))),
        ("reveal:pair", Action(ActionKind.REVEAL, (("pair", 2),))),
        ("reveal:announced*1", Action(ActionKind.REVEAL, (("announced", 1),))),
        ("discard:orange*2", Action(ActionKind.DISCARD, (("orange", 2),))),
        ("discard:blason*1", Action(ActionKind.DISCARD_BLASON)),
        ("once:most-green", Action(ActionKind.ONCE_MOST, colour="green")),
        ("once:fewest-crowns", Action(ActionKind.ONCE_FEWEST_CROWNS)),
        ("once:hand-exactly-4", Action(ActionKind.ONCE_HAND_4)),
    ],
)
def test_every_action_kind_parses(text: str, expected: Action) -> None:
    assert parse_action(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("crowns:4", (Reward("crowns", 4),)),
        ("crowns:1+guard:1", (Reward("crowns", 1), Reward("guard", 1))),
        ("guard:1+blason:1", (Reward("guard", 1), Reward("blason", 1))),
        ("steal-crowns:1", (Reward("steal-crowns", 1),)),
        ("steal-cards:2", (Reward("steal-cards", 2),)),
        ("hole", (Reward("hole", 0),)),
    ],
)
def test_every_reward_kind_parses(text: str, expected: tuple[Reward, ...]) -> None:
    assert parse_reward(text) == expected


@pytest.mark.parametrize(
    "text", ["reveal:pink*2", "reveal:blue+blue", "shout:blue", "once:most-pink", "discard:pair"]
)
def test_bad_actions_are_refused(text: str) -> None:
    with pytest.raises(ValueError):  # noqa: PT011 - the message is checked below, per card
        parse_action(text)


def _write(tmp_path: Path, rows: list[str]) -> Path:
    path = tmp_path / "club.csv"
    path.write_text("\n".join([",".join(COLUMNS), *rows]) + "\n", encoding="utf-8")
    return path


def _rows() -> list[str]:
    return (DATA_DIR / "reconstructed-1.csv").read_text(encoding="utf-8").splitlines()[1:]


def test_a_bad_law_names_the_row_and_the_card(tmp_path: Path) -> None:
    rows = _rows()
    rows[3] = rows[3].replace("reveal:blue*4", "reveal:blue*x")
    with pytest.raises(EditionError, match=r"club.csv, row 5 \(card B04\): bad card list"):
        load_edition(_write(tmp_path, rows))


def test_a_bad_reward_names_the_card(tmp_path: Path) -> None:
    rows = _rows()
    rows[0] = rows[0].replace("crowns:1+guard:1", "crowns:1+gold:1")
    with pytest.raises(EditionError, match=r"card B01\): bad reward part 'gold:1'"):
        load_edition(_write(tmp_path, rows))


def test_a_hole_flag_without_a_hole_reward_is_refused(tmp_path: Path) -> None:
    rows = _rows()
    rows[1] = rows[1].replace(",no,no,no", ",no,yes,no")
    with pytest.raises(EditionError, match=r"card B02\): a hole King must"):
        load_edition(_write(tmp_path, rows))


def test_the_whole_list_is_checked(tmp_path: Path) -> None:
    with pytest.raises(EditionError, match="52 King cards, not 51"):
        load_edition(_write(tmp_path, _rows()[:-1]))
    rows = _rows()
    rows[2] = rows[2].replace(",yes", ",no")
    with pytest.raises(EditionError, match="exactly one card must be the 1st King"):
        load_edition(_write(tmp_path, rows))
    with pytest.raises(EditionError, match="listed twice"):
        load_edition(_write(tmp_path, [*_rows()[:-1], _rows()[0]]))
