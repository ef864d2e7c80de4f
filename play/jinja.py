"""The Jinja2 environment of the table drawings (``play/jinja2/``, templates named ``*.jinja``).

A move redraws the table for every socket of its stream, and most of a drawing's time went to
walking Django templates (bench/live.py, issue #19): the same table drawn from the same
context takes about 0.6 of the time in Jinja2, which compiles a template to Python. So the
games' table drawings are Jinja2 templates, through Django's own Jinja2 backend
(settings.TEMPLATES): ``render_to_string`` finds a template in either engine by its name, so
the fragment, the socket's frames, the replay and ``play.fragments`` draw them as before; the
table page is handed its table drawn (play.rendering.page_context). The pages around them
stay Django templates.

The environment keeps what the Django templates gave the drawings:
- Django's translations (``_``, ``gettext``, ``ngettext``, ``pgettext``), each message looked
  up once per language in the process, new style: a sentence's variables are escaped and put
  in the translated sentence, whose msgids are those ``{% blocktranslate %}`` made
  (``make messages`` extracts them, herald's makemessages);
- a template's last newline, as Django keeps it;
- ``drawn()`` for a part made once per values (play.fragments), ``include_django()`` for a
  Django template the pages share with the drawings (the game-over facts, presence), and
  ``static()`` for a static file's address;
- a name or key that is not there draws nothing and is false, as in a Django template: the
  engine's views leave out what a viewer may not see (a face-down token has no colour), and
  the templates test for it.
"""

from __future__ import annotations

from typing import Any

import jinja2
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.translation import gettext, ngettext, npgettext, pgettext
from markupsafe import Markup

from herald.texts import per_language
from play.fragments import fragments


def drawn(template_name: str, **values: Any) -> Markup:
    """``template_name`` drawn with ``values`` alone, made once per values and language in
    this process (play.fragments)."""
    # The template escaped what it drew, as any template does.
    return Markup(fragments.draw(template_name, _as_django_passes(values)))


def include_django(template_name: str, **values: Any) -> Markup:
    """A Django template drawn with ``values`` alone (a part the games share)."""
    return Markup(render_to_string(template_name, _as_django_passes(values)))


def _as_django_passes(values: dict[str, Any]) -> dict[str, Any]:
    """``values`` with a name that is not there as "", what a Django tag is passed for it (a
    replay's table has no presence; its game-over panel, no verification)."""
    for name, value in values.items():
        if isinstance(value, jinja2.Undefined):
            values[name] = ""
    return values


def environment(**options: Any) -> jinja2.Environment:
    """The environment Django's Jinja2 backend draws ``play/jinja2/`` with."""
    options["undefined"] = jinja2.ChainableUndefined  # Django's default, in debug or not
    options["keep_trailing_newline"] = True
    env = jinja2.Environment(extensions=["jinja2.ext.i18n"], **options)
    # Each message looked up once per language in this process (herald.texts.per_language):
    # a drawing asks Jinja for some fifteen sentences, each through the active translation and
    # its fallbacks, for every seat after every move.
    env.install_gettext_callables(  # type: ignore[attr-defined]  # added by the i18n extension
        per_language(gettext),
        per_language(ngettext),
        newstyle=True,
        pgettext=per_language(pgettext),
        npgettext=per_language(npgettext),
    )
    env.globals.update(drawn=drawn, include_django=include_django, static=static)
    return env
