"""Plain pages that belong to no feature: the home page."""

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.templatetags.static import static

from rules.systems.registry import all_systems


def home(request: HttpRequest) -> HttpResponse:
    """The home page; its list of game systems is the registry's, in the systems' own order."""
    return render(request, "home.html", {"systems": all_systems()})


def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for whatever the page links: the site's icon."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))
