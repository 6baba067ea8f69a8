"""Check of the BattleScribe 1.x army books read by the roster engine (`engine.legacy_catalogue`):
every 1.x catalogue of a BSData/whfb checkout loaded with its 1.x game system, each root entry
priced in an engine roster, against the points the file itself writes.

    .venv/bin/python bench/check_legacy_catalogues.py DIR [--show N]

DIR is a checkout of BSData/whfb (nine 8thBRB army books are still in 1.15 there, under the 1.15
"Warhammer Fantasy 8th ed.gst"). For each catalogue written by BattleScribe 1.x (with
`<entries>`), its game system (the .gst of DIR with its `gameSystemId`) and it make one
`GameData`. Each root entry is then selected alone in a force of the system's first force entry
(`Roster.select_entry`: the engine's auto-selection of minimums and group defaults, as
BattleScribe does when the unit is added) and priced by the engine.

The baseline is the file's own arithmetic, read from the XML without the converter: an entry's
`points`, plus for each child entry (or entry link) with a minimum that minimum times the
child's own smallest price, plus for each group with a minimum its members' minimums and its
default entry for the rest. It ignores modifiers, so a unit whose price a modifier changes at
its smallest size (an army-size or a character condition) can differ: those are listed.

With `--against-bs2`, a second baseline: BattleScribe 2.03's own conversion. BSData/whfb's
history holds the Dark Elves book in 1.15 (commit 5504d80) and as BattleScribe 2.03 migrated it
(8e00893, "migrate to BS v2.03.12", nothing else changed); the 1.15 file converted here is
compared with it entry by entry (constraints, costs, category links, modifiers with their
conditions and repeats, link and group fields), as is Warriors of Chaos (4338e96 against
6721d73, migrated and then edited by its maintainer, so a few differences are expected).

Printed per catalogue: root entries, entries/groups/links converted, constructs not mapped,
limits changed from "none" (-1) by a modifier, units priced, units equal to the file's
arithmetic; then the totals and the ratio of equal prices. Exit status 1 when a catalogue fails
to load or a construct could not be mapped.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from xml.etree.ElementTree import Element

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.battlescribe.engine.errors import EngineError
from rules.battlescribe.engine.legacy_catalogue import convert_catalogue
from rules.battlescribe.engine.model import GameData
from rules.battlescribe.engine.roster import Roster
from rules.battlescribe.engine.xmlform import element_to_dict
from rules.battlescribe.xml_reader import SourceFile, local_name, parse


def _num(value: str | None, default: float = 0.0) -> float:
    try:
        return float(value) if value not in (None, "") else default
    except ValueError:
        return default


def _children(element: Element, container: str) -> list[Element]:
    for child in element:
        if local_name(child.tag) == container:
            return list(child)
    return []


class FileArithmetic:
    """The smallest price of an entry as the 1.x file writes it (no modifiers)."""

    def __init__(self, root: Element):
        self.by_id = {e.get("id"): e for e in root.iter() if e.get("id")}

    def entry(self, element: Element, depth: int = 0) -> float:
        if depth > 32:
            return 0.0
        total = _num(element.get("points"))
        for child in _children(element, "entries"):
            total += max(_num(child.get("minSelections")), 0) * self.entry(child, depth + 1)
        for link in _children(element, "links"):
            target = self.by_id.get(link.get("targetId"))
            if target is None:
                continue
            if link.get("linkType") == "entry":
                total += max(_num(target.get("minSelections")), 0) * self.entry(target, depth + 1)
            elif link.get("linkType") == "entry group":
                total += self.group(target, depth + 1)
        for group in _children(element, "entryGroups"):
            total += self.group(group, depth + 1)
        return total

    def group(self, element: Element, depth: int) -> float:
        total, taken = 0.0, 0.0
        members = list(_children(element, "entries"))
        for link in _children(element, "links"):
            target = self.by_id.get(link.get("targetId"))
            if target is not None and link.get("linkType") == "entry":
                members.append(target)
        for member in members:
            minimum = max(_num(member.get("minSelections")), 0)
            total += minimum * self.entry(member, depth + 1)
            taken += minimum
        for inner in _children(element, "entryGroups"):
            total += self.group(inner, depth + 1)
        missing = _num(element.get("minSelections")) - taken
        if missing > 0:
            default = self.by_id.get(element.get("defaultEntryId"))
            if default is None and len(members) == 1:
                default = members[0]
            if default is not None:
                total += missing * self.entry(default, depth + 1)
        return total


def is_legacy_catalogue(path: Path) -> bool:
    head = path.read_bytes()[:1000]
    return b'battleScribeVersion="1' in head or b'battleScribeVersion="0' in head


def check(path: Path, systems: dict[str, dict], show: int) -> dict:
    data_bytes = path.read_bytes()
    root = parse(SourceFile(path.name, data_bytes))
    raw = element_to_dict(root)
    system = systems.get(str(raw.get("gameSystemId", "")))
    if system is None:
        raise EngineError(f"no game system {raw.get('gameSystemId')!r} in the folder")
    started = time.perf_counter()
    conversion = convert_catalogue(raw)
    data = GameData(system, [raw])
    loaded = time.perf_counter() - started
    force_id = next(iter(data.force_entries))
    arithmetic = FileArithmetic(root)
    options = data.root_options(str(raw["id"]))
    priced, equal, failed, differ, samples, free = 0, 0, [], [], [], []
    for option in options:
        roster = Roster(data)
        force = roster.add_force(force_id, str(raw["id"]))
        try:
            selection = roster.select_entry(force, option.key)
        except EngineError as error:
            failed.append(f"{option.name}: {error}")
            continue
        priced += 1
        ours = selection.cost("points")
        element = arithmetic.by_id.get(option.defn.id)
        expected = arithmetic.entry(element) if element is not None else None
        if ours == 0:
            free.append(option.name)
        elif len(samples) < 3:
            models = [(s.name, s.number, s.own_cost("points")) for s in selection.descendants()]
            parts = " + ".join(f"{n} x {name} = {cost:g}" for name, n, cost in models if cost)
            samples.append(
                f"{option.name} {ours:g} ({selection.own_cost('points'):g}{' + ' + parts if parts else ''})"
            )
        if expected is not None and abs(ours - expected) < 1e-6:
            equal += 1
        else:
            differ.append(f"{option.name}: engine {ours:g}, file {expected:g}")
    print(f"== {path.name}: loaded in {loaded:.2f} s")
    entries = sum(conversion.converted[k] for k in ("entry", "entryGroup"))
    links = sum(v for k, v in conversion.converted.items() if k.startswith("link:"))
    print(
        f"   root entries {len(options)}, entries and groups converted {entries}, links {links}, "
        f"modifiers {conversion.converted['modifier']}, conditions {conversion.converted['condition']}, "
        f"not mapped {sum(conversion.unmapped.values())}, limits from none {len(conversion.from_unlimited)}"
    )
    print(
        f"   units priced {priced}, equal to the file's arithmetic {equal}, failed {len(failed)}, "
        f"at 0 pts {len(free)}"
    )
    print(f"     e.g. {'; '.join(samples)}")
    if free:
        print(f"     at 0 pts: {', '.join(free[:show])}")
    for line in [*failed, *differ][:show]:
        print(f"     {line}")
    for line in conversion.warnings[:show]:
        print(f"     warning: {line}")
    for line in conversion.from_unlimited[:show]:
        print(f"     limit from none: {line}")
    return {
        "options": len(options),
        "priced": priced,
        "equal": equal,
        "failed": len(failed),
        "free": len(free),
        "converted": conversion.converted,
        "unmapped": conversion.unmapped,
        "from_unlimited": len(conversion.from_unlimited),
    }


#: (name, file, 1.x commit, BattleScribe 2's conversion) in BSData/whfb's history.
BS2_MIGRATIONS = (
    ("Dark Elves", "Dark Elves - 8thBRB_8thAB.cat", "5504d80", "8e00893"),
    ("Warriors of Chaos", "Warriors of Chaos - 8thBRB_8thAB.cat", "4338e96", "6721d73"),
)
_LINKED_KINDS = (
    "selectionEntries",
    "selectionEntryGroups",
    "sharedSelectionEntries",
    "sharedSelectionEntryGroups",
    "entryLinks",
    "infoLinks",
)


def _by_id(node, out: dict, kind: str = "") -> dict:
    if isinstance(node, dict):
        if "id" in node and kind in _LINKED_KINDS:
            out.setdefault(node["id"], node)
        for key, value in node.items():
            if isinstance(value, list):
                for item in value:
                    _by_id(item, out, key)
    return out


def _conditions(node: dict) -> tuple:
    own = tuple(
        (
            c.get("type"),
            c.get("scope"),
            c.get("childId"),
            _num(c.get("value")),
            c.get("shared"),
            c.get("field"),
            c.get("includeChildSelections"),
        )
        for c in node.get("conditions") or []
    )
    return own + tuple((g.get("type"), _conditions(g)) for g in node.get("conditionGroups") or [])


#: What is compared of each entry, group and link, by name.
ASPECTS = {
    "constraints": lambda d: sorted(
        (
            c.get("id"),
            c.get("type"),
            c.get("field"),
            c.get("scope"),
            _num(c.get("value")),
            c.get("shared"),
            c.get("includeChildSelections"),
            c.get("includeChildForces"),
        )
        for c in d.get("constraints") or []
    ),
    "costs": lambda d: sorted((c.get("typeId"), _num(c.get("value"))) for c in d.get("costs") or []),
    "category links": lambda d: sorted(
        (c.get("id"), c.get("targetId"), c.get("primary")) for c in d.get("categoryLinks") or []
    ),
    "modifiers": lambda d: [
        (
            m.get("type"),
            m.get("field"),
            _num(m.get("value")),
            _conditions(m),
            *tuple(
                (r.get("scope"), r.get("childId"), _num(r.get("value")), r.get("repeats"), r.get("shared"))
                for r in m.get("repeats") or []
            ),
        )
        for m in d.get("modifiers") or []
    ],
    "fields": lambda d: (d.get("type"), d.get("targetId"), d.get("defaultSelectionEntryId"), d.get("hidden")),
}


_INFO_KINDS = ("profiles", "rules", "sharedProfiles", "sharedRules")


def _infos(node, out: dict, kind: str = "") -> dict:
    if isinstance(node, dict):
        if "id" in node and kind in _INFO_KINDS:
            out.setdefault(node["id"], node)
        for key, value in node.items():
            if isinstance(value, list):
                for item in value:
                    _infos(item, out, key)
    return out


def _info(item: dict, publications: dict) -> tuple:
    """What a profile or rule shows: name, type, characteristics, page, book, text, hidden."""
    return (
        item.get("name"),
        item.get("typeId"),
        item.get("typeName"),
        [(c.get("name"), c.get("typeId"), c.get("value")) for c in item.get("characteristics") or []],
        str(item.get("page")),
        publications.get(item.get("publicationId")),
        (item.get("description") or "").strip(),
        item.get("hidden"),
    )


def against_bs2(folder: Path, type_names: dict[str, str]) -> None:
    """Each migration of `BS2_MIGRATIONS`: the 1.x file converted here against BattleScribe's."""
    import subprocess

    for name, path, old, new in BS2_MIGRATIONS:
        texts = []
        for commit in (old, new):
            shown = subprocess.run(
                ["git", "-C", str(folder), "show", f"{commit}:{path}"], capture_output=True, check=False
            )
            texts.append(shown.stdout if shown.returncode == 0 else None)
        if None in texts:
            print(f"{name}: the history of {path} is not in the folder (commits {old}, {new})")
            continue
        ours = convert_catalogue(element_to_dict(parse(SourceFile(path, texts[0]))), type_names).catalogue
        theirs = element_to_dict(parse(SourceFile(path, texts[1])))
        mine, bs2 = _by_id(ours, {}), _by_id(theirs, {})
        common = [i for i in mine if i in bs2]
        same = {
            aspect: sum(1 for i in common if read(mine[i]) == read(bs2[i]))
            for aspect, read in ASPECTS.items()
        }
        whole = sum(1 for i in common if all(read(mine[i]) == read(bs2[i]) for read in ASPECTS.values()))
        print(
            f"{name} ({old} converted here against BattleScribe 2's {new}): "
            f"{len(common)} entries, groups and links in both ({len(mine) - len(common)} only here, "
            f"{len(bs2) - len(common)} only in BattleScribe's); equal in every aspect {whole}/{len(common)}; "
            + ", ".join(f"{aspect} {n}" for aspect, n in same.items())
        )
        books = [{p["id"]: p["name"] for p in c.get("publications") or []} for c in (ours, theirs)]
        mine_info, bs2_info = _infos(ours, {}), _infos(theirs, {})
        both = [i for i in mine_info if i in bs2_info]
        equal = sum(1 for i in both if _info(mine_info[i], books[0]) == _info(bs2_info[i], books[1]))
        print(f"  profiles and rules in both {len(both)}, equal (text, characteristics, book, page) {equal}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--show", type=int, default=8, help="lines of differences shown per catalogue")
    parser.add_argument(
        "--against-bs2", action="store_true", help="compare with BattleScribe 2's migrations in the history"
    )
    args = parser.parse_args()
    systems = {}
    for gst in sorted(args.folder.glob("*.gst")):
        raw = element_to_dict(parse(SourceFile(gst.name, gst.read_bytes())))
        systems[str(raw.get("id", ""))] = raw
    catalogues = [p for p in sorted(args.folder.glob("*.cat")) if is_legacy_catalogue(p)]
    totals: Counter = Counter()
    converted: Counter = Counter()
    unmapped: Counter = Counter()
    loaded = 0
    for path in catalogues:
        try:
            result = check(path, systems, args.show)
        except Exception as error:  # a catalogue that fails is reported, the others still run
            print(f"== {path.name}: FAILED TO LOAD: {type(error).__name__}: {error}")
            continue
        loaded += 1
        for key in ("options", "priced", "equal", "failed", "free", "from_unlimited"):
            totals[key] += result[key]
        converted.update(result["converted"])
        unmapped.update(result["unmapped"])
    print()
    print(f"catalogues in the 1.x format: {len(catalogues)}, loaded: {loaded}")
    print(
        f"root entries: {totals['options']}; units priced: {totals['priced']} (failed {totals['failed']}, "
        f"at 0 pts {totals['free']})"
    )
    print("constructs converted: " + ", ".join(f"{k} {v}" for k, v in sorted(converted.items())))
    print(
        "constructs not mapped: "
        + (", ".join(f"{k} {v}" for k, v in sorted(unmapped.items())) or "none")
        + f"; limits changed from none (-1) by a modifier: {totals['from_unlimited']}"
    )
    if totals["priced"]:
        print(
            f"priced as the file's arithmetic: {totals['equal']}/{totals['priced']} "
            f"= {totals['equal'] / totals['priced']:.3f}"
        )
    if args.against_bs2:
        type_names = {
            str(t.get("id", "")): str(t.get("name", ""))
            for system in systems.values()
            for t in system.get("profileTypes") or []
        }
        against_bs2(args.folder, type_names)
    return 0 if loaded == len(catalogues) and not unmapped else 1


if __name__ == "__main__":
    sys.exit(main())
