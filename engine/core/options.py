"""Game options: declared once with defaults; unknown keys and bad values are refused.

Each game lists its :class:`Option` values; :func:`normalize_options` validates what a client
sent and fills in the defaults, and :func:`options_schema` gives the JSON schema clients see.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.core.errors import InvalidOptions
from engine.core.text import _

OptionKind = Literal["boolean", "integer", "string", "integer-set"]


@dataclass(frozen=True)
class Option:
    """One option: its name, kind, default and allowed values."""

    name: str
    kind: OptionKind
    default: Any
    description: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None

    def schema(self) -> dict[str, Any]:
        """This option as a JSON schema property."""
        schema: dict[str, Any] = {"description": self.description, "default": self._plain_default()}
        if self.kind == "integer-set":
            schema.update({"type": "array", "uniqueItems": True, "items": {"type": "integer"}})
            if self.choices:
                schema["items"]["enum"] = list(self.choices)
            return schema
        schema["type"] = self.kind
        if self.choices:
            schema["enum"] = list(self.choices)
        if self.minimum is not None:
            schema["minimum"] = self.minimum
        if self.maximum is not None:
            schema["maximum"] = self.maximum
        return schema

    def _plain_default(self) -> Any:
        return list(self.default) if isinstance(self.default, (tuple, list)) else self.default

    def validate(self, value: Any) -> Any:
        """The value in canonical form, or :class:`InvalidOptions` saying what is wrong."""
        if self.kind == "boolean":
            if not isinstance(value, bool):
                raise InvalidOptions(_("option {name} must be true or false", name=repr(self.name)))
            return value
        if self.kind == "integer-set":
            return self._validate_set(value)
        if self.kind == "integer":
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidOptions(
                    _("option {name} must be a whole number", name=repr(self.name))
                )
            self._check_range(value)
        elif not isinstance(value, str):
            raise InvalidOptions(_("option {name} must be a string", name=repr(self.name)))
        if self.choices and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise InvalidOptions(
                _(
                    "option {name} must be one of {allowed}, not {value}",
                    name=repr(self.name), allowed=allowed, value=repr(value),
                )
            )  # fmt: skip
        return value

    def _check_range(self, value: int) -> None:
        if self.minimum is not None and value < self.minimum:
            raise InvalidOptions(
                _(
                    "option {name} must be at least {minimum}",
                    name=repr(self.name),
                    minimum=self.minimum,
                )
            )
        if self.maximum is not None and value > self.maximum:
            raise InvalidOptions(
                _(
                    "option {name} must be at most {maximum}",
                    name=repr(self.name),
                    maximum=self.maximum,
                )
            )

    def _validate_set(self, value: Any) -> list[int]:
        if not isinstance(value, (list, tuple)) or any(
            isinstance(v, bool) or not isinstance(v, int) for v in value
        ):
            raise InvalidOptions(
                _("option {name} must be a list of whole numbers", name=repr(self.name))
            )
        if len(set(value)) != len(value):
            raise InvalidOptions(_("option {name} lists a value twice", name=repr(self.name)))
        bad = [v for v in value if self.choices and v not in self.choices]
        if bad:
            allowed = ", ".join(str(c) for c in self.choices)
            raise InvalidOptions(
                _(
                    "option {name} allows only {allowed}; got {bad}",
                    name=repr(self.name),
                    allowed=allowed,
                    bad=bad[0],
                )
            )
        return sorted(value)


def options_schema(options: Sequence[Option]) -> dict[str, Any]:
    """The JSON schema of a game's options object (unknown keys refused)."""
    return {
        "type": "object",
        "properties": {option.name: option.schema() for option in options},
        "additionalProperties": False,
    }


def normalize_options(options: Sequence[Option], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Validate ``given`` against the declared options and fill in every default."""
    given = dict(given or {})
    if not isinstance(given, dict):
        raise InvalidOptions(_("options must be a JSON object"))
    declared = {option.name: option for option in options}
    unknown = sorted(set(given) - set(declared))
    if unknown:
        known = ", ".join(sorted(declared)) or "none"
        raise InvalidOptions(
            _(
                "unknown option {name}; this game's options are: {known}",
                name=repr(unknown[0]), known=known,
            )
        )  # fmt: skip
    return {
        name: option.validate(given[name]) if name in given else option.validate(option.default)
        for name, option in declared.items()
    }
