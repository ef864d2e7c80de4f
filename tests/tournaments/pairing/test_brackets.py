"""Brackets: seeding, byes to top seeds, results flowing through, knockout, JSON for pages."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from engine.core.rng import Rng
from tournaments.pairing import (
    Bracket,
    PairingError,
    bracket_advance,
    double_elimination,
    knockout,
    single_elimination,
)
from tournaments.pairing.brackets import bracket_champion, seeding_order

Order = Callable[[Sequence[int]], list[int]]


def favourites(entrants: Sequence[int]) -> list[int]:
    """The lower id (the better seed in these tests) always wins."""
    return sorted(entrants)


def upsets(seed: str) -> Order:
    rng = Rng(seed)
    return lambda entrants: rng.shuffled(list(entrants))


def playable(bracket: Bracket) -> list[str]:
    return [
        m.id
        for m in bracket.matches
        if m.result is None
        and all(e is not None or s in m.bye_slots for s, e in enumerate(m.slots))
    ]


def play_out(bracket: Bracket, order: Order = favourites) -> Bracket:
    while ready := playable(bracket):
        bracket = bracket_advance(bracket, {i: order(bracket.match(i).entrants) for i in ready})
    return bracket


def test_seeding_order_keeps_top_seeds_apart() -> None:
    assert seeding_order(2) == [1, 2]
    assert seeding_order(4) == [1, 4, 2, 3]
    order = seeding_order(16)
    assert order.index(1) < 8 <= order.index(2)
    assert all(order[i] + order[i + 1] == 17 for i in range(0, 16, 2))


@pytest.mark.parametrize(("entrants", "byes"), [(5, 3), (6, 2), (8, 0), (13, 3), (2, 0)])
def test_single_elimination_gives_byes_to_top_seeds(entrants: int, byes: int) -> None:
    seeds = list(range(1, entrants + 1))
    bracket = single_elimination(seeds)
    bye_matches = [m for m in bracket.matches if m.round == 1 and m.bye_slots]
    assert len(bye_matches) == byes
    assert sorted(m.entrants[0] for m in bye_matches) == seeds[:byes]
    assert all(m.result == m.entrants for m in bye_matches)
    done = play_out(bracket)
    final = done.match(str(done.meta["final"]))
    assert final.entrants == (1, 2)
    assert bracket_champion(done) == 1
    assert done.meta["champion"] == 1


@pytest.mark.parametrize("entrants", [3, 5, 6, 8, 13])
def test_double_elimination_puts_everyone_but_the_champion_out_after_two_losses(
    entrants: int,
) -> None:
    seeds = list(range(1, entrants + 1))
    for seed in ("a", "b", "c"):
        done = play_out(double_elimination(seeds), upsets(seed))
        champion = bracket_champion(done)
        assert champion in seeds
        losses: Counter[int] = Counter()
        for match in done.matches:
            assert match.result is not None, match
            if len(match.result) == 2:
                losses[match.result[1]] += 1
        grand_final = done.match("GF-1")
        assert grand_final.result is not None
        for entrant in seeds:
            if entrant == champion:
                assert losses[entrant] <= 1
            elif entrant == grand_final.result[1]:
                assert losses[entrant] in (1, 2)
            else:
                assert losses[entrant] == 2, (entrant, losses)


def test_double_elimination_with_favourites_ends_in_a_final_of_the_top_two() -> None:
    done = play_out(double_elimination(list(range(1, 14))))
    assert done.match("GF-1").result == (1, 2)
    assert bracket_champion(done) == 1


def test_grand_final_reset_is_played_only_when_the_losers_champion_wins() -> None:
    bracket = double_elimination([1, 2, 3, 4], reset=True)
    to_final = {"W1-1": [1], "W1-2": [2], "W2-1": [1], "L1-1": [4], "L2-1": [2]}
    before = bracket_advance(bracket, to_final)
    assert before.match("GF-1").slots == (1, 2)
    kept = bracket_advance(before, {"GF-1": [1]})
    assert kept.match("GF-2").is_bye
    assert bracket_champion(kept) == 1
    upset = bracket_advance(before, {"GF-1": [2]})
    assert upset.match("GF-2").slots == (2, 1)
    assert bracket_champion(upset) is None
    assert bracket_champion(bracket_advance(upset, {"GF-2": [1]})) == 1


def test_knockout_sends_the_top_k_of_each_table_on() -> None:
    bracket = knockout(list(range(1, 14)), table_size=4, advance=2)
    first = [m for m in bracket.matches if m.round == 1]
    assert [m.entrants for m in first] == [(1, 8, 9), (2, 7, 10), (3, 6, 11), (4, 5, 12, 13)]
    assert [m.round for m in bracket.matches] == [1, 1, 1, 1, 2, 2, 3]
    bracket = bracket_advance(bracket, {"K1-1": [9, 8, 1], "K1-4": [5, 4, 13, 12]})
    assert bracket.match("K2-1").entrants == (9, 5, 4, 8)
    done = play_out(bracket)
    assert bracket_champion(done) == 2
    assert set(done.match("K3-1").entrants) == {2, 3, 4, 5}


def test_knockout_byes_settle_small_tables() -> None:
    bracket = knockout([1, 2, 3, 4, 5], table_size=3, advance=1)
    first = [m for m in bracket.matches if m.round == 1]
    assert [m.entrants for m in first] == [(1, 4, 5), (2, 3)]
    assert bracket_champion(play_out(bracket)) == 1


def test_knockout_that_cannot_shrink_is_refused() -> None:
    with pytest.raises(PairingError, match="never shrink"):
        knockout([1, 2, 3, 4, 5], table_size=4, advance=3)
    with pytest.raises(PairingError, match="fewer qualifiers per table than seats"):
        knockout([1, 2, 3], table_size=3, advance=3)


def test_results_are_checked() -> None:
    bracket = single_elimination([1, 2, 3, 4])
    with pytest.raises(PairingError, match="no match 'W9-1'"):
        bracket_advance(bracket, {"W9-1": [1]})
    with pytest.raises(PairingError, match="must list its entrants"):
        bracket_advance(bracket, {"W1-1": [1, 3]})
    with pytest.raises(PairingError, match="still waiting"):
        bracket_advance(bracket, {"W2-1": [1, 2]})
    played = bracket_advance(bracket, {"W1-1": [4]})
    assert played.match("W2-1").slots == (4, None)
    assert bracket_advance(played, {"W1-1": [4, 1]}) == played
    with pytest.raises(PairingError, match="already has a result"):
        bracket_advance(played, {"W1-1": [1, 4]})


def test_results_can_chain_in_one_call() -> None:
    bracket = single_elimination([1, 2, 3, 4])
    done = bracket_advance(bracket, {"W2-1": [3], "W1-1": [1], "W1-2": [3]})
    assert bracket_champion(done) == 3


def test_brackets_need_distinct_entrants() -> None:
    with pytest.raises(PairingError, match="at least two"):
        single_elimination([1])
    with pytest.raises(PairingError, match="appears twice"):
        double_elimination([1, 2, 2])


def test_a_bracket_is_json_a_page_can_draw() -> None:
    data = single_elimination([10, 20, 30, 40, 50]).to_json()
    text = json.dumps(data)
    assert json.loads(text) == data
    assert data["kind"] == "single_elimination"
    assert [r["round"] for r in data["rounds"]] == [1, 2, 3]
    first = data["rounds"][0]["matches"][0]
    assert first["slots"] == [10, None]
    assert first["bye_slots"] == [1]
    assert first["routes"][0] == {"match": "W2-1", "slot": 0}
    double = double_elimination([1, 2, 3, 4]).to_json()
    assert [(r["section"], r["round"]) for r in double["rounds"]] == [
        ("winners", 1),
        ("winners", 2),
        ("losers", 1),
        ("losers", 2),
        ("final", 1),
    ]
