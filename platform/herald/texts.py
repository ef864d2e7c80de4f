"""Engine sentences in the viewer's language: one renderer for every app.

The engine gives :class:`engine.core.Text` values: an English template (the msgid, found in
``locale/<lang>/LC_MESSAGES/django.po`` because ``makemessages`` extracts the engine's ``_()``
templates) and parameters. :func:`render` translates the template with Django's ``gettext``
(the active language: the request's, set by ``LocaleMiddleware``), renders each parameter the
same way (a nested :class:`Text`, a list joined with commas) and shows a :class:`Seat` as the
player's name when the caller passes the stream's players, else as "seat n" counted from 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext

from engine.core import Seat, Text


def render(text: Text | str, names: Sequence[str] | None = None) -> str:
    """``text`` in the active language, seats shown by ``names`` (0-based) when given."""
    if isinstance(text, str):
        return gettext(text) if text else text
    params = {key: _param(value, names) for key, value in text.params.items()}
    translated = gettext(text.msgid) if text.msgid else text.msgid
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
