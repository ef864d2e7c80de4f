"""Engine errors. Each carries a sentence a person understands."""

from __future__ import annotations

from engine.core.text import Text, as_text


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class _Refusal(EngineError, ValueError):
    """An error whose sentence is a :class:`~engine.core.text.Text`: ``str(error)`` is the
    English sentence, ``error.text`` the template and parameters an app translates."""

    def __init__(self, text: Text | str) -> None:
        self.text = as_text(text)
        super().__init__(str(self.text))


class IllegalMove(_Refusal):
    """A well-formed move that the rules do not allow now; the message says why."""


class BadMove(_Refusal):
    """A move whose shape is wrong: not an object, unknown type, missing or mistyped field."""


class InvalidOptions(_Refusal):
    """Game options, player count or edition that the game cannot be set up with."""


class EditionDataError(EngineError, ValueError):
    """An edition's data file that does not describe the game: the message names the file and
    the row (or card) at fault. Raised at import, when a game loads its ``data/`` files."""


class UnknownGame(EngineError, KeyError):
    """No registered game has this id."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"


class ReplayError(EngineError):
    """A logged game that does not replay: the step and the reason."""

    def __init__(self, step: int, reason: str) -> None:
        super().__init__(f"step {step}: {reason}")
        self.step = step
        self.reason = reason
