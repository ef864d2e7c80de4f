"""Writes of the tournaments app, one module per kind of thing they change.

Every function is keyword-only, checks its input, then changes state in one transaction: a
request either happens whole or not at all. ORM rows become ``tournaments.pairing`` values
and a ``Pairing`` becomes rows in :mod:`~tournaments.services.pairing_bridge`; nothing else
here pairs. Services that act for a person take it as ``by`` and check it themselves:
creating a tournament, registering and importing players, pairing and releasing rounds and
entering results are for the organisers of the tournament's club and for staff
(``check_organiser``). ``by=None`` is Herald itself (a worker, a management command, a game's
own result), never a request: every API view passes the user who asked.

The modules, in the order a tournament needs them: ``clubs`` (clubs, members, player
accounts), ``tournaments`` (settings), ``registrations`` (entries and CSV imports),
``pairing_bridge`` (rows to and from the pure pairing layer), ``rounds``, ``results``,
``brackets``, ``stages`` and ``seasons`` (a club's seasons); ``permissions`` holds the checks on ``by`` and ``_common`` what
several of them share. Callers import from this package (``from tournaments import services``
then ``services.round_pair_next(...)``): the names below are its public API.
"""

from tournaments.services._common import BRACKET_FORMATS, PAIRED_FORMATS, POINTS_LIMIT
from tournaments.services.brackets import bracket_current
from tournaments.services.clubs import (
    club_get_or_create,
    club_member_add,
    club_named,
    club_signup,
    player_create,
    player_for_user,
)
from tournaments.services.invitations import (
    tournament_invitations_email,
    tournament_invitations_reissue,
)
from tournaments.services.pairing_bridge import PairingInputs, table_rule
from tournaments.services.permissions import check_organiser
from tournaments.services.registrations import (
    CSV_COLUMNS,
    MAX_SEED,
    ImportRow,
    import_limits,
    places_left,
    players_import_csv,
    registration_check_in,
    registration_create,
    registration_drop,
    registration_enter,
    registration_join,
    registration_join_signup,
    registration_readd,
    registration_self_check_in,
    waitlist_promote,
)
from tournaments.services.results import (
    result_confirm,
    result_decide,
    result_disagree,
    result_enter,
    result_from_stream,
    result_report,
    table_follow_stream,
    table_results_discard,
    tournament_finish_if_done,
    tournament_is_done,
    tournament_reopen,
    tournament_winner,
)
from tournaments.services.rounds import (
    BLOCKING_WARNINGS,
    FIXED_TABLE_LIMIT,
    TableEdit,
    registration_fix_table,
    round_check,
    round_confirm,
    round_pair_next,
    round_release,
    round_repair,
    round_seat_move,
    round_swap,
    table_add,
    table_edit,
    table_set_paper,
    tables_open_streams,
    tournament_set_table_mode,
)
from tournaments.services.seasons import season_create, season_update
from tournaments.services.stages import stage_cut, stage_split_groups
from tournaments.services.timers import (
    timer_extend,
    timer_pause,
    timer_reset,
    timer_resume,
    timer_start,
)
from tournaments.services.tournaments import (
    LATE_ENTRY_AWARD_REFUSAL,
    TournamentDefaults,
    tournament_create,
    tournament_defaults,
    tournament_finish,
    tournament_join_token_renew,
    tournament_settings_save,
    tournament_tables_and_points,
    tournament_update,
)

__all__ = [
    "BLOCKING_WARNINGS",
    "BRACKET_FORMATS",
    "CSV_COLUMNS",
    "FIXED_TABLE_LIMIT",
    "LATE_ENTRY_AWARD_REFUSAL",
    "MAX_SEED",
    "PAIRED_FORMATS",
    "POINTS_LIMIT",
    "ImportRow",
    "PairingInputs",
    "TableEdit",
    "TournamentDefaults",
    "bracket_current",
    "check_organiser",
    "club_get_or_create",
    "club_member_add",
    "club_named",
    "club_signup",
    "import_limits",
    "places_left",
    "player_create",
    "player_for_user",
    "players_import_csv",
    "registration_check_in",
    "registration_create",
    "registration_drop",
    "registration_enter",
    "registration_fix_table",
    "registration_join",
    "registration_join_signup",
    "registration_readd",
    "registration_self_check_in",
    "result_confirm",
    "result_decide",
    "result_disagree",
    "result_enter",
    "result_from_stream",
    "result_report",
    "round_check",
    "round_confirm",
    "round_pair_next",
    "round_release",
    "round_repair",
    "round_seat_move",
    "round_swap",
    "season_create",
    "season_update",
    "stage_cut",
    "stage_split_groups",
    "table_add",
    "table_edit",
    "table_follow_stream",
    "table_results_discard",
    "table_rule",
    "table_set_paper",
    "tables_open_streams",
    "timer_extend",
    "timer_pause",
    "timer_reset",
    "timer_resume",
    "timer_start",
    "tournament_create",
    "tournament_defaults",
    "tournament_finish",
    "tournament_finish_if_done",
    "tournament_invitations_email",
    "tournament_invitations_reissue",
    "tournament_is_done",
    "tournament_join_token_renew",
    "tournament_reopen",
    "tournament_set_table_mode",
    "tournament_settings_save",
    "tournament_tables_and_points",
    "tournament_update",
    "tournament_winner",
    "waitlist_promote",
]
