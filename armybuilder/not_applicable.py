"""A page that says why a feature does not apply to a list, instead of a bare "Not found".

A view raises `armybuilder.lists.errors.NotApplicable` with the reason in a player's words
(the points audit of a list whose system is priced from its book, an Army Forge export of a
system Army Forge does not have, another force for a list not built in one). The API answers it
as a 404 whose message is the reason (`armybuilder.api.exceptions`); a page gets this one: still
a 404, in the reader's language, with the reason and the way back to the list it was asked of.
Every other 404 is Django's, as before.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse

from armybuilder.lists.errors import NotApplicable

#: The status of the page: the address names nothing this list has (a 4xx, as before).
STATUS = 404


def _list_url(request: HttpRequest) -> str:
    """The address of the list the request was about (by id, or by its share link), or ""."""
    match = getattr(request, "resolver_match", None)
    kwargs = match.kwargs if match is not None else {}
    try:
        if kwargs.get("token"):
            return reverse("lists:shared", args=[kwargs["token"]])
        if kwargs.get("list_id"):
            return reverse("lists:detail", args=[kwargs["list_id"]])
    except NoReverseMatch:
        pass
    return ""


def not_applicable_page(request: HttpRequest, error: NotApplicable) -> HttpResponse:
    """The page for `error`: its reason, and a link back to the list."""
    reason = str(error.args[0]) if error.args else ""
    return render(request, "not_applicable.html", {"reason": reason, "list_url": _list_url(request)},
                  status=STATUS)


class NotApplicableMiddleware:
    """Answers a page's `NotApplicable` with `not_applicable_page` (in debug mode too, where
    Django would show its technical 404)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, NotApplicable):
            return not_applicable_page(request, exception)
        return None
