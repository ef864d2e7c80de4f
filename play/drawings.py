"""The games drawn at the live table, and how each is drawn.

One :class:`Drawing` per game: the function that turns the engine's view of one seat (or the
public view) and that seat's legal moves into what the game's templates draw, the function that
puts the final result on it, and the templates. The table page, its fragment, the socket's
frames and the replay viewer all draw through :func:`drawing_for`, so a game added here is
drawn everywhere at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from play import blazon, sept_blasons, treize_couronnes


class Draw(Protocol):
    """A game's ``table_for``: the template's ``table`` for ``view`` and its legal moves.

    The drawing speaks to the view's seat ("Your turn", "you"), unless ``onlooker``: the view
    is drawn for someone looking over that seat's shoulder (an arbiter's replay, every hand
    shown), and its words name the seat as they name the others."""

    def __call__(
        self, view: dict[str, Any], legal_moves: list[dict[str, Any]], names: list[str], *,
        onlooker: bool = False,
    ) -> Any: ...  # fmt: skip


@dataclass(frozen=True)
class Drawing:
    """How one game is drawn: ``draw(view, legal_moves, names)`` gives the template's ``table``;
    ``add_result(table, result, names)`` adds the game-over panel's figures to it."""

    game_id: str
    draw: Draw
    add_result: Callable[[Any, dict[str, Any] | None, list[str]], Any]
    template: str  # the table's root element (the fragment the page swaps)
    title_template: str  # the tab's title: "Your turn — …" first when it is
    # The static stylesheets of the table: the shared one, then the game's own if any.
    stylesheets: tuple[str, ...] = ("play/table.css",)
    # The replay's words for an effect's details (what was drawn, dealt, shuffled):
    # ``effect_words(kind, data, names)``; None (or a None answer) shows the values plainly.
    effect_words: Callable[[str, dict[str, Any], list[str]], str | None] | None = None


DRAWINGS: dict[str, Drawing] = {
    sept_blasons.GAME_ID: Drawing(
        game_id=sept_blasons.GAME_ID,
        draw=sept_blasons.table_for,
        add_result=sept_blasons.add_result,
        template="play/sept_blasons/table.jinja",
        title_template="play/sept_blasons/title.jinja",
        effect_words=sept_blasons.effect_words,
    ),
    treize_couronnes.GAME_ID: Drawing(
        game_id=treize_couronnes.GAME_ID,
        draw=treize_couronnes.table_for,
        add_result=treize_couronnes.add_result,
        template="play/treize_couronnes/table.jinja",
        title_template="play/treize_couronnes/title.jinja",
        stylesheets=("play/table.css", "play/treize_couronnes.css"),
    ),
    blazon.GAME_ID: Drawing(
        game_id=blazon.GAME_ID,
        draw=blazon.table_for,
        add_result=blazon.add_result,
        template="play/blazon/table.jinja",
        title_template="play/blazon/title.jinja",
        stylesheets=("play/table.css", "play/blazon.css"),
        effect_words=blazon.effect_words,
    ),
}


def drawing_for(game_id: str) -> Drawing | None:
    """The game's drawing, or None for a game not drawn at the table yet."""
    return DRAWINGS.get(game_id)
