"""The game API (API.md): one view per operation; the work is in services and selectors.

Views read the request, ask events.access who the caller is and call one service or selector;
its refusals (``herald.errors.ServiceError``) leave by the one exception handler, and
``engine_refusals`` marks the calls whose engine errors are the client's input refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import engine
from events import records, selectors, serializers
from events.access import (
    SeatTokenAuthentication,
    StreamAccess,
    access_stream_for_user,
    seat_of,
)
from events.errors import engine_refusals
from events.models import Stream
from events.services import stream_append_move, stream_open
from events.throttling import MoveThrottle, ReplayThrottle
from herald.api import ApiError, query_int
from herald.parsers import JSONParser
from herald.roles import can_open_streams

ERROR = serializers.ErrorSerializer
MAX_VERSION = serializers.MAX_VERSION


def _access(request: Request, stream_id: Any) -> StreamAccess:
    return access_stream_for_user(request.user, stream_id)


def _require(allowed: bool, detail: str) -> None:
    if not allowed:
        raise ApiError(403, "forbidden", detail)


def _responses(ok: Any, *codes: int) -> dict[int, Any]:
    described: dict[int, Any] = {200: ok}
    for code in codes:
        described[code] = ERROR
    return described


class StreamAPIView(APIView):
    """JSON in and out; a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is a 413 (herald.api)."""

    parser_classes = [JSONParser]


def _valid(serializer_class: Callable[..., Any], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    data: dict[str, Any] = serializer.validated_data
    return data


class GameListView(StreamAPIView):
    """The games the engine knows, with their editions and options schema."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: serializers.GameSerializer(many=True)})
    def get(self, request: Request) -> Response:
        return Response([game.info().to_json() for game in engine.games()])


class StreamListView(StreamAPIView):
    """Open a stream (organisers, arbiters, staff)."""

    @extend_schema(
        request=serializers.StreamCreateSerializer,
        responses={201: serializers.StreamSerializer, 400: ERROR, 403: ERROR, 422: ERROR},
    )
    def post(self, request: Request) -> Response:
        _require(
            can_open_streams(request.user),
            gettext("only organisers, arbiters and staff open games"),
        )
        data = _valid(serializers.StreamCreateSerializer, request)
        seats = _users(data["seats"])
        with engine_refusals():
            stream = stream_open(
                game_id=data["game"],
                seats=seats,
                options=data.get("options"),
                edition=data.get("edition"),
                created_by=request.user,
                public=data["public"],
            )
        summary = selectors.stream_summary(stream, [u.get_username() for u in seats])
        return Response(summary, status=status.HTTP_201_CREATED)


def _users(usernames: list[str]) -> list[Any]:
    users = {u.get_username(): u for u in get_user_model().objects.filter(username__in=usernames)}
    missing = [name for name in usernames if name not in users]
    if missing:
        raise ApiError(
            400,
            "unknown_player",
            gettext("no user is called {missing}").format(missing=repr(missing[0])),
        )
    return [users[name] for name in usernames]


class StreamDetailView(StreamAPIView):
    """A stream's setup and status; its result and seed once finished."""

    @extend_schema(responses=_responses(serializers.StreamSerializer, 404))
    def get(self, request: Request, stream_id: str) -> Response:
        access = _access(request, stream_id)
        return Response(selectors.stream_summary(access.stream, access=access))


class StreamViewView(StreamAPIView):
    """What the caller may see now, and their legal moves when they are to act."""

    @extend_schema(responses=_responses(serializers.ViewSerializer, 404))
    def get(self, request: Request, stream_id: str) -> Response:
        return Response(selectors.stream_view(_access(request, stream_id)))


class JSONOnly(DefaultContentNegotiation):
    """For an endpoint that answers only JSON: no Accept header to read (DRF's negotiation
    parsed it on every move); the body's parser is chosen as DRF chooses it."""

    def select_renderer(
        self, request: Request, renderers: list[Any], format_suffix: str | None = None
    ) -> tuple[Any, str]:
        return renderers[0], renderers[0].media_type


class MoveView(StreamAPIView):
    """Post a move for the caller's own seat, at the version the caller has seen."""

    authentication_classes = [SeatTokenAuthentication, SessionAuthentication]
    throttle_classes = [MoveThrottle]
    renderer_classes = [JSONRenderer]
    content_negotiation_class = JSONOnly

    @extend_schema(
        request=serializers.MoveAppendSerializer,
        parameters=[
            OpenApiParameter(
                "Idempotency-Key",
                OpenApiTypes.STR,
                OpenApiParameter.HEADER,
                description="a client-chosen key: a retry with the same key and body returns "
                "the first answer again",
            )
        ],
        responses={
            201: serializers.MoveAppendOutcomeSerializer,
            400: ERROR,
            403: ERROR,
            404: ERROR,
            409: serializers.VersionConflictSerializer,
            410: ERROR,
            413: ERROR,
            422: ERROR,
        },
    )
    def post(self, request: Request, stream_id: str) -> Response:
        seat = seat_of(request.user, stream_id)  # found with the token: no query
        if seat is None:
            _access(request, stream_id)  # a 404 when there is no such stream
            raise ApiError(
                403, "forbidden", gettext("you have no seat at this table: you cannot move here")
            )
        data = _move_request(request)
        with engine_refusals(names=lambda: selectors.seat_names(stream_id)):
            outcome = stream_append_move(
                stream_id=stream_id,
                seat=seat,
                move=data["move"],
                expected_version=data["expected_version"],
                idempotency_key=_idempotency_key(request),
            )
        body = {
            "version": outcome.version,
            "event": selectors.event_json(
                outcome.events[0], full=False, seat=seat, stream=outcome.stream
            ),
        }
        return Response(body, status=status.HTTP_201_CREATED)


def _move_request(request: Request) -> dict[str, Any]:
    """The body of a move request, validated.

    The usual body (a move and a whole-number version in range) is taken as the serializer
    would take it, without its cost; anything else goes to the serializer, so refusals keep
    its wording.
    """
    data = request.data
    if type(data) is dict:
        move, version = data.get("move"), data.get("expected_version")
        if move is not None and type(version) is int and 0 <= version <= MAX_VERSION:
            return {"move": move, "expected_version": version}
    return _valid(serializers.MoveAppendSerializer, request)


def _idempotency_key(request: Request) -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not key or len(key) > serializers.MAX_KEY_LENGTH:
        raise ApiError(
            400,
            "bad_idempotency_key",
            gettext("the Idempotency-Key must be 1 to 200 characters long"),
        )
    return key


class EventListView(StreamAPIView):
    """The stream's events: hidden parts of other seats withheld until the end."""

    @extend_schema(
        parameters=[OpenApiParameter("after", int, description="only events after this seq")],
        responses=_responses(serializers.EventSerializer(many=True), 400, 403, 404),
    )
    def get(self, request: Request, stream_id: str) -> Response:
        access = _access(request, stream_id)
        _require(
            access.sees_everything or access.seat is not None,
            gettext("only the players, arbiters and staff see the events before the game is over"),
        )
        after = query_int(request, "after", default=0, maximum=MAX_VERSION)
        return Response(selectors.stream_events(access, after=after or 0))


class AuditView(StreamAPIView):
    """The full state after event ``at`` (or after move ``move``), that event in words, which
    move it belongs to, and the chain's health up to it."""

    throttle_classes = [ReplayThrottle]  # each call replays the game up to ``at``

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "at", int, required=False, description="an event's seq (give it or 'move')"
            ),
            OpenApiParameter(
                "move",
                int,
                required=False,
                description="a move number: the n-th move, 0 for the deal (give it or 'at')",
            ),
        ],
        responses=_responses(serializers.AuditSerializer, 400, 403, 404),
    )
    def get(self, request: Request, stream_id: str) -> Response:
        access = _access(request, stream_id)
        _require(
            access.sees_everything,
            gettext("only arbiters and staff audit a game before it is over"),
        )
        at = _audited_seq(request, access.stream)
        return Response(selectors.stream_audit(access.stream, at=at))


def _audited_seq(request: Request, stream: Stream) -> int:
    """The seq the audit is asked about: ``at`` itself, or the event of move ``move``."""
    at = query_int(request, "at", maximum=MAX_VERSION)
    move = query_int(request, "move", maximum=MAX_VERSION)
    if at is not None and move is not None:
        raise ApiError(
            400,
            "invalid",
            gettext("give either 'at' (an event's seq) or 'move' (a move number), not both"),
        )
    if move is not None:
        moves = selectors.stream_moves(stream)
        if move > moves:
            raise ApiError(
                400,
                "invalid",
                gettext("'move' must be between 0 and {moves}: the game has {moves} moves").format(
                    moves=moves
                ),
            )
        return selectors.move_seq(stream, move)
    if at is None:
        raise ApiError(
            400,
            "invalid",
            gettext(
                "the query parameter 'at' (an event's seq) or 'move' (a move number) is required"
            ),
        )
    if not 1 <= at <= stream.version:
        raise ApiError(
            400,
            "invalid",
            gettext("'at' must be between 1 and {version}").format(version=stream.version),
        )
    return at


class RecordView(StreamAPIView):
    """The game's record, one self-contained file (docs/records.md): complete once the game is
    over; before that, what the caller may see of it (a spectator's copy has no seed)."""

    @extend_schema(responses=_responses(serializers.GameRecordSerializer, 404))
    def get(self, request: Request, stream_id: str) -> Response:
        access = _access(request, stream_id)
        record = records.stream_record(access, source={"site": request.get_host()})
        filename = records.record_filename(access.stream)
        return Response(
            record.to_json(), headers={"Content-Disposition": f'attachment; filename="{filename}"'}
        )


class VerifyView(StreamAPIView):
    """Hash chain, seed commitment, replay and result checks (as the verification worker).

    The report is cached per stream version, so a repeated call does not replay the game.
    """

    throttle_classes = [ReplayThrottle]

    @extend_schema(responses=_responses(serializers.VerifySerializer, 404))
    def get(self, request: Request, stream_id: str) -> Response:
        return Response(selectors.stream_verify_cached(_access(request, stream_id).stream))
