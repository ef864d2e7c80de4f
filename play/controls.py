"""A legal move drawn as a control at the table, shared by the games' drawings."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass
class Control:
    """One legal move as a button: its words and its JSON (``data-move``)."""

    label: str
    move: dict[str, Any]

    @property
    def json(self) -> str:
        """The move as the API takes it, for ``data-move``."""
        return json.dumps(self.move, sort_keys=True)
