"""The values an admin change form would send back as it is drawn (inputs, selects,
textareas, the inlines' management forms), for tests that post it with a few changes."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any


class _Form(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.values: dict[str, Any] = {}
        self._select: str | None = None
        self._selected: list[str] = []
        self._multiple = False
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in ("submit", "button", "file"):
            if a.get("type") in ("checkbox", "radio"):
                if "checked" in a:
                    self._add(name, a.get("value", "on"))
            else:
                self.values[name] = a.get("value", "")
        elif tag == "select" and name:
            self._select, self._selected, self._multiple = name, [], "multiple" in a
        elif tag == "option" and self._select is not None and "selected" in a:
            self._selected.append(a.get("value", ""))
        elif tag == "textarea" and name:
            self._textarea = name
            self.values[name] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select is not None:
            if self._multiple:
                self.values[self._select] = self._selected
            elif self._selected:
                self.values[self._select] = self._selected[0]
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            value = self.values[self._textarea]  # a browser drops the newline after the tag
            self.values[self._textarea] = value[1:] if value.startswith("\n") else value
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self.values[self._textarea] += data

    def _add(self, name: str, value: str) -> None:
        if name in self.values:
            old = self.values[name]
            self.values[name] = [*(old if isinstance(old, list) else [old]), value]
        else:
            self.values[name] = value


def form_values(html: str) -> dict[str, Any]:
    """Every field of the page's forms with the value it is drawn with."""
    parser = _Form()
    parser.feed(html)
    return parser.values
