"""Engine errors. Each carries a sentence a person understands."""


class EngineError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalMove(EngineError, ValueError):
    """A well-formed move that the rules do not allow now; the message says why."""


class BadMove(EngineError, ValueError):
    """A move whose shape is wrong: not an object, unknown type, missing or mistyped field."""


class InvalidOptions(EngineError, ValueError):
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
