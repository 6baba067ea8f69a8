"""Plain pages that belong to no feature: the home page."""

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.templatetags.static import static


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def favicon(request: HttpRequest) -> HttpResponse:
    """/favicon.ico, which browsers ask for whatever the page links: the site's icon."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))
