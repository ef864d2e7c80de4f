"""API plumbing shared by every app: the error body of API.md.

Every error leaves as ``{"error": "<code>", "detail": "<sentence>", ...}``: a service's
refusal (any ``herald.errors.ServiceError``) by the one exception handler below, so no view
translates errors itself.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from herald.errors import ServiceError
from herald.params import MAX_WHOLE_NUMBER, BadNumber, whole_number
from herald.throttling import throttled_detail


class ErrorSerializer(serializers.Serializer):
    """The error body every refusal has (one schema component, ``Error``, for every app)."""

    error = serializers.CharField(help_text="a short machine-readable code")
    detail = serializers.CharField(help_text="a sentence a person understands")


_CODES = {
    status.HTTP_400_BAD_REQUEST: "bad_request",
    status.HTTP_401_UNAUTHORIZED: "not_authenticated",
    status.HTTP_403_FORBIDDEN: "forbidden",
    status.HTTP_404_NOT_FOUND: "not_found",
    status.HTTP_405_METHOD_NOT_ALLOWED: "method_not_allowed",
    status.HTTP_406_NOT_ACCEPTABLE: "not_acceptable",
    status.HTTP_409_CONFLICT: "conflict",
    status.HTTP_410_GONE: "finished",
    status.HTTP_413_REQUEST_ENTITY_TOO_LARGE: "too_large",
    status.HTTP_415_UNSUPPORTED_MEDIA_TYPE: "unsupported_media_type",
    status.HTTP_422_UNPROCESSABLE_ENTITY: "unprocessable",
    status.HTTP_429_TOO_MANY_REQUESTS: "throttled",
}


class ApiError(ServiceError):
    """A refusal a view makes itself (no such pool, not an arbiter): status, code, sentence."""

    def __init__(self, status_code: int, code: str, detail: str, **extra: Any) -> None:
        super().__init__(detail, code=code, status=status_code, **extra)


def _sentence(detail: Any) -> str:
    """Flatten DRF's nested validation details into one readable sentence."""
    if isinstance(detail, dict):
        parts = [f"{key}: {_sentence(value)}" for key, value in detail.items()]
        return "; ".join(parts)
    if isinstance(detail, list):
        return " ".join(_sentence(item) for item in detail)
    return str(detail)


def error_response(status_code: int, code: str, detail: str, **extra: Any) -> Response:
    """Build a response with the contract's error body."""
    return Response({"error": code, "detail": detail, **extra}, status=status_code)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF exception handler that rewrites every error into the contract's body.

    Besides DRF's own exceptions it answers every service's refusal (``ServiceError``: its
    status, code, sentence and extra fields) and the two kinds of bad input Django itself raises
    (a body over the size limit, a value a model field cannot take); anything else is left
    to be a 500, so a server bug is never passed off as the client's mistake.
    """
    if isinstance(exc, ServiceError):
        return error_response(exc.status, exc.code, exc.detail, **exc.extra)
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        detail = gettext("the request body is larger than {size} KiB").format(size=limit // 1024)
        return error_response(status.HTTP_413_REQUEST_ENTITY_TOO_LARGE, "too_large", detail)
    if isinstance(exc, DjangoValidationError):
        return error_response(status.HTTP_400_BAD_REQUEST, "invalid", " ".join(exc.messages))
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    code = _CODES.get(response.status_code, "error")
    if isinstance(exc, exceptions.ValidationError):
        code = "invalid"
    if isinstance(exc, exceptions.ParseError):
        code = "malformed_json"
    detail = _sentence(
        response.data.get("detail", response.data)
        if isinstance(response.data, dict)
        else response.data
    )
    if isinstance(exc, exceptions.Throttled):  # DRF's sentence names no unit a person reads
        detail = throttled_detail(exc.wait)
    response.data = {"error": code, "detail": detail}
    if isinstance(exc, exceptions.ValidationError) and isinstance(exc.detail, dict):
        response.data["fields"] = exc.detail
    return response


def query_int(
    request: Request,
    name: str,
    *,
    default: int | None = None,
    minimum: int = 0,
    maximum: int = MAX_WHOLE_NUMBER,
) -> int | None:
    """The whole-number query parameter ``name`` (``default`` when absent or empty).

    ASCII digits only, from ``minimum`` to ``maximum`` (herald.params.whole_number); anything
    else is a 400 ``invalid`` naming the parameter.
    """
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        return whole_number(raw, name=name, minimum=minimum, maximum=maximum)
    except BadNumber as exc:
        raise ApiError(400, "invalid", str(exc)) from None


def query_uuid(request: Request, name: str) -> uuid.UUID | None:
    """The UUID query parameter ``name`` (None when absent or empty); 400 when malformed."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    try:
        return uuid.UUID(raw)
    except ValueError:
        detail = gettext("The query parameter {name} must be a UUID such as a stream's id.").format(
            name=repr(name)
        )
        raise ApiError(400, "invalid", detail) from None


@csrf_exempt
def api_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """The JSON 404 of every /api/ path that matches no endpoint (a malformed id included)."""
    detail = gettext(
        "There is no API endpoint at {path} (or an id in it has the wrong form); "
        "the endpoints are listed at /api/schema/."
    ).format(path=repr(request.path))
    return JsonResponse({"error": "not_found", "detail": detail}, status=404)
