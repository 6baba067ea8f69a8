"""The share card: a PNG picture of a list, for link previews (OpenGraph, Twitter cards) and
the "Download image" button.

A pasted link unfurls in Discord and elsewhere only with an image the server makes itself,
so the card is drawn here with Pillow (the imaging library WeasyPrint already brings) at
the 1200×630 size the preview services expect. It shows what an opponent wants at a
glance: name, system, faction, points (or, for systems sized otherwise, the system's own
figures), each unit with its size and cost, how many rules the list breaks, and the
fingerprint of a locked version.

Cost is bounded: at most `MAX_UNIT_LINES` units are drawn (the rest are counted), every text
is cut to its box, and the result is cached per list version and language, so a list
shared in a busy channel is drawn once.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from django.core.cache import cache
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from PIL import Image, ImageDraw, ImageFont

from armybuilder.lists.backends import rows as list_rows
from armybuilder.lists.evaluation import army_summary
from armybuilder.models import ArmyList, ListUnit
from armybuilder.roster.describe import model_count

#: The size link previews use (OpenGraph's recommended 1.91:1).
WIDTH, HEIGHT = 1200, 630
MARGIN = 56
#: Unit lines drawn at most; a longer list ends with "and N more units".
MAX_UNIT_LINES = 12
#: Seconds a drawn card is kept (a new version of the list has a new key anyway).
CACHE_SECONDS = 7 * 24 * 3600
#: DejaVu Sans (Debian's fonts-dejavu-core, installed by bin/setup and the image) has the
#: Latin, Polish, Czech and Cyrillic letters our players write list names in.
FONT_DIRECTORY = Path("/usr/share/fonts/truetype/dejavu")

BACKGROUND = (24, 28, 36)
PANEL = (36, 42, 54)
TEXT = (236, 239, 244)
MUTED = (160, 170, 186)
ACCENT = (242, 181, 68)
INVALID = (239, 108, 96)
VALID = (120, 200, 140)


@dataclass(frozen=True)
class CardLine:
    """One unit line: name, size (models) and cost (points, empty for unpointed systems)."""

    name: str
    size: int
    cost: str


def _font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIRECTORY / name), size)


def _fit(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    """`text`, cut with an ellipsis so that it fits `width` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        middle = (low + high + 1) // 2
        if draw.textlength(text[:middle] + "…", font=font) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + "…"


def card_line_name(unit: ListUnit) -> str:
    """A unit's name on the card: the player's own name with the catalogue's beside it ("Da
    Boyz (Boyz)"), as the roster prints it, so an opponent can tell what the unit is."""
    catalogue = unit.catalogue_name
    if unit.custom_name and unit.custom_name != catalogue:
        return f"{unit.custom_name} ({catalogue})"
    return catalogue


def card_lines(army_list: ArmyList, units: Sequence[ListUnit]) -> list[CardLine]:
    """The unit lines of the card, in list order (a roster's configuration rows are not units)."""
    pointed = army_list.points_sized
    return [
        CardLine(name=card_line_name(unit), size=model_count(unit.data),
                 cost=(_("%(points)d pts") % {"points": unit.points}) if pointed else "")
        for unit in list_rows.fielded(units)
    ]


def headline(army_list: ArmyList, units: Sequence[ListUnit]) -> str:
    """"1,985 / 2,000 pts · 11 units", or the system's own figures for a list not sized by points."""
    parts = []
    if army_list.points_sized:
        parts.append(_("%(total)d / %(limit)d pts") % {"total": army_list.total_points,
                                                       "limit": army_list.points_limit})
    parts.extend(f"{row['label']} {row['value']}" for row in army_summary(army_list=army_list, units=units)
                 if not row.get("detail"))
    count = len(list_rows.fielded(units))  # a roster's configuration rows are not units
    parts.append(ngettext("%(count)d unit", "%(count)d units", count) % {"count": count})
    return " · ".join(parts)


def render_share_card(army_list: ArmyList, units: Sequence[ListUnit]) -> bytes:
    """The card as PNG bytes, drawn in the active language."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN
    title_font, meta_font, line_font, small_font = _font(52, bold=True), _font(28), _font(26), _font(22)

    y = MARGIN - 8
    draw.text((MARGIN, y), _fit(draw, army_list.name, title_font, inner), font=title_font, fill=TEXT)
    y += 70
    system_name = _(army_list.system.name)
    faction = f" · {army_list.faction.name}" if army_list.faction_id and army_list.faction else ""
    draw.text((MARGIN, y), _fit(draw, system_name + faction, meta_font, inner), font=meta_font, fill=MUTED)
    y += 44
    summary = _fit(draw, headline(army_list, units), meta_font, inner)
    draw.text((MARGIN, y), summary, font=meta_font, fill=ACCENT)
    y += 56

    panel_top = y
    panel_bottom = HEIGHT - MARGIN - 48
    draw.rounded_rectangle((MARGIN - 16, panel_top - 12, WIDTH - MARGIN + 16, panel_bottom),
                           radius=14, fill=PANEL)
    lines = card_lines(army_list, units)
    columns = 2 if len(lines) > MAX_UNIT_LINES // 2 else 1
    shown = lines[:MAX_UNIT_LINES] if len(lines) <= MAX_UNIT_LINES else lines[:MAX_UNIT_LINES - 1]
    per_column = -(-len(shown) // columns) if shown else 0
    column_width = (inner - (columns - 1) * 32) / columns
    row_height = 38
    for index, line in enumerate(shown):
        column, row = divmod(index, per_column) if per_column else (0, 0)
        x = MARGIN + column * (column_width + 32)
        line_y = panel_top + row * row_height
        size = f"{line.size}×" if line.size != 1 else ""
        cost_width = draw.textlength(line.cost, font=line_font) if line.cost else 0
        size_width = 64
        draw.text((x, line_y), size, font=line_font, fill=MUTED)
        name_width = column_width - size_width - cost_width - 16
        name = _fit(draw, line.name, line_font, name_width)
        draw.text((x + size_width, line_y), name, font=line_font, fill=TEXT)
        if line.cost:
            draw.text((x + column_width - cost_width, line_y), line.cost, font=line_font, fill=TEXT)
    if len(lines) > len(shown):
        more = len(lines) - len(shown)
        column, row = divmod(len(shown), per_column) if per_column else (0, 0)
        x = MARGIN + min(column, columns - 1) * (column_width + 32)
        draw.text((x, panel_top + row * row_height),
                  ngettext("and %(count)d more unit", "and %(count)d more units", more) % {"count": more},
                  font=line_font, fill=MUTED)
    if not lines:
        draw.text((MARGIN, panel_top), _("No units yet."), font=line_font, fill=MUTED)

    footer_y = HEIGHT - MARGIN - 22
    if army_list.violation_count:
        verdict = ngettext("%(count)d rule broken", "%(count)d rules broken",
                           army_list.violation_count) % {"count": army_list.violation_count}
        colour = INVALID
    else:
        verdict, colour = _("Valid"), VALID
    draw.text((MARGIN, footer_y), verdict, font=small_font, fill=colour)
    right = _("Army Builder")
    if army_list.is_locked:
        right = _("Locked %(date)s · %(fingerprint)s") % {
            "date": army_list.locked_at.strftime("%Y-%m-%d %H:%M UTC"), "fingerprint": army_list.fingerprint}
    right_width = draw.textlength(right, font=small_font)
    draw.text((WIDTH - MARGIN - right_width, footer_y), right, font=small_font, fill=MUTED)

    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def share_card_png(army_list: ArmyList, units: Sequence[ListUnit]) -> bytes:
    """The card of this version of the list in the active language, drawn once and cached."""
    key = f"share-card:v1:{army_list.pk}:{army_list.version}:{army_list.created.timestamp()}:{get_language()}"
    png = cache.get(key)
    if png is None:
        png = render_share_card(army_list, units)
        cache.set(key, png, CACHE_SECONDS)
    return png
