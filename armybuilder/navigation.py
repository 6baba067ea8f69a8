"""The site's main navigation, as the `nav_links` context that `templates/base.html` renders.

Each feature adds its page here, one line each: (URL name, label, who sees it). Links to
URLs that are not installed are left out, so a feature can be added before its pages exist.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import NoReverseMatch, reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext_lazy as _

EVERYONE = "everyone"
MEMBERS = "members"

#: (URL name, label, audience), in display order.
LINKS: list[tuple[str, Any, str]] = [
    ("rules:systems", _("Catalogue"), EVERYONE),
    ("rules:designer", _("Designer"), EVERYONE),
    ("lists:mine", _("My lists"), MEMBERS),
    ("lists:gallery", _("Gallery"), EVERYONE),
    ("estimates:list", _("Estimates"), EVERYONE),
    ("games:list", _("Play"), MEMBERS),
]


def nav_links(request: HttpRequest) -> dict[str, Any]:
    """Template context processor: the links the current visitor may follow.

    Lazy: context processors run for every `render_to_string` with a request, and most of
    those (an htmx answer's fragments) never show the navigation.
    """
    return {"nav_links": SimpleLazyObject(lambda: visible_links(request))}


def visible_links(request: HttpRequest) -> list[dict[str, str]]:
    """The links of `LINKS` that the current visitor may follow, in order."""
    signed_in = bool(getattr(request, "user", None) and request.user.is_authenticated)
    links = []
    for name, label, audience in LINKS:
        if audience == MEMBERS and not signed_in:
            continue
        try:
            links.append({"url": reverse(name), "label": str(label)})
        except NoReverseMatch:
            continue
    return links
