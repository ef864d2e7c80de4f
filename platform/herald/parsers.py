"""The API's JSON parser: DRF's, refusing bodies no endpoint needs (issue #12).

Kept apart from herald.api: DRF imports the default parser while it defines APIView, so this
module must not import rest_framework.views.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext
from rest_framework import exceptions, parsers

#: The deepest nesting a JSON body may have (the top-level object or array is level 1).
MAX_JSON_DEPTH = 32
#: The most values (object members and array items, all levels together) a JSON body may hold.
MAX_JSON_ITEMS = 10_000


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing bodies no endpoint needs before any view sees them.

    Python's parser raises RecursionError on input nested about a thousand deep (a 500 before
    this), and a body nested a few hundred deep parses but then breaks whatever walks it
    recursively (the engine, the canonical JSON). So: RecursionError is ``malformed_json``;
    deeper than MAX_JSON_DEPTH, more than MAX_JSON_ITEMS values, or a NUL character (which
    PostgreSQL cannot store in text or jsonb) is a 400 ``invalid``.
    """

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError(
                gettext("JSON parse error - the body is nested too deeply to be read")
            ) from None
        problem = json_shape_problem(data)
        if problem is not None:
            raise exceptions.ValidationError(problem)  # 400 invalid, with the sentence
        return data


def json_shape_problem(data: Any) -> str | None:
    """Why a parsed JSON body is refused (too deep, too many values, a NUL), or None.

    Walks the value with an explicit stack, so the check itself cannot recurse too deep.
    """
    stack: list[tuple[Any, int]] = [(data, 1)]
    items = 0
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            if "\x00" in value:
                return gettext(
                    "A string in the body holds a NUL character (\\u0000), which is refused."
                )
            continue
        if isinstance(value, dict):
            if any("\x00" in key for key in value):
                return gettext(
                    "A key in the body holds a NUL character (\\u0000), which is refused."
                )
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > MAX_JSON_DEPTH:
            return gettext("The body is nested deeper than {depth} levels.").format(
                depth=MAX_JSON_DEPTH
            )
        items += len(value)
        if items > MAX_JSON_ITEMS:
            return gettext("The body holds more than {items} values.").format(items=MAX_JSON_ITEMS)
        stack.extend((child, depth + 1) for child in children)
    return None
