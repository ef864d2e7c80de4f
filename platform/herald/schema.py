"""The OpenAPI schema: drf-spectacular's generator with the shared refusals declared, and the
extensions it needs (imported when the herald app is ready)."""

from __future__ import annotations

from typing import Any

from drf_spectacular import openapi
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from knox.settings import knox_settings

from herald.api import ErrorSerializer

#: The refusals any operation may answer, whatever its own declaration lists.
_ALWAYS = {
    "401": "Not authenticated: a token or session is needed, or the token given is invalid.",
    "403": "Not allowed: the caller may not do this.",
}
_WITH_PATH_IDS = {"404": "No such object (or one the caller may not see)."}
_WITH_INPUT = {"400": "Invalid input: a query parameter or the body is malformed or refused."}
_WITH_BODY = {
    "413": "The request body is larger than the limit.",
    "415": "The body is not JSON.",
}
_THROTTLED = {"429": "Too many requests: wait and try again."}


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's schema, with every refusal the contract can answer declared.

    Views declare their success and the refusals of their own logic; the ones every view
    shares (bad token, no such id in the path, malformed query or body, throttled) are added
    here with the error body, so a client (or schemathesis) knows every status it may meet.
    """

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        for code, description in self._shared_refusals().items():
            if code not in responses:
                response = self._get_response_for_code(ErrorSerializer, code, direction=direction)
                responses[code] = {**response, "description": description}
        return responses

    def _shared_refusals(self) -> dict[str, str]:
        refusals = dict(_ALWAYS)
        has_path_ids = "{" in self.path
        has_body = self.method in {"POST", "PUT", "PATCH"}
        has_query = any(p.get("in") == "query" for p in self._get_parameters())
        if has_path_ids:
            refusals.update(_WITH_PATH_IDS)
        if has_body or has_query:
            refusals.update(_WITH_INPUT)
        if has_body:
            refusals.update(_WITH_BODY)
        if self.view.get_throttles():
            refusals.update(_THROTTLED)
        return refusals


class TokenScheme(OpenApiAuthenticationExtension):
    """The API's token authentication (expiring knox tokens): ``Authorization: Token <key>``."""

    target_class = "herald.authentication.ExpiringTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> Any:
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix=knox_settings.AUTH_HEADER_PREFIX
        )


class SeatTokenScheme(TokenScheme):
    """The move endpoint's token authentication: the same ``Authorization: Token <key>``.

    It is a subclass of the site's token authentication; without its own scheme name the
    schema generator finds two classes under one name and warns that the schema may be wrong
    (which also fails ``manage.py check --deploy --fail-level WARNING``).
    """

    target_class = "events.access.SeatTokenAuthentication"
    name = "seatTokenAuth"
