"""A server process imports its views and compiles the live templates before its first request,
then keeps what its start made out of the collector and makes full collections rarer."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from herald.warmup import FULL_COLLECTION_AFTER, YOUNG_COLLECTION_AFTER, live_template_names

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import sys
import {module}
from django.template import engines
loader = engines["django"].engine.template_loaders[0]
print("views" if "events.views" in sys.modules and "tournaments.pages" in sys.modules else "-")
print(len(loader.get_template_cache), len(engines["jinja2"].env.cache))
import gc
print(gc.get_freeze_count(), gc.get_threshold()[0], gc.get_threshold()[2])
from django.urls import get_resolver
from django.utils.translation import trans_real
print(",".join(sorted(get_resolver()._reverse_dict)), ",".join(sorted(trans_real._translations)))
"""


@pytest.mark.parametrize("module", ["herald.wsgi", "herald.asgi"])
def test_the_server_module_warms_up_on_import(module: str) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "platform")]),
        "DJANGO_SETTINGS_MODULE": "herald.settings",
    }
    probe = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    views, compiled, jinja_compiled, frozen, young_after, full_after, reversed_in, loaded = (
        probe.stdout.split()
    )
    assert views == "views"
    names = live_template_names()
    assert int(compiled) >= len([name for name in names if not name.endswith(".jinja")])
    assert int(jinja_compiled) == len([name for name in names if name.endswith(".jinja")]) > 20
    assert int(frozen) > 10_000  # the modules, the URLconf, the templates, the editions
    assert int(young_after) == YOUNG_COLLECTION_AFTER != 700  # 700: Python's own
    assert int(full_after) == FULL_COLLECTION_AFTER != 10  # 10: Python's own
    # The reverse lookup (the first reverse() in each language) and the translations, built.
    languages = ",".join(sorted(code for code, _ in settings.LANGUAGES))
    assert reversed_in == languages == "en,fr"
    assert set(languages.split(",")) <= set(loaded.split(","))


def test_the_live_templates_include_each_games_table() -> None:
    names = live_template_names()
    for game in ("blazon", "sept_blasons", "treize_couronnes"):
        assert any(name.startswith(f"play/{game}/") for name in names)
    assert "play/table.html" in names
