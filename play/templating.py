"""Drawing a template by name, with the table drawings (``*.jinja``) asked of Jinja2 alone.

Django's ``render_to_string`` asks each engine of settings.TEMPLATES in turn, Django's first
(the pages' names must be found there first). For a drawing's ``.jinja`` name Django's engine
misses, and a miss raises ``TemplateDoesNotExist``: an exception whose traceback and frames
refer to each other, garbage that only the cyclic collector frees. A seat's drawing asks for
three such names or more (the table, its fragments), so these misses were nearly all the
cyclic garbage a socket server made (about 550 objects a move of Les 7 Blasons, four seats),
and they set the pace of its garbage collections, each of which holds up the moves drawn
meanwhile (herald.quietgc). :func:`render_to_string` draws a ``.jinja`` name with the Jinja2
engine straight away, and any other name as Django does.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.template import engines, loader

#: The alias of the Jinja2 engine in settings.TEMPLATES (the backend module's name).
JINJA2 = "jinja2"


def render_to_string(
    template_name: str, context: dict[str, Any] | None = None, request: HttpRequest | None = None
) -> str:
    """``template_name`` drawn with ``context``: as Django's ``render_to_string`` draws it,
    without asking Django's engine for a drawing's ``.jinja`` name first."""
    if template_name.endswith(".jinja"):
        return str(engines[JINJA2].get_template(template_name).render(context, request))
    return loader.render_to_string(template_name, context, request)
