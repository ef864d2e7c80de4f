"""The tournaments API (mounted under /api/v1/): one view per operation, services do the work.

Reads are public. Only the organisers of a tournament's club (or staff) create or change it;
a seated player reports and confirms their own table's result. The services check the user
they are given too; service errors leave as the contract's error body.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import selectors, services
from tournaments.errors import NotAllowed
from tournaments.models import Registration, Result, Round, Table, Tournament
from tournaments.serializers import (
    CheckInIn,
    CutIn,
    GroupsIn,
    ImportIn,
    PairIn,
    RegistrationIn,
    RegistrationOut,
    ResultIn,
    ResultOut,
    RoundOut,
    RoundSummaryOut,
    StageOut,
    StandingOut,
    TableAddIn,
    TableEditIn,
    TableEditOut,
    TableOut,
    TournamentIn,
    TournamentOut,
    TournamentPatchIn,
)

ERRORS = {
    400: OpenApiResponse(description="Invalid input: `{error, detail}`."),
    403: OpenApiResponse(description="Not the organiser, or not seated at this table."),
    404: OpenApiResponse(description="No such object."),
    409: OpenApiResponse(description="Wrong state, results missing, or a result conflict."),
}


class TournamentView(APIView):
    """Base view: reads a validated body; service errors leave by herald's exception handler."""

    def body(self, serializer_class: type, request: Request) -> dict[str, Any]:
        serializer = serializer_class(data=request.data)
        serializer.is_valid(raise_exception=True)
        data: dict[str, Any] = serializer.validated_data
        return data


def require_organiser(
    request: Request, tournament: Tournament, action: str = "change the tournament"
) -> None:
    """The door for changes: the organisers of the tournament's club and staff pass."""
    services.check_organiser(request.user, tournament, action)


# -- tournaments -------------------------------------------------------------------------------
class TournamentListView(TournamentView):
    @extend_schema(responses=TournamentOut(many=True), summary="List tournaments")
    def get(self, request: Request) -> Response:
        tournaments = Tournament.objects.select_related("club").prefetch_related("organisers")
        return Response(TournamentOut(tournaments, many=True).data)

    @extend_schema(
        request=TournamentIn,
        responses={201: TournamentOut, **ERRORS},
        summary="Create a tournament for a club the caller organises (staff: any, or none)",
    )
    def post(self, request: Request) -> Response:
        data = self.body(TournamentIn, request)
        club_name = data.pop("club", "")
        tournament = services.tournament_create(
            organiser=request.user,
            game_id=data.pop("game"),
            club=services.club_named(name=club_name, by=request.user) if club_name else None,
            **data,
        )
        return Response(TournamentOut(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(TournamentView):
    @extend_schema(responses={200: TournamentOut, 404: ERRORS[404]}, summary="A tournament")
    def get(self, request: Request, pk: int) -> Response:
        return Response(TournamentOut(get_object_or_404(Tournament, pk=pk)).data)

    @extend_schema(
        request=TournamentPatchIn,
        responses={200: TournamentOut, **ERRORS},
        summary="Change names, table sizes, points, tie-breakers, bye points or planned rounds",
    )
    def patch(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        require_organiser(request, tournament)
        data = self.body(TournamentPatchIn, request)
        return Response(
            TournamentOut(services.tournament_update(tournament=tournament, **data)).data
        )


class TournamentFinishView(TournamentView):
    @extend_schema(request=None, responses={200: TournamentOut, **ERRORS}, summary="Finish")
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        require_organiser(request, tournament)
        return Response(TournamentOut(services.tournament_finish(tournament=tournament)).data)


# -- registrations -----------------------------------------------------------------------------
class RegistrationListView(TournamentView):
    @extend_schema(responses=RegistrationOut(many=True), summary="Registrations")
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        regs = tournament.registrations.select_related("player__user", "player__club")
        return Response(RegistrationOut(regs, many=True).data)

    @extend_schema(
        request=RegistrationIn,
        responses={201: RegistrationOut, **ERRORS},
        summary="Register a player (a late entry once the tournament runs)",
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        require_organiser(request, tournament, "register players")
        data = self.body(RegistrationIn, request)
        reg = services.registration_enter(tournament=tournament, by=request.user, **data)
        return Response(RegistrationOut(reg).data, status=status.HTTP_201_CREATED)


class RegistrationImportView(TournamentView):
    @extend_schema(
        request=ImportIn,
        responses={201: RegistrationOut(many=True), **ERRORS},
        summary="Import players from CSV: every row or none",
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        require_organiser(request, tournament, "import players")
        text = self.body(ImportIn, request)["csv"]
        regs = services.players_import_csv(tournament=tournament, text=text, by=request.user)
        return Response(RegistrationOut(regs, many=True).data, status=status.HTTP_201_CREATED)


class RegistrationCheckInView(TournamentView):
    @extend_schema(
        request=CheckInIn, responses={200: RegistrationOut, **ERRORS}, summary="Check in"
    )
    def post(self, request: Request, pk: int) -> Response:
        reg = get_object_or_404(Registration.objects.select_related("tournament"), pk=pk)
        require_organiser(request, reg.tournament)
        checked_in = self.body(CheckInIn, request)["checked_in"]
        reg = services.registration_check_in(registration=reg, checked_in=checked_in)
        return Response(RegistrationOut(reg).data)


class RegistrationDropView(TournamentView):
    @extend_schema(request=None, responses={200: RegistrationOut, **ERRORS}, summary="Drop")
    def post(self, request: Request, pk: int) -> Response:
        reg = get_object_or_404(Registration.objects.select_related("tournament"), pk=pk)
        require_organiser(request, reg.tournament)
        return Response(RegistrationOut(services.registration_drop(registration=reg)).data)


# -- rounds ------------------------------------------------------------------------------------
class RoundListView(TournamentView):
    @extend_schema(responses=RoundSummaryOut(many=True), summary="Rounds (superseded drafts too)")
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        return Response(RoundSummaryOut(tournament.rounds.all(), many=True).data)

    @extend_schema(
        request=PairIn,
        responses={201: RoundOut, **ERRORS},
        summary="Pair the next round as a draft (refused while results are missing, unless force)",
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        require_organiser(request, tournament, "pair rounds")
        force = self.body(PairIn, request)["force"]
        round_ = services.round_pair_next(tournament=tournament, by=request.user, force=force)
        return Response(RoundOut(round_).data, status=status.HTTP_201_CREATED)


def _round(pk: int) -> Round:
    return get_object_or_404(Round.objects.select_related("tournament"), pk=pk)


class RoundDetailView(TournamentView):
    @extend_schema(responses={200: RoundOut, 404: ERRORS[404]}, summary="A round with its tables")
    def get(self, request: Request, pk: int) -> Response:
        return Response(RoundOut(_round(pk)).data)


class RoundRepairView(TournamentView):
    @extend_schema(
        request=None,
        responses={201: RoundOut, **ERRORS},
        summary="Re-pair a draft (the previous draft is kept as superseded)",
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        require_organiser(request, round_.tournament, "pair rounds")
        new = services.round_repair(round_=round_, by=request.user)
        return Response(RoundOut(new).data, status=status.HTTP_201_CREATED)


class RoundConfirmView(TournamentView):
    @extend_schema(request=None, responses={200: RoundOut, **ERRORS}, summary="Confirm a draft")
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        require_organiser(request, round_.tournament)
        return Response(RoundOut(services.round_confirm(round_=round_)).data)


class RoundReleaseView(TournamentView):
    @extend_schema(
        request=None,
        responses={200: RoundOut, **ERRORS},
        summary="Release a confirmed round to the players (opens game streams)",
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        require_organiser(request, round_.tournament, "release rounds")
        return Response(RoundOut(services.round_release(round_=round_, by=request.user)).data)


class RoundTablesView(TournamentView):
    @extend_schema(
        request=TableAddIn, responses={201: TableOut, **ERRORS}, summary="Add a table to a draft"
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        require_organiser(request, round_.tournament)
        table = services.table_add(round_=round_, is_bye=self.body(TableAddIn, request)["is_bye"])
        return Response(TableOut(table).data, status=status.HTTP_201_CREATED)


# -- tables and results ------------------------------------------------------------------------
def _table(pk: int) -> Table:
    return get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)


class TableDetailView(TournamentView):
    @extend_schema(responses={200: TableOut, 404: ERRORS[404]}, summary="A table")
    def get(self, request: Request, pk: int) -> Response:
        return Response(TableOut(_table(pk)).data)

    @extend_schema(
        request=TableEditIn,
        responses={200: TableEditOut, **ERRORS},
        summary="Seat players at a draft table by hand; answers every rule the round breaks",
    )
    def put(self, request: Request, pk: int) -> Response:
        table = _table(pk)
        require_organiser(request, table.round.tournament)
        regs = self.body(TableEditIn, request)["registrations"]
        edit = services.table_edit(table=table, registrations=regs)
        return Response({"table": TableOut(_table(pk)).data, "warnings": edit.warnings})


class TableResultsView(TournamentView):
    @extend_schema(responses=ResultOut(many=True), summary="Every version of the table's result")
    def get(self, request: Request, pk: int) -> Response:
        return Response(ResultOut(_table(pk).results.all(), many=True).data)

    @extend_schema(
        request=ResultIn,
        responses={201: ResultOut, **ERRORS},
        summary="Report a result (seated player) or enter it as final (organiser)",
    )
    def post(self, request: Request, pk: int) -> Response:
        table = _table(pk)
        data = self.body(ResultIn, request)
        seated = selectors.user_seat(request.user, table) is not None
        if seated and not data["decide"]:
            result = services.result_report(
                table=table, by=request.user, ranks=data["ranks"], scores=data["scores"]
            )
        else:
            if not selectors.user_is_organiser(request.user, table.round.tournament):
                raise NotAllowed(
                    gettext("Only the players seated at table {number} report its result.").format(
                        number=table.number
                    )
                )
            result = services.result_enter(
                table=table, by=request.user, ranks=data["ranks"], scores=data["scores"]
            )
        return Response(ResultOut(result).data, status=status.HTTP_201_CREATED)


class TableResultFromStreamView(TournamentView):
    @extend_schema(
        request=None,
        responses={201: ResultOut, **ERRORS},
        summary="Take the result from the table's finished game stream",
    )
    def post(self, request: Request, pk: int) -> Response:
        table = _table(pk)
        require_organiser(request, table.round.tournament)
        result = services.result_from_stream(table=table)
        return Response(ResultOut(result).data, status=status.HTTP_201_CREATED)


class ResultConfirmView(TournamentView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None, responses={200: ResultOut, **ERRORS}, summary="Agree with a reported result"
    )
    def post(self, request: Request, pk: int) -> Response:
        result = get_object_or_404(Result.objects.select_related("table"), pk=pk)
        return Response(ResultOut(services.result_confirm(result=result, by=request.user)).data)


# -- standings ---------------------------------------------------------------------------------
class StandingsView(TournamentView):
    @extend_schema(responses=StandingOut(many=True), summary="Standings, best first")
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        lines = selectors.tournament_standings(tournament)
        return Response(StandingOut(lines, many=True).data)


# -- stages and brackets -----------------------------------------------------------------------
class StageListView(TournamentView):
    @extend_schema(
        responses=StageOut(many=True),
        summary="Stages, each bracket with every confirmed result applied (JSON a page draws)",
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        stages = list(tournament.stages.order_by("order"))
        for stage in stages:
            bracket = services.bracket_current(stage=stage)
            if bracket is not None:
                stage.bracket = bracket.to_json()
        return Response(StageOut(stages, many=True).data)

    @extend_schema(
        request=CutIn,
        responses={201: StageOut, **ERRORS},
        summary="Cut the top players of the standings to a new bracket stage",
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        require_organiser(request, tournament)
        data = self.body(CutIn, request)
        stage = services.stage_cut(
            tournament=tournament,
            top=data["top"],
            format=data["bracket_format"],
            advance=data.get("advance"),
        )
        return Response(StageOut(stage).data, status=status.HTTP_201_CREATED)


class GroupsView(TournamentView):
    @extend_schema(
        request=GroupsIn,
        responses={200: StageOut, **ERRORS},
        summary="Deal the checked-in players into groups by snake seeding (before round 1)",
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        require_organiser(request, tournament)
        count = self.body(GroupsIn, request)["groups"]
        stage = services.stage_split_groups(tournament=tournament, groups=count)
        return Response(StageOut(stage).data)
