"""The rating chart: SVG drawn on the server, one point per rated game, its extremes where the
rating history has them; one game and no game handled; nothing the CSP would refuse."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation

from ratings.charts import rating_chart
from ratings.models import RatingChange
from ratings.selectors import RatingPoint
from tests.busy_player import busy_player
from tests.users import make_user

SVG = "{http://www.w3.org/2000/svg}"


def svg_of(html: str) -> ET.Element:
    found = re.search(r"<svg.*?</svg>", html, flags=re.S)
    assert found is not None, "no chart on the page"
    return ET.fromstring(found.group(0))


def circles(svg: ET.Element) -> list[ET.Element]:
    return list(svg.iter(f"{SVG}circle"))


def drawn(history: list[float]) -> ET.Element:
    chart = rating_chart([RatingPoint(i, value) for i, value in enumerate(history, start=1)])
    html = render_to_string(
        "ratings/rating_chart.html", {"chart": chart, "chart_id": "c", "chart_title": "Ann"}
    )
    return svg_of(html)


def test_each_game_is_a_point_and_the_extremes_are_the_histories() -> None:
    history = [3.5, 7.25, -1.0, 12.0, 9.5, 9.5, 11.0]
    svg = drawn(history)
    points = circles(svg)
    assert len(points) == len(history)
    values = [float(p.get("data-value", "nan")) for p in points]
    assert values == history
    by_height = sorted(points, key=lambda p: float(p.get("cy", "nan")))
    assert float(by_height[0].get("data-value", "nan")) == max(history)  # highest on top
    assert float(by_height[-1].get("data-value", "nan")) == min(history)
    xs = [float(p.get("cx", "nan")) for p in points]
    assert xs == sorted(xs)
    assert len(set(xs)) == len(xs)
    line = next(svg.iter(f"{SVG}polyline"))
    assert len(line.get("points", "").split()) == len(history)
    assert svg.findtext(f"{SVG}title") == "Ann"
    assert "lowest -1.0, highest 12.0" in (svg.findtext(f"{SVG}desc") or "")
    assert svg.get("role") == "img"


def test_one_game_is_one_point_and_no_line() -> None:
    svg = drawn([4.2])
    assert len(circles(svg)) == 1
    assert list(svg.iter(f"{SVG}polyline")) == []
    assert "after 1 rated game: 4.2" in (svg.findtext(f"{SVG}desc") or "")


def test_no_game_is_a_sentence_not_an_empty_chart() -> None:
    assert rating_chart([]) is None
    html = render_to_string("ratings/rating_chart.html", {"chart": None})
    assert "<svg" not in html
    assert "No rated game yet" in html


def test_a_flat_history_still_has_a_y_range() -> None:
    svg = drawn([5.0, 5.0, 5.0])
    heights = {p.get("cy") for p in circles(svg)}
    assert len(heights) == 1
    labels = [t.text for t in svg.iter(f"{SVG}text")]
    assert "4" in labels
    assert "6" in labels


def test_coordinates_are_not_localised_in_french() -> None:
    """Decimal commas would break the SVG's numbers: the chart stays in points in French."""
    with translation.override("fr"):
        chart = rating_chart([RatingPoint(1, 1.25), RatingPoint(2, 2.75)])
        html = render_to_string("ratings/rating_chart.html", {"chart": chart, "chart_id": "c"})
    svg = svg_of(html)
    for point in circles(svg):
        float(point.get("cx", "x"))
        float(point.get("cy", "x"))
        float(point.get("data-value", "x"))


@pytest.mark.parametrize(("language", "mark"), [("en", "."), ("fr", ",")])
def test_the_axis_labels_are_written_in_the_viewers_language(language: str, mark: str) -> None:
    """A reader sees 1.5 in English and 1,5 in French on the rating axis."""
    with translation.override(language):
        chart = rating_chart([RatingPoint(1, 1.25), RatingPoint(2, 2.75)])
        html = render_to_string("ratings/rating_chart.html", {"chart": chart, "chart_id": "c"})
    labels = [t.text or "" for t in svg_of(html).iter(f"{SVG}text")]
    fractional = [label for label in labels if "." in label or "," in label]
    assert fractional, labels
    assert all(mark in label for label in fractional), labels


@pytest.mark.django_db
def test_the_player_history_page_draws_the_history() -> None:
    busy = busy_player()
    user = busy.player.user
    changes = list(RatingChange.objects.filter(player=user, current=True).order_by("sequence"))
    pool_id = changes[0].pool_id
    html = Client().get(reverse("rating-pages:player-history", args=[pool_id, user.pk]))
    assert html.status_code == 200
    svg = svg_of(html.content.decode())
    values = [float(p.get("data-value", "nan")) for p in circles(svg)]
    expected = [c.mu_after - 3 * c.sigma_after for c in changes]
    assert values == pytest.approx(expected, abs=0.006)  # drawn to two decimals
    assert "<script" not in html.content.decode()
    assert " style=" not in re.search(r"<svg.*?</svg>", html.content.decode(), re.S).group(0)  # type: ignore[union-attr]


@pytest.mark.django_db
def test_a_player_with_no_game_in_the_pool_gets_no_chart() -> None:
    busy = busy_player()
    pool_id = RatingChange.objects.filter(player=busy.player.user).first().pool_id  # type: ignore[union-attr]
    newcomer = make_user("newcomer")
    html = Client().get(reverse("rating-pages:player-history", args=[pool_id, newcomer.pk]))
    assert html.status_code == 200
    assert "<svg" not in html.content.decode()
    assert "No rated game yet" in html.content.decode()
