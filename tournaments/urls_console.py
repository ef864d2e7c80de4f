"""The organiser's console, mounted at /tournaments/<id>/console/ in the
``tournament-pages`` namespace (see ``tournaments.console``). Each part adds its own lines."""

from django.urls import URLPattern, URLResolver, path

from tournaments.console import hub, results, rounds, screen, setup

urlpatterns: list[URLPattern | URLResolver] = [
    path("", hub.hub, name="console"),
    path("screen/timer/", screen.timer, name="console-screen-timer"),
    path("screen/timer/fragment", screen.timer_fragment, name="console-screen-timer-fragment"),
    # setup: settings, registration, the join link and its poster
    path("settings/", setup.settings, name="console-setup-settings"),
    path("players/", setup.players, name="console-setup-players"),
    path("players/add/", setup.player_add, name="console-setup-player-add"),
    path("players/import/", setup.players_import, name="console-setup-import"),
    path(
        "players/<int:reg>/<str:action>/",
        setup.registration_action,
        name="console-setup-registration",
    ),
    path("join-link/", setup.join_link_renew, name="console-setup-join-renew"),
    path("poster/", setup.poster, name="console-setup-poster"),
    # rounds: pair, the draft, swaps and moves, Herald or paper, confirm, publish
    path("rounds/pair/", rounds.pair, name="console-rounds-pair"),
    path("rounds/table-mode/", rounds.table_mode, name="console-rounds-table-mode"),
    path("rounds/fixed-table/", rounds.fixed_table, name="console-rounds-fixed-table"),
    # a stages night: the groups before round 1, the cut to the playoff after them
    path("rounds/groups/", rounds.groups, name="console-rounds-groups"),
    path("rounds/cut/", rounds.cut, name="console-rounds-cut"),
    path("rounds/<int:number>/", rounds.round_page, name="console-rounds-round"),
    path("rounds/<int:number>/swap/", rounds.swap, name="console-rounds-swap"),
    path("rounds/<int:number>/move/", rounds.move, name="console-rounds-move"),
    path("rounds/<int:number>/repair/", rounds.repair, name="console-rounds-repair"),
    path("rounds/<int:number>/tables/", rounds.add_table, name="console-rounds-add-table"),
    path(
        "rounds/<int:number>/tables/<int:table>/paper/",
        rounds.paper,
        name="console-rounds-paper",
    ),
    path("rounds/<int:number>/confirm/", rounds.confirm, name="console-rounds-confirm"),
    path("rounds/<int:number>/publish/", rounds.publish, name="console-rounds-publish"),
    # results: the round's results, corrections, decisions, reopening, slips
    path("results/", results.results, name="console-results"),
    path("results/fragment", results.results_live, name="console-results-live"),
    path("results/reopen/", results.reopen, name="console-results-reopen"),
    path(
        "results/tables/<int:table_pk>/enter/", results.result_enter, name="console-results-enter"
    ),
    path(
        "results/tables/<int:table_pk>/decide/<int:result_pk>/",
        results.result_decide,
        name="console-results-decide",
    ),
    path("results/slips/<int:number>/", results.slips, name="console-results-slips"),
]
