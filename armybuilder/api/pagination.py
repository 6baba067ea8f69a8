"""Page-number pagination for every collection: `?page=2&page_size=50` (at most 200)."""

from __future__ import annotations

from rest_framework import pagination


class PageNumberPagination(pagination.PageNumberPagination):
    """`{count, next, previous, results}`; a page past the end is a 404 `not_found`."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
