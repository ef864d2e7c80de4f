"""The platform's WSGI application with the toy game registered (for bench/append.py only)."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "herald.settings")

from django.core.wsgi import get_wsgi_application

application = get_wsgi_application()

from engine import registry  # noqa: E402
from tests.events.toy_game import GAME  # noqa: E402

registry._load()
registry._registry[GAME.id] = GAME
