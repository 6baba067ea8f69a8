"""Where a list can be opened from outside the site: the link a QR code, a share card or a
preview points at.

A printed roster or PDF carries a QR code back to the live list (players at the table scan
it to check the list they are shown). It opens the list's share link when it has one — a
locked version always has — and otherwise the list's own page, which only its owner (or
anyone, for a list in the public gallery) can open; the sheet says which.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import segno
from django.urls import reverse
from django.utils.translation import gettext as _

from armybuilder.models import ArmyList


@dataclass(frozen=True)
class ListLink:
    """An absolute link to a list and, in a player's words, what it opens."""

    url: str
    caption: str


def site_root(request: object) -> str:
    """The site's own origin as the request saw it (`https://example.org`), without a slash."""
    return request.build_absolute_uri("/").rstrip("/")  # type: ignore[attr-defined]


def list_link(army_list: ArmyList, *, site: str) -> ListLink:
    """The link a QR code of `army_list` opens, under the origin `site`."""
    if army_list.share_token:
        url = site + reverse("lists:shared", args=[army_list.share_token])
        if army_list.is_locked:
            caption = _("Scan to open this locked version of the list (read-only).")
        else:
            caption = _("Scan to open this list through its share link (read-only).")
    else:
        url = site + reverse("lists:detail", args=[army_list.pk])
        if army_list.is_public:
            caption = _("Scan to open this list in the public gallery.")
        else:
            caption = _("Scan to open this list (only you can open it until you share it).")
    return ListLink(url=url, caption=caption)


#: Light modules around the code: the four the QR standard asks for. With two, and the page's
#: CSS squeezing a fixed-size drawing, phone readers lost the code's edge (issue 43).
QR_QUIET_ZONE = 4


@lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    """An inline SVG QR code of `url` (error correction M: readable from a creased sheet).

    Drawn one unit per module with a `viewBox` and no fixed size, so the page's and the PDF's
    CSS scale the whole code, quiet zone included, instead of cropping a 123-px drawing. Kept
    per URL (a list's link never changes its drawing): drawing it was a few percent of every
    roster page."""
    return segno.make(url, error="m", micro=False).svg_inline(
        scale=1, border=QR_QUIET_ZONE, dark="#000", light="#fff", omitsize=True
    )
