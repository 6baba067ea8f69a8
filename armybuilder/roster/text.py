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

`plain` is the original format: one line per unit, `Unit name [N pts], 10 models:
weapons, upgrades`, then the total and one line per violation. A unit's own name comes first,
the catalogue's name after it; under it an indented stat line per model profile, written from
the system's profile schema (its `x-profile` order and `title` labels, "N+" for a roll target:
`Q4+ D5+ T1`, `M4 WS3 BS3 S3 T3 W1 I3 A1 Ld7 Sv5+`), then its notes, line breaks kept. When
units have groups (detachments, regiments, or the player's own), each group gets a heading,
in list order. Markdown escapes only what would change the rendering.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from armybuilder.lists.backends import rows as list_rows
from armybuilder.lists.evaluation import army_summary, group_heading
from armybuilder.models import ArmyList, ListUnit
from armybuilder.roster.describe import (
    chosen_upgrades,
    configuration_line,
    counted,
    model_count,
    weapon_counts,
)
from points.catalogue.i18n import translated_again
from rules.source_language import decimal_text
from rules.systems.profile_fields import ENVELOPE_FIELDS
from rules.systems.registry import get_system

#: The styles `army_list_text` writes, by the `format` query parameter of the text export.
TEXT_STYLES = ("plain", "compact", "markdown", "secret")

#: Characters that change Markdown's (and Discord's) rendering anywhere in a line.
_MARKDOWN_INLINE = re.compile(r"([\\`*_~|])")
#: What starts a heading, a quote or a list only at the start of a line ("# ", "> ", "- ", "1. ").
_MARKDOWN_LINE_START = re.compile(r"^(\s*)(#+|>|[-+]|\d+\.)(?=\s|$)", re.MULTILINE)


def _markdown(text: str) -> str:
    """Text escaped only where Markdown would read it as markup: emphasis, code, spoiler and
    strike characters anywhere, a heading, quote or list marker at a line's start, and a link's
    "](" — so "Q4+ D5+ (Shield)" stays as it is written."""
    text = _MARKDOWN_INLINE.sub(r"\\\1", text)
    text = _MARKDOWN_LINE_START.sub(
        lambda m: m[1] + (m[2][:-1] + "\\." if m[2].endswith(".") else "\\" + m[2]), text
    )
    return text.replace("](", "\\](")


def _details(list_unit: ListUnit) -> list[str]:
    parts = [counted(name, count) for name, count in weapon_counts(list_unit.data)]
    parts += chosen_upgrades(list_unit, in_reader_language=False)
    if list_unit.custom_name:
        parts.insert(0, list_unit.name)
    return parts


def _note_lines(list_unit: ListUnit) -> list[str]:
    """The notes' lines as the player wrote them (blank lines and trailing spaces dropped)."""
    return [line.strip() for line in list_unit.notes.splitlines() if line.strip()]


def _stat_value(value: Any, prop: Mapping[str, Any]) -> str:
    if value is None or value == "":
        return "-"
    if prop.get("format") == "roll-target" and isinstance(value, int) and not isinstance(value, bool):
        return f"{value}+"
    return str(value)


def _stat_keys(schema: Mapping[str, Any], models: Sequence[Mapping[str, Any]]) -> list[str]:
    """The characteristics a stat line shows, in the system's printed order (`x-profile`),
    else the schema's own order; only scalar ones the models have."""
    properties = schema.get("properties") or {}
    keys = list(schema.get("x-profile") or [k for k in properties if k not in ENVELOPE_FIELDS])
    return [
        key for key in keys
        if any(key in model and not isinstance(model[key], list | dict | bool) for model in models)
    ]


def stat_lines(list_unit: ListUnit) -> list[str]:
    """One stat line per model profile of the unit: `Q4+ D5+ T1` when every model has the
    same characteristics, else `Name ×N: …` for each profile (a champion, a mount)."""
    schema = get_system(list_unit.army_list.system.key).profile_schema or {}
    properties = schema.get("properties") or {}
    models = [m for m in list_unit.data.get("models") or [] if isinstance(m, Mapping)]
    keys = _stat_keys(schema, models)
    if not keys:
        return []
    lines = []
    for model in models:
        stats = []
        for key in keys:
            prop = properties.get(key) or {}
            label = _(str(prop.get("title") or key))
            value = _stat_value(model.get(key), prop)
            stats.append(f"{label}{value}" if len(label) <= 3 else f"{label} {value}")
        lines.append(" ".join(stats))
    if len(set(lines)) == 1:  # one profile, or profiles that differ only in their kit
        return lines[:1]
    return [
        f"{model.get('name')} ×{int(model.get('count') or 0)}: {line}"
        for model, line in zip(models, lines, strict=True)
    ]


def _head(list_unit: ListUnit, *, points: bool) -> str:
    """`Unit name [N pts], 10 models` (the size alone without points, `GameSystem.points_sized`)."""
    size = ngettext("%(n)d model", "%(n)d models", model_count(list_unit.data)) % {
        "n": model_count(list_unit.data)
    }
    if points:
        return _("%(name)s [%(points)d pts], %(size)s") % {
            "name": _written_name(list_unit), "points": list_unit.points, "size": size
        }
    return _("%(name)s, %(size)s") % {"name": _written_name(list_unit), "size": size}


def unit_line(list_unit: ListUnit, *, points: bool = True) -> str:
    """`Unit name [N pts], 10 models: weapons, upgrades` (the part after the colon is left out
    when empty), then an indented stat line per profile and the notes, line by line."""
    parts = _details(list_unit)
    head = _head(list_unit, points=points)
    line = f"{head}: {', '.join(parts)}" if parts else head
    for stats in stat_lines(list_unit):
        line += f"\n  {stats}"
    notes = _note_lines(list_unit)
    if notes:
        line += "\n  " + _("Notes: %(notes)s") % {"notes": notes[0]}
        line += "".join(f"\n    {more}" for more in notes[1:])
    return line


def _markdown_line(list_unit: ListUnit, *, points: bool = True) -> str:
    parts = _details(list_unit)
    head = f"- **{_markdown(_written_name(list_unit))}**"
    if points:
        head += f" [{_('%(points)d pts') % {'points': list_unit.points}}]"
    size = ngettext("%(n)d model", "%(n)d models", model_count(list_unit.data)) % {
        "n": model_count(list_unit.data)
    }
    head += f", {size}"
    line = f"{head}: {_markdown(', '.join(parts))}" if parts else head
    for stats in stat_lines(list_unit):
        line += f"\n  - `{stats}`"
    for note in _note_lines(list_unit):
        line += f"\n  - _{_markdown(note)}_"
    return line


def _secret_line(list_unit: ListUnit, *, points: bool = True) -> str:
    # One spoiler per unit: the reader reveals units one by one. "|" inside would end it early.
    lines = unit_line(list_unit, points=points).replace("|", "/").splitlines()
    return "||" + " — ".join(line.strip() for line in lines) + "||"


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
    # A roster's configuration rows (battle size, detachment cost) are written on one line of
    # their own, never as units; their points stay in the total.
    points = army_list.points_sized
    settings_line = configuration_line(units, points=points)
    units = list_rows.fielded(units)
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
    config = [settings_line] if settings_line else []
    if style == "compact":
        line = " · ".join(
            _("%(name)s %(points)d") % {"name": _written_name(unit), "points": unit.points} if points
            else _written_name(unit)
            for unit in units
        )
        return "\n".join([heading, *config, line, total_line, *violations]) + "\n"
    if style == "markdown":
        lines = [f"**{_markdown(heading)}**", *[_markdown(c) for c in config], ""]
        lines += _body(units, partial(_markdown_line, points=points), lambda name: f"__{_markdown(name)}__")
        lines += ["", f"**{_markdown(total_line)}**", *[f"> {_markdown(v)}" for v in violations]]
        return "\n".join(lines) + "\n"
    if style == "secret":
        lines = [heading, *config, _("(Units hidden: click each black bar to reveal it.)"), ""]
        # a group's heading as in plain text: a bare name would read as a unit nobody hid
        lines += _body(units, partial(_secret_line, points=points), lambda name: f"== {name} ==")
        return "\n".join([*lines, "", total_line, *violations]) + "\n"
    body = _body(units, partial(unit_line, points=points), lambda name: f"== {name} ==")
    lines = [heading, *config, "", *body, "", total_line, *violations]
    return "\n".join(lines) + "\n"


def _written_name(list_unit: ListUnit) -> str:
    """The unit's name as the player or the catalogue wrote it (never translated: the text
    importer matches catalogue names as their files write them)."""
    return list_unit.custom_name or list_unit.name
