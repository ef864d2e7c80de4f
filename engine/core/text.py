"""Sentences people read, as message ids with parameters, so the apps can translate them.

The engine knows no language but English and nothing of Django: every sentence that reaches a
person (a move in words, an effect, a refusal, an end reason) is a :class:`Text` whose ``msgid``
is the English template (``"{seat} does not hold {card}"``) and whose ``params`` fill it.
``str(text)`` is the English sentence exactly as the engine always wrote it (stored effects,
logs and the golden games keep their words); an app renders it in the viewer's language by
translating the msgid and each parameter (``herald.texts.render``).

Templates are written in the code as ``_("...", name=value)``: ``makemessages`` extracts the
literal first argument of ``_`` from ``engine/**.py``, so every template lands in the catalogue.
A parameter is a plain value (a number, a card or character name: names keep the rulebooks'
words in every language), a :class:`Seat` (the app shows the player's name), another
:class:`Text` (a word that is itself translated, e.g. a colour), or a tuple of those (shown
joined with ", ").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True, init=False)
class Seat:
    """A seat named in a sentence (0-based, as everywhere in the engine).

    In English without names it reads ``seat 2`` (the engine's own words); an app that knows
    the stream's players shows the player's name instead. Games name a seat in almost every
    effect they note, so ``Seat(n)`` hands out one shared (frozen) value per seat number.
    """

    index: int

    def __new__(cls, index: int) -> Seat:
        seat = _SEATS.get(index) if cls is Seat and type(index) is int else None
        if seat is None:
            seat = object.__new__(cls)
            object.__setattr__(seat, "index", index)
            if cls is Seat and type(index) is int and len(_SEATS) < _CACHED_SEATS:
                _SEATS[index] = seat
        return seat

    def __getnewargs__(self) -> tuple[int]:
        return (self.index,)

    def __str__(self) -> str:
        return f"seat {self.index}"


_SEATS: dict[int, Seat] = {}
_CACHED_SEATS = 64


@dataclass(frozen=True, slots=True)
class Text:
    """A sentence: its English template and the values that fill it."""

    msgid: str
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def __str__(self) -> str:
        return self.msgid.format(**{k: english(v) for k, v in self.params.items()})

    def __bool__(self) -> bool:
        return bool(self.msgid)

    def __hash__(self) -> int:
        return hash((self.msgid, tuple(sorted((k, repr(v)) for k, v in self.params.items()))))

    def to_json(self) -> dict[str, Any]:
        """``{"msgid", "params"}`` with seats as ``{"seat": n}`` and nested texts as objects."""
        return {"msgid": self.msgid, "params": {k: _param_json(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Text:
        """The inverse of :meth:`to_json`."""
        params = data.get("params") or {}
        return cls(str(data["msgid"]), {k: _param_from_json(v) for k, v in params.items()})


def _(msgid: str, /, **params: Any) -> Text:
    """A sentence of the engine: ``msgid`` is the English template, ``params`` fill it.

    Named ``_`` so that ``makemessages`` (xgettext's default keywords) extracts the template.
    Games note one on almost every move, so it is built without the frozen dataclass's
    ``__init__``: its two slots are written directly (the same fields; ``params`` is the
    call's own fresh dict, read-only).
    """
    text = _new(Text)
    _set_msgid(text, msgid)
    _set_params(text, _read_only(params))
    return text


_new = object.__new__
_read_only = MappingProxyType
# The slots' own setters: they write the field without the frozen class's ``__setattr__``.
_set_msgid = Text.__dict__["msgid"].__set__
_set_params = Text.__dict__["params"].__set__


def untranslated(sentence: str) -> Text:
    """A sentence that has no template (a game that writes plain strings): shown as it is."""
    return Text("{sentence}", MappingProxyType({"sentence": sentence}))


def as_text(value: Text | str) -> Text:
    """``value`` as a :class:`Text` (a plain string becomes a template without parameters)."""
    return value if isinstance(value, Text) else Text(value)


def english(value: Any) -> str:
    """A parameter in English, as ``str(Text)`` shows it."""
    if isinstance(value, tuple):
        return ", ".join(english(item) for item in value)
    return str(value)


def _param_json(value: Any) -> Any:
    if isinstance(value, Seat):
        return {"seat": value.index}
    if isinstance(value, Text):
        return value.to_json()
    if isinstance(value, tuple):
        return [_param_json(item) for item in value]
    return value


def _param_from_json(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"seat"}:
        return Seat(int(value["seat"]))
    if isinstance(value, dict) and "msgid" in value:
        return Text.from_json(value)
    if isinstance(value, list):
        return tuple(_param_from_json(item) for item in value)
    return value
