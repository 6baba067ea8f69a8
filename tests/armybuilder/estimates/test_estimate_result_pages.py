"""A large list-vs-list result is shown a page of rows at a time (`estimates.result_pages`):
the page and the API hold a bounded number of cells whatever the size, and what needs the whole
grid (totals, the best target of each unit) still counts every row."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from armybuilder.estimates.models import Estimate
from armybuilder.estimates.result_pages import API_PAGE_CELLS, PAGE_CELLS, api_result_page, row_page
from armybuilder.estimates.templatetags.estimate_charts import matrix_directions
from tests.factories.estimate_rows import stored_estimate


def cell(kills: float) -> dict:
    return {"expected_kills": kills, "p_destroyed": 0.25, "expected_points_destroyed": kills * 10,
            "points_efficiency": kills}


def result(rows: int, columns: int) -> dict:
    """List A of `rows` units against list B of `columns`; A's unit i kills i + j/100 of B's j."""
    return {"list_a": {"name": "Mine", "units": [f"A{i}" for i in range(rows)]},
            "list_b": {"name": "Theirs", "units": [f"B{j}" for j in range(columns)]},
            "fields": ["expected_kills"], "outcomes": {},
            "a_vs_b": [[cell(i + j / 100) for j in range(columns)] for i in range(rows)],
            "b_vs_a": [[cell(j + i / 100) for i in range(rows)] for j in range(columns)]}


def test_a_page_holds_whole_rows_up_to_the_cell_bound():
    page = row_page(rows=50, columns=50, page="2")
    assert (page.per_page, page.pages, page.start, page.stop) == (PAGE_CELLS // 50, 5, 10, 20)
    assert row_page(rows=50, columns=50, page="nonsense").number == 1
    assert row_page(rows=50, columns=50, page="99").number == 5  # past the end: the last page
    assert row_page(rows=3, columns=1000, page=1).per_page == 1  # one row at least


def test_the_heat_maps_draw_a_page_of_rows_with_totals_of_the_whole_grid():
    big = result(50, 50)
    mine, theirs = matrix_directions(big, "3")
    assert [row["name"] for row in mine["rows"]] == [f"A{i}" for i in range(20, 30)]
    assert sum(len(row["cells"]) for row in mine["rows"]) == PAGE_CELLS
    assert mine["column_totals"][0] == pytest.approx(sum(range(50)))  # every row counted
    # the best attacker against B49 (theirs: best along the column) is A49, on the last page
    assert not any(row["cells"][49]["best"] for row in theirs["rows"])
    last = matrix_directions(big, "5")[1]
    assert last["rows"][-1]["cells"][49]["best"]
    assert mine["rows"][0]["cells"][1]["title"] == ("20.01 models killed, 200.1 points destroyed, "
                                                    "25.0% to destroy")


def test_the_api_answers_a_page_of_rows_and_where_it_is():
    paged, where = api_result_page(result(50, 50), page="2")
    per_page = API_PAGE_CELLS // 50
    assert where == {"page": 2, "pages": 50 // per_page + (50 % per_page > 0), "rows_per_page": per_page,
                     "a_rows": [per_page, 2 * per_page], "b_rows": [per_page, 2 * per_page]}
    assert paged["a_vs_b"][0][0] == cell(per_page)
    assert len(paged["b_vs_a"]) == per_page
    small, where = api_result_page(result(2, 3), page=None)
    assert small == result(2, 3) and where["pages"] == 1


@pytest.mark.django_db
def test_the_page_and_the_api_of_a_50_by_50_job_are_bounded(client, owner):
    estimate = stored_estimate(kind=Estimate.Kind.LIST_VS_LIST, system="opr", owner=owner,
                               inputs={}, inputs_hash="big", status=Estimate.Status.DONE,
                               progress=1.0, result=result(50, 50))
    client.force_login(owner)
    page = client.get(f"/estimates/{estimate.pk}/?rows=2").content.decode()
    assert page.count('class="num heat') == 2 * PAGE_CELLS
    assert 'data-page="2" data-pages="5"' in page
    assert '<a href="?rows=3" rel="next">' in page and '<a href="?rows=1" rel="prev">' in page
    api = APIClient()
    api.force_authenticate(owner)
    body = api.get(f"/api/v1/estimates/{estimate.pk}", {"rows": "2"}).json()
    assert body["result_page"]["page"] == 2
    assert sum(len(row) for row in body["result"]["a_vs_b"]) == API_PAGE_CELLS
