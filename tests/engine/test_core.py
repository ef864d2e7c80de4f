"""engine/core: the RNG's fixed vectors, the codec, moves, options and results."""

import hashlib
from dataclasses import dataclass, field
from typing import Any

import pytest

import engine
from engine.blazon.cards import DataError as BlazonDataError
from engine.core import (
    BadMove,
    EditionDataError,
    Effect,
    EngineError,
    InvalidOptions,
    Move,
    MoveSet,
    Option,
    Result,
    Rng,
    SetupRecord,
    Termination,
    from_plain,
    is_competition_ranking,
    move_type,
    next_seat,
    normalize_options,
    options_schema,
    ranks_from_keys,
    replay_compatible,
    rules_since,
    seats_after,
    seed_commitment,
    to_plain,
)
from engine.core.replay import start
from engine.sept_blasons.cards import DataError as SeptDataError
from engine.treize_couronnes.cards import EditionError

# -- RNG: fixed vectors. If one of these changes, every stored game stops replaying. --------


def test_rng_words_are_sha256_of_seed_and_counter() -> None:
    expected = int.from_bytes(
        hashlib.sha256(b"herald" + (0).to_bytes(8, "big")).digest()[:8], "big"
    )
    rng = Rng("herald")
    assert rng.next_word() == expected == 11146003250466768670
    assert [rng.next_word(), rng.next_word()] == [10154191808564780639, 5123723367877646546]
    assert rng.counter == 3


def test_rng_randbelow_vector() -> None:
    rng = Rng("herald")
    assert [rng.randbelow(100) for _ in range(10)] == [70, 39, 46, 30, 57, 87, 62, 54, 29, 46]
    assert rng.counter == 10


def test_rng_small_bound_vector() -> None:
    rng = Rng("x")
    assert [rng.randbelow(3) for _ in range(12)] == [2, 0, 2, 1, 0, 0, 2, 1, 0, 0, 0, 0]


def test_rng_rejects_words_above_the_unbiased_limit() -> None:
    # With a bound just over 2**63 about half the words are rejected: 3 values took 5 words.
    rng = Rng("bias")
    values = [rng.randbelow(2**63 + 1) for _ in range(3)]
    assert values == [8023360671212465078, 7344188191449738414, 1260310623519835900]
    assert rng.counter == 5


def test_rng_fisher_yates_shuffle_vector() -> None:
    rng = Rng("herald-shuffle")
    items = list(range(10))
    rng.shuffle(items)
    assert items == [6, 1, 3, 4, 7, 5, 2, 0, 9, 8]
    assert rng.counter == 9


def test_rng_is_roughly_uniform() -> None:
    rng = Rng("uniform")
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.randbelow(6)] += 1
    assert all(900 < c < 1100 for c in counts), counts


def test_rng_refuses_empty_ranges() -> None:
    with pytest.raises(ValueError, match="positive"):
        Rng("s").randbelow(0)
    with pytest.raises(ValueError, match="empty"):
        Rng("s").choice([])


def test_rng_state_round_trips_through_plain_data() -> None:
    rng = Rng("seed")
    rng.randbelow(10)
    copy = from_plain(Rng, to_plain(rng))
    assert copy == rng
    assert copy.randbelow(1000) == rng.randbelow(1000)


def test_seed_commitment_is_sha256_hex() -> None:
    assert seed_commitment("abc") == hashlib.sha256(b"abc").hexdigest()


# -- codec -------------------------------------------------------------------------------


@dataclass
class Inner:
    name: str
    values: tuple[int, ...]


@dataclass
class Outer:
    by_seat: dict[int, list[Inner]]
    maybe: int | None
    flags: list[bool] = field(default_factory=list)


def test_codec_round_trips_nested_dataclasses_with_integer_keys() -> None:
    value = Outer({0: [Inner("a", (1, 2))], 3: []}, None, [True])
    plain = to_plain(value)
    assert plain == {
        "by_seat": {"0": [{"name": "a", "values": [1, 2]}], "3": []},
        "maybe": None,
        "flags": [True],
    }
    assert from_plain(Outer, plain) == value


def test_codec_refuses_wrong_types() -> None:
    with pytest.raises(ValueError, match="expected an integer"):
        from_plain(Inner, {"name": "a", "values": ["x"]})
    with pytest.raises(ValueError, match="expected an integer"):
        from_plain(Inner, {"name": "a", "values": [True]})


# -- moves -------------------------------------------------------------------------------


@move_type("play")
@dataclass(frozen=True, slots=True)
class Play(Move):
    card: int
    targets: tuple[int, ...] = ()


@move_type("pass")
@dataclass(frozen=True, slots=True)
class Pass(Move):
    pass


MOVES = MoveSet(Play, Pass)


def test_moves_round_trip_exactly() -> None:
    for move in (Play(3), Play(2, (0, 1)), Pass()):
        data = move.to_json()
        assert MOVES.decode(data) == move
        assert MOVES.decode(data).to_json() == data
    assert Play(2, (0, 1)).to_json() == {"type": "play", "card": 2, "targets": [0, 1]}
    assert hash(Play(1)) == hash(Play(1))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "JSON object"),
        ({"card": 1}, '"type" field'),
        ({"type": "fly"}, "unknown move type 'fly'; this game knows: pass, play"),
        ({"type": "play"}, "missing fields: card, targets"),
        ({"type": "play", "card": 1, "targets": [], "x": 1}, "unexpected fields: x"),
        ({"type": "play", "card": "1", "targets": []}, "expected an integer"),
        ({"type": ["play"], "card": 1}, '"type" field'),
    ],
)
def test_malformed_moves_say_what_is_wrong(data: object, message: str) -> None:
    with pytest.raises(BadMove, match=message.replace("(", r"\(")):
        MOVES.decode(data)


@move_type("take")
@dataclass(frozen=True, slots=True)
class Take(Move):
    card: int
    face: str
    up: bool = False


FLAT = MoveSet(Take, Pass)  # every field int/str/bool: decoded by the fast path


@pytest.mark.parametrize(
    "data",
    [
        {"type": "take", "card": 3, "face": "up", "up": True},
        {"type": "pass"},
        {"type": "take", "card": True, "face": "up", "up": True},  # bool is not an int
        {"type": "take", "card": 3, "face": "up"},  # missing
        {"type": "take", "card": 3, "face": "up", "up": 1},
        {"type": "take", "card": 3, "face": "up", "top": True},  # misnamed field
        {"type": ["take"], "card": 3, "face": "up", "up": True},  # unhashable type name
        {"type": None},
        [],
    ],
    ids=str,
)
def test_the_fast_decoder_answers_as_the_full_one(data: Any) -> None:
    """The fast path (replay's) may only ever give what the checked decoder gives."""
    try:
        expected: Move | str = FLAT._decode_checked(data)
    except BadMove as exc:
        expected = str(exc)
    try:
        got: Move | str = FLAT.decode(data)
    except BadMove as exc:
        got = str(exc)
    assert got == expected


# -- options -----------------------------------------------------------------------------

OPTIONS = (
    Option("tie_rule", "string", "cascade", "How ties resolve", choices=("cascade", "strict")),
    Option("variants", "integer-set", (), "Variants in play", choices=(1, 2, 3, 4)),
    Option("max_turns", "integer", 200, "Turn limit", minimum=1, maximum=1000),
    Option("hidden", "boolean", False, "Hide counts"),
)


def test_options_fill_defaults_and_validate() -> None:
    assert normalize_options(OPTIONS, None) == {
        "tie_rule": "cascade", "variants": [], "max_turns": 200, "hidden": False,
    }  # fmt: skip
    assert normalize_options(OPTIONS, {"variants": [3, 1]})["variants"] == [1, 3]


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"colour": 1}, "unknown option 'colour'"),
        ({"tie_rule": "loose"}, "must be one of"),
        ({"variants": [5]}, "allows only"),
        ({"variants": [1, 1]}, "twice"),
        ({"max_turns": 0}, "at least 1"),
        ({"max_turns": True}, "whole number"),
        ({"hidden": "yes"}, "true or false"),
    ],
)
def test_bad_options_are_refused_in_words(given: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptions, match=message):
        normalize_options(OPTIONS, given)


def test_options_schema_refuses_unknown_keys() -> None:
    schema = options_schema(OPTIONS)
    assert schema["additionalProperties"] is False
    assert schema["properties"]["tie_rule"]["enum"] == ["cascade", "strict"]
    assert schema["properties"]["variants"]["items"]["enum"] == [1, 2, 3, 4]


# -- results -----------------------------------------------------------------------------


def test_competition_ranks_share_ties() -> None:
    assert ranks_from_keys([10, 30, 10, 20]) == (3, 1, 3, 2)
    assert ranks_from_keys([(5, 1), (5, 2), (5, 1)]) == (2, 1, 2)


def test_competition_ranking_is_what_ranks_from_keys_makes() -> None:
    assert is_competition_ranking([1, 1, 3])
    assert is_competition_ranking([3, 1, 3, 2])
    assert is_competition_ranking([1])
    assert not is_competition_ranking([1, 1, 2])  # the place after a tie is skipped
    assert not is_competition_ranking([0, 1])  # 1 is the best
    assert not is_competition_ranking([1, 3])  # no gap without a tie
    assert not is_competition_ranking([2, 2])


def test_an_effect_is_stored_whole_and_shown_to_its_seats_only() -> None:
    effect = Effect("chance", "seat 0 draws", {"cards": (3, 7)}, visible_to=[0])
    assert effect.to_json() == {
        "kind": "chance",
        "text": "seat 0 draws",
        "data": {"cards": [3, 7]},
        "visible_to": [0],
    }
    assert effect.public_json(0)["data"] == {"cards": [3, 7]}
    assert "data" not in effect.public_json(1)
    assert "data" not in effect.public_json(None)


def test_result_round_trips() -> None:
    result = Result((13.0, 16.0), (2, 1), {"round_scores": [[13], [16]]})
    assert Result.from_json(result.to_json()) == result


def test_the_end_reason_stays_out_of_the_stored_result_json() -> None:
    """Verification compares a stored ``GameEnded`` result with a replay's ``to_json()``: a
    new key there would make every stored game fail, so ``termination`` is an attribute only."""
    with_reason = Result(
        (13.0, 2.0), (1, 2), {"ended_by": "13 crowns"}, Termination.THIRTEEN_CROWNS
    )
    without = Result((13.0, 2.0), (1, 2), {"ended_by": "13 crowns"})
    assert with_reason.to_json() == without.to_json()
    assert set(with_reason.to_json()) == {"scores", "ranks", "details"}
    assert with_reason == without == Result.from_json(with_reason.to_json())
    assert with_reason.termination is Termination.THIRTEEN_CROWNS


# -- seats ----------------------------------------------------------------------------------


def test_next_seat_goes_clockwise_and_skips() -> None:
    assert [next_seat(s, 4) for s in range(4)] == [1, 2, 3, 0]
    assert next_seat(3, 5, skip={4, 0}) == 1
    assert next_seat(1, 3, skip={0, 2}) == 1  # everyone else skipped: back to the same seat
    assert seats_after(2, 4) == [3, 0, 1]
    assert seats_after(0, 5, skip=[2, 3]) == [1, 4]


def test_every_game_raises_the_one_edition_data_error() -> None:
    assert BlazonDataError is SeptDataError is EditionError is EditionDataError
    assert issubclass(EditionDataError, EngineError)
    assert issubclass(EditionDataError, ValueError)  # what callers caught before


@pytest.mark.parametrize(
    ("recorded", "running", "compatible"),
    [
        ("1.0.0", "1.0.0", True),
        ("1.0.0", "1.1.0", True),
        ("1.1.0", "1.2.3", True),
        ("1.2.0", "1.1.0", False),  # an older engine may not know what the game used
        ("1.4.0", "2.0.0", False),  # a major bump changed how recorded games replay
        ("2.0.0", "1.9.9", False),
        ("toy-1", "toy-1", True),  # not X.Y.Z: only the same version
        ("toy-1", "toy-2", False),
        ("1.0", "1.0.1", False),
    ],
)
def test_replay_compatible_engine_versions(recorded: str, running: str, compatible: bool) -> None:
    assert replay_compatible(recorded, running) is compatible


def test_a_state_carries_the_engine_version_its_game_was_set_up_under() -> None:
    """The recorded version reaches the state through the setup record and survives a clone
    (even a game's own written-out clone), a move and the state's JSON; a version of another
    major is refused; a new game gets the running version."""
    game = engine.get("13-couronnes")
    record = SetupRecord("13-couronnes", "reconstructed-1", 2, {}, "v", engine_version="1.2.0")
    assert SetupRecord.from_json(record.to_json()) == record
    assert "engine_version" not in SetupRecord("13-couronnes", "reconstructed-1", 2).to_json()
    state = start(game, record)
    assert state.engine_version == "1.2.0"
    assert not rules_since(state, "1.3.0")
    assert rules_since(state, "1.2.0")
    moved = game.apply(state, 0, game.legal_moves(state, 0)[0])
    assert moved.engine_version == "1.2.0"
    assert game.state_from_json(game.state_to_json(moved)).engine_version == "1.2.0"
    assert game.new_game(players=2, seed="v").engine_version == game.engine_version
    with pytest.raises(InvalidOptions, match=r"cannot play a game recorded with engine 0\.9\.0"):
        game.new_game(players=2, seed="v", engine_version="0.9.0")
