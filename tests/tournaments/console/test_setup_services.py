"""The setup part's services: the game's defaults, the settings with the check-in window and
the cap, the waitlist, re-adding a dropped player, the join link and self check-in."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from tests.tournaments.factories import PlayerFactory, UserFactory, make_tournament
from tournaments import selectors, services
from tournaments.errors import InvalidInput, NotAllowed, WrongState
from tournaments.models import Club, Registration, Tournament

pytestmark = pytest.mark.django_db


def register(tournament: Tournament, club: Club, name: str, **kw: Any) -> Registration:
    player = PlayerFactory(display_name=name, club=club, user__username=name.lower())
    return services.registration_create(tournament=tournament, player=player, **kw)


def test_the_defaults_are_what_create_fills_in(organiser: Any, club: Club) -> None:
    defaults = services.tournament_defaults(game_id="13-couronnes")
    assert defaults.table_preferred == 4
    assert defaults.table_allowed == (3, 4, 5)
    assert defaults.points_by_rank == (4.0, 3.0, 2.0, 1.0, 0.0)
    assert defaults.tiebreakers == ("opponents_points", "game_score")
    assert [o.name for o in defaults.option_specs] == ["max_turns", "hidden_crowns"]
    made = services.tournament_create(
        name="Jeudi", game_id="13-couronnes", organiser=organiser, club=club
    )
    assert made.table_allowed == list(defaults.table_allowed)
    assert made.points_by_rank == list(defaults.points_by_rank)
    assert made.bye_points == defaults.bye_points
    assert made.options == dict(defaults.options)
    assert made.join_token  # every new tournament has its join link


def test_elimination_defaults_to_tables_of_two() -> None:
    defaults = services.tournament_defaults(game_id="blazon", format="single_elimination")
    assert (defaults.table_preferred, defaults.table_allowed) == (2, (2,))
    assert defaults.points_by_rank == (1.0, 0.0)


def test_unknown_games_and_formats_are_refused() -> None:
    with pytest.raises(InvalidInput):
        services.tournament_defaults(game_id="chess")
    with pytest.raises(InvalidInput):
        services.tournament_defaults(game_id="blazon", format="ladder")


def test_settings_save_keeps_the_window_and_refuses_a_backwards_one(
    organiser: Any, tournament: Tournament
) -> None:
    opens = timezone.now() + dt.timedelta(hours=1)
    services.tournament_settings_save(
        tournament=tournament,
        by=organiser,
        check_in_opens_at=opens,
        check_in_closes_at=opens + dt.timedelta(hours=1),
        player_cap=None,
        spectator_delay=3,
    )
    tournament.refresh_from_db()
    assert tournament.check_in_opens_at == opens
    assert tournament.spectator_delay == 3
    with pytest.raises(InvalidInput, match="close after it opens"):
        services.tournament_settings_save(
            tournament=tournament,
            by=organiser,
            check_in_opens_at=opens,
            check_in_closes_at=opens - dt.timedelta(minutes=1),
            player_cap=None,
            name="Renamed",
        )
    tournament.refresh_from_db()
    assert tournament.name != "Renamed"  # nothing of a refused save is kept


def test_a_member_may_not_change_the_settings(club: Club, tournament: Tournament) -> None:
    member = UserFactory(username="member")
    services.club_member_add(club=club, user=member)
    with pytest.raises(NotAllowed):
        services.tournament_settings_save(
            tournament=tournament,
            by=member,
            check_in_opens_at=None,
            check_in_closes_at=None,
            player_cap=2,
        )
    with pytest.raises(NotAllowed):
        services.tournament_join_token_renew(tournament=tournament, by=member)


def test_beyond_the_cap_players_wait_in_order_and_a_drop_promotes_the_first(
    organiser: Any, club: Club, tournament: Tournament
) -> None:
    services.tournament_settings_save(
        tournament=tournament,
        by=organiser,
        check_in_opens_at=None,
        check_in_closes_at=None,
        player_cap=2,
    )
    ana, bob = register(tournament, club, "Ana"), register(tournament, club, "Bob")
    cyd, dan = register(tournament, club, "Cyd"), register(tournament, club, "Dan")
    assert [r.waitlisted for r in (ana, bob, cyd, dan)] == [False, False, True, True]
    for reg in (ana, bob, cyd, dan):
        services.registration_check_in(registration=reg, by=organiser)
    assert {r.pk for r in selectors.active_registrations(tournament, 1)} == {ana.pk, bob.pk}
    services.registration_drop(registration=bob, by=organiser)
    cyd.refresh_from_db()
    dan.refresh_from_db()
    assert (cyd.waitlisted, dan.waitlisted) == (False, True)
    services.tournament_settings_save(
        tournament=tournament,
        by=organiser,
        check_in_opens_at=None,
        check_in_closes_at=None,
        player_cap=3,
    )
    dan.refresh_from_db()
    assert not dan.waitlisted


def test_a_csv_beyond_the_cap_waitlists_its_last_lines(
    organiser: Any, tournament: Tournament
) -> None:
    tournament.player_cap = 2
    tournament.save()
    text = "display_name,username\nAna,ana\nBob,bob\nCyd,cyd\n"
    regs = services.players_import_csv(tournament=tournament, text=text, by=organiser)
    assert [(r.player.display_name, r.waitlisted) for r in regs] == [
        ("Ana", False),
        ("Bob", False),
        ("Cyd", True),
    ]


def test_re_adding_undoes_a_drop_and_refuses_a_player_still_in(
    organiser: Any, club: Club, tournament: Tournament
) -> None:
    ana = register(tournament, club, "Ana")
    with pytest.raises(WrongState, match="has not dropped out"):
        services.registration_readd(registration=ana, by=organiser)
    services.registration_drop(registration=ana, by=organiser)
    back = services.registration_readd(registration=ana, by=organiser)
    assert not back.is_dropped
    assert back.checked_in
    assert back.late_entry_round is None  # no round was played: nothing missed


def test_re_adding_is_for_organisers(club: Club, organiser: Any, tournament: Tournament) -> None:
    ana = register(tournament, club, "Ana")
    services.registration_drop(registration=ana, by=organiser)
    with pytest.raises(NotAllowed):
        services.registration_readd(registration=ana, by=ana.player.user)
    ana.refresh_from_db()
    assert ana.is_dropped


def test_the_join_link_registers_a_player_and_a_new_link_voids_the_old(
    organiser: Any, tournament: Tournament
) -> None:
    outsider = UserFactory(username="walkin")
    reg = services.registration_join(
        tournament=tournament, token=tournament.join_token, by=outsider
    )
    assert reg.player.user == outsider
    assert selectors.club_role(outsider, tournament.club) == "member"
    with pytest.raises(InvalidInput, match="already registered"):
        services.registration_join(tournament=tournament, token=tournament.join_token, by=outsider)
    old = tournament.join_token
    services.tournament_join_token_renew(tournament=tournament, by=organiser)
    with pytest.raises(NotAllowed, match="not \\(or no longer\\) valid"):
        services.registration_join(tournament=tournament, token=old, by=UserFactory())


def test_sign_up_by_the_link_only_where_the_club_takes_sign_ups(
    club: Club, tournament: Tournament
) -> None:
    fields = {"username": "newbie", "display_name": "Newbie", "password": "a-long-pass-9"}
    with pytest.raises(NotAllowed, match="does not take sign-ups"):
        services.registration_join_signup(
            tournament=tournament, token=tournament.join_token, **fields
        )
    assert not Registration.objects.filter(player__user__username="newbie").exists()
    club.allow_signup = True
    club.save()
    reg = services.registration_join_signup(
        tournament=tournament, token=tournament.join_token, **fields
    )
    assert reg.player.display_name == "Newbie"


def test_self_check_in_only_while_the_window_is_open(
    organiser: Any, club: Club, tournament: Tournament
) -> None:
    ana = register(tournament, club, "Ana")
    later = timezone.now() + dt.timedelta(hours=2)
    tournament.check_in_opens_at = later
    tournament.save()
    with pytest.raises(WrongState, match="Check-in opens on"):
        services.registration_self_check_in(tournament=tournament, by=ana.player.user)
    ana.refresh_from_db()
    assert not ana.checked_in
    tournament.check_in_opens_at = timezone.now() - dt.timedelta(hours=1)
    tournament.save()
    services.registration_self_check_in(tournament=tournament, by=ana.player.user)
    ana.refresh_from_db()
    assert ana.checked_in
    with pytest.raises(NotAllowed, match="not registered"):
        services.registration_self_check_in(tournament=tournament, by=organiser)


def test_the_late_entry_preview_follows_the_bye_policy(
    organiser: Any, club: Club, tournament: Tournament
) -> None:
    assert selectors.late_entry_now(tournament) is None
    for name in ("Ana", "Bob", "Cyd", "Dan"):
        register(tournament, club, name, checked_in=True)
    services.tournament_update(tournament=tournament, late_entry_award="half_bye")
    round_ = services.round_pair_next(tournament=tournament, by=organiser)
    tournament.refresh_from_db()
    late = selectors.late_entry_now(tournament)
    assert late is not None
    # Round 1 is still a draft: a player entered now plays in it and misses nothing.
    assert (late.first_round, late.rounds_missed, late.points) == (1, 0, 0)
    services.round_confirm(round_=round_)
    late = selectors.late_entry_now(tournament)
    assert late is not None
    # Half of the 2 bye points for round 1, missed.
    assert (late.first_round, late.rounds_missed, late.points) == (2, 1, 1.0)
    entrant = register(tournament, club, "Eve")
    assert entrant.late_entry_round == 2


def test_make_tournament_fixture_still_works(organiser: Any, club: Club) -> None:
    made = make_tournament(organiser=organiser, club=club, player_cap=10)
    assert made.player_cap == 10
