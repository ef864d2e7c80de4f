"""Stages of a tournament: the current one, groups dealt before it starts, and the cut
that sends the best players on to a bracket stage (a "stages" night's playoff)."""

from __future__ import annotations

from collections import Counter

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext

from tournaments import live, pairing, selectors
from tournaments.errors import InvalidInput, ResultsMissing, WrongState
from tournaments.models import Format, Round, Stage, Tournament
from tournaments.services._common import (
    BRACKET_FORMATS,
    PAIRED_FORMATS,
    name_tables,
    next_round_number,
)
from tournaments.services.brackets import bracket_build, bracket_seeds
from tournaments.services.permissions import check_organiser


def current_stage(tournament: Tournament) -> Stage:
    """The tournament's latest stage (one is created for a tournament that has none)."""
    stage = tournament.stages.order_by("-order").first()
    if stage is None:
        fmt = tournament.format if tournament.format != Format.STAGES else Format.SWISS
        stage = Stage.objects.create(tournament=tournament, order=1, format=fmt)
    return stage


@transaction.atomic
def stage_cut(
    *,
    tournament: Tournament,
    top: int,
    format: str,
    advance: int | None = None,
    by: AbstractBaseUser | None = None,
) -> Stage:
    """End the current stage and send its ``top`` players (the ``top`` of each group, when
    it was dealt into groups) to a new bracket stage, seeded by the standings (the best is
    seed 1). ``by`` must run the tournament."""
    check_organiser(by, tournament, gettext("make the cut"))
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise WrongState(gettext("{name} is finished.").format(name=tournament.name))
    if format not in BRACKET_FORMATS:
        raise InvalidInput(
            gettext("A cut leads to a bracket: choose one of {join}.").format(
                join=", ".join(sorted(BRACKET_FORMATS))
            )
        )
    if tournament.rounds.filter(state=Round.State.DRAFT).exists():
        raise WrongState(
            gettext("A round is still a draft: confirm it or re-pair it before the cut.")
        )
    missing = selectors.tables_missing_results(tournament)
    if missing:
        raise ResultsMissing(
            gettext("Results are missing for {name_tables}.").format(
                name_tables=name_tables(missing)
            )
        )
    active = {
        r.id for r in selectors.active_registrations(tournament, next_round_number(tournament))
    }
    current = current_stage(tournament)
    if current.format in BRACKET_FORMATS:
        raise WrongState(
            gettext("The cut is made: the bracket {name} is being played.").format(
                name=repr(current.name)
            )
        )
    if top < 2:
        raise InvalidInput(gettext("A cut sends at least 2 players to the bracket."))
    groups = {int(reg): name for reg, name in current.groups.items()} or None
    rows = [
        row
        for row in selectors.standings_rows(tournament)
        if row.entrant in active and (groups is None or row.entrant in groups)
    ]
    _check_cut_size(rows, top, groups)
    try:
        seeds = pairing.cut(rows, top=top, groups=groups)
    except pairing.PairingError as exc:
        raise InvalidInput(str(exc)) from None
    stage = Stage.objects.create(
        tournament=tournament,
        order=current.order + 1,
        name="Playoffs",
        format=format,
        cut_top=top,
        advance=advance,
    )
    stage.bracket = bracket_build(stage, seeds).to_json()
    stage.save(update_fields=["bracket"])
    live.announce(tournament.id, "round")
    return stage


def _check_cut_size(
    rows: list[pairing.StandingRow], top: int, groups: dict[int, str] | None
) -> None:
    """Refuse, in words, a cut that asks for more players than there are (in a group)."""
    if groups is None:
        if top > len(rows):
            raise InvalidInput(
                gettext("Only {count} players are still playing: a cut cannot send {top}.").format(
                    count=len(rows), top=top
                )
            )
        return
    sizes = Counter(groups[row.entrant] for row in rows)
    short = sorted(name for name, size in sizes.items() if size < top)
    if short:
        raise InvalidInput(
            gettext("Group {groups} has fewer than {top} players still playing.").format(
                groups=", ".join(short), top=top
            )
        )


@transaction.atomic
def stage_split_groups(
    *, tournament: Tournament, groups: int, by: AbstractBaseUser | None = None
) -> Stage:
    """Deal the checked-in players into ``groups`` groups by snake seeding (before round 1):
    each group is paired on its own, then :func:`stage_cut` takes the best of each group.
    One group deals nobody apart (everyone plays everyone's group). ``by`` must run it."""
    check_organiser(by, tournament, gettext("deal the groups"))
    stage = current_stage(tournament)
    if stage.rounds.exists():
        raise WrongState(
            gettext("The stage {name} has begun: groups are set before its first round.").format(
                name=repr(stage.name)
            )
        )
    if stage.format not in PAIRED_FORMATS:
        raise InvalidInput(gettext("Groups are played as Swiss or round robin, not as a bracket."))
    seeds = bracket_seeds(tournament, next_round_number(tournament))
    if groups < 1 or groups > max(1, len(seeds) // tournament.table_preferred):
        raise InvalidInput(
            gettext(
                "{len} checked-in players make at most {max} groups of "
                "{table_preferred}, not {groups}."
            ).format(
                len=len(seeds),
                max=max(1, len(seeds) // tournament.table_preferred),
                table_preferred=tournament.table_preferred,
                groups=groups,
            )
        )
    dealt = pairing.split_groups(seeds, groups)
    stage.groups = (
        {}
        if groups == 1
        else {
            str(reg): chr(ord("A") + index)
            for index, members in enumerate(dealt)
            for reg in members
        }
    )
    stage.save(update_fields=["groups"])
    live.announce(tournament.id, "registrations")
    return stage
