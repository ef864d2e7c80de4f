"""Playing games to the end through the event store's services, as the API would."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import engine
from engine.bots import RandomBot
from events.models import Stream
from events.services import stream_append_move, stream_open
from events.states import current_state
from ratings.verification import game_verify_and_rate


def play_stream(stream: Stream, *, bot_seed: str = "bots", stop_after: int | None = None) -> Stream:
    """Let random bots play ``stream`` (to the end, or ``stop_after`` moves); returns it fresh."""
    game = engine.get(stream.game)
    bots: dict[int, RandomBot] = {}
    played = 0
    while stop_after is None or played < stop_after:
        stream.refresh_from_db()
        state = current_state(stream)
        seats = game.to_act(state)
        if not seats:
            break
        seat = seats[0]
        bot = bots.setdefault(seat, RandomBot(f"{bot_seed}/{stream.pk}/{seat}"))
        move = bot.choose(game, state, seat, game.legal_moves(state, seat))
        stream_append_move(
            stream_id=stream.pk, seat=seat, move=move.to_json(), expected_version=stream.version
        )
        played += 1
    stream.refresh_from_db()
    return stream


def play_to_end(
    users: Sequence[Any],
    *,
    game_id: str = "toy-draw",
    turns: int = 8,
    bot_seed: str = "bots",
    options: Mapping[str, Any] | None = None,
) -> Stream:
    """Open a stream for ``users`` and play it to the end (toy games last ``turns`` plays)."""
    if options is None and game_id == "toy-draw":
        options = {"turns": turns}
    stream = stream_open(game_id=game_id, seats=list(users), options=options)
    return play_stream(stream, bot_seed=bot_seed)


def rated_history(count: int, finished: Callable[..., Any], *, seed: str = "history") -> list[Any]:
    """``count`` games played by bots (``seed``), verified and rated, over rotating tables of
    four; ``finished`` is the ratings tests' fixture that plays one."""
    streams = []
    for index in range(count):
        stream = finished(4, first=index % 3, bot_seed=f"{seed}-{index}")
        game_verify_and_rate(stream_id=stream.pk)
        streams.append(stream)
    return streams
