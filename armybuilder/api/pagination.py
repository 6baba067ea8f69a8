"""Page-number pagination for every collection: `?page=2&page_size=50` (at most 200)."""

from __future__ import annotations

from typing import Any

from rest_framework import pagination


class PageNumberPagination(pagination.PageNumberPagination):
    """`{count, next, previous, results}`; a page past the end is a 404 `not_found`."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        """`page` and `page_size` with their bounds, which the query check enforces."""
        return [
            {"name": self.page_query_param, "in": "query", "required": False,
             "description": "A page number, from 1.", "schema": {"type": "integer", "minimum": 1}},
            {"name": self.page_size_query_param, "in": "query", "required": False,
             "description": f"Results per page, at most {self.max_page_size}.",
             "schema": {"type": "integer", "minimum": 1, "maximum": self.max_page_size}},
        ]
