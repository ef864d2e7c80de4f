"""Engine sentences in the viewer's language: one renderer for every app.

The engine gives :class:`engine.core.Text` values: an English template (the msgid, found in
``locale/<lang>/LC_MESSAGES/django.po`` because ``makemessages`` extracts the engine's ``_()``
templates) and parameters. :func:`render` translates the template with Django's ``gettext``
(the active language: the request's, set by ``LocaleMiddleware``), renders each parameter the
same way (a nested :class:`Text`, a list joined with commas) and shows a :class:`Seat` as the
player's name when the caller passes the stream's players, else as "seat n" counted from 1.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from typing import Any, ParamSpec, TypeVar

from django.utils import translation
from django.utils.translation import get_language, gettext

from engine.core import Seat, Text

P = ParamSpec("P")
T = TypeVar("T")


#: The language of the drawing under way (:func:`speaking`), None outside one.
_speaking: ContextVar[str | None] = ContextVar("herald_speaking", default=None)


@contextlib.contextmanager
def speaking(language: str) -> Iterator[None]:
    """``translation.override(language)`` for a drawing, the language held where
    :func:`active_language` reads it. Inside, change the language only with another
    ``speaking`` (a bare ``translation.override`` would not be seen by the words made once per
    language)."""
    with translation.override(language):
        token = _speaking.set(get_language())
        try:
            yield
        finally:
            _speaking.reset(token)


def active_language() -> str | None:
    """Django's ``get_language()``, read from :func:`speaking` inside a drawing.

    A drawing asks for the active language with every sentence and every part it takes from
    a cache made per language: some hundreds of times a seat. ``get_language`` finds the active
    translation through asgiref's ``Local`` (about 2 µs a call here, against 0.02 µs for a
    context variable): 8% of a drawing process's time at bench/live.py's level 3."""
    held = _speaking.get()
    return held if held is not None else get_language()


def per_language(words: Callable[P, T]) -> Callable[P, T]:
    """``words`` made once per arguments and language in this process, for a function whose
    result depends on its (hashable) arguments and the active language alone: a table of
    ``gettext`` calls, a card's face, a space's name. A live table is drawn again for every
    seat after every move, and each ``gettext`` looks its message up through the active
    translation and its fallbacks. Callers must not change what it returns."""
    made = functools.lru_cache(maxsize=4096)(_with_language(words))

    @functools.wraps(words)
    def in_active_language(*args: P.args, **kwargs: P.kwargs) -> T:
        return made(active_language(), *args, **kwargs)  # type: ignore[arg-type]

    return in_active_language


def _with_language(words: Callable[P, T]) -> Callable[..., T]:
    def made_in(language: str | None, *args: Any, **kwargs: Any) -> T:
        return words(*args, **kwargs)  # the language is active: it is only the cache's key

    return made_in


@functools.lru_cache(maxsize=4096)
def _translated(language: str | None, msgid: str) -> str:
    return gettext(msgid)


def render(text: Text | str, names: Sequence[str] | None = None) -> str:
    """``text`` in the active language, seats shown by ``names`` (0-based) when given."""
    if isinstance(text, str):
        return gettext(text) if text else text
    params = {key: _param(value, names) for key, value in text.params.items()}
    # An engine's msgids are its sentences' templates, a fixed set: each is looked up once per
    # language (the last moves and the decision are drawn for every seat after every move).
    translated = _translated(active_language(), text.msgid) if text.msgid else text.msgid
    try:
        return translated.format(**params)
    except (KeyError, IndexError, ValueError):
        # A translation whose placeholders do not match its msgid: the English stays readable.
        return text.msgid.format(**params)


def render_json(message: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """An effect's ``message`` as a view carries it (``Text.to_json``), rendered."""
    return render(Text.from_json(message), names)


def seat_words(index: int, names: Sequence[str] | None = None) -> str:
    """A seat as a person reads it: the player's name, or "seat 3" (counted from 1)."""
    if names is not None and 0 <= index < len(names) and names[index]:
        return names[index]
    return gettext("seat {number}").format(number=index + 1)


def _param(value: Any, names: Sequence[str] | None) -> str:
    if isinstance(value, Seat):
        return seat_words(value.index, names)
    if isinstance(value, Text):
        return render(value, names)
    if isinstance(value, (tuple, list)):
        return ", ".join(_param(item, names) for item in value)
    return str(value)
