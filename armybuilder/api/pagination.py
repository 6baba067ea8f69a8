"""Page-number pagination for every collection: `?page=2&page_size=50` (at most 200)."""

from __future__ import annotations

from typing import Any

from rest_framework import pagination


class PageNumberPagination(pagination.PageNumberPagination):
    """`{count, next, previous, results}`; a page past the end is a 404 `not_found`."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
    #: Highest page number asked for (no collection comes near 200 million rows); past it, a 400
    #: naming `page`, not a database offset computed from any 19-digit number.
    max_page = 1_000_000

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        """`page` and `page_size` with their bounds, which the query check enforces."""
        return [
            {"name": self.page_query_param, "in": "query", "required": False,
             "description": f"A page number, from 1 to {self.max_page}.",
             "schema": {"type": "integer", "minimum": 1, "maximum": self.max_page}},
            {"name": self.page_size_query_param, "in": "query", "required": False,
             "description": f"Results per page, at most {self.max_page_size}.",
             "schema": {"type": "integer", "minimum": 1, "maximum": self.max_page_size}},
        ]
