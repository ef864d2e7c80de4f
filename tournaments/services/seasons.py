"""A club's seasons: created and edited by its organisers (and staff).

A season is its club, a name, a span of dates or an explicit list of the club's tournaments,
its points by final place and its tie rule; the ranking itself is read, never stored
(``tournaments.season_pages.season_standing`` from ``tournaments.pairing.seasons``).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext

from tournaments import pairing, selectors
from tournaments.errors import InvalidInput, NotAllowed
from tournaments.models import Club, Season, Tournament
from tournaments.pairing.seasons import TIE_RULES
from tournaments.services._common import POINTS_LIMIT

#: The most places a season gives points to.
MAX_PLACES = 32


def season_create(
    *,
    club: Club,
    by: AbstractBaseUser | None,
    name: str,
    points_by_place: Sequence[float],
    tie_rule: str = "share",
    starts_on: datetime.date | None = None,
    ends_on: datetime.date | None = None,
    tournament_ids: Sequence[int] = (),
) -> Season:
    """A new season of ``club``; refused unless ``by`` organises the club."""
    _check_club_organiser(by, club)
    season = Season(club=club)
    return _season_save(
        season,
        name=name,
        points_by_place=points_by_place,
        tie_rule=tie_rule,
        starts_on=starts_on,
        ends_on=ends_on,
        tournament_ids=tournament_ids,
    )


def season_update(
    *,
    season: Season,
    by: AbstractBaseUser | None,
    name: str,
    points_by_place: Sequence[float],
    tie_rule: str = "share",
    starts_on: datetime.date | None = None,
    ends_on: datetime.date | None = None,
    tournament_ids: Sequence[int] = (),
) -> Season:
    """``season`` with new settings; refused unless ``by`` organises its club."""
    _check_club_organiser(by, season.club)
    return _season_save(
        season,
        name=name,
        points_by_place=points_by_place,
        tie_rule=tie_rule,
        starts_on=starts_on,
        ends_on=ends_on,
        tournament_ids=tournament_ids,
    )


def _check_club_organiser(by: AbstractBaseUser | None, club: Club) -> None:
    if by is None or selectors.user_organises_club(by, club):
        return
    raise NotAllowed(
        gettext("Only the organisers of {name} (or staff) set up its seasons.").format(
            name=club.name
        )
    )


def _season_save(
    season: Season,
    *,
    name: str,
    points_by_place: Sequence[float],
    tie_rule: str,
    starts_on: datetime.date | None,
    ends_on: datetime.date | None,
    tournament_ids: Sequence[int],
) -> Season:
    name = name.strip()
    if not name:
        raise InvalidInput(gettext("A season needs a name."))
    points = _checked_points(points_by_place)
    if tie_rule not in TIE_RULES:
        raise InvalidInput(gettext("Unknown tie rule {rule}.").format(rule=repr(tie_rule)))
    if starts_on and ends_on and ends_on < starts_on:
        raise InvalidInput(gettext("A season cannot end before it starts."))
    ids = sorted(set(tournament_ids))
    tournaments = list(Tournament.objects.filter(pk__in=ids, club=season.club))
    if len(tournaments) != len(ids):
        raise InvalidInput(
            gettext("A season holds only tournaments of {club}.").format(club=season.club.name)
        )
    clash = Season.objects.filter(club=season.club, name=name).exclude(pk=season.pk)
    if clash.exists():
        raise InvalidInput(
            gettext("{club} already has a season called {name}.").format(
                club=season.club.name, name=repr(name)
            )
        )
    with transaction.atomic():
        season.name = name
        season.points_by_place = list(points)
        season.tie_rule = tie_rule
        season.starts_on = starts_on
        season.ends_on = ends_on
        season.full_clean(exclude=["tournaments"])
        season.save()
        season.tournaments.set(tournaments)
    return season


def _checked_points(points_by_place: Sequence[float]) -> tuple[float, ...]:
    points = tuple(float(p) for p in points_by_place)
    if len(points) > MAX_PLACES:
        raise InvalidInput(
            gettext("A season gives points to at most {count} places.").format(count=MAX_PLACES)
        )
    if any(p > POINTS_LIMIT for p in points):
        raise InvalidInput(
            gettext("Points by place are at most {limit}.").format(limit=POINTS_LIMIT)
        )
    try:
        pairing.placement_points({}, points)
    except pairing.PairingError as refused:
        raise InvalidInput(gettext(str(refused))) from None
    return points
