"""The reconstructed edition's data files are loaded and validated at import."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine.blazon.cards import (
    EDITIONS,
    DataError,
    load_board,
    load_cards,
    load_distinctions,
    load_french,
    parse_clause,
)

EDITION = EDITIONS["reconstructed-1"]
FOLDER = Path(__file__).resolve().parents[3] / "engine" / "blazon" / "data" / "reconstructed-1"


def test_the_edition_has_40_tinctures_80_devices_of_9_types() -> None:
    cards = EDITION.cards.values()
    assert Counter(c.category for c in cards) == {"tincture": 40, "device": 80}
    assert len({c.type for c in cards}) == 9
    assert {c.augmentation for c in cards} == {
        "fleur-de-lis",
        "castle",
        "swords",
        "crown",
        "lion",
        "wild",
    }
    assert {c.prestige for c in cards} == {1, 2, 3, 4, 5}


def test_five_distinctions_per_category_with_parsed_requirements() -> None:
    assert {k: len(v) for k, v in EDITION.distinctions.items()} == dict.fromkeys("ABCDE", 5)
    c1 = EDITION.distinction_by_id["C1"]
    assert [(c.kind, c.subject, c.n) for c in c1.clauses] == [
        ("type", "metal", 1), ("type", "colour", 1), ("type", "fur", 1),
    ]  # fmt: skip
    assert c1.awards(2) == (5, 3)
    assert c1.awards(4) == (5, 3, 2)


def test_the_board_has_ten_spaces_three_rows_and_two_tincture_groups() -> None:
    board = EDITION.board
    assert [s.name for s in board.spaces][:3] == ["r1c1", "r1c2", "r1c3"]
    assert board.rows == {1: (0, 1, 2), 2: (3, 4, 5), 3: (6, 7, 8)}
    assert board.tincture_groups == ((0, 1, 2), (5, 8))
    assert board.milestones == (10, 20, 30, 40, 50)
    assert board.herald_tokens == 20


def _rewrite(tmp_path: Path, name: str, old: str, new: str) -> Path:
    path = tmp_path / name
    path.write_text(
        (FOLDER / name).read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8"
    )
    return path


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        (
            "T001,tincture,metal,Or,fleur-de-lis,1",
            "T001,tincture,metal,Or,fleur-de-lis,9",
            "row 2: prestige 9",
        ),
        ("T002,tincture,metal,Or,castle", "T002,tincture,charge,Or,castle", "row 3: type 'charge'"),
        (
            "D041,device,division,Per pale,fleur-de-lis",
            "D041,device,division,Per pale,rose",
            "row 42: augmentation",
        ),
        ("T003,tincture", "T001,tincture", "row 4: card number 1 appears twice"),
        ("T040,tincture,fur,Potent,wild,5\n", "", "39 tincture cards, expected 40"),
    ],
)
def test_a_bad_card_file_names_the_row(tmp_path: Path, old: str, new: str, words: str) -> None:
    with pytest.raises(DataError, match=words):
        load_cards(_rewrite(tmp_path, "cards.csv", old, new))


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("aug:castle>=3", "aug:tower>=3", "row 2: 'aug:tower>=3' is not a clause"),
        ("row-full:1", "row-full:4", "names no row"),
        ("4 2,4 3 1", "4,4 3 1", "must hold 2 positive numbers"),
        ("E5,E,", "E4,E,", "repeated"),
    ],
)
def test_a_bad_distinction_file_names_the_row(
    tmp_path: Path, old: str, new: str, words: str
) -> None:
    with pytest.raises(DataError, match=words):
        load_distinctions(_rewrite(tmp_path, "distinctions.csv", old, new))


def test_a_bad_board_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="space 0 top symbol 'dragon' is unknown"):
        load_board(_rewrite(tmp_path, "board.json", '"top": "division"', '"top": "dragon"'))
    with pytest.raises(DataError, match="unknown space"):
        load_board(_rewrite(tmp_path, "board.json", '["r2c3", "r3c3"]', '["r2c3", "r9c9"]'))


def test_every_clause_kind_parses() -> None:
    for text in ("augs-distinct>=4", "aug-pairs>=2", "types-distinct>=7", "tinctures-distinct>=4",
                 "row-same-aug>=1", "row-distinct-augs>=1", "space:cadency", "cards>=8",
                 "type:fur>=2", "aug:lion>=3", "row-full:2"):  # fmt: skip
        parse_clause(text, "test")
    with pytest.raises(DataError, match="not a clause"):
        parse_clause("cards>=0", "test")


def test_every_card_has_its_french_name() -> None:
    """blazon-fr.toml: one French name per card, nouns with their gender, charges with their
    plural, numbered arrangements with their count and words after the charges."""
    french = EDITION.french
    assert sorted(french) == sorted(EDITION.cards)
    by_name = {card.name: french[number] for number, card in EDITION.cards.items()}
    assert by_name["Gules"].name == "gueules"
    assert by_name["Per pale"].name == "parti"
    assert (by_name["a bend"].name, by_name["a bend"].gender) == ("bande", "f")
    assert by_name["lion passant"].plural == "lions léopardés"
    assert (by_name["wavy"].name, by_name["wavy"].feminine) == ("ondé", "ondée")
    assert (by_name["two and one"].count, by_name["two and one"].feminine) == (
        3, "posées deux et une",
    )  # fmt: skip
    assert by_name["semé"].before == "semé"
    for number, card in EDITION.cards.items():
        assert french[number].name.strip(), card
        if card.type in ("charge", "ordinary", "cadency"):
            assert french[number].gender in ("m", "f"), card


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ('Gules = "gueules"\n', "", r"no French name for \[colour\] 'Gules'"),
        ('Gules = "gueules"', 'Gules = "gueules"\nRouge = "gueules"', "no card is named .*'Rouge'"),
        ('name = "bande", gender = "f"', 'name = "bande", gender = "x"', "gender 'x'"),
        ('name = "bande", gender = "f"', 'name = "bande"', "'a bend': an ordinary|needs gender"),
        ('plural = "roses", ', "", "'rose': a charge takes .*needs gender, name, plural"),
        ('after = "posés en pal", ', "", "numbered arrangement has a count and its words"),
        ("count = 2,", "count = 1,", "count 1 is not a number of charges"),
        ('Vair = "vair"', 'Vair = { name = "vair", gender = "m" }', "a fur takes name"),
        ("[division]", "[partition]", r"\[partition\] is not a card type"),
        ('Or = "or"', 'Or = ""', "every key but count holds words"),
    ],
)
def test_a_bad_french_file_names_the_entry(tmp_path: Path, old: str, new: str, words: str) -> None:
    path = _rewrite(tmp_path, "blazon-fr.toml", old, new)
    with pytest.raises(DataError, match=words):
        load_french(path, EDITION.cards)
