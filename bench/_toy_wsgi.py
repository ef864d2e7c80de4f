"""The platform's WSGI application with the toy game registered (for bench/append.py only).

It is ``herald.wsgi``'s, as gunicorn serves it in production: with the server process's
warm-up and its garbage collector's thresholds (herald.warmup). Paths under ``/bare/`` go to
bench/_bare_wsgi.py instead, so the benchmark's ceiling is served by the very same gunicorn
workers as the platform.
"""

import os
from collections.abc import Callable, Iterable
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "herald.settings")

from bench import _bare_wsgi
from engine import registry
from herald.wsgi import application as platform
from tests.events.toy_game import GAME

registry._load()
registry._registry[GAME.id] = GAME


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    if environ["PATH_INFO"].startswith("/bare/"):
        return _bare_wsgi.application(environ, start_response)
    return platform(environ, start_response)
