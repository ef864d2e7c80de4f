"""Work a server process does once at its start rather than in its first requests.

Django imports the URLconf (and with it every view, serializer and form) on the first request
a process answers, builds the URLconf's reverse lookup on the first ``reverse()`` in each
language, loads each language's translations on first use, and compiles each template the first
time it is drawn. Measured on the development machine, a fresh gunicorn worker's first move
took 0.25 s of CPU for the imports alone, and a table socket's first drawing paid for compiling
the table's templates: the first player to move after a deploy or a worker's restart waited for
it, and so did every seat watching. The reverse lookup alone took a drawing process's first table 60-110 ms (a fresh
process after the rest of the warm-up; bench/live.py, 2026-12-07), in English and again in
French: each drawing process's first move was the slowest push of level 1. :func:`warm_up` pays
it all while the process starts, before it takes connections.
"""

from __future__ import annotations

import gc
import logging
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.template import TemplateDoesNotExist, TemplateSyntaxError
from django.template.loader import get_template
from django.urls import get_resolver
from django.utils import translation

from engine import registry

logger = logging.getLogger(__name__)

#: The apps whose templates are drawn live (table frames, tournament regions): compiled ahead.
LIVE_APPS = ("play", "tournaments")

#: Young collections between two full ones (Python's default is 10). A full collection scans
#: every object the process tracks and stops the event loop and the drawing thread while it
#: runs; a socket server holds some 300 tracked objects a socket, so at 1,250 sockets each took
#: 150-190 ms, every 15-30 s (bench/live.py, level 3), and the frames of every move drawn
#: meanwhile waited: the push p99 went from about 80 to 114-176 ms. Ten times fewer, the same
#: run had none in its minute. Cyclic garbage that survived the young generations waits that
#: much longer; the rest (reference counting frees most objects) is unchanged.
FULL_COLLECTION_AFTER = 100

#: Net new tracked objects between two young collections (Python's default is 700). The Jinja2
#: drawings (play/jinja.py) make more short-lived containers than the Django ones did, so the
#: young collections came about four times as often, and the full ones with them: at level 3 a
#: socket server made three full collections of 170-230 ms in its minute, and the push p99 was
#: 331 ms. Ten times fewer young collections (about 5 ms each instead of 0.4, and 21 ms for the
#: middle ones) left one full collection and a p99 of 121 ms (bench/live.py, 2026-12-06).
YOUNG_COLLECTION_AFTER = 7_000


def warm_up() -> None:
    """Import the URLconf and its views, build its reverse lookup and load the translations in
    every language, load the games' editions and compile the live pages' templates. Never
    raises: a fault here shows again, with its page, on the request that meets it."""
    try:
        resolver = get_resolver()
        resolver.url_patterns  # noqa: B018  (the property imports the URLconf)
        for code, _name in settings.LANGUAGES:
            with translation.override(code):  # loads the language's catalogs
                resolver.reverse_dict  # noqa: B018  (built per language, by the first reverse())
        registry.games()
        for name in live_template_names():
            get_template(name)
    except (ImportError, TemplateDoesNotExist, TemplateSyntaxError) as exc:
        logger.warning("warm-up stopped: %s", exc)
    # What the start made (modules, the URLconf, the compiled templates, the editions) lives as
    # long as the process: out of the collector's generations, a full collection (which stops
    # the event loop and every drawing while it runs) scans only what the requests made.
    gc.freeze()
    _, middle, _ = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_AFTER, middle, FULL_COLLECTION_AFTER)


#: Where each engine finds an app's templates, and how they are named (settings.TEMPLATES).
TEMPLATE_DIRS = (("templates", "*.html"), ("jinja2", "*.jinja"))


def live_template_names() -> list[str]:
    """The template names of :data:`LIVE_APPS` in either engine, as ``get_template`` takes
    them."""
    names = []
    for label in LIVE_APPS:
        for folder, pattern in TEMPLATE_DIRS:
            root = Path(apps.get_app_config(label).path) / folder
            names += sorted(str(path.relative_to(root)) for path in root.rglob(pattern))
    return names
