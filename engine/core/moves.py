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
            cls.TYPE: decoder for cls in classes if (decoder := _fast_decoder(cls)) is not None
        }

    @property
    def direct_decoders(self) -> Mapping[str, Callable[[dict[str, Any]], Move | None]]:
        """Per move type, the direct decoder :meth:`decode` tries first: it returns the move
        for well-formed data of that type, else None (then :meth:`decode` says what is wrong).
        Replay's loop calls them itself (engine/core/replay.py)."""
        return self._fast

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
        all ``int``, ``str``, ``bool`` or tuples of one of them is built directly: every field
        present with exactly its type (a tuple as a list of items of exactly the item type),
        nothing else but ``"type"``. Anything else takes the full decoder, which gives the
        same move or says precisely what is wrong.
        """
        if type(data) is dict:
            kind = data.get("type")
            if type(kind) is str:
                decoder = self._fast.get(kind)
                if decoder is not None:
                    move = decoder(data)
                    if move is not None:
                        return move
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

#: A field's fast decoding: its name, its type (``int``/``str``/``bool``) and whether the
#: field is a tuple of that type (a JSON list) rather than one value.
_FieldKind = tuple[str, type, bool]


def _flat_field_kinds(cls: type[Move]) -> tuple[_FieldKind, ...] | None:
    """Each field's :data:`_FieldKind`, in order, when every field is an int, str or bool or a
    ``tuple[X, ...]`` of one of them; else None (the full decoder handles the class)."""
    try:
        hints = typing.get_type_hints(cls)
    except (NameError, TypeError):  # a hint that does not resolve: the full decoder copes
        return None
    kinds: list[_FieldKind] = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        if hint in _FLAT_KINDS:
            kinds.append((f.name, hint, False))
            continue
        args = typing.get_args(hint)
        if typing.get_origin(hint) is tuple and args[1:] == (Ellipsis,) and args[0] in _FLAT_KINDS:
            kinds.append((f.name, args[0], True))
            continue
        return None
    return tuple(kinds)


def _fast_decoder(cls: type[Move]) -> Callable[[dict[str, Any]], Move | None] | None:
    """A function building a well-formed move of ``cls`` from its JSON dict, or returning None
    for anything else (for the full decoder to refuse in words); None for a class whose fields
    are not all :func:`_flat_field_kinds`. Classes of single values (the common case) take
    :func:`_flat_decoder`."""
    kinds = _flat_field_kinds(cls)
    if kinds is None:
        return None
    size = len(kinds) + 1
    if not kinds:  # a move without fields: always the same (frozen) value
        only = cls()
        return lambda data: only if len(data) == 1 else None
    if not any(seq for _, _, seq in kinds):
        return _flat_decoder(cls, kinds)

    def mixed(data: dict[str, Any]) -> Move | None:
        if len(data) != size:
            return None
        values: list[Any] = []
        for name, kind, seq in kinds:
            value = data.get(name, _MISSING)
            if seq:
                if type(value) is not list:
                    return None
                for item in value:
                    if type(item) is not kind:
                        return None
                value = tuple(value)
            elif type(value) is not kind:
                return None
            values.append(value)
        return cls(*values)

    return mixed


#: How many distinct moves of one class :func:`_flat_decoder` keeps (a game has a few hundred).
_CACHED_MOVES = 4096


def _flat_decoder(
    cls: type[Move], kinds: tuple[_FieldKind, ...]
) -> Callable[[dict[str, Any]], Move | None]:
    """The fast decoder of a class whose fields are single ints, strs or bools. Moves are
    frozen values, so a move decoded before is handed out again rather than built anew: the
    values, their exact types checked first, are the key (so ``True`` never finds ``1``'s)."""
    size = len(kinds) + 1
    cache: dict[tuple[Any, ...], Move] = {}

    def remember(key: tuple[Any, ...]) -> Move:
        move = cls(*key)
        if len(cache) < _CACHED_MOVES:
            cache[key] = move
        return move

    if len(kinds) == 1:
        ((name, kind, _),) = kinds

        def one(data: dict[str, Any]) -> Move | None:
            value = data.get(name, _MISSING)
            if len(data) != size or type(value) is not kind:
                return None
            key = (value,)
            return cache.get(key) or remember(key)

        return one
    if len(kinds) == 2:
        (name1, kind1, _), (name2, kind2, _) = kinds

        def two(data: dict[str, Any]) -> Move | None:
            first, second = data.get(name1, _MISSING), data.get(name2, _MISSING)
            if len(data) != size or type(first) is not kind1 or type(second) is not kind2:
                return None
            key = (first, second)
            return cache.get(key) or remember(key)

        return two
    names = tuple(name for name, _, _ in kinds)
    types = tuple(kind for _, kind, _ in kinds)

    def many(data: dict[str, Any]) -> Move | None:
        if len(data) != size:
            return None
        key = tuple([data.get(name, _MISSING) for name in names])
        for value, kind in zip(key, types):  # noqa: B905 (same length by construction)
            if type(value) is not kind:
                return None
        return cache.get(key) or remember(key)

    return many
