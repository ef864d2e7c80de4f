"""Elimination brackets: single and double for two players, top-K knockout for tables of N.

A bracket is a list of matches; each match knows where every finishing place goes next
(:class:`Route`). Byes are slots that are never filled: a match whose known entrants are no
more than the places that go on is settled at once, and a route with nobody to send carries
the bye on. :func:`bracket_advance` applies results and settles what follows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from tournaments.pairing.types import Bracket, Match, PairingError, Route


def seeding_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket line order, so seeds 1 and 2 can only meet in the
    final and each first-round match adds up to ``size + 1``.

    >>> seeding_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, total - seed)]
    return order


def single_elimination(seeds: Sequence[int]) -> Bracket:
    """A single-elimination bracket for two-player matches.

    ``seeds`` are entrant ids, best first. The bracket is the next power of two; the missing
    places are byes and fall to the top seeds, who go straight to round 2.

    >>> bracket = single_elimination([11, 12, 13])
    >>> [(m.id, m.slots, m.result) for m in bracket.matches]
    [('W1-1', (11, None), (11,)), ('W1-2', (12, 13), None), ('W2-1', (11, None), None)]
    """
    lines, rounds = _first_round_lines(seeds)
    matches = _winners_bracket(lines, rounds, loser_routes=None, final_route=None)
    return _settled(
        Bracket(
            kind="single_elimination",
            matches=tuple(matches),
            meta=_meta(seeds, final=f"W{rounds}-1"),
        )
    )


def double_elimination(seeds: Sequence[int], *, reset: bool = False) -> Bracket:
    """A double-elimination bracket: winners' bracket, losers' bracket and a grand final.

    An entrant is out after two defeats. The loser of each winners' match drops into the
    losers' bracket (in reverse order every other round, to put off rematches); the winners'
    champion (slot 0) meets the losers' champion (slot 1) in the grand final ``GF-1``. With
    ``reset``, if the losers' champion wins it, both have lost once and ``GF-2`` decides; if
    the winners' champion wins, ``GF-2`` is settled as a bye. Byes go to the top seeds as in
    :func:`single_elimination`.
    """
    lines, rounds = _first_round_lines(seeds)
    loser_routes = _losers_routes(rounds)
    final = Route("GF-1", 0)
    matches = _winners_bracket(lines, rounds, loser_routes=loser_routes, final_route=final)
    matches.extend(_losers_bracket(rounds))
    if reset:
        matches.append(
            Match(
                id="GF-1",
                section="final",
                round=1,
                slots=(None, None),
                routes=(Route("GF-2", 0), Route("GF-2", 1)),
            )
        )
    matches.append(
        Match(
            id=_RESET_MATCH if reset else "GF-1",
            section="final",
            round=2 if reset else 1,
            slots=(None, None),
            routes=(None, None),
        )
    )
    meta = {**_meta(seeds, final=_RESET_MATCH if reset else "GF-1"), "reset": reset}
    return _settled(Bracket(kind="double_elimination", matches=tuple(matches), meta=meta))


def knockout(seeds: Sequence[int], *, table_size: int, advance: int) -> Bracket:
    """A multiplayer knockout: tables of ``table_size``, the top ``advance`` of each go on,
    until one final table.

    Entrants are dealt to the first-round tables by snake seeding (1, 2, ... then back), so
    the strongest are spread out; empty seats are byes. Qualifiers are dealt to the next
    round the same way, table winners first.
    """
    if table_size < 2 or not 1 <= advance < table_size:
        raise PairingError(
            f"A knockout needs tables of at least 2 and fewer qualifiers per table than seats "
            f"(tables of {table_size}, {advance} going through)."
        )
    _check_seeds(seeds)
    counts = _knockout_rounds(len(seeds), table_size, advance)
    matches: list[Match] = []
    for number, (entrants, tables) in enumerate(counts, start=1):
        final = number == len(counts)
        nxt = None if final else counts[number]
        matches.extend(
            _knockout_round(
                number,
                entrants=entrants,
                tables=tables,
                table_size=table_size,
                advance=advance,
                following=nxt,
                seeds=seeds,
            )
        )
    last = f"K{len(counts)}-1"
    meta = {**_meta(seeds, final=last), "table_size": table_size, "advance": advance}
    return _settled(Bracket(kind="knockout", matches=tuple(matches), meta=meta))


def bracket_advance(bracket: Bracket, results: Mapping[str, Sequence[int]]) -> Bracket:
    """The bracket with ``results`` applied (match id -> finishing order, winner first).

    An order may leave out the last place (a two-player result can name just the winner).
    Results may be given for matches whose entrants only become known from other results in
    the same call. A match already decided keeps its result: giving the same order again does
    nothing, giving another raises :class:`PairingError`.
    """
    matches = {m.id: m for m in bracket.matches}
    pending = dict(results)
    for match_id in pending:
        if match_id not in matches:
            raise PairingError(f"The bracket has no match {match_id!r}.")
    while pending:
        ready = [i for i in pending if _is_ready(matches[i]) or matches[i].result is not None]
        if not ready:
            waiting = ", ".join(sorted(pending))
            raise PairingError(f"Match(es) {waiting} are still waiting for their entrants.")
        for match_id in ready:
            _record(matches, match_id, pending.pop(match_id))
        _settle_byes(matches)
    return _rebuilt(bracket, matches)


def bracket_champion(bracket: Bracket) -> int | None:
    """The winner of the bracket's final, once decided."""
    final = bracket.match(str(bracket.meta["final"]))
    return final.result[0] if final.result else None


#: The grand-final reset of a double elimination.
_RESET_MATCH = "GF-2"


# --- construction ------------------------------------------------------------------------


def _check_seeds(seeds: Sequence[int]) -> None:
    if len(seeds) < 2:
        raise PairingError("A bracket needs at least two entrants.")
    if len(set(seeds)) != len(seeds):
        raise PairingError("An entrant appears twice in the bracket seeding.")


def _first_round_lines(seeds: Sequence[int]) -> tuple[list[int | None], int]:
    """Entrant ids (``None`` for a bye) in first-round line order, and the number of rounds."""
    _check_seeds(seeds)
    rounds = max(1, (len(seeds) - 1).bit_length())
    order = seeding_order(2**rounds)
    return [seeds[s - 1] if s <= len(seeds) else None for s in order], rounds


def _winners_bracket(
    lines: Sequence[int | None],
    rounds: int,
    *,
    loser_routes: Mapping[str, Route] | None,
    final_route: Route | None,
) -> list[Match]:
    matches: list[Match] = []
    for number in range(1, rounds + 1):
        for index in range(len(lines) >> number):
            match_id = f"W{number}-{index + 1}"
            if number < rounds:
                ahead: Route | None = Route(f"W{number + 1}-{index // 2 + 1}", index % 2)
            else:
                ahead = final_route
            behind = loser_routes.get(match_id) if loser_routes else None
            slots: tuple[int | None, ...] = (None, None)
            byes: tuple[int, ...] = ()
            if number == 1:
                slots = (lines[2 * index], lines[2 * index + 1])
                byes = tuple(s for s in (0, 1) if slots[s] is None)
            matches.append(
                Match(
                    id=match_id,
                    section="winners",
                    round=number,
                    slots=slots,
                    routes=(ahead, behind),
                    bye_slots=byes,
                )
            )
    return matches


def _losers_routes(rounds: int) -> dict[str, Route]:
    """Where the loser of each winners' match drops in the losers' bracket."""
    if rounds == 1:
        return {"W1-1": Route("GF-1", 1)}
    size = 2**rounds
    routes = {f"W1-{i + 1}": Route(f"L1-{i // 2 + 1}", i % 2) for i in range(size // 2)}
    for j in range(1, rounds):
        count = size >> (j + 1)
        for i in range(count):
            target = count - 1 - i if j % 2 else i
            routes[f"W{j + 1}-{i + 1}"] = Route(f"L{2 * j}-{target + 1}", 1)
    return routes


def _losers_bracket(rounds: int) -> list[Match]:
    size = 2**rounds
    matches: list[Match] = []
    last = 2 * (rounds - 1)
    for number in range(1, last + 1):
        j = (number + 1) // 2
        count = size >> (j + 1)
        for index in range(count):
            if number == last:
                ahead = Route("GF-1", 1)
            elif number % 2:
                ahead = Route(f"L{number + 1}-{index + 1}", 0)
            else:
                ahead = Route(f"L{number + 1}-{index // 2 + 1}", index % 2)
            matches.append(
                Match(
                    id=f"L{number}-{index + 1}",
                    section="losers",
                    round=number,
                    slots=(None, None),
                    routes=(ahead, None),
                )
            )
    return matches


def _knockout_rounds(entrants: int, table_size: int, advance: int) -> list[tuple[int, int]]:
    """(entrants, tables) per round until a single final table."""
    counts: list[tuple[int, int]] = []
    while True:
        tables = -(-entrants // table_size)
        counts.append((entrants, tables))
        if tables == 1:
            return counts
        going_on = tables * advance
        if going_on >= entrants:
            raise PairingError(
                f"A knockout of {entrants} entrants at tables of {table_size} with {advance} "
                f"going through per table would never shrink; let fewer go through per table."
            )
        entrants = going_on


def _snake(position: int, tables: int) -> tuple[int, int]:
    """(table, slot) of the ``position``-th entrant dealt by snake seeding."""
    row, column = divmod(position, tables)
    return (column if row % 2 == 0 else tables - 1 - column), row


def _knockout_round(
    number: int,
    *,
    entrants: int,
    tables: int,
    table_size: int,
    advance: int,
    following: tuple[int, int] | None,
    seeds: Sequence[int],
) -> list[Match]:
    slots: list[list[int | None]] = [[None] * table_size for _ in range(tables)]
    filled: list[set[int]] = [set() for _ in range(tables)]
    for position in range(entrants):
        table, slot = _snake(position, tables)
        filled[table].add(slot)
        if number == 1:
            slots[table][slot] = seeds[position]
    matches: list[Match] = []
    for table in range(tables):
        routes: list[Route | None] = [None] * table_size
        if following is not None:
            for rank in range(advance):
                column = table if rank % 2 == 0 else tables - 1 - table
                target, slot = _snake(rank * tables + column, following[1])
                routes[rank] = Route(f"K{number + 1}-{target + 1}", slot)
        matches.append(
            Match(
                id=f"K{number}-{table + 1}",
                section="knockout",
                round=number,
                slots=tuple(slots[table]),
                routes=tuple(routes),
                advance=1 if following is None else advance,
                bye_slots=tuple(s for s in range(table_size) if s not in filled[table]),
            )
        )
    return matches


def _meta(seeds: Sequence[int], *, final: str) -> dict[str, object]:
    return {"seeds": list(seeds), "final": final, "champion": None}


# --- settling ----------------------------------------------------------------------------


def _is_ready(match: Match) -> bool:
    """Every slot is either filled or a bye."""
    return all(e is not None or s in match.bye_slots for s, e in enumerate(match.slots))


def _settled(bracket: Bracket) -> Bracket:
    matches = {m.id: m for m in bracket.matches}
    _settle_byes(matches)
    return _rebuilt(bracket, matches)


def _settle_byes(matches: dict[str, Match]) -> None:
    """Settle every match whose entrants are all known and all go on, until none is left."""
    progress = True
    while progress:
        progress = False
        for match in list(matches.values()):
            if match.result is None and _is_ready(match) and len(match.entrants) <= match.advance:
                _decide(matches, match.id, match.entrants)
                progress = True


def _record(matches: dict[str, Match], match_id: str, order: Sequence[int]) -> None:
    match = matches[match_id]
    full = _full_order(match, order)
    if match.result is not None:
        if tuple(full) != match.result:
            raise PairingError(
                f"Match {match_id} already has a result ({', '.join(map(str, match.result))})."
            )
        return
    _decide(matches, match_id, full)


def _full_order(match: Match, order: Sequence[int]) -> list[int]:
    entrants = match.entrants
    if len(set(order)) != len(order) or not set(order) <= set(entrants):
        raise PairingError(
            f"The result of match {match.id} must list its entrants "
            f"({', '.join(map(str, entrants))}) once each, winner first."
        )
    missing = [e for e in entrants if e not in order]
    if len(missing) > 1:
        raise PairingError(
            f"The result of match {match.id} leaves out {len(missing)} entrants; "
            "only the last place may be left out."
        )
    return [*order, *missing]


def _decide(matches: dict[str, Match], match_id: str, order: Sequence[int]) -> None:
    """Record a finishing order and send each place along its route (byes where nobody is)."""
    match = matches[match_id]
    matches[match_id] = replace(match, result=tuple(order))
    if match.routes and match.routes[0] == Route(_RESET_MATCH, 0) and order[0] == match.slots[0]:
        # The winners' champion won the grand final: no reset match is needed.
        matches[_RESET_MATCH] = replace(
            matches[_RESET_MATCH], slots=(order[0], None), bye_slots=(1,)
        )
        return
    for place, route in enumerate(match.routes):
        if route is None:
            continue
        target = matches[route.match]
        if place < len(order):
            slots = list(target.slots)
            slots[route.slot] = order[place]
            matches[route.match] = replace(target, slots=tuple(slots))
        else:
            byes = tuple(sorted({*target.bye_slots, route.slot}))
            matches[route.match] = replace(target, bye_slots=byes)


def _rebuilt(bracket: Bracket, matches: Mapping[str, Match]) -> Bracket:
    ordered = tuple(matches[m.id] for m in bracket.matches)
    final = matches[str(bracket.meta["final"])]
    champion = final.result[0] if final.result else None
    return replace(bracket, matches=ordered, meta={**bracket.meta, "champion": champion})
