"""The tournaments API (mounted under /api/v1/): one view per operation, services do the work.

Reads are public. Only the organisers of a tournament's club (or staff) create or change it;
a seated player reports and confirms their own table's result. The services check the user
they are given too; service errors leave as the contract's error body.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
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
    PlayersImportSerializer,
    RegistrationCheckInSerializer,
    RegistrationEnterSerializer,
    RegistrationSerializer,
    ResultDisagreeSerializer,
    ResultEnterSerializer,
    ResultEventSerializer,
    ResultSerializer,
    RoundPairSerializer,
    RoundSerializer,
    RoundSummarySerializer,
    StageCutSerializer,
    StageGroupsSerializer,
    StageSerializer,
    StandingSerializer,
    TableAddSerializer,
    TableEditOutcomeSerializer,
    TableEditSerializer,
    TableSerializer,
    TournamentCreateSerializer,
    TournamentSerializer,
    TournamentUpdateSerializer,
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
    @extend_schema(responses=TournamentSerializer(many=True), summary="List tournaments")
    def get(self, request: Request) -> Response:
        tournaments = Tournament.objects.select_related("club").prefetch_related("organisers")
        return Response(TournamentSerializer(tournaments, many=True).data)

    @extend_schema(
        request=TournamentCreateSerializer,
        responses={201: TournamentSerializer, **ERRORS},
        summary="Create a tournament for a club the caller organises (staff: any, or none)",
    )
    def post(self, request: Request) -> Response:
        data = self.body(TournamentCreateSerializer, request)
        club_name = data.pop("club", "")
        tournament = services.tournament_create(
            organiser=request.user,
            game_id=data.pop("game"),
            club=services.club_named(name=club_name, by=request.user) if club_name else None,
            **data,
        )
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(TournamentView):
    @extend_schema(responses={200: TournamentSerializer, 404: ERRORS[404]}, summary="A tournament")
    def get(self, request: Request, pk: int) -> Response:
        return Response(TournamentSerializer(get_object_or_404(Tournament, pk=pk)).data)

    @extend_schema(
        request=TournamentUpdateSerializer,
        responses={200: TournamentSerializer, **ERRORS},
        summary="Change names, table sizes, points, tie-breakers, bye points or planned rounds",
    )
    def patch(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        require_organiser(request, tournament)
        data = self.body(TournamentUpdateSerializer, request)
        return Response(
            TournamentSerializer(services.tournament_update(tournament=tournament, **data)).data
        )


class TournamentFinishView(TournamentView):
    @extend_schema(request=None, responses={200: TournamentSerializer, **ERRORS}, summary="Finish")
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        require_organiser(request, tournament)
        return Response(
            TournamentSerializer(services.tournament_finish(tournament=tournament)).data
        )


# -- registrations -----------------------------------------------------------------------------
class RegistrationListView(TournamentView):
    @extend_schema(responses=RegistrationSerializer(many=True), summary="Registrations")
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        regs = tournament.registrations.select_related("player__user", "player__club")
        return Response(RegistrationSerializer(regs, many=True).data)

    @extend_schema(
        request=RegistrationEnterSerializer,
        responses={201: RegistrationSerializer, **ERRORS},
        summary="Register a player (a late entry once the tournament runs)",
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        require_organiser(request, tournament, "register players")
        data = self.body(RegistrationEnterSerializer, request)
        reg = services.registration_enter(tournament=tournament, by=request.user, **data)
        return Response(RegistrationSerializer(reg).data, status=status.HTTP_201_CREATED)


class RegistrationImportView(TournamentView):
    @extend_schema(
        request=PlayersImportSerializer,
        responses={201: RegistrationSerializer(many=True), **ERRORS},
        summary="Import players from CSV: every row or none",
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        require_organiser(request, tournament, "import players")
        text = self.body(PlayersImportSerializer, request)["csv"]
        regs = services.players_import_csv(tournament=tournament, text=text, by=request.user)
        return Response(
            RegistrationSerializer(regs, many=True).data, status=status.HTTP_201_CREATED
        )


class RegistrationCheckInView(TournamentView):
    @extend_schema(
        request=RegistrationCheckInSerializer,
        responses={200: RegistrationSerializer, **ERRORS},
        summary="Check in",
    )
    def post(self, request: Request, pk: int) -> Response:
        reg = get_object_or_404(Registration.objects.select_related("tournament"), pk=pk)
        require_organiser(request, reg.tournament)
        checked_in = self.body(RegistrationCheckInSerializer, request)["checked_in"]
        reg = services.registration_check_in(registration=reg, checked_in=checked_in)
        return Response(RegistrationSerializer(reg).data)


class RegistrationDropView(TournamentView):
    @extend_schema(request=None, responses={200: RegistrationSerializer, **ERRORS}, summary="Drop")
    def post(self, request: Request, pk: int) -> Response:
        reg = get_object_or_404(Registration.objects.select_related("tournament"), pk=pk)
        require_organiser(request, reg.tournament)
        return Response(RegistrationSerializer(services.registration_drop(registration=reg)).data)


# -- rounds ------------------------------------------------------------------------------------
class RoundListView(TournamentView):
    @extend_schema(
        responses=RoundSummarySerializer(many=True),
        summary="Rounds (published ones; drafts and confirmed rounds for the organisers only)",
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        rounds = selectors.rounds_visible_to(tournament, request.user)
        return Response(RoundSummarySerializer(rounds, many=True).data)

    @extend_schema(
        request=RoundPairSerializer,
        responses={201: RoundSerializer, **ERRORS},
        summary="Pair the next round as a draft (refused while results are missing, unless force)",
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        require_organiser(request, tournament, "pair rounds")
        body = self.body(RoundPairSerializer, request)
        round_ = services.round_pair_next(
            tournament=tournament,
            by=request.user,
            force=body["force"],
            beyond_planned=body["beyond_planned"],
        )
        return Response(RoundSerializer(round_).data, status=status.HTTP_201_CREATED)


def _round(pk: int) -> Round:
    return get_object_or_404(Round.objects.select_related("tournament"), pk=pk)


def _visible(request: Request, round_: Round) -> None:
    """A round not yet published (a draft, a confirmed round) is a 404 to whoever does not run
    the tournament: its pairings stay hidden until it is released."""
    if not selectors.round_visible_to(round_, request.user):
        raise Http404(gettext("No such round."))


class RoundDetailView(TournamentView):
    @extend_schema(
        responses={200: RoundSerializer, 404: ERRORS[404]},
        summary="A round with its tables (not yet published: for the organisers only)",
    )
    def get(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        _visible(request, round_)
        return Response(RoundSerializer(round_).data)


class RoundRepairView(TournamentView):
    @extend_schema(
        request=None,
        responses={201: RoundSerializer, **ERRORS},
        summary="Re-pair a draft (the previous draft is kept as superseded)",
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        require_organiser(request, round_.tournament, "pair rounds")
        new = services.round_repair(round_=round_, by=request.user)
        return Response(RoundSerializer(new).data, status=status.HTTP_201_CREATED)


class RoundConfirmView(TournamentView):
    @extend_schema(
        request=None, responses={200: RoundSerializer, **ERRORS}, summary="Confirm a draft"
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        require_organiser(request, round_.tournament)
        confirmed = services.round_confirm(round_=round_, by=request.user)
        return Response(RoundSerializer(confirmed).data)


class RoundReleaseView(TournamentView):
    @extend_schema(
        request=None,
        responses={200: RoundSerializer, **ERRORS},
        summary="Release a confirmed round to the players (opens game streams)",
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        require_organiser(request, round_.tournament, "release rounds")
        return Response(
            RoundSerializer(services.round_release(round_=round_, by=request.user)).data
        )


class RoundTablesView(TournamentView):
    @extend_schema(
        request=TableAddSerializer,
        responses={201: TableSerializer, **ERRORS},
        summary="Add a table to a draft",
    )
    def post(self, request: Request, pk: int) -> Response:
        round_ = _round(pk)
        require_organiser(request, round_.tournament)
        table = services.table_add(
            round_=round_, is_bye=self.body(TableAddSerializer, request)["is_bye"], by=request.user
        )
        return Response(TableSerializer(table).data, status=status.HTTP_201_CREATED)


# -- tables and results ------------------------------------------------------------------------
def _table(pk: int) -> Table:
    return get_object_or_404(Table.objects.select_related("round__tournament"), pk=pk)


class TableDetailView(TournamentView):
    @extend_schema(responses={200: TableSerializer, 404: ERRORS[404]}, summary="A table")
    def get(self, request: Request, pk: int) -> Response:
        table = _table(pk)
        _visible(request, table.round)
        return Response(TableSerializer(table).data)

    @extend_schema(
        request=TableEditSerializer,
        responses={200: TableEditOutcomeSerializer, **ERRORS},
        summary="Seat players at a draft table by hand; answers every rule the round breaks",
    )
    def put(self, request: Request, pk: int) -> Response:
        table = _table(pk)
        require_organiser(request, table.round.tournament)
        regs = self.body(TableEditSerializer, request)["registrations"]
        edit = services.table_edit(table=table, registrations=regs, by=request.user)
        return Response({"table": TableSerializer(_table(pk)).data, "warnings": edit.warnings})


class TableResultsView(TournamentView):
    @extend_schema(
        responses=ResultSerializer(many=True), summary="Every version of the table's result"
    )
    def get(self, request: Request, pk: int) -> Response:
        table = _table(pk)
        _visible(request, table.round)
        return Response(ResultSerializer(table.results.all(), many=True).data)

    @extend_schema(
        request=ResultEnterSerializer,
        responses={201: ResultSerializer, **ERRORS},
        summary="Report a result (seated player) or enter it as final (organiser)",
    )
    def post(self, request: Request, pk: int) -> Response:
        table = _table(pk)
        data = self.body(ResultEnterSerializer, request)
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
                table=table,
                by=request.user,
                ranks=data["ranks"],
                scores=data["scores"],
                reason=data["reason"],
            )
        return Response(ResultSerializer(result).data, status=status.HTTP_201_CREATED)


class TableResultFromStreamView(TournamentView):
    @extend_schema(
        request=None,
        responses={201: ResultSerializer, **ERRORS},
        summary="Take the result from the table's finished game stream",
    )
    def post(self, request: Request, pk: int) -> Response:
        table = _table(pk)
        require_organiser(request, table.round.tournament)
        result = services.result_from_stream(table=table)
        return Response(ResultSerializer(result).data, status=status.HTTP_201_CREATED)


class TableResultEventsView(TournamentView):
    @extend_schema(
        responses=ResultEventSerializer(many=True),
        summary="The table's result stream: every report, confirmation, disagreement, entry, "
        "correction and decision, in order",
    )
    def get(self, request: Request, pk: int) -> Response:
        table = _table(pk)
        _visible(request, table.round)
        events = table.result_events.select_related("by").order_by("seq")
        return Response(ResultEventSerializer(events, many=True).data)


class ResultDisagreeView(TournamentView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=ResultDisagreeSerializer,
        responses={200: ResultSerializer, **ERRORS},
        summary="Disagree with a reported result: the organiser decides",
    )
    def post(self, request: Request, pk: int) -> Response:
        result = get_object_or_404(Result.objects.select_related("table"), pk=pk)
        reason = self.body(ResultDisagreeSerializer, request)["reason"]
        disputed = services.result_disagree(result=result, by=request.user, reason=reason)
        return Response(ResultSerializer(disputed).data)


class ResultConfirmView(TournamentView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: ResultSerializer, **ERRORS},
        summary="Agree with a reported result",
    )
    def post(self, request: Request, pk: int) -> Response:
        result = get_object_or_404(Result.objects.select_related("table"), pk=pk)
        return Response(
            ResultSerializer(services.result_confirm(result=result, by=request.user)).data
        )


# -- standings ---------------------------------------------------------------------------------
class StandingsView(TournamentView):
    @extend_schema(responses=StandingSerializer(many=True), summary="Standings, best first")
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        lines = selectors.tournament_standings_for(tournament, request.user)
        return Response(StandingSerializer(lines, many=True).data)


# -- stages and brackets -----------------------------------------------------------------------
class StageListView(TournamentView):
    @extend_schema(
        responses=StageSerializer(many=True),
        summary="Stages, each bracket with every confirmed result applied (JSON a page draws)",
    )
    def get(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        stages = list(tournament.stages.order_by("order"))
        for stage in stages:
            bracket = services.bracket_current(stage=stage)
            if bracket is not None:
                stage.bracket = bracket.to_json()
        return Response(StageSerializer(stages, many=True).data)

    @extend_schema(
        request=StageCutSerializer,
        responses={201: StageSerializer, **ERRORS},
        summary="Cut the top players of the standings to a new bracket stage",
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        require_organiser(request, tournament)
        data = self.body(StageCutSerializer, request)
        stage = services.stage_cut(
            tournament=tournament,
            top=data["top"],
            format=data["bracket_format"],
            advance=data.get("advance"),
            by=request.user,
        )
        return Response(StageSerializer(stage).data, status=status.HTTP_201_CREATED)


class GroupsView(TournamentView):
    @extend_schema(
        request=StageGroupsSerializer,
        responses={200: StageSerializer, **ERRORS},
        summary="Deal the checked-in players into groups by snake seeding (before round 1)",
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = get_object_or_404(Tournament, pk=pk)
        require_organiser(request, tournament)
        count = self.body(StageGroupsSerializer, request)["groups"]
        stage = services.stage_split_groups(tournament=tournament, groups=count, by=request.user)
        return Response(StageSerializer(stage).data)
