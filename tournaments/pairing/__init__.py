"""Pure pairing engines: Swiss and round-robin draws, brackets, cuts and standings.

This package is the single import point for the tournament services. It imports nothing from
Django: it works on the plain values in :mod:`tournaments.pairing.types` and returns new ones.

Entry points:

* :func:`pair_round` — the factory: ``fmt`` is ``"swiss"`` or ``"round_robin"``; options are
  declared with defaults in :data:`FORMAT_OPTIONS` and unknown keys are refused.
* :func:`table_sizes` — how ``n`` players split into tables under a :class:`TableRule`.
* :func:`check_tables` — the rules a hand-edited draft breaks, as :class:`DrawWarning` values
  (seat positions unbalanced among them: :func:`check_seat_balance`);
  :func:`check_results_missing` — earlier tables a draw made anyway counts for nothing.
* :func:`single_elimination`, :func:`double_elimination`, :func:`knockout`,
  :func:`bracket_advance`, :func:`bracket_champion` — brackets a page can draw (``Bracket.to_json()``).
* :func:`split_groups`, :func:`cut` — groups then a cut to a bracket.
* :func:`standings` — points by finishing rank and ordered tie-breakers.
* :func:`season_ranking` — a club's players over a season, by placement points.

Warnings (``Pairing.warnings`` and :func:`check_tables`) are :class:`DrawWarning` values with a
``code``, the ``entrants`` concerned and a sentence template: ``w.render(names)`` puts names in,
``str(w)`` says "entrant <id>". Randomness comes only from the seed, through the engine's
SHA-256 generator (:mod:`engine.core.rng`), so a draw replays identically anywhere.
"""

from tournaments.pairing.brackets import (
    bracket_advance,
    bracket_champion,
    double_elimination,
    knockout,
    seeding_order,
    single_elimination,
)
from tournaments.pairing.checks import check_results_missing, check_seat_balance, check_tables
from tournaments.pairing.draw import measure_tables
from tournaments.pairing.factory import FORMAT_OPTIONS, FORMATS, pair_round
from tournaments.pairing.seasons import (
    SeasonRow,
    SeasonTournament,
    parse_numbers,
    parse_points,
    placement_points,
    season_ranking,
)
from tournaments.pairing.sizes import table_sizes
from tournaments.pairing.stages import cut, split_groups
from tournaments.pairing.standings import TIEBREAKERS, standings
from tournaments.pairing.types import (
    Bracket,
    DrawWarning,
    Entrant,
    GameRecord,
    History,
    Match,
    Pairing,
    PairingBug,
    PairingError,
    Route,
    StandingRow,
    StandingRule,
    TableRule,
)

__all__ = [
    "FORMATS",
    "FORMAT_OPTIONS",
    "TIEBREAKERS",
    "Bracket",
    "DrawWarning",
    "Entrant",
    "GameRecord",
    "History",
    "Match",
    "Pairing",
    "PairingBug",
    "PairingError",
    "Route",
    "SeasonRow",
    "SeasonTournament",
    "StandingRow",
    "StandingRule",
    "TableRule",
    "bracket_advance",
    "bracket_champion",
    "check_results_missing",
    "check_seat_balance",
    "check_tables",
    "cut",
    "double_elimination",
    "knockout",
    "measure_tables",
    "pair_round",
    "parse_numbers",
    "parse_points",
    "placement_points",
    "season_ranking",
    "seeding_order",
    "single_elimination",
    "split_groups",
    "standings",
    "table_sizes",
]
