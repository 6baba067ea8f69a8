"""The selections of a roster the engine could not rebuild, named as the player knows them.

A roster of a faction imported with its BattleScribe source is rebuilt by the roster engine
selection for selection (`rules.battlescribe.list_roster.ListRoster`); a selection whose entry
the catalogue no longer has is dropped, and the engine says which by its entry id
("a1b2-…::c3d4-…"), which means nothing to a player. The report names it as the file did
("Storm Shield") and the unit it belonged to ("Captain: Storm Shield is no longer in the
catalogue; left out"). A unit whose own entry is gone is reported by its caller, as a unit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from rules.battlescribe.engine.roster_xml import FileSelection


def entry_names(units: Iterable[FileSelection]) -> dict[str, str]:
    """{entry id: the name the file gives its selection} of every selection under `units`
    (the first name met where one entry is selected under several names)."""
    names: dict[str, str] = {}
    for unit in units:
        for selection in [unit, *unit.walk()]:
            if selection.entry_id and selection.name:
                names.setdefault(selection.entry_id, selection.name)
    return names


def _dropped_where(trees: Sequence[Mapping[str, Any]], dropped: Sequence[str]) -> list[tuple[int, str]]:
    """(index of the unit's tree, entry id) of each dropped selection below a unit's root, in
    the order the engine met them: depth first, not looking under a dropped selection (as
    `ListRoster._restore` rebuilds)."""
    found: list[tuple[int, str]] = []
    waiting = list(dropped)

    def visit(index: int, node: Mapping[str, Any], depth: int) -> None:
        if not waiting:
            return
        key = str(node.get("entry", ""))
        if key == waiting[0]:
            waiting.pop(0)
            if depth:
                found.append((index, key))
            return
        for child in node.get("children") or []:
            if isinstance(child, Mapping):
                visit(index, child, depth + 1)

    for index, tree in enumerate(trees):
        visit(index, tree, 0)
    return found


def dropped_lines(*, trees: Sequence[Mapping[str, Any]], dropped: Sequence[str], unit_names: Sequence[str],
                  names: Mapping[str, str]) -> list[str]:
    """The report's line for each selection the engine dropped below a unit: the selection's
    name from the file (`names`, by entry id) and the unit's (`unit_names`, one per tree); a
    selection the file gave no name is "a selection" of its unit."""
    lines = []
    for index, key in _dropped_where(trees, dropped):
        unit = unit_names[index] if index < len(unit_names) else _("A unit")
        if names.get(key):
            lines.append(_("%(unit)s: %(entry)s is no longer in the catalogue; left out")
                         % {"unit": unit, "entry": names[key]})
        else:
            lines.append(_("%(unit)s: a selection the catalogue no longer has; left out") % {"unit": unit})
    return lines
