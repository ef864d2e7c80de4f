"""The ratings API: pools, leaderboards, histories, recompute jobs, verification, disputes.

Views read the request, check who is asking, call one service or selector and shape the answer;
refusals (a service's ``herald.errors.ServiceError`` or a view's ``herald.api.ApiError``) leave
with the contract's error body by herald's one exception handler.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from events.access import access_stream_for_user
from events.errors import StreamNotFound
from herald.api import ApiError, query_int, query_uuid
from herald.api import ErrorSerializer as ERROR
from herald.roles import is_privileged
from ratings import disputes, selectors, serializers, services
from ratings.models import Dispute, RatingPool, Verification

#: The refusals of dispute and ruling requests (ratings.disputes.DisputeError), declared.
_REFUSED = {
    400: OpenApiResponse(
        ERROR, description="Invalid: a reason missing, a game not over, a bad ruling."
    ),
    403: OpenApiResponse(ERROR, description="Not seated in the game, or not an arbiter."),
    404: OpenApiResponse(ERROR, description="No such game stream or dispute."),
    409: OpenApiResponse(
        ERROR, description="Already disputed or ruled on, or the window has closed."
    ),
}


def _is_arbiter(user: Any) -> bool:
    return is_privileged(user)


def _pool(pool_id: int) -> RatingPool:
    pool = RatingPool.objects.filter(pk=pool_id).first()
    if pool is None:
        raise ApiError(
            404, "not_found", gettext("There is no rating pool {pool_id}.").format(pool_id=pool_id)
        )
    return pool


def _player(username: str) -> Any:
    # PostgreSQL refuses a NUL in text, and no username holds one: no such player, not a 500.
    user = (
        None if "\x00" in username else get_user_model().objects.filter(username=username).first()
    )
    if user is None:
        raise ApiError(
            404,
            "not_found",
            gettext("There is no player {username}.").format(username=repr(username)),
        )
    return user


class PoolListView(APIView):
    """Every rating pool (one per game and edition family)."""

    @extend_schema(responses=serializers.PoolSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(serializers.PoolSerializer(selectors.pool_list(), many=True).data)


class LeaderboardView(APIView):
    """A pool's leaderboard by conservative rating μ − 3σ, optionally one club's players."""

    @extend_schema(
        parameters=[
            OpenApiParameter("club", int, description="Only players of this club (its id)."),
            OpenApiParameter("limit", int, description="At most this many rows (default 100)."),
            OpenApiParameter("offset", int, description="Skip this many rows."),
        ],
        responses=serializers.LeaderboardSerializer,
    )
    def get(self, request: Request, pool_id: int) -> Response:
        pool = _pool(pool_id)
        limit = query_int(request, "limit", default=100, minimum=1, maximum=1000) or 100
        offset = query_int(request, "offset", default=0) or 0
        club_id = query_int(request, "club")
        rows = selectors.leaderboard(pool=pool, club_id=club_id, limit=limit, offset=offset)
        data = {
            "pool": pool,
            "provisional_games": selectors.provisional_games(),
            "rows": [row.__dict__ for row in rows],
        }
        return Response(serializers.LeaderboardSerializer(data).data)


class HistoryView(APIView):
    """A player's rating history in one pool, oldest game first."""

    @extend_schema(responses=serializers.HistorySerializer)
    def get(self, request: Request, pool_id: int, username: str) -> Response:
        pool = _pool(pool_id)
        user = _player(username)
        changes = list(
            selectors.player_history(pool=pool, player_id=user.pk).select_related("game")
        )
        hidden = selectors.streams_hidden_from(
            request.user, stream_ids=[c.stream_id for c in changes]
        )
        data = {"pool": pool, "username": username, "changes": changes}
        context = {"hidden_streams": hidden}
        return Response(serializers.HistorySerializer(data, context=context).data)


class PlayerRatingsView(APIView):
    """A player's rating in every pool they have played in."""

    @extend_schema(responses=serializers.PlayerRatingSerializer(many=True))
    def get(self, request: Request, username: str) -> Response:
        user = _player(username)
        threshold = selectors.provisional_games()
        rows = [
            {
                "pool": rating.pool,
                "mu": rating.mu,
                "sigma": rating.sigma,
                "conservative": rating.conservative,
                "games": rating.games,
                "provisional": rating.games < threshold,
            }
            for rating in selectors.player_ratings(player_id=user.pk)
        ]
        return Response(serializers.PlayerRatingSerializer(rows, many=True).data)


class RecomputeListView(APIView):
    """Recompute jobs (newest first); staff and arbiters start one for a pool.

    Only arbiters and staff see a job's reason, first game and error; others see its progress.
    """

    @extend_schema(
        parameters=[OpenApiParameter("pool", int, description="Only this pool's jobs.")],
        responses={
            200: serializers.RecomputeJobSerializer(many=True),
            404: OpenApiResponse(ERROR, description="No such rating pool."),
        },
    )
    def get(self, request: Request) -> Response:
        pool_id = query_int(request, "pool")
        jobs = selectors.recompute_jobs(pool=_pool(pool_id) if pool_id else None)[:50]
        return Response(_job_serializer(request.user)(jobs, many=True).data)


def _job_serializer(user: Any) -> type[serializers.RecomputeJobSerializer]:
    """Arbiters and staff see why a job runs (the dispute, who opened it); others its progress."""
    if _is_arbiter(user):
        return serializers.RecomputeJobSerializer
    return serializers.PublicRecomputeJobSerializer


class PoolRecomputeView(APIView):
    """Re-rate a whole pool from its stored history (a Celery job whose progress is shown)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=serializers.RecomputeJobCreateSerializer,
        responses={202: serializers.RecomputeJobSerializer},
    )
    def post(self, request: Request, pool_id: int) -> Response:
        if not _is_arbiter(request.user):
            raise ApiError(403, "forbidden", gettext("Only arbiters and staff recompute a pool."))
        body = serializers.RecomputeJobCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        job = services.recompute_request(
            pool=_pool(pool_id), reason=body.validated_data["reason"], requested_by=request.user
        )
        return Response(serializers.RecomputeJobSerializer(job).data, status=202)


class RecomputeDetailView(APIView):
    """One recompute job: status, done, total, progress."""

    @extend_schema(responses=serializers.RecomputeJobSerializer)
    def get(self, request: Request, job_id: int) -> Response:
        job = selectors.recompute_job_get(job_id=job_id)
        if job is None:
            raise ApiError(
                404,
                "not_found",
                gettext("There is no recompute job {job_id}.").format(job_id=job_id),
            )
        return Response(_job_serializer(request.user)(job).data)


def _visible_stream(user: Any, stream_id: Any) -> Any:
    """The stream, through the event store's one door: 404 when missing or private to others."""
    try:
        return access_stream_for_user(user, stream_id).stream
    except StreamNotFound:
        raise ApiError(
            404,
            "not_found",
            gettext("There is no game stream {stream_id}.").format(stream_id=stream_id),
        ) from None


class VerificationView(APIView):
    """What the verification worker found for a stream, and how its game counts now.

    A private game's, like its stream, to its players, arbiters and staff only (404 to others).
    """

    @extend_schema(responses=serializers.VerificationSerializer)
    def get(self, request: Request, stream_id: Any) -> Response:
        _visible_stream(request.user, stream_id)
        verification = Verification.objects.filter(stream_id=stream_id).first()
        rated = selectors.rated_game_of(stream_id=stream_id)
        data = {
            "stream": stream_id,
            "verified": None if verification is None else verification.ok,
            "checks": None if verification is None else verification.checks,
            "verified_at": None if verification is None else verification.verified_at,
            "counts": selectors.stream_counts(stream_id=stream_id),
            "rating_status": None if rated is None else rated.status,
        }
        return Response(serializers.VerificationSerializer(data).data)


class DisputeListView(APIView):
    """Arbiters and staff list every dispute; a player lists the disputes they opened.

    POST opens one: a seated player, on a finished game, within the dispute window.
    """

    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=Dispute.Status.values),
            OpenApiParameter("stream", str, description="Only this stream's disputes."),
        ],
        responses=serializers.DisputeSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        wanted = request.query_params.get("status")
        if wanted and wanted not in Dispute.Status.values:
            raise ApiError(
                400,
                "invalid",
                gettext("status must be one of {join}.").format(join=", ".join(Dispute.Status)),
            )
        found = selectors.dispute_list(status=wanted, stream_id=query_uuid(request, "stream"))
        if not _is_arbiter(request.user):
            found = found.filter(opened_by=request.user)
        return Response(serializers.DisputeSerializer(found[:200], many=True).data)

    @extend_schema(
        request=serializers.DisputeOpenSerializer,
        responses={201: serializers.DisputeSerializer, **_REFUSED},
    )
    def post(self, request: Request) -> Response:
        body = serializers.DisputeOpenSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        dispute = disputes.dispute_open(
            stream_id=body.validated_data["stream"],
            user=request.user,
            reason=body.validated_data["reason"],
            move=body.validated_data.get("move"),
        )
        return Response(serializers.DisputeSerializer(dispute).data, status=201)


class DisputeDetailView(APIView):
    """One dispute: to arbiters and staff, and to the player who opened it."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=serializers.DisputeSerializer)
    def get(self, request: Request, dispute_id: int) -> Response:
        dispute = selectors.dispute_get(dispute_id=dispute_id)
        if dispute is None or not (
            _is_arbiter(request.user) or dispute.opened_by_id == request.user.pk
        ):
            raise ApiError(
                404,
                "not_found",
                gettext("There is no dispute {dispute_id}.").format(dispute_id=dispute_id),
            )
        return Response(serializers.DisputeSerializer(dispute).data)


class RulingView(APIView):
    """An arbiter rules on an open dispute: uphold, annul, amend (ranks) or replay (from_move)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=serializers.RulingSerializer,
        responses={200: serializers.RulingOutcomeSerializer, **_REFUSED},
    )
    def post(self, request: Request, dispute_id: int) -> Response:
        body = serializers.RulingSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        dispute = disputes.dispute_rule(
            dispute_id=dispute_id, arbiter=request.user, **body.validated_data
        )
        data = {"dispute": dispute, "recompute": dispute.recompute}
        return Response(serializers.RulingOutcomeSerializer(data).data, status=status.HTTP_200_OK)
