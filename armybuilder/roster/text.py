"""The plain-text roster players paste into forums and chats.

    Patrol — Battle Brothers (One Page Rules style), 985/1000 pts

    Veteran Squad [143 pts]: 4x Rifle, 4x Blade, Plasma Gun, Sergeant
    ...

    Total: 985/1000 pts, 4 units

One line per unit in the form `Unit name [N pts]: weapons, upgrades` (issue 5), then the
total and, when the list breaks rules, one line per violation.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from armybuilder.models import ArmyList, ListUnit
from armybuilder.roster.describe import chosen_upgrades, counted, weapon_counts


def unit_line(list_unit: ListUnit) -> str:
    """`Unit name [N pts]: weapons, upgrades` (the part after the colon is left out when empty)."""
    parts = [counted(name, count) for name, count in weapon_counts(list_unit.data)]
    parts += chosen_upgrades(list_unit)
    head = _("%(name)s [%(points)d pts]") % {"name": list_unit.name, "points": list_unit.points}
    return f"{head}: {', '.join(parts)}" if parts else head


def army_list_text(*, army_list: ArmyList, units: Sequence[ListUnit]) -> str:
    """The whole list as forum text, ending with a newline."""
    where = (
        f"{army_list.faction.name} ({army_list.system.name})" if army_list.faction else army_list.system.name
    )
    total = sum(unit.points for unit in units)
    lines = [
        _("%(name)s — %(where)s, %(total)d/%(limit)d pts")
        % {"name": army_list.name, "where": where, "total": total, "limit": army_list.points_limit},
        "",
    ]
    lines += [unit_line(unit) for unit in units]
    lines += [
        "",
        ngettext(
            "Total: %(total)d/%(limit)d pts, %(count)d unit",
            "Total: %(total)d/%(limit)d pts, %(count)d units",
            len(units),
        )
        % {"total": total, "limit": army_list.points_limit, "count": len(units)},
    ]
    for violation in army_list.violations:
        lines.append(_("Violation: %(message)s") % {"message": violation.get("message", "")})
    return "\n".join(lines) + "\n"
