"""The blazon in French (engine/blazon/french.py): real shields of played games read as French
heraldry writes them, each phrase checked by hand; the English blazon stays as it was."""

from __future__ import annotations

import doctest

import pytest

from engine.blazon import GAME, blazon_text, french
from engine.blazon.moves import Pay, Place
from engine.blazon.shield import TABLES, shield_blazon
from engine.blazon.state import PlayerState
from tests.engine.blazon.helpers import SPACE, fresh, give, n, play

TABLE = TABLES["reconstructed-1"]


def _shield(placed: str) -> PlayerState:
    """A shield holding the cards written as "space=card …" ("r1c1=D041 r1c2=T001")."""
    player = PlayerState(hand=[])
    for space, card in (pair.split("=") for pair in placed.split()):
        player.shield[SPACE[space]] = n(card)
    return player


#: Finished shields of random two-player games (seeds "golden-pick-<n>", seat), their English
#: blazon as the engine has always written it, and the French one.
SHIELDS = [
    (
        # A fur and elided metals in the field; a feminine charge: "posées deux et une"; a
        # feminine piece and its line agreeing: "la bande ondée"; the cadency mark last.
        "r1c1=T036 r1c2=T005 r1c3=T018 r2c1=D100 r2c2=D111 r2c3=T004 "
        "r3c1=D069 r3c2=D073 r3c3=T014 cadency=D118",
        "Vair, Or, Azure / two martlets and one or / a bend, wavy, gules / a fleur-de-lis",
        "De vair, d'or et d'azur, à trois merlettes d'or posées deux et une, "
        "à la bande ondée de gueules, brisé d'une fleur de lys",
    ),
    (
        # The partition before its tinctures; a masculine charge in the plural: "posés".
        "r1c1=D042 r1c3=T036 r2c1=D066 r2c2=D082 r2c3=T040 "
        "r3c1=D086 r3c2=D108 r3c3=T004 cadency=D117",
        "Per fess, Vair / a fess, embattled, potent / four griffins segreant in cross or / "
        "an annulet",
        "Coupé de vair, à la fasce crénelée de potencé, à quatre griffons d'or posés en croix, "
        "brisé d'un annelet",
    ),
    (
        # A capital on an accented first letter; "rangées en fasce"; "au sautoir".
        "r1c1=D047 r1c2=T014 r1c3=T025 r2c1=D098 r2c2=D109 r2c3=T031 "
        "r3c1=D070 r3c2=D078 r3c3=T019 cadency=D113",
        "Quarterly, Gules, Sable / three roses in fess purpure / a saltire, dovetailed, azure / "
        "a label",
        "Écartelé de gueules et de sable, à trois roses de pourpre rangées en fasce, "
        "au sautoir à queue d'aronde d'azur, brisé d'un lambel",
    ),
    (
        # Strewn charges come first, in the plural and without a number.
        "r1c1=D050 r1c2=T005 r2c1=D099 r2c2=D110 r2c3=T007 r3c1=D060 r3c2=D075 r3c3=T019",
        "Per fess, Or / lion passant, semé, argent / a cross, indented, azure",
        "Coupé d'or, semé de lions léopardés d'argent, à la croix denchée d'azur",
    ),
    (
        # Elision before a vowel and a mute h ("d'herminois", "d'hermine", "à l'aigle"); an
        # arrangement without its charge, in its own words.
        "r1c1=D053 r1c2=T037 r1c3=T033 r2c2=D111 r2c3=T007 r3c1=D084 r3c3=T006 cadency=D114",
        "Per bend, Erminois, Ermine / two and one, argent / eagle displayed, or / a crescent",
        "Tranché d'herminois et d'hermine, deux et un, d'argent, à l'aigle d'or, "
        "brisé d'un croissant",
    ),
    (
        # "semé d'aigles": the strewn charges elide their "de" too.
        "r1c2=T019 r1c3=T023 r2c1=D084 r2c2=D110 r3c1=D055 r3c2=D077 r3c3=T013 cadency=D117",
        "Azure, Vert / eagle displayed, semé / a pale, embattled, gules / an annulet",
        "D'azur et de sinople, semé d'aigles, au pal crénelé de gueules, brisé d'un annelet",
    ),
    (
        # A charge on the cadency space (placed with the abatement token) breaks the arms too.
        "r1c1=D052 r1c2=T029 r1c3=T015 r2c1=D059 r2c2=D072 r2c3=T005 "
        "r3c1=D067 r3c2=D071 r3c3=T013 cadency=D092",
        "Quarterly, Purpure, Gules / a chevron, invected, or / a cross, engrailed, gules / "
        "cross couped",
        "Écartelé de pourpre et de gueules, au chevron cannelé d'or, "
        "à la croix engrêlée de gueules, brisé d'une croix alésée",
    ),
    (
        # The rulebook test's shield (games/README.md).
        "r1c1=D045 r1c2=T018 r1c3=T013 r2c1=D060 r2c2=D078 r2c3=T038 "
        "r3c1=D092 r3c3=T007 cadency=D120",
        "Per chevron, Azure, Gules / a cross, dovetailed, countervair / cross couped, argent / "
        "an octofoil",
        "Chapé d'azur et de gueules, à la croix à queue d'aronde de contre-vair, "
        "à la croix alésée d'argent, brisé d'une huitfeuille",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("placed", "english", "words"), SHIELDS)
def test_a_played_shield_in_french_and_in_english(placed: str, english: str, words: str) -> None:
    player = _shield(placed)
    assert blazon_text(player, TABLE) == english
    assert blazon_text(player, TABLE, "en") == english
    assert blazon_text(player, TABLE, "fr") == words


@pytest.mark.parametrize(
    ("placed", "words"),
    [
        # The rulebook's "four roundels in cross argent": the number before the charges.
        ("r2c1=D093 r2c2=D108 r2c3=T007", "à quatre tourteaux d'argent posés en croix"),
        ("r2c1=D092 r2c2=D104 r2c3=T007",
         "à trois croix alésées d'argent posées deux et une"),
        ("r3c1=D083 r3c2=D103 r3c3=T001", "à deux lions d'or posés en pal"),
        # An arrangement with no number keeps a single charge.
        ("r2c1=D093 r2c2=D105 r2c3=T007", "au tourteau d'argent en bande"),
        ("r3c1=D085 r3c2=D106 r3c3=T001", "à la licorne d'or en chef"),
        # A piece and its line: "au chevron ondé", "à la fasce ondée".
        ("r2c1=D059 r2c2=D073 r2c3=T022", "au chevron ondé de sinople"),
        ("r3c1=D056 r3c2=D073 r3c3=T022", "à la fasce ondée de sinople"),
        # A row still being built: what is there, in its own words.
        ("r2c2=D074", "nébulé"),
        ("r2c2=D108 r2c3=T007", "quatre en croix, d'argent"),
    ],
)  # fmt: skip
def test_a_row_below_the_field(placed: str, words: str) -> None:
    assert blazon_text(_shield(placed), TABLE, "fr") == words


def test_the_field_alone() -> None:
    """The partition, then its tinctures, the last one joined by "et"."""
    assert blazon_text(_shield("r1c1=D041 r1c2=T001 r1c3=T013"), TABLE, "fr") == (
        "Parti d'or et de gueules"
    )
    assert blazon_text(_shield("r1c1=D048 r1c2=T018 r1c3=T013"), TABLE, "fr") == (
        "Tiercé en pairle d'azur et de gueules"
    )
    assert blazon_text(_shield("r1c1=T018 r1c2=T001 r1c3=T013"), TABLE, "fr") == (
        "D'azur, d'or et de gueules"
    )
    assert blazon_text(_shield("r1c2=T033"), TABLE, "fr") == "D'hermine"


def test_an_empty_shield_and_an_unknown_language() -> None:
    assert blazon_text(PlayerState(hand=[]), TABLE, "fr") == ""
    with pytest.raises(ValueError, match="no blazon in 'de'"):
        blazon_text(PlayerState(hand=[]), TABLE, "de")


def test_the_blazon_of_a_view_shield_is_the_blazon_of_the_state() -> None:
    """The play app composes the French blazon from the cards a view shows on a shield."""
    state = fresh()
    give(state, 0, "D074", "T016")
    play(state, Place(n("D074"), SPACE["r2c2"], "bottom"), Pay(n("T016")))
    shown = GAME.view(state, 1)["players"][0]
    assert shown["blazon"] == "nebuly"  # views keep the English blazon
    numbers = [placed["card"]["number"] if placed else 0 for placed in shown["shield"]]
    assert shield_blazon(numbers, TABLE, "fr") == "nébulé"
    assert shield_blazon(numbers, TABLE) == "nebuly"


def test_the_docstring_examples_hold() -> None:
    failed, attempted = doctest.testmod(french)
    assert attempted > 0
    assert failed == 0
