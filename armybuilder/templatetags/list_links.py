"""Template tags for the ways back to a list from paper and previews (`armybuilder.lists.share_links`)."""

from __future__ import annotations

from typing import Any

from django import template

from armybuilder.lists.share_links import list_link, qr_svg
from armybuilder.models import ArmyList

register = template.Library()


@register.inclusion_tag("armybuilder/roster/_list_qr.html")
def list_qr(army_list: ArmyList, site: str | None) -> dict[str, Any]:
    """A QR code to the list with a caption saying what it opens; nothing without a known origin."""
    if not site:
        return {"link": None}
    link = list_link(army_list, site=site)
    return {"link": link, "svg": qr_svg(link.url)}
