"""The examples in the pairing docstrings are run, so they stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "brackets",
    "checks",
    "layout",
    "factory",
    "sizes",
    "stages",
    "seasons",
    "standings",
    "swiss",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"tournaments.pairing.{name}")
    failed, attempted = doctest.testmod(module)
    assert attempted > 0
    assert failed == 0
