"""A list-vs-list result shown a page of rows at a time, so a view costs the same at any size.

A 50×50 job's result page drew 5,000 heat-map cells (1.06 s of CPU and 2.15 MB of HTML per
view); its API answer carried every cell too. Now a view holds at most `PAGE_CELLS` cells of
each matrix (rows of list A's units on the page, every column), and what needs the whole
grid is computed from it without drawing it: each row's and column's total, the best target
of each unit (★), the verdict. The API answers a page of rows the same way (`API_PAGE_CELLS`,
more per page: a client draws nothing), with where it is in `result_page`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

#: Heat-map cells per matrix a page draws (two matrices per page).
PAGE_CELLS = 500
#: Cells per matrix an API answer holds.
API_PAGE_CELLS = 1000


@dataclass(frozen=True)
class RowPage:
    """Rows `start` to `stop` (exclusive) of `count`; page `number` of `pages`."""

    number: int
    pages: int
    per_page: int
    start: int
    stop: int
    count: int

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.pages

    @property
    def previous_number(self) -> int:
        return self.number - 1

    @property
    def next_number(self) -> int:
        return self.number + 1

    @property
    def first_row(self) -> int:
        """The first row shown, counted from 1."""
        return self.start + 1


def row_page(*, rows: int, columns: int, page: Any, cells: int = PAGE_CELLS) -> RowPage:
    """Page `page` (a number or the query's text; anything else is page 1, past the end the last
    page) of `rows` rows of `columns` cells each, at most `cells` cells (one row at least)."""
    per_page = max(1, cells // max(1, columns))
    pages = max(1, math.ceil(rows / per_page))
    try:
        number = int(page)
    except (TypeError, ValueError):
        number = 1
    number = min(max(1, number), pages)
    start = (number - 1) * per_page
    return RowPage(number=number, pages=pages, per_page=per_page, start=start,
                   stop=min(rows, start + per_page), count=rows)


def api_result_page(result: dict[str, Any], *, page: Any) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A list-vs-list result with page `page` of each matrix's rows (list A's units attacking in
    `a_vs_b`, list B's in `b_vs_a`, each its own rows), and where it is: `{page, pages,
    rows_per_page, a_rows: [first, last+1], b_rows: [...]}`. Any other result is unchanged."""
    if not isinstance(result, dict) or "a_vs_b" not in result or "b_vs_a" not in result:
        return result, None
    a_rows, b_rows = len(result["a_vs_b"]), len(result["b_vs_a"])
    widest = max(b_rows, a_rows, 1)  # a row of a_vs_b has len(B) cells, of b_vs_a len(A)
    paging = row_page(rows=max(a_rows, b_rows), columns=widest, page=page, cells=API_PAGE_CELLS)
    paged = {**result, "a_vs_b": result["a_vs_b"][paging.start:paging.stop],
             "b_vs_a": result["b_vs_a"][paging.start:paging.stop]}
    return paged, {"page": paging.number, "pages": paging.pages, "rows_per_page": paging.per_page,
                   "a_rows": [min(paging.start, a_rows), min(paging.stop, a_rows)],
                   "b_rows": [min(paging.start, b_rows), min(paging.stop, b_rows)]}
