"""Our text export's configuration line, read back into the roster engine.

A list of a faction imported with its BattleScribe source holds configuration selections (a
battle size, a detachment's command cost, a dynasty: `backends.rows.is_configuration`), which
the text export writes on one line of their own, in brackets, each with its price where it has
one and the options taken (`armybuilder.roster.describe.configuration_line`):

    (Configuration: Battle Size (3. Strike Force), Dynasty Choice [15 pts] (Dynasty: Starbound))

The text import rebuilds them in the engine ahead of the units, as our JSON file's
`configuration` is rebuilt (`Imported.roster_lead`): a new roster's required selections, each
with the options the line names, so their points and other costs (the dynasty's points, the
detachment's CP) are the list's again. Before, the line was passed over and the list came back
without them, cheaper than it was.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from armybuilder.lists.backends import engine_units
from armybuilder.lists.errors import ArmyListError
from armybuilder.lists.importers.base import Context
from armybuilder.lists.importers.text_pieces import POINTS, counted, name_key, pieces
from armybuilder.models import ArmyList
from rules.battlescribe.list_roster import ListRoster, ListRosterError, tree_of
from rules.models import Faction

#: What follows a row's name: its price ("[15 pts]") and the options taken, in brackets.
_AFTER_NAME = re.compile(r"^(?:\[\s*" + POINTS + r"\s*\])?\s*(?:\((?P<taken>.*)\))?$", re.IGNORECASE)
#: Passes over a row's menu: an option inside another is offered once that one is taken.
_PASSES = 4


@functools.cache
def _prefixes() -> tuple[str, ...]:
    """How our export starts the line, in every interface language, lower-cased: the export
    writes the reader's language, the import reads them all."""
    found = set()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            found.add(_("(Configuration: %(rows)s)").split("%(rows)s")[0].strip().lower())
    return tuple(sorted(prefix for prefix in found if prefix))


def configuration_rows(line: str) -> list[str] | None:
    """The rows our configuration line writes, each as written ("Dynasty Choice [15 pts]
    (Dynasty: Starbound)"); None for any other line."""
    text = line.strip()
    if not text.endswith(")"):
        return None
    lowered = text.lower()
    for prefix in _prefixes():
        if lowered.startswith(prefix):
            return pieces(text[len(prefix) : -1])
    return None


@dataclass(frozen=True)
class ConfigurationRow:
    """One configuration selection rebuilt: its tree, its name and the points the text gives it
    (None where it writes none)."""

    tree: dict[str, Any]
    name: str
    points: int | float | None


def configuration_trees(
    faction: Faction, written: list[str], *, line: int, context: Context, left_out: list[str]
) -> list[ConfigurationRow]:
    """The configuration of a new roster of `faction` (what its force requires), each row with
    the options `written` names for it; a row the force does not require is added where the
    force offers it. What matches nothing is reported in `left_out` by its line."""
    stub = ArmyList(owner=context.user, system=faction.system, faction=faction, name="", points_limit=1)
    try:
        roster = engine_units.roster_of(stub, [])
    except (ArmyListError, ListRosterError) as exc:
        left_out.append(str(exc))
        return []
    points: dict[int, int | float] = {}
    for piece in written:
        found = _row_of(roster, piece, taken=set(points))
        if found is None:
            left_out.append(
                _("line %(line)d: “%(text)s” not understood; left out") % {"line": line, "text": piece}
            )
            continue
        index, rest = found
        after = _AFTER_NAME.match(rest)
        if after is None:
            left_out.append(
                _("line %(line)d: %(unit)s: “%(text)s” not understood; left out")
                % {"line": line, "unit": roster.unit(index).name, "text": rest}
            )
            continue
        if after["pts"]:
            value = float(after["pts"])
            points[index] = int(value) if value.is_integer() else value
        else:
            points.setdefault(index, 0)
        unknown = _choose(roster, index, pieces(after["taken"] or ""))
        left_out += [
            _("line %(line)d: %(unit)s: “%(text)s” not understood; left out")
            % {"line": line, "unit": roster.unit(index).name, "text": label}
            for label in unknown
        ]
    return [
        ConfigurationRow(tree_of(sel), sel.name, points.get(index))
        for index, sel in enumerate(roster.units)
        if sel is not None
    ]


def _row_of(roster: ListRoster, piece: str, *, taken: set[int]) -> tuple[int, str] | None:
    """(index of the roster's row `piece` names, what the piece writes after the name): a row of
    the new roster first (longest name first: a name may hold another), else one the force
    offers at its root, added."""
    lowered = " ".join(piece.lower().split())
    rows = [
        (index, sel.name) for index, sel in enumerate(roster.units) if index not in taken and sel is not None
    ]
    rows.sort(key=lambda row: -len(row[1]))
    for index, name in rows:
        written = " ".join(name.lower().split())
        if written and (lowered == written or lowered.startswith(written + " ")):
            return index, _after(piece, name)
    for option in sorted(roster.root_options(), key=lambda option: -len(option.name)):
        written = " ".join(option.name.lower().split())
        if written and (lowered == written or lowered.startswith(written + " ")):
            try:
                return roster.add_unit(option), _after(piece, option.name)
            except ListRosterError:
                return None
    return None


def _after(piece: str, name: str) -> str:
    """What `piece` writes after `name` (compared as words, so spacing may differ)."""
    words = len(name.split())
    return " ".join(piece.split()[words:])


def _choose(roster: ListRoster, index: int, labels: list[str]) -> list[str]:
    """Take exactly the options `labels` names ("2x Name" for two) in the row `index`, the
    others not (a group's default gives way to the choice written); returns the labels no
    option of the row has."""
    wanted = {name_key(name): count for count, name in map(counted, labels)}
    seen: set[str] = set()
    for _pass in range(_PASSES):
        changes = {}
        for entry in roster.menu(index):
            key = name_key(entry.label)
            count = wanted.get(key, 0)
            if key in wanted:
                seen.add(key)
            if entry.count != min(count, entry.maximum):
                changes[entry.key] = min(count, entry.maximum)
        if not changes:
            break
        try:
            roster.set_counts(index, changes)
        except ListRosterError:
            break
    return [name for count, name in map(counted, labels) if name_key(name) not in seen]
