"""The API's log in and log out (API.md: ``/api/v1/auth/…``); the work is in herald.services."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, user_logged_in, user_logged_out
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from knox.models import AuthToken
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from herald.api import ApiError, ErrorSerializer
from herald.authentication import ExpiringTokenAuthentication, lockout_detail
from herald.services import token_issue, token_revoke, tokens_revoke_all


class TokenIssueSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
    expiry = serializers.DateTimeField(help_text="when the token stops working")


class LogoutAllSerializer(serializers.Serializer):
    revoked = serializers.IntegerField(help_text="how many tokens were revoked")


class AuthAPIView(APIView):
    """JSON in and out; a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is a 413 (herald.api)."""


class TokenView(AuthAPIView):
    """Exchange a username and password for an API token that expires.

    Failed logins count towards django-axes's lockout, per account and per address, as the
    admin's login form does; a locked-out login is a 429 ``locked_out``.
    """

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(
        request=TokenIssueSerializer,
        responses={200: TokenSerializer, 400: ErrorSerializer, 429: ErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        serializer = TokenIssueSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        http_request = request._request  # axes marks the lockout on Django's own request
        user = authenticate(http_request, username=data["username"], password=data["password"])
        if getattr(http_request, "axes_locked_out", False):
            raise ApiError(429, "locked_out", lockout_detail())
        if user is None:
            raise ApiError(400, "invalid_credentials", gettext("the username or password is wrong"))
        token, key = token_issue(user)
        user_logged_in.send(sender=user.__class__, request=http_request, user=user)
        return Response({"token": key, "expiry": _expiry(token)})


def _expiry(token: AuthToken) -> str | None:
    return (
        None
        if token.expiry is None
        else serializers.DateTimeField().to_representation(token.expiry)
    )


class LogoutView(AuthAPIView):
    """Revoke the token this request carries."""

    authentication_classes = [ExpiringTokenAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None, 401: ErrorSerializer})
    def post(self, request: Request) -> Response:
        token_revoke(request.auth)
        user_logged_out.send(
            sender=request.user.__class__, request=request._request, user=request.user
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogoutAllView(AuthAPIView):
    """Revoke every token of the caller (token or session), on every device."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: LogoutAllSerializer, 401: ErrorSerializer})
    def post(self, request: Request) -> Response:
        revoked = tokens_revoke_all(request.user)
        user_logged_out.send(
            sender=request.user.__class__, request=request._request, user=request.user
        )
        return Response({"revoked": revoked})
