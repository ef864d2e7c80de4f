"""OpenAPI extensions for drf-spectacular (imported when the herald app is ready)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object


class SeatTokenScheme(OpenApiAuthenticationExtension):
    """The move endpoint's token authentication: the same ``Authorization: Token <key>``.

    It is a subclass of DRF's ``TokenAuthentication``; without its own scheme name the schema
    generator finds two classes under ``tokenAuth`` and warns that the schema may be wrong
    (which also fails ``manage.py check --deploy --fail-level WARNING``).
    """

    target_class = "events.access.SeatTokenAuthentication"
    name = "seatTokenAuth"

    def get_security_definition(self, auto_schema: Any) -> Any:
        return build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix=self.target.keyword
        )
