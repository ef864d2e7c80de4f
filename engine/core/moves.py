"""Moves: small frozen dataclasses with an exact JSON round trip.

A game declares its move classes with :func:`move_type` and collects them in a :class:`MoveSet`,
which decodes client JSON into moves and says precisely what is wrong with a malformed one.

>>> from dataclasses import dataclass
>>> @move_type("play")
... @dataclass(frozen=True, slots=True)
... class Play(Move):
...     card: int
>>> Play(3).to_json()
{'type': 'play', 'card': 3}
>>> MoveSet(Play).decode({"type": "play", "card": 3}) == Play(3)
True
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, TypeVar

from engine.core.codec import from_plain, to_plain
from engine.core.errors import BadMove
from engine.core.text import _

M = TypeVar("M", bound="Move")


@dataclasses.dataclass(frozen=True, slots=True)
class Move:
    """Base class of every move. Subclasses are frozen dataclasses named by ``TYPE``."""

    TYPE: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        """``{"type": TYPE, **fields}`` with tuples as lists; ``from_json`` reverses it exactly."""
        data: dict[str, Any] = {"type": self.TYPE}
        for field in dataclasses.fields(self):
            data[field.name] = to_plain(getattr(self, field.name))
        return data


def move_type(name: str) -> Callable[[type[M]], type[M]]:
    """Class decorator giving a move class its JSON ``type`` name."""

    def decorate(cls: type[M]) -> type[M]:
        cls.TYPE = name
        return cls

    return decorate


class MoveSet:
    """The move classes of one game, and the decoder of their JSON form."""

    def __init__(self, *classes: type[Move]) -> None:
        self._by_type: dict[str, type[Move]] = {}
        for cls in classes:
            if not cls.TYPE:
                raise TypeError(f"{cls.__name__} has no move type name")
            if cls.TYPE in self._by_type:
                raise TypeError(f"two move classes are named {cls.TYPE!r}")
            self._by_type[cls.TYPE] = cls
        self._fast = {
            cls.TYPE: (cls, kinds)
            for cls in classes
            if (kinds := _flat_field_kinds(cls)) is not None
        }

    @property
    def types(self) -> tuple[str, ...]:
        """The move type names, in declaration order."""
        return tuple(self._by_type)

    def classes(self) -> tuple[type[Move], ...]:
        """The move classes, in declaration order."""
        return tuple(self._by_type.values())

    def decode(self, data: Any) -> Move:
        """Build a move from JSON data, or raise :class:`BadMove` saying what is wrong.

        Replay decodes thousands of moves, so a well-formed move of a class whose fields are
        all ``int``, ``str`` or ``bool`` is built directly: every field present with exactly
        its type, nothing else but ``"type"``. Anything else takes the full decoder, which
        gives the same move or says precisely what is wrong.
        """
        if type(data) is dict:
            kind = data.get("type")
            entry = self._fast.get(kind) if type(kind) is str else None
            if entry is not None and len(data) == len(entry[1]) + 1:
                cls, kinds = entry
                values = [data.get(name, _MISSING) for name, _ in kinds]
                if all(type(v) is t for v, (_, t) in zip(values, kinds, strict=True)):
                    return cls(*values)
        return self._decode_checked(data)

    def _decode_checked(self, data: Any) -> Move:
        if not isinstance(data, Mapping):
            raise BadMove(_('a move must be a JSON object with a "type" field'))
        kind = data.get("type")
        if not isinstance(kind, str):
            raise BadMove(_('a move needs a "type" field naming the kind of move'))
        cls = self._by_type.get(kind)
        if cls is None:
            known = ", ".join(sorted(self._by_type))
            raise BadMove(
                _(
                    "unknown move type {kind}; this game knows: {known}",
                    kind=repr(kind),
                    known=known,
                )
            )
        fields = {f.name for f in dataclasses.fields(cls)}
        extra = sorted(set(data) - fields - {"type"})
        if extra:
            raise BadMove(
                _(
                    "move {kind} has unexpected fields: {fields}",
                    kind=repr(kind),
                    fields=tuple(extra),
                )
            )
        missing = sorted(fields - set(data))
        if missing:
            raise BadMove(
                _("move {kind} is missing fields: {fields}", kind=repr(kind), fields=tuple(missing))
            )
        body = {key: value for key, value in data.items() if key != "type"}
        try:
            return from_plain(cls, body)
        except (TypeError, ValueError) as exc:
            raise BadMove(
                _("move {kind} is malformed: {problem}", kind=repr(kind), problem=str(exc))
            ) from None


_MISSING = object()
_FLAT_KINDS = (int, str, bool)


def _flat_field_kinds(cls: type[Move]) -> tuple[tuple[str, type], ...] | None:
    """``(name, type)`` of each field, in order, when all are int/str/bool; else None."""
    try:
        hints = typing.get_type_hints(cls)
    except (NameError, TypeError):  # a hint that does not resolve: the full decoder copes
        return None
    kinds = tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))
    if all(kind in _FLAT_KINDS for _, kind in kinds):
        return kinds
    return None
