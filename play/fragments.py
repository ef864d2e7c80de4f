"""Parts of a table's drawing made once and served again: a shield's space, a player's tokens.

A move redraws the whole table for every socket, yet most of it is what the last drawing
showed: the spaces of the shields, the tokens in front of each player. Such a part is drawn by a
small template from the values it is given and nothing else (an isolated context, as
``{% include ... only %}``), so its HTML is a function of (template, language, values): this
module keeps it per process, keyed by exactly that, and the next drawing of the same values in
the same language (another seat's, the next move's) takes it from here. It cannot serve one
viewer's part to another unless the values are equal, in which case the HTML is too.

``{% drawn "play/blazon/_space.svg.html" space=space %}`` (play.templatetags.fragments) draws
through it. The values must be plain data (dataclasses, lists, tuples, dicts, strings,
numbers, booleans, None): anything else raises TypeError rather than risk a key that does not
say everything the template reads.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

_PLAIN = (str, int, float, bool, type(None))
_PLAIN_KINDS = frozenset(_PLAIN)
_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(kind: type) -> tuple[str, ...]:
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind))
    return names


def value_key(value: Any) -> Any:
    """A hashable key equal for equal values: dataclasses by type and fields, lists and tuples
    as tuples, dicts as sorted items. TypeError for any other kind of object."""
    kind = type(value)
    if kind in _PLAIN_KINDS or isinstance(value, _PLAIN):
        return (kind, value)  # True and 1 draw differently, a SafeString and a str too
    # The plain items are keyed in line: a Blazon drawing keys about 1,500 values per seat.
    if kind is list or kind is tuple:
        return tuple([(type(v), v) if type(v) in _PLAIN_KINDS else value_key(v) for v in value])
    if kind is dict:
        items = [
            (str(k), (type(v), v) if type(v) in _PLAIN_KINDS else value_key(v))
            for k, v in value.items()
        ]
        return ("dict", tuple(sorted(items)))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = [getattr(value, name) for name in _field_names(kind)]
        return (
            kind,
            tuple([(type(v), v) if type(v) in _PLAIN_KINDS else value_key(v) for v in fields]),
        )
    raise TypeError(f"a drawn fragment's value must be plain data, not {kind.__name__}")


class Fragments:
    """The HTML of drawn parts, per (template, language, values); bounded, least recently
    used out, shared by the threads of a process."""

    def __init__(self, size: int = 8192) -> None:
        self.size = size
        self._items: OrderedDict[Any, str] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def draw(self, template: str, values: dict[str, Any]) -> str:
        """The template drawn with ``values`` alone, in the active language."""
        key = (template, translation.get_language(), value_key(values))
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self.hits += 1
                self._items.move_to_end(key)
                return found
        html = render_to_string(template, dict(values))  # a template may add to its context
        with self._lock:
            self.misses += 1
            self._items[key] = html
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return html

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.hits = self.misses = 0


fragments = Fragments()
