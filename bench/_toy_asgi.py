"""The platform's ASGI application with the toy game registered (for bench/append.py only)."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "herald.settings")

from engine import registry
from herald.asgi import application
from tests.events.toy_game import GAME

registry._load()
registry._registry[GAME.id] = GAME

__all__ = ["application"]
