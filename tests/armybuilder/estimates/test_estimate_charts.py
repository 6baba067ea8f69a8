"""The SVG charts and the heat-map matrix of a result, without a database."""

from __future__ import annotations

from armybuilder.estimates.charts import HEAT_STEPS, at_least, bar_chart, heat_colour, heat_step
from armybuilder.estimates.templatetags.estimate_charts import (
    matrix_directions,
    matrix_verdict,
    number,
    percent,
)


def cell(efficiency: float | None, kills: float = 1.0) -> dict:
    return {"expected_kills": kills, "p_destroyed": 0.0, "expected_points_destroyed": 10.0,
            "points_efficiency": efficiency}


RESULT = {
    "list_a": {"name": "Mine", "units": ["A0", "A1"]},
    "list_b": {"name": "Theirs", "units": ["B0", "B1", "B2"]},
    "a_vs_b": [[cell(10), cell(30), cell(20)], [cell(5), cell(None), cell(7)]],
    "b_vs_a": [[cell(1), cell(2)], [cell(8), cell(3)], [cell(None), cell(None)]],
}


def test_both_maps_have_my_units_as_rows_and_theirs_as_columns():
    mine, theirs = matrix_directions(RESULT)
    for direction in (mine, theirs):
        assert [row["name"] for row in direction["rows"]] == ["A0", "A1"]
        assert direction["columns"] == ["B0", "B1", "B2"]
    # The second map reads b_vs_a transposed: row A1, column B1 is B1 attacking A1.
    assert theirs["rows"][1]["cells"][1]["points_efficiency"] == 3


def test_the_best_target_of_each_of_my_units_is_starred_along_its_row():
    mine, _theirs = matrix_directions(RESULT)
    assert [[c["best"] for c in row["cells"]] for row in mine["rows"]] == [[False, True, False],
                                                                         [False, False, True]]
    assert [[c["top"] for c in row["cells"]] for row in mine["rows"]] == [[False, True, False],
                                                                        [False, False, False]]


def test_the_best_target_of_each_of_their_units_is_starred_down_its_column():
    _mine, theirs = matrix_directions(RESULT)
    assert [[c["best"] for c in row["cells"]] for row in theirs["rows"]] == [[False, True, False],
                                                                           [True, False, False]]


def test_a_cell_without_efficiency_is_never_best_and_shows_a_dash():
    mine, theirs = matrix_directions(RESULT)
    assert mine["rows"][1]["cells"][1]["best"] is False
    assert not any(row["cells"][2]["best"] for row in theirs["rows"])
    assert number(None) == "–" and percent(None) == "–"
    assert number(12.345, 1) == "12.3" and percent(0.256) == "25.6%"


def test_heat_colours_run_from_white_to_green_with_the_best_value():
    assert heat_colour(0, 10) == "#ffffff"
    assert heat_colour(10, 10) == "#4ade80"
    assert heat_colour(5, 0) == "#ffffff"


def test_at_least_is_the_tail_sum_of_the_distribution():
    assert at_least([0.25, 0.5, 0.25]) == [1.0, 0.75, 0.25]


def test_a_bar_chart_is_a_labelled_svg_with_one_bar_per_value():
    svg = bar_chart([0.1, 0.6, 0.3], title="Kills", description="A chart", x_label="k")
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert 'role="img"' in svg and "<title>Kills</title>" in svg and "<desc>A chart</desc>" in svg
    assert svg.count("<rect") == 3
    assert "60%" in svg


def test_maps_without_any_efficiency_headline_the_expected_kills():
    """A system without points (AoS 1st) has a null efficiency in every cell."""
    def kills(*grid: list[float]) -> list[list[dict]]:
        return [[cell(None, k) for k in row] for row in grid]

    result = {**RESULT, "a_vs_b": kills([1, 3, 2], [0.5, 0, 4]), "b_vs_a": kills([1, 2], [8, 3], [0, 0])}
    mine, theirs = matrix_directions(result)
    assert mine["headline"] == theirs["headline"] == "expected_kills"
    assert [[c["headline"] for c in row["cells"]] for row in mine["rows"]] == [[1, 3, 2], [0.5, 0, 4]]
    assert [[c["best"] for c in row["cells"]] for row in mine["rows"]] == [[False, True, False],
                                                                         [False, False, True]]
    assert theirs["rows"][0]["cells"][1]["best"] is True  # B1 does most to A0


def test_one_efficiency_is_enough_to_headline_efficiency():
    mine, theirs = matrix_directions(RESULT)
    assert mine["headline"] == theirs["headline"] == "points_efficiency"


def test_heat_shades_are_classes_whose_colours_the_stylesheet_holds():
    """No `style=` on a cell (the CSP has no 'unsafe-inline' for styles); each of the
    shades a cell can take has its rule in estimates.css, in the colour `heat_colour` gives."""
    from pathlib import Path

    css = (Path(__file__).resolve().parents[3] / "static/css/estimates.css").read_text()
    assert (heat_step(0, 10), heat_step(5, 10), heat_step(10, 10), heat_step(3, 0)) == (0, 10, 20, 0)
    for step in range(HEAT_STEPS + 1):
        assert f".heatmap td.heat-{step} {{ background-color: {heat_colour(step, HEAT_STEPS)}; }}" in css
def test_figures_are_rounded_not_cut_off():
    """Django's number_format cuts a float's digits: 1.9999 attacks read "1.99" (issue 30, item 8)."""
    assert number(1.9999, 2) == "2.00"
    assert number(1.995, 2) == "2.00"
    assert number(0.125, 2) == "0.13"
    assert number(12.25, 1) == "12.3"
    assert percent(0.99996) == "100.0%"


def test_rows_and_columns_carry_the_totals_of_their_figures():
    mine, theirs = matrix_directions(RESULT)
    assert [row["total"] for row in mine["rows"]] == [60, 12]
    assert mine["column_totals"] == [15, 30, 27]
    assert mine["total"] == 72
    # Their map: B0 did 1 and 2, B1 8 and 3, B2 nothing to A0 and A1.
    assert theirs["column_totals"] == [3, 11, None]
    assert [row["total"] for row in theirs["rows"]] == [9, 5]


def test_the_verdict_names_the_list_that_comes_out_ahead_and_by_how_much():
    verdict = matrix_verdict(RESULT)
    # A: (10+30+20+5+7)/5 = 14.4 per pairing; B: (1+2+8+3)/4 = 3.5.
    assert verdict["leader"] == "a"
    assert verdict["a"] == 14.4 and verdict["b"] == 3.5
    assert verdict["text"] == (
        "List A (Mine) comes out ahead by 10.9 points destroyed per 100 points: its units average "
        "14.4 against 3.5 for List B (Theirs)."
    )


def test_the_verdict_of_two_equal_lists_is_even():
    grid = [[cell(4)]]
    result = {"list_a": {"name": "X", "units": ["a"]}, "list_b": {"name": "X", "units": ["b"]},
              "a_vs_b": grid, "b_vs_a": grid}
    verdict = matrix_verdict(result)
    assert verdict["leader"] == ""
    assert verdict["text"] == "The two lists come out even: 4.0 on average each way."
