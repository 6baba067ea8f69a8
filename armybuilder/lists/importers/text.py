"""Lists pasted as text: our own text exports, BattleScribe's text export, Army Forge's text share.

The three write a unit the same way at heart — a name, perhaps a size, a price, then what it
carries — so one reader takes them all:

    ours          Veteran Squad [143 pts]: 4x Rifle, Plasma Gun, Sergeant
                  - **Veteran Squad** [143 pts]: …   (Markdown)   ||Veteran Squad [143 pts]: …|| (spoilers)
    BattleScribe  Intercessor Squad [5 PL, 100pts]: 4x Intercessor, Bolt rifle
    Army Forge    Battle Brothers [5] Q3+ D3+ | 165pts | Fearless
                  5x Assault Rifle (24", A1), 5x CCW (A1)

Each unit is matched by name against a faction (the one chosen, else one whose name the text
carries, else every unit of the system the player can see); what it carries is matched against
the unit's upgrade options by their labels, and against its own weapons and rules. Every line,
and every part of a line, that matches nothing is reported with its line number.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from armybuilder.lists.importers.base import (
    MAX_SOURCE_UNITS,
    Context,
    Imported,
    ImportProblem,
    ReportUnit,
    Source,
)
from armybuilder.lists.importers.text_configuration import configuration_rows, configuration_trees
from armybuilder.lists.importers.text_pieces import POINTS as _POINTS
from armybuilder.lists.importers.text_pieces import counted as _counted
from armybuilder.lists.importers.text_pieces import name_key as _key
from armybuilder.lists.importers.text_pieces import pieces as _pieces
from armybuilder.lists.services import catalogue_ref
from armybuilder.lists.unit_options import option_menu
from armybuilder.models import POINTS_LIMIT_MAX, UNIT_NOTES_MAX_LENGTH
from rules.models import Faction, GameSystem, UnitTemplate
from rules.selectors import factions_visible_to, units_visible_to

MAX_LINES = 2000
MAX_LINE = 2000

#: A unit's name may hold a bracket that is not a size or a price: BSData's "Big Mek [Legends]",
#: "[Reference] Warlord Traits", "[SE] Battalion: …" (a bracket opening on a letter or a sign).
_NAME = r"(?:[^\[\]|]|\[[^\]\d\s][^\]]*\])+?"
_UNIT_LINE = re.compile(
    r"^(?:(?P<mult>\d+)\s*[x×]\s+)?(?P<name>" + _NAME + r")\s*"
    r"(?:\[(?P<size>\d+)\]\s*)?(?:Q(?P<q>\d)\+\s*D(?P<d>\d)\+\s*)?"
    r"(?:\[\s*(?:[\d.]+\s*PL\s*,\s*)?"
    + _POINTS
    + r"(?:\s*,[^\]]*)?\]|\|\s*"
    + _POINTS.replace("pts>", "pts2>")
    + r"\s*(?:\|(?P<rules>.*))?)"
    # our own export says the size after the points: "[139 pts], 10 models: …" (any language)
    r"(?:\s*,\s*(?P<models>\d+)\s+[^\W\d_]+\.?)?"
    r"\s*(?::\s*(?P<details>.*))?$",
    re.IGNORECASE,
)
#: Our own export's unit line for a system without points: "Hammer Wardens, 10 models: …"
#: (any language), read only where it names a unit of the catalogue. A name may hold a comma
#: (BSData AoS "Celestant-Prime, Hammer of Sigmar, 1 model: …"): the size is the first ", N word".
_SIZED_LINE = re.compile(
    r"^(?:(?P<mult>\d+)\s*[x×]\s+)?(?P<name>[^\[\]|:]+?)\s*,\s*(?P<models>\d+)\s+[^\W\d_]+\.?"
    r"\s*(?::\s*(?P<details>.*))?$"
)
_HEADER = re.compile(
    r"^(\+\+.*\+\+|\+ .* \+|==.*==|__.*__|#.*|total\b.*|violation\b.*|notes?:.*|\(.*\))$", re.I
)
#: A stat line of our own text export under its unit ("Q4+ D5+ T1", "Marine ×5: M6 WS3+ … Sv3+",
#: in Markdown between backticks): the profile is the catalogue's, so it carries nothing to read.
_STAT = r"[^\W\d_]{1,12}\s?(?:\d[\d.]*\+?|[-–—]|\d?D\d+(?:\+\d+)?\+?|\d+\"?)"
_STATS = re.compile(r"^(?:[^:]{1,80} ×\d+:\s*)?" + _STAT + r"(?:\s+" + _STAT + r")*$")


@functools.cache
def _notes_prefixes() -> tuple[str, ...]:
    """How our text export starts a unit's notes ("Notes: ", "Uwagi: ", …), in every interface
    language, lower-cased: the export writes the reader's language, the import reads them all."""
    prefixes = {"notes:"}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            prefixes.add(_("Notes: %(notes)s").split("%(notes)s")[0].strip().lower())
    return tuple(sorted(p for p in prefixes if p))


def _notes_start(line: str) -> str | None:
    """The text after "Notes:" when `line` starts a unit's notes in our export, else None."""
    lowered = line.lower()
    for prefix in _notes_prefixes():
        if lowered.startswith(prefix):
            return line[len(prefix):].strip()
    return None


def _without_stats(details: str) -> tuple[str, list[str]]:
    """A unit line's details without the stat lines and notes our secret export runs into it
    (`… — Q4+ D5+ T1 — Notes: first line — second line`, one spoiler per unit), and the notes'
    lines (the notes come last: every part after "Notes:" is one of their lines)."""
    parts = details.split(" — ")
    kept, notes = [parts[0]], []
    for part in parts[1:]:
        if notes:
            notes.append(part.strip())
        elif (start := _notes_start(part.strip())) is not None:
            notes.append(start)
        elif not _STATS.match(part.strip()):
            kept.append(part)
    return " — ".join(kept), [line for line in notes if line]


#: A hand-typed unit line: a unit's name, perhaps its copies ("2x Wardens") or its size ("10
#: Concord Wardens"), no price (the catalogue's is used).
_HAND_LINE = re.compile(r"^(?:(?P<mult>\d+)\s*[x×]\s*|(?P<size>\d+)\s+)?(?P<name>[^\[\]|:]{2,100}?)\s*$",
                        re.I)


def _clean(line: str) -> str:
    line = line.strip()
    if line.startswith("||") and line.endswith("||"):
        line = line[2:-2]
    line = line.replace("**", "").replace("\\", "")
    line = re.sub(r"^(?:>\s*)?[-*•]?\s*", "", line)
    return line.strip()


class _Catalogue:
    """The units text is matched against, with their weapon and rule names."""

    def __init__(self, units: list[UnitTemplate], context: Context):
        self.units = units
        self.context = context
        self.by_name: dict[str, UnitTemplate] = {}
        for unit in units:
            self.by_name.setdefault(_key(unit.name), unit)
        #: the names list rows show, made on the first name no unit has (`_shown_names`)
        self.by_shown_name: dict[str, UnitTemplate] | None = None

    def find(self, *names: str) -> UnitTemplate | None:
        for by_name in (self.by_name, None):
            if by_name is None:  # no unit's own name: the name a list row of one shows
                if self.by_shown_name is None:
                    self.by_shown_name = _shown_names(self.units, self.context)
                by_name = self.by_shown_name
            for name in names:
                found = by_name.get(_key(name))
                if found is None and _key(name).endswith("s"):
                    found = by_name.get(_key(name)[:-1])
                if found is not None:
                    return found
        return None


def _shown_names(units: list[UnitTemplate], context: Context) -> dict[str, UnitTemplate]:
    """{key of the name a list row shows: its unit} where that is not the unit's own name: a
    list of a faction imported with its BattleScribe source names a row after the entry a
    catalogue link points at (BSData AoS: "[SE] Celestant-Prime, Hammer of Sigmar" shows as
    "Celestant-Prime, Hammer of Sigmar"), and our text export writes the row's name, so the
    text must find the unit by it to come back. One engine roster per such faction, made only
    when a name matched no unit's own."""
    from armybuilder.lists.backends import engine_units
    from armybuilder.lists.errors import ArmyListError
    from armybuilder.models import ArmyList
    from rules.battlescribe.list_roster import ListRosterError
    from rules.battlescribe_lists import faction_source

    by_faction: dict[int, list[UnitTemplate]] = {}
    for unit in units:
        by_faction.setdefault(unit.faction_id, []).append(unit)
    shown: dict[str, UnitTemplate] = {}
    for faction_id, templates in by_faction.items():
        faction = templates[0].faction
        if not faction_source(faction_id):
            continue
        stub = ArmyList(owner=context.user, system=faction.system, faction=faction, name="", points_limit=1)
        try:
            names = engine_units.roster_of(stub, []).shown_names([t.slug for t in templates])
        except (ArmyListError, ListRosterError):
            continue
        for template in templates:
            name = names.get(template.slug)
            if name and _key(name) != _key(template.name):
                shown.setdefault(_key(name), template)
    return shown


def _own_names(template: UnitTemplate) -> set[str]:
    """What a line of the unit may name besides its options (its models, weapons and rules, which
    come from the catalogue): each also by its parts between commas, since the line is read in
    pieces between commas (BSData AoS's weapon "Ghal Maraz, the Hammer of Sigmar")."""
    names = {template.name}
    for model in (template.data or {}).get("models", []):
        names.add(str(model.get("name", "")))
        for weapon in model.get("weapons", []):
            if isinstance(weapon, dict):
                names.add(str(weapon.get("name", "")))
        for rule in model.get("rules", []):
            names.add(str(rule))
    return {_key(part) for name in names for part in (name, *name.split(","))}


def _options(template: UnitTemplate, pieces: list[tuple[int, str]], left_out: list[str]) -> list[str]:
    menu = option_menu(template)
    by_label = {_key(str(o.get("label") or o["key"])): o for o in menu}
    own = _own_names(template)
    chosen: dict[str, int] = {}
    for line, piece in pieces:
        count, name = _counted(piece)
        option = by_label.get(_key(name))
        if option is None:
            mentions = [o for o in menu if _key(name) and _key(name) in _key(str(o.get("label") or ""))]
            if _key(name) not in own and len(mentions) == 1:
                option = mentions[0]
        if option is not None:
            most = int(option.get("max_count") or count)
            # an upgrade and the weapon it gives may both be written ("Plasma gun", "Plasma gun")
            chosen[option["key"]] = max(chosen.get(option["key"], 0), min(count, most))
        elif _key(name) not in own:
            left_out.append(
                _("line %(line)d: %(unit)s: “%(text)s” not understood; left out")
                % {"line": line, "unit": template.name, "text": piece}
            )
    return [key for key, count in chosen.items() for _ in range(count)]


def _engine_tree(
    template: UnitTemplate, pieces: list[tuple[int, str]], left_out: list[str], context: Context
) -> dict[str, Any] | None:
    """For a unit of a faction imported with its BattleScribe source: the roster engine's
    selection tree of the unit with what the text names taken, matched against the engine's own
    menu by label (containers before what they hold: a few passes), so the import rebuilds it
    in the engine as from a .rosz; None when the faction has no source (or the unit no entry)."""
    from armybuilder.lists.backends import engine_units
    from armybuilder.lists.errors import ArmyListError
    from armybuilder.models import ArmyList
    from rules.battlescribe.list_roster import ListRosterError, tree_of
    from rules.battlescribe_lists import faction_source

    faction = template.faction
    if not faction_source(faction.pk):
        return None
    stub = ArmyList(owner=context.user, system=faction.system, faction=faction, name="", points_limit=1)
    try:
        roster = engine_units.roster_of(stub, [])
        option = roster.root_option(template.slug)
        if option is None:
            return None
        index = roster.add_unit(option)
        waiting = [(line, *_counted(piece)) for line, piece in pieces]
        for _pass in range(4):
            matched = []
            for item in waiting:
                line, count, name = item
                entry = next((e for e in roster.menu(index) if _key(e.label) == _key(name)), None)
                if entry is None:
                    continue
                matched.append(item)
                if entry.count != count:
                    roster.set_counts(index, {entry.key: min(count, entry.maximum)})
            waiting = [item for item in waiting if item not in matched]
            if not matched:
                break
    except (ArmyListError, ListRosterError) as exc:
        left_out.append(f"{template.name}: {exc}")  # the engine's message, translated
        return None
    own = _own_names(template)
    for line, _count, name in waiting:
        if _key(name) not in own:
            left_out.append(
                _("line %(line)d: %(unit)s: “%(text)s” not understood; left out")
                % {"line": line, "unit": template.name, "text": name}
            )
    return tree_of(roster.unit(index))


class TextList:
    key = "text"
    label = "Text (ours, BattleScribe, Army Forge)"

    def detect(self, source: Source) -> bool:
        """Any text with a unit line; or, last of the importers, any plain text (a hand-typed
        list of names), which `read` then answers line by line."""
        try:
            text = source.text
        except ImportProblem:
            return False
        raw_lines = text.splitlines()[:200]
        if any(_UNIT_LINE.match(_clean(line)) or (not line[:1].isspace() and _SIZED_LINE.match(_clean(line)))
               for line in raw_lines):
            return True
        lines = [_clean(line) for line in raw_lines]
        return not text.lstrip().startswith(("{", "[", "<")) and any(_HAND_LINE.match(line) for line in lines)

    def _scope(
        self, text: str, context: Context
    ) -> tuple[GameSystem | None, Faction | None, list[UnitTemplate]]:
        faction = context.faction
        factions = factions_visible_to(user=context.user).select_related("system")
        if context.system_key:
            factions = factions.filter(system__key=context.system_key)
        if faction is None:
            head = text[:2000].lower()
            named = sorted((f for f in factions if f.name.lower() in head), key=lambda f: -len(f.name))
            faction = named[0] if named else None
        units = units_visible_to(user=context.user).select_related("faction", "faction__system")
        units = units.prefetch_related("options")
        if faction is not None:
            units = units.filter(faction=faction)
        elif context.system_key:
            units = units.filter(faction__system__key=context.system_key)
        system = faction.system if faction is not None else None
        return system, faction, list(units[:5000])

    def read(self, source: Source, context: Context) -> Imported:
        text = source.text
        lines = text.splitlines()
        if len(lines) > MAX_LINES:
            raise ImportProblem([("", _("At most %(max)d lines can be imported.") % {"max": MAX_LINES})])
        system, faction, units = self._scope(text, context)
        catalogue = _Catalogue(units, context)
        imported = Imported(format=self.key)
        entries: list[dict[str, Any]] = []
        current: tuple[UnitTemplate, list[tuple[int, str]], int] | None = None
        systems: set[str] = set()
        heading_done = False
        #: the notes of the current unit, line by line, once a "Notes:" line started them
        notes: list[str] | None = None
        unit_lines: list[int] = []  # the line numbers units were read from
        #: our export's configuration line: (its number, its rows as written)
        configuration: tuple[int, list[str]] | None = None
        # No line with a price: a list typed by hand, one unit name a line ("10 Concord Wardens").
        # Only then is a bare name a unit (in an export, "Created with BattleScribe" is not).
        hand_typed = not any(_UNIT_LINE.match(_clean(raw[:MAX_LINE])) for raw in lines)

        def close() -> None:
            if current is not None:
                template, pieces, first = current
                reported: list[str] = []
                tree = _engine_tree(template, pieces, reported, context)
                # the unit format's keys too: the trees are used only when every unit has one
                unmatched: list[str] = []
                keys = _options(template, pieces, unmatched)
                imported.left_out.extend(unmatched if tree is None else reported)
                for entry in entries[first:]:  # copies of one line ("2x Squad") share its options
                    entry["options"] = list(keys)
                    if tree is not None:
                        entry["selection"] = tree
                    if notes:
                        entry["notes"] = "\n".join(notes)[:UNIT_NOTES_MAX_LENGTH]

        for number, raw in enumerate(lines, start=1):
            line = _clean(raw[:MAX_LINE])
            if not line:  # a blank line ends what the unit above carries
                close()
                current, notes = None, None
                continue
            written = configuration_rows(line) if configuration is None and not raw[:1].isspace() else None
            if written is not None:
                configuration = (number, written)
                heading_done = True
                continue
            if current is not None and _STATS.match(line.strip("`").strip()):
                continue
            if current is not None and raw[:1].isspace():
                # what our export writes under a unit besides its stats: its notes ("Notes: …",
                # then each further line indented; in Markdown each line a bullet in italics)
                start = _notes_start(line)
                if start is not None:
                    notes = [start] if start else []
                    continue
                italic = len(line) > 2 and line[0] == line[-1] == "_" and raw.lstrip().startswith("- ")
                if italic:
                    notes = [*(notes or []), line[1:-1].strip()]
                    continue
                if notes is not None:
                    notes.append(line)
                    continue
            match = _UNIT_LINE.match(line)
            if match is None and not raw[:1].isspace():
                sized = _SIZED_LINE.match(line)
                named = sized and catalogue.find(sized["name"], *_pieces(sized["details"] or "")[:1])
                match = sized if named is not None else None
            is_heading = (
                not heading_done
                and (" — " in line or line.startswith("++"))
                and (match is None or "/" in line or line.startswith("++"))
            )
            if is_heading or _HEADER.match(line):
                heading_done = True
                continue
            heading_done = True
            if match is None:
                if current is not None:
                    current[1].extend((number, piece) for piece in _pieces(line))
                    continue
                hand = _HAND_LINE.match(line) if hand_typed else None
                template = catalogue.find(hand["name"]) if hand else None
                if template is None:
                    imported.left_out.append(
                        (_("line %(line)d: no unit “%(name)s” in the faction; left out")
                         % {"line": number, "name": hand["name"].strip()}) if hand else
                        (_("line %(line)d: “%(text)s” not understood; left out")
                         % {"line": number, "text": line[:120]})
                    )
                    continue
                # A hand-typed unit: its name alone, at the catalogue's price and options.
                copies = int(hand["mult"] or 1)
                if len(entries) + copies > MAX_SOURCE_UNITS:
                    too_many = _("At most %(max)d units can be imported at once.") % {"max": MAX_SOURCE_UNITS}
                    raise ImportProblem([("", too_many)])
                size = int(hand["size"]) if hand["size"] else sum(
                    int(m.get("count", 1)) for m in (template.data or {}).get("models", []))
                systems.add(template.faction.system.key)
                read_as = _("line %(line)d: read as %(unit)s") % {"line": number, "unit": template.name}
                unit_lines.append(number)
                for _copy in range(copies):
                    entry = {"catalogue_unit": catalogue_ref(template), "options": []}
                    imported.templates[catalogue_ref(template)] = template
                    entries.append(entry)
                    imported.units.append(ReportUnit(hand["name"].strip(), size, None, read_as=read_as))
                continue
            close()
            current, notes = None, None
            details_text, secret_notes = _without_stats(match["details"] or "")
            details = _pieces(details_text)
            notes = secret_notes or None
            template = catalogue.find(match["name"], *(details[:1]))
            if template is None:
                imported.left_out.append(
                    _("line %(line)d: no unit “%(name)s” in the faction; left out")
                    % {"line": number, "name": match["name"].strip()}
                )
                continue
            if (
                details
                and _key(match["name"]) != _key(details[0])
                and catalogue.find(details[0]) is template  # its own name, or the one its row shows
            ):
                details = details[1:]
            copies = int(match["mult"] or 1)
            first = len(entries)
            unit_lines.append(number)
            if len(entries) + copies > MAX_SOURCE_UNITS:
                raise ImportProblem(
                    [("", _("At most %(max)d units can be imported at once.") % {"max": MAX_SOURCE_UNITS})]
                )
            groups = match.groupdict()
            written = groups.get("pts") or groups.get("pts2")
            points: int | float | None = float(written) if written else None  # None: a list without points
            if isinstance(points, float) and points.is_integer():
                points = int(points)
            size = (
                int(match["size"])
                if groups.get("size")
                else sum(int(m.get("count", 1)) for m in (template.data or {}).get("models", []))
            )
            systems.add(template.faction.system.key)
            for _copy in range(copies):
                entry: dict[str, Any] = {"catalogue_unit": catalogue_ref(template), "options": []}
                imported.templates[catalogue_ref(template)] = template
                if _key(match["name"]) != _key(template.name):
                    entry["custom_name"] = match["name"].strip()[:100]
                entries.append(entry)
                imported.units.append(
                    ReportUnit(match["name"].strip(), size,
                               points / copies if copies > 1 and points is not None else points,
                               read_as=_("line %(line)d: read as %(unit)s")
                               % {"line": number, "unit": template.name})
                )
            current = (template, [(number, piece) for piece in details], first)
        close()
        if not entries:
            raise ImportProblem(
                [("", _("No line names a unit of the faction (a unit line looks like “Name [120 pts]”)."))]
                + [("", m) for m in imported.left_out[:20]]
            )
        if len(systems) > 1:
            raise ImportProblem([("system", _("The units belong to several game systems; choose one."))])
        imported.system_key = system.key if system is not None else systems.pop()
        imported.list_faction = faction
        imported.source_total = sum(u.source_points or 0 for u in imported.units)
        if faction is not None and entries and all("selection" in e for e in entries):
            # units of a faction imported with its source: the engine rebuilds them from the trees
            imported.roster_trees = [e.pop("selection") for e in entries]
            for entry in entries:  # what the units carry is in their trees
                entry["options"] = []
        for entry in entries:
            entry.pop("selection", None)
        # A hand-typed unit has no price in the source: its catalogue price counts towards the
        # limit the new list gets (a list of names alone got a limit of 1 pt).
        total = imported.source_total + sum(
            (imported.templates[entry["catalogue_unit"]].points or 0)
            for entry, unit in zip(entries, imported.units, strict=True) if unit.source_points is None
        )
        if all(unit.source_points is None for unit in imported.units):
            imported.source_total = None  # the source prices nothing: no total to compare
        if imported.roster_trees is not None and faction is not None and configuration is not None:
            # the roster's configuration, rebuilt ahead of the units as the export wrote it
            rows = configuration_trees(
                faction, configuration[1], line=configuration[0], context=context, left_out=imported.left_out
            )
            imported.roster_trees[:0] = [row.tree for row in rows]
            imported.roster_lead = len(rows)
            imported.units[:0] = [ReportUnit(row.name, 0, row.points) for row in rows]
            written = sum(row.points or 0 for row in rows)
            total += written
            if imported.source_total is not None:
                imported.source_total += written
        # A hand-typed list may start with a unit, not a heading: the list is not named after it.
        first_is_unit = bool(unit_lines) and not any(line.strip() for line in lines[:unit_lines[0] - 1])
        heading = "" if first_is_unit else (lines[0].split(" — ")[0].strip("+ *") if lines else "")
        imported.list_data = {
            "format": 1,
            "system": imported.system_key,
            "name": heading[:100] or _("Imported list"),
            "points_limit": min(max(int(total), 1), POINTS_LIMIT_MAX),
            "units": entries,
        }
        return imported
