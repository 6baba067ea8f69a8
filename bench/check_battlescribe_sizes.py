"""Check of imported unit sizes: every legal size of every unit sized by a numbered selection
("10 Bestigors", taken 1 to 3 times) or growing by a model entry, our price against
BattleScribe's.

    .venv/bin/python bench/check_battlescribe_sizes.py DIR --system KEY [--only NAME]

For each catalogue of DIR (with its game system and linked catalogues, as
`bench_battlescribe_corpus.py` gathers them) the real dry-run import runs
(`rules.battlescribe_import.parse_import`). For each imported unit that records a size entry
(`battlescribe_per_selection`) or has an add-models option for one of its model entries
(`battlescribe_models`, one model a selection), every count of that entry from its minimum to its maximum is
priced twice:

- BattleScribe's rule: the unit's smallest selection in the roster engine grown to that many
  selections of the size entry, costs and cost modifiers evaluated by the engine
  (`rules.battlescribe.units.smallest.UnitSelection.sizes`);
- ours: the imported unit (the unit format the lists store) with the add-models options that
  make that many models (options with a minimum taken at it), priced by the system
  (`rules.options.apply_options` + `rules.systems.registry.unit_points`), as a list prices it.

Printed: each mismatch (unit, size, ours, BattleScribe's) and each size the options cannot
make; then the totals: sized units, sizes checked, units exact at every size. Exit status 1
when any size is off.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import _django

_django.environment()

from bench_battlescribe_corpus import Doc, closure  # noqa: E402

#: the most selections of a size entry checked (a unit "up to 40" of "1 Rat" checks 40 sizes)
MAX_SELECTIONS = 60


def size_choices(unit: dict, options: list[dict], model: str, added: int) -> list[dict[str, int]]:
    """The option choices (minimum counts included) that add `added` models of `model` with
    add-models options alone: one option taken k times, payload count x k == added."""
    base = {str(o["key"]): int(o.get("min_count") or 0) for o in options if o.get("min_count")}
    if added == 0:
        return [base]
    found = []
    for option in options:
        if option.get("kind") != "add_models" or option.get("applies_to") != model:
            continue
        per = int((option.get("payload") or {}).get("count", 1))
        if per > 0 and added % per == 0 and added // per <= int(option.get("max_count") or 0):
            found.append({**base, str(option["key"]): added // per})
    return found


def check(files: list[Path], system_key: str, doc_id: str) -> tuple[dict[str, bool], int, list[str]]:
    """({BattleScribe id of each sized unit: exact at every size}, sizes checked, problem lines)
    of one catalogue."""
    from contextlib import closing

    from points.catalogue.pricing import round_half_up
    from rules.battlescribe.units import slug
    from rules.battlescribe.units.data import read_files
    from rules.battlescribe.units.smallest import SmallestSelection
    from rules.battlescribe.xml_reader import SourceFile
    from rules.battlescribe_import import parse_import
    from rules.options import OptionError, apply_options
    from rules.systems.registry import get_system, unit_points

    sources = [SourceFile(p.name, p.read_bytes()) for p in files]
    result = parse_import(system_key=system_key, files=sources)
    bs = read_files(sources)  # the import's model of the data
    smallest = SmallestSelection(bs, lambda _path, _message: None)
    mapping = get_system(system_key).battlescribe
    points_id = next(k for k, n in bs.cost_types.items() if mapping.is_points(n))
    doc = next(d for d in bs.documents if d.id == doc_id)
    roots = {bs.unit_id(o): o for _written, o in bs.root_entries(doc) if o is not None}
    system = get_system(system_key)
    units: dict[str, bool] = {}
    sized = 0
    problems: list[str] = []
    for plan in result.plans:
        if plan.slug != f"bs-{slug(doc_id, 60)}":
            continue
        for unit_plan in plan.units:
            data = unit_plan.values["data"]
            options = [{"key": o.key, **o.values} for o in unit_plan.options]
            per_selection = data.get("battlescribe_per_selection") or {
                str(o["applies_to"]): 1  # a model entry the unit grows by, one model a selection
                for o in options
                if o.get("kind") == "add_models"
                and o.get("applies_to") in (data.get("battlescribe_models") or {})
                and (o.get("payload") or {}).get("count") == 1
            }
            entry = roots.get(data.get("battlescribe_id"))
            if not per_selection or entry is None:
                continue
            ok = True
            for model_name, per in per_selection.items():
                size_id = data["battlescribe_models"][model_name]
                selection = smallest.select(entry, doc_id)
                root = selection.root
                node = next(
                    (n for n in root.children if size_id in (bs.entry_id(n.entry), bs.target_id(n.entry))),
                    None,
                )
                if node is None:
                    problems.append(f"{bs.name(entry)}: size entry {size_id} not in the smallest selection")
                    ok = False
                    continue
                low = node.count
                high = selection.limit(node.entry, "max", root) or low
                start = next(int(m["count"]) for m in data["models"] if m["name"] == model_name)
                with closing(selection.sizes(node, range(low, min(high, MAX_SELECTIONS) + 1))) as grown:
                    theirs_at = {n: round_half_up(selection.cost(points_id)) for n in grown}
                for n, theirs in theirs_at.items():
                    size = start + per * (n - low)
                    sized += 1
                    ours = set()
                    for choice in size_choices(data, options, model_name, per * (n - low)):
                        try:
                            ours.add(unit_points(system, apply_options(data, options, choice)))
                        except OptionError:
                            continue
                    if not ours:
                        problems.append(f"{bs.name(entry)}: {size} {model_name}: no option makes this size")
                        ok = False
                    elif theirs not in ours or len(ours) > 1:
                        problems.append(
                            f"{bs.name(entry)}: {size} {model_name}: ours {sorted(ours)}, "
                            f"BattleScribe {theirs}"
                        )
                        ok = False
            units[bs.unit_id(entry)] = ok
    return units, sized, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--system", required=True)
    parser.add_argument("--only", default="", help="check the catalogues whose name contains this")
    args = parser.parse_args()

    _django.setup()
    paths = sorted(p for p in args.folder.iterdir() if p.suffix.lower() in (".gst", ".cat"))
    docs = [Doc(p) for p in paths]
    docs_by_id = {d.id: d for d in docs}
    systems = {d.id: d for d in docs if d.kind == "gameSystem"}
    exact: dict[str, bool] = {}  # a unit several catalogues offer counts once
    sizes = mismatched = 0
    for doc in docs:
        if doc.kind != "catalogue" or args.only.lower() not in doc.path.name.lower():
            continue
        files = [d.path for d in closure(doc, docs_by_id)]
        if doc.system_id in systems:
            files.insert(0, systems[doc.system_id].path)
        try:
            units, checked, problems = check(files, args.system, doc.id)
        except Exception as exc:  # a refused catalogue: the corpus bench reports it
            print(f"{doc.path.name}: not checked ({type(exc).__name__}: {str(exc)[:200]})")
            continue
        for line in problems:
            print(f"{doc.path.name}: {line}")
        mismatched += len(problems)
        sizes += checked
        for unit_id, ok in units.items():
            exact[unit_id] = exact.get(unit_id, True) and ok
    print(
        f"\nsized units: {len(exact)}; sizes checked: {sizes} (in every catalogue offering the unit); "
        f"units exact at every size: {sum(exact.values())}/{len(exact)}; sizes off: {mismatched}"
    )
    return 1 if mismatched else 0


if __name__ == "__main__":
    sys.exit(main())
