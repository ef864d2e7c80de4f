"""``makemessages`` that also reads the Jinja2 drawings (``*.jinja``, play/jinja.py).

Django's command reads a template through its own template lexer, which knows
``{% translate %}`` and ``{% blocktranslate %}`` but not a Jinja2 template's ``_()``,
``ngettext()`` and ``pgettext()`` calls. For a ``.jinja`` file this command asks Jinja2's own
extractor (``jinja2.ext.babel_extract``) for its messages and hands xgettext a Python file of
the same calls on the same lines, so the catalogue keeps their msgids and points at the
template. Run it with ``--extension html,txt,py,jinja`` (``make messages`` does).
"""

from __future__ import annotations

from functools import cached_property

from django.core.management.commands import makemessages
from jinja2.ext import GETTEXT_FUNCTIONS, babel_extract

JINJA_SUFFIX = ".jinja"
#: As play.jinja's environment reads the templates.
JINJA_OPTIONS = {"extensions": "jinja2.ext.i18n", "newstyle_gettext": "true", "trimmed": "false"}


def python_calls(message: str | tuple[str | None, ...], function: str) -> str:
    """The gettext call xgettext reads for one message Jinja2 found (the count as ``n``)."""
    if isinstance(message, str):
        return f"gettext({message!r})"
    texts = [text for text in message if text is not None]
    if function == "ngettext":
        return f"ngettext({texts[0]!r}, {texts[1]!r}, n)"
    if function == "npgettext":
        return f"npgettext({texts[0]!r}, {texts[1]!r}, {texts[2]!r}, n)"
    if function == "pgettext":
        return f"pgettext({texts[0]!r}, {texts[1]!r})"
    return f"gettext({texts[0]!r})"


def jinja_as_python(path: str) -> str:
    """The messages of the Jinja2 template at ``path`` as Python calls, each on its line."""
    with open(path, "rb") as template:
        found = list(babel_extract(template, GETTEXT_FUNCTIONS, [], JINJA_OPTIONS))
    lines = [""] * max((lineno for lineno, *_ in found), default=0)
    for lineno, function, message, _comments in found:
        if message is not None:
            lines[lineno - 1] += python_calls(message, function) + "; "
    return "\n".join(lines) + "\n"


class JinjaBuildFile(makemessages.BuildFile):
    """A file on its way to xgettext: a ``.jinja`` template goes as its messages' calls."""

    @cached_property
    def is_jinja(self) -> bool:
        return self.domain == "django" and self.translatable.file.endswith(JINJA_SUFFIX)

    @cached_property
    def is_templatized(self) -> bool:
        return self.is_jinja or bool(super().is_templatized)

    def preprocess(self) -> None:
        if not self.is_jinja:
            super().preprocess()
            return
        with open(self.work_path, "w", encoding="utf-8") as work:
            work.write(jinja_as_python(self.path))


class Command(makemessages.Command):
    build_file_class = JinjaBuildFile
