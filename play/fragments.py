"""Parts of a table's drawing made once and served again: a shield's space, a player's tokens.

A move redraws the whole table for every socket, yet most of it is what the last drawing
showed: the spaces of the shields, the tokens in front of each player. Such a part is drawn by a
small template from the values it is given and nothing else (an isolated context, as
``{% include ... only %}``), so its HTML is a function of (template, language, values): this
module keeps it per process, keyed by exactly that, and the next drawing of the same values in
the same language (another seat's, the next move's) takes it from here. It cannot serve one
viewer's part to another unless the values are equal, in which case the HTML is too.

``{{ drawn("play/blazon/_space.svg.jinja", space=space) }}`` (play.jinja) draws through it.
The values must be plain data (dataclasses, lists, tuples, dicts, strings,
numbers, booleans, None): anything else raises TypeError rather than risk a key that does not
say everything the template reads.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from typing import Any

from herald.texts import active_language
from play.templating import render_to_string

_PLAIN = (str, int, float, bool, type(None))
#: Each kind of value by a name in the keys, never the type itself, and keys flat: a tuple that
#: holds a type, or tuples nested deep, stays tracked by the garbage collector while the cache
#: holds it. Such keys were about 17 tracked tuples a part: 1,081 parts of a Blazon game made a
#: full collection 16 ms longer (about 120 ms at the cache's 8,192), time in which a socket
#: server draws and sends nothing. A flat tuple of strings and numbers is untracked at its first
#: collection.
_PLAIN_NAMES: dict[type, str] = {kind: kind.__name__ for kind in _PLAIN}
_KINDS: dict[type, str] = dict(_PLAIN_NAMES)
_FIELDS: dict[type, tuple[str, ...]] = {}
_LIST, _DICT = "[", "{"  # never a kind's name: those are dotted, with an id
_STR = _PLAIN_NAMES[str]


def _kind_name(kind: type) -> str:
    """A name for ``kind`` no other live class has (the registry holds the class, so its id is
    never reused)."""
    name = _KINDS.get(kind)
    if name is None:
        name = _KINDS[kind] = f"{kind.__module__}.{kind.__qualname__}#{id(kind)}"
    return name


def _field_names(kind: type) -> tuple[str, ...]:
    names = _FIELDS.get(kind)
    if names is None:
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind))
    return names


def _plain_copy(value: Any) -> Any:
    """``value`` (an instance of a subclass of str, int or float) as a plain str, int or float."""
    if isinstance(value, str):
        return str.__str__(value)  # str() would give back the SafeString itself
    return int(value) if isinstance(value, int) else float(value)


def _mixed_order(pair: tuple[Any, Any]) -> tuple[str, str]:
    """A dict's items in one order whatever the kinds of its keys: by kind, then as text."""
    return (type(pair[0]).__name__, str(pair[0]))


def value_key(value: Any) -> tuple[Any, ...]:
    """A hashable key equal for equal values: a flat tuple of strings and numbers that spells
    the value out (each plain value after its kind's name, lists and dicts after their length,
    dicts' items sorted, dataclasses by kind and fields), so that two values with equal keys are
    equal. TypeError for any other kind of object."""
    out: list[Any] = []
    _spell(value, out)
    return tuple(out)


def _spell(value: Any, out: list[Any]) -> None:
    kind = type(value)
    name = _PLAIN_NAMES.get(kind)
    if name is not None:
        out += (name, value)  # True and 1 draw differently: the kind says which
    elif isinstance(value, _PLAIN):
        # A SafeString draws unescaped: its kind says so, and the value goes in as a plain
        # copy (an instance of a subclass of str is tracked, and so is a tuple holding one).
        out += (_kind_name(kind), _plain_copy(value))
    elif kind is list or kind is tuple:
        out += (_LIST, len(value))
        for item in value:
            if (name := _PLAIN_NAMES.get(type(item))) is not None:
                out += (name, item)  # in line: a Blazon drawing keys about 1,500 values a seat
            else:
                _spell(item, out)
    elif kind is dict:
        out += (_DICT, len(value))
        if all(type(key) is str for key in value):
            # The usual dict, keyed by strings: sorted by key alone, which is the order the
            # mixed case's (kind, text) gives them, and no key function to call per item.
            for key, item in sorted(value.items()):
                out += (_STR, key)
                if (name := _PLAIN_NAMES.get(type(item))) is not None:
                    out += (name, item)
                else:
                    _spell(item, out)
        else:
            for key, item in sorted(value.items(), key=_mixed_order):
                _spell(key, out)
                _spell(item, out)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        out.append(_kind_name(kind))  # its fields follow, as many as the kind has
        for field in _field_names(kind):
            item = getattr(value, field)
            if (name := _PLAIN_NAMES.get(type(item))) is not None:
                out += (name, item)
            else:
                _spell(item, out)
    else:
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
        key = (template, active_language(), value_key(values))
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self.hits += 1
                self._items.move_to_end(key)
                return found
        # A plain str, not the SafeString drawn: the garbage collector tracks those, and the
        # cache holds thousands (drawn() marks the HTML safe again).
        html = str.__str__(render_to_string(template, dict(values)))  # it may add to its context
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
