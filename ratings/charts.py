"""The rating chart: the conservative rating μ − 3σ after each rated game, as SVG geometry.

Drawn on the server (``ratings/rating_chart.html`` turns this geometry into SVG): no script, no
CDN, nothing the CSP refuses, and it prints. The x axis counts the player's own rated games
(1, 2, ...), the y axis is the rating; the box is a fixed viewBox the SVG scales to its width.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from ratings.selectors import RatingPoint

#: The drawing's viewBox and the plot area inside it (room on the left and below for labels).
WIDTH, HEIGHT = 420, 210
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 36
#: Gridlines on the rating axis.
Y_TICKS = 4


@dataclass(frozen=True)
class ChartPoint:
    """One rated game on the chart: where it is drawn and what it stands for."""

    game: int  # the player's n-th rated game in the pool, from 1
    value: float
    x: float
    y: float


@dataclass(frozen=True)
class Tick:
    """A mark on an axis at ``at`` along it, labelled with ``value`` (the template writes it in
    the viewer's language: 2.5 in English, 2,5 in French; the coordinates stay in points)."""

    at: float
    value: float


@dataclass(frozen=True)
class RatingChart:
    """Everything the template needs to draw the chart."""

    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    points: list[ChartPoint]
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    low: float
    high: float
    first: float
    last: float

    @property
    def polyline(self) -> str:
        """The ``points`` attribute of the SVG polyline (empty for a single game)."""
        if len(self.points) < 2:
            return ""
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)


def _nice_bounds(low: float, high: float) -> tuple[float, float, float]:
    """Axis bounds around ``low``..``high`` on a round step, and that step."""
    span = high - low
    if span < 1:  # one game, or a flat history: show a band of a few points around it
        low, high, span = low - 1, high + 1, 2.0
    raw = span / Y_TICKS
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


def _x_ticks(count: int, x_of: dict[int, float]) -> list[Tick]:
    """The first and last game, and a few between when there are many."""
    if count <= 6:
        games = list(range(1, count + 1))
    else:
        games = sorted({1, count, *(round(1 + i * (count - 1) / 4) for i in range(1, 4))})
    return [Tick(x_of[game], game) for game in games]


def rating_chart(history: Sequence[RatingPoint]) -> RatingChart | None:
    """The chart of ``history`` (oldest first), or None when the player has no rated game."""
    if not history:
        return None
    values = [point.conservative for point in history]
    low, high, step = _nice_bounds(min(values), max(values))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    count = len(values)

    def x_at(game: int) -> float:
        # A single game sits in the middle; otherwise the first and last touch the edges.
        return LEFT + plot_w / 2 if count == 1 else LEFT + (game - 1) * plot_w / (count - 1)

    def y_at(value: float) -> float:
        return TOP + (high - value) * plot_h / (high - low)

    x_of = {game: x_at(game) for game in range(1, count + 1)}
    points = [
        ChartPoint(game, value, x_of[game], y_at(value))
        for game, value in enumerate(values, start=1)
    ]
    ticks = round((high - low) / step)
    y_ticks = [Tick(y_at(low + i * step), round(low + i * step, 6)) for i in range(ticks + 1)]
    return RatingChart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=WIDTH - RIGHT,
        top=TOP,
        bottom=HEIGHT - BOTTOM,
        points=points,
        y_ticks=y_ticks,
        x_ticks=_x_ticks(count, x_of),
        low=min(values),
        high=max(values),
        first=values[0],
        last=values[-1],
    )
