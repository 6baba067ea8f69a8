"""The text rosters players paste into forums and chats, in four styles.

    plain     Patrol — Battle Brothers (One Page Rules style), 985/1000 pts
              <blank>
              Veteran Squad [143 pts]: 4x Rifle, 4x Blade, Plasma Gun, Sergeant
              ...
              Total: 985/1000 pts, 4 units
    compact   the heading, then every unit on one line: "Veteran Squad 143 · Scouts 90"
    markdown  Markdown that Discord and most forums render: bold names, a bullet per unit
    secret    Discord spoilers: the heading and the total show, each unit stays hidden
              (`||…||`) until the reader reveals it

`plain` is the original format: one line per unit, `Unit name [N pts]: weapons,
upgrades`, then the total and one line per violation. A unit's own name comes first, the
catalogue's name after it; its notes follow on an indented line. When units have groups
(detachments, regiments, or the player's own), each group gets a heading, in list order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import partial

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from armybuilder.lists.evaluation import army_summary, group_heading
from armybuilder.models import ArmyList, ListUnit
from armybuilder.roster.describe import chosen_upgrades, counted, weapon_counts
from points.catalogue.i18n import translated_again
from rules.source_language import decimal_text

#: The styles `army_list_text` writes, by the `format` query parameter of the text export.
TEXT_STYLES = ("plain", "compact", "markdown", "secret")

_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+\-.!|~])")


def _markdown(text: str) -> str:
    """Text with Markdown's (and Discord's) special characters escaped."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def _details(list_unit: ListUnit) -> list[str]:
    parts = [counted(name, count) for name, count in weapon_counts(list_unit.data)]
    parts += chosen_upgrades(list_unit)
    if list_unit.custom_name:
        parts.insert(0, list_unit.name)
    return parts


def _notes(list_unit: ListUnit) -> str:
    return " ".join(list_unit.notes.split())


def unit_line(list_unit: ListUnit, *, points: bool = True) -> str:
    """`Unit name [N pts]: weapons, upgrades` (the part after the colon is left out when empty);
    without `points` (a system that has none, `GameSystem.points_sized`) the name alone heads it."""
    parts = _details(list_unit)
    head = (
        _("%(name)s [%(points)d pts]") % {"name": list_unit.display_name, "points": list_unit.points}
        if points
        else list_unit.display_name
    )
    line = f"{head}: {', '.join(parts)}" if parts else head
    if list_unit.notes:
        line += "\n  " + _("Notes: %(notes)s") % {"notes": _notes(list_unit)}
    return line


def _markdown_line(list_unit: ListUnit, *, points: bool = True) -> str:
    parts = _details(list_unit)
    head = f"- **{_markdown(list_unit.display_name)}**"
    if points:
        head += f" [{_('%(points)d pts') % {'points': list_unit.points}}]"
    line = f"{head}: {_markdown(', '.join(parts))}" if parts else head
    if list_unit.notes:
        line += f"\n  - _{_markdown(_notes(list_unit))}_"
    return line


def _secret_line(list_unit: ListUnit, *, points: bool = True) -> str:
    # One spoiler per unit: the reader reveals units one by one. "|" inside would end it early.
    hidden = unit_line(list_unit, points=points).replace("|", "/").replace("\n  ", " — ")
    return f"||{hidden}||"


def _grouped(units: Sequence[ListUnit]) -> list[tuple[str, list[ListUnit]]]:
    """Units by group, groups in the order they first appear; one unnamed group when none has one."""
    groups: dict[str, list[ListUnit]] = {}
    for unit in units:
        groups.setdefault(unit.group, []).append(unit)
    if not units:
        return []
    army_list = units[0].army_list
    return [(group_heading(army_list, name), members) for name, members in groups.items()]


def _body(
    units: Sequence[ListUnit], line: Callable[[ListUnit], str], heading: Callable[[str], str]
) -> list[str]:
    groups = _grouped(units)
    if len(groups) == 1 and not groups[0][0]:
        return [line(unit) for unit in units]
    lines: list[str] = []
    for name, members in groups:
        lines += [heading(name or _("Other units")), *[line(unit) for unit in members], ""]
    return lines[:-1]


def army_list_text(*, army_list: ArmyList, units: Sequence[ListUnit], style: str = "plain") -> str:
    """The whole list as text in `style` (one of `TEXT_STYLES`), ending with a newline."""
    if style not in TEXT_STYLES:
        raise ValueError(style)
    system_name = _(army_list.system.name)
    where = f"{army_list.faction.name} ({system_name})" if army_list.faction else system_name
    total = sum(unit.points for unit in units)
    points = army_list.points_sized
    if points:
        numbers = {"name": army_list.name, "where": where, "total": total, "limit": army_list.points_limit}
        heading = _("%(name)s — %(where)s, %(total)d/%(limit)d pts") % numbers
        total_line = ngettext(
            "Total: %(total)d/%(limit)d pts, %(count)d unit",
            "Total: %(total)d/%(limit)d pts, %(count)d units",
            len(units),
        ) % {"total": total, "limit": army_list.points_limit, "count": len(units)}
    else:  # a system without points: what sizes its lists instead (`army_summary`)
        size = ", ".join(
            f"{row['label']} {row['value']}" + (f"/{row['limit']}" if row.get("limit") else "")
            for row in army_summary(army_list=army_list, units=units)
        )
        heading = _("%(name)s — %(where)s, %(size)s") % {"name": army_list.name, "where": where, "size": size}
        total_line = ngettext(
            "Total: %(size)s, %(count)d unit", "Total: %(size)s, %(count)d units", len(units)
        ) % {"size": size, "count": len(units)}
    violations = [
        _("Violation: %(message)s") % {"message": translated_again(violation, number=decimal_text)}
        for violation in army_list.violations
    ]
    if style == "compact":
        line = " · ".join(
            _("%(name)s %(points)d") % {"name": unit.display_name, "points": unit.points} if points
            else unit.display_name
            for unit in units
        )
        return "\n".join([heading, line, total_line, *violations]) + "\n"
    if style == "markdown":
        lines = [f"**{_markdown(heading)}**", ""]
        lines += _body(units, partial(_markdown_line, points=points), lambda name: f"__{_markdown(name)}__")
        lines += ["", f"**{_markdown(total_line)}**", *[f"> {_markdown(v)}" for v in violations]]
        return "\n".join(lines) + "\n"
    if style == "secret":
        lines = [heading, _("(Units hidden: click each black bar to reveal it.)"), ""]
        lines += _body(units, partial(_secret_line, points=points), lambda name: name)
        return "\n".join([*lines, "", total_line, *violations]) + "\n"
    body = _body(units, partial(unit_line, points=points), lambda name: f"== {name} ==")
    lines = [heading, "", *body, "", total_line, *violations]
    return "\n".join(lines) + "\n"
