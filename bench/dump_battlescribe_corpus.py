"""Every imported unit of a folder of BattleScribe catalogues, as JSON, to compare two versions of
the import (issue 39: one BattleScribe model, proved by identical prices and options).

    .venv/bin/python bench/dump_battlescribe_corpus.py DIR --system KEY [--glob PATTERN] --out FILE
    .venv/bin/python bench/dump_battlescribe_corpus.py --diff BEFORE.json AFTER.json

The dump is `{catalogue file: {"status", "units": {"<battlescribe id> <name>": {"price", "options",
"sizes", "data"}}}}`: the system's price breakdown of the unit as imported, its options, its
models' counts and ranges, and the whole unit record. Each catalogue is imported with its game
system and the catalogues it links (`bench_battlescribe_corpus.closure`), in a forked process.
`--diff` prints the figures (catalogues, units, identical, differing) and each difference: which
of price, options, sizes or the rest of the record changed.

Issue 39 (the import split into `rules.battlescribe.units`), before against after: Ergofarg WHFB
6th (whfb6) 16 catalogues, 402 units; BSData/whfb 8th (ru_whfb, `--glob '*8thBRB*'`) 20 catalogues
(9 refused both times), 435 units; BSData/warhammer-age-of-sigmar v1.50.9 (aos1) 62 catalogues,
1,088 units; BSData/wh40k-9e (wh40k9) 52 catalogues, 4,152 units: 6,077 units, all identical.

Issue 39 (the import on the engine's evaluator and model), before against after: whfb6 397 of 402
identical, ru_whfb 435 of 435, aos1 1,014 of 1,088, wh40k9 4,069 of 4,152. Every difference is
BattleScribe's answer where the importer's own evaluator had another (`tests/rules/battlescribe/
test_one_evaluator.py` holds one small case of each): an `ancestor` condition looks at every
ancestor (wh40k9 weapons priced by the model carrying them, War Walkers 55 -> 65 pts; AoS lores
and artefacts of a battalion's heroes offered), a force- or roster-wide count includes the unit
itself, a unit's own `parent` scope is its force, and a link's limit replaces its target's
(Ergofarg's magic banner links "max 50 selections", wh40k9 relics and traits "max 2").

Issue 39 (profiles read by the engine's model, `engine.model.parse_profile` over
`engine.xmlform.element_to_dict`, which now keeps a characteristic's value), before against
after: whfb6 402 of 402 identical, ru_whfb 435 of 435, aos1 1,088 of 1,088, wh40k9 4,152 of
4,152.

Issue 39 (a unit's smallest selection made by the engine's roster, `units.smallest`: the
engine's auto-selection completed by `complete_minimums`; the unit's price, per-model points,
fixed cost and Power read from that roster), before against after: whfb6 402 of 402 identical
(Dwarfs "Slayers" 110 as before), ru_whfb 435 of 435, aos1 1,048 of 1,088, wh40k9 4,012 of
4,152. Every difference is a minimum the data sets that the importer's own tree left unmet
(BattleScribe reports each as an error): a choice group whose minimum a modifier sets once the
models are in (one weapon per model: Kairic Acolytes, Witch Aelves, Arkanaut Company, Plague
Marines), a group inside a group (Great Unclean One's "One Hand"/"Other Hand"), an entry whose
minimum a modifier raises (Mortarion's and Abaddon's own Warlord Traits, a Burna Boyz Spanner per
4 Burna Boys), and an AoS battalion's requirement set by an `instanceOf` of the group it was
chosen from, which the engine reads as BattleScribe does ("must contain 3 units of Blood
Warriors": The Goretide 1000 -> 1200, The Skullfiend Tribe 1100 -> 1280, The Hosts Duplicitous
910 -> 1270, The Pyrofane Cult 1170 -> 1370, Cult of the Transient Form 1230 -> 1410, Lords of
Sacrament 570 -> 790). Points change for 10 units; the rest carry the weapons or traits taken
and offer the others as replacements. wh40k9 Primaris Crusader Squad 73 -> 158 is its nested
"Primaris Initiates" group's 5 models, now taken (5 models before, under the squad's minimum of
10). Burna Boyz 50 -> 65 and Lootas 70 -> 84 are legal units but not the cheapest (a Spanner
replacing a Burna Boy would be): the completion adds what is missing and never swaps.

Issue 39 (an option's limits, ceiling, default, static `hidden` modifiers and price asked of
the engine's roster, `engine.query`; the size sweeps still the importer's `Pricer`), before
against after: whfb6 402 of 402 identical, ru_whfb 433 of 435, aos1 1,088 of 1,088, wh40k9
4,101 of 4,152 (`tests/rules/battlescribe/units/test_engine_queries.py` holds one small case of
each kind): a modifier of an entry's own limit no longer raises a child's limit of the same id
(8th Empire's Captain: 1 magic standard, not 2); a condition or repeat naming a selection-entry
group counts the selections chosen from it (Scout Squad's Camo cloak: up to 5, not 1; a
Vanguard Veteran Squad's Jump Pack: 15 at 5 models, not 0, and Reavers', Broadsides' and Tyranid
Warriors' group limits); a static `hidden` modifier sees the categories modifiers give the unit
(Imperial Knights at their smallest selection are Questor Mechanicus: its traditions and
heirlooms offered, the Crusader's Imperialis-only cannon not; Daemon Prince's loci). Moving the
size sweeps onto the engine as well was identical on whfb6, ru_whfb and aos1 and gave 236 wh40k9
units their 40k Power steps (a group counted, as above) and the Jump Pack 3 pts per model, but
made the wh40k9 import about 45% slower, and was taken back.

Issue 39 (the size sweeps on the engine's roster again, cheaply: `UnitSelection.sizes` grows the
unit in one trial evaluated into a `ScratchCache` without dependencies, re-completes only the
minimums a modifier sets, sums every cost type in one walk with same-shaped siblings evaluated
once; the importer's `Pricer` and `evaluation.py` deleted), before (d576404) against after:
whfb6 402 of 402 identical, ru_whfb 435 of 435, aos1 1,088 of 1,088, wh40k9 3,914 of 4,152
(`tests/rules/battlescribe/units/test_sizes.py` holds one small case of each kind). 236 wh40k9
units gain 40k Power steps and T'au Drone Sentry Turrets' are corrected (2 turrets Power 4, 3:
6, 4: 12, not 0): a condition or repeat naming the group the models are chosen from counts them,
as BattleScribe does; 9 Vanguard Veteran Squads' Jump Pack costs 3 pts per model (BattleScribe's
15 at 5 models, 18 at 6), not 15 whatever the size; Orks Lootas' larger sizes keep the Spanner
the smallest selection took and add one per 4 Lootas as the data requires (+14 at 6 Lootas,
not +0). The dumps' CPU (user + system), each run side by side with the base's (load 5-9):
wh40k9 141.9 s against 143.9 s and again 141.8 s against 142.7 s, aos1 57.6 s against 60.8 s.

Issue 39 (a model the completion takes to meet a minimum replaces as many models of another
entry beside it when the engine finds the unit as legal and cheaper so, `units.smallest.
_swap_cheaper`), before against after: whfb6 402 of 402 identical, ru_whfb 435 of 435, aos1
1,088 of 1,088, wh40k9 4,150 of 4,152. The two are the units named above: Burna Boyz 65 -> 55
and Lootas 84 -> 70, now 4 Burna Boys (Lootas) and the Spanner needed per 4 in their mob of 5
rather than 5 and a Spanner on top (BattleScribe's own auto-selection, 5 and no Spanner, is 50
and 70 pts with an error; a list shows that when either is added). With the sixth model gone
their Power falls (6 -> 3, 8 -> 4), the Mek Kustom Jobs priced per model cost 1 pt a model less
(Smoky Gubbinz 6 -> 5, Zzapkrumpaz 12 -> 10), and the mob's own model starts at 4 (Lootas' fixed
cost 70 -> 56, "Add Loota" up to 8 more, to 12). A swap is tried for 3 units of the four
corpora (the third, AoS's "Battalion: Brawl", finds none legal). The wh40k9 import's CPU, base
and this alternately, twice each on a loaded 2-CPU machine (load 6-10): 62.2 and 59.3 s
before, 60.6 and 58.3 s after.

Both together (the cheaper smallest selection, the sweeps on the engine; the sweeps re-complete
a grown unit without swapping, as a size is a number of models), before (d576404) against
after: whfb6 402 of 402 identical, ru_whfb 435 of 435, aos1 1,088 of 1,088, wh40k9 3,913 of
4,152: the 238 units of the sweeps and Burna Boyz; the Lootas start at 4 and a Spanner (70)
and grow +14, +28, +42, +70 (a second Spanner at 8 Lootas) as the data requires.

A model's "up to N" bounded by the groups it is chosen from (`UnitSelection.room`: its own
maximum and each group's maximum less the other members taken), before (11758b2) against after:
whfb6 401 of 402 identical (Dwarfs Slayers "Add Troll Slayer" up to 30, the "Slayer unit" group's,
not 110), ru_whfb 435 of 435, aos1 1,088 of 1,088, wh40k9 3,910 of 4,152. Of the 242, 191 units'
add-models options now stop at their group's room (72 of them with the per-model options' maxima
that follow the model's: Voidweavers 1-3, Prismatic Cannon 101 -> 3; Legionaries 19 -> 9, Warp
Spiders 10 -> 9, Vertus Praetors 10 -> 6, the "Squad" group's), and 51 lose the option, their
group full at the smallest selection (Traitor Guardsman Squad 1 + 9 of 10, Pathfinder Team, a
Sicarian Princeps max 1 and its 17 relics and traits 101 -> 1). Burna Boyz offer 10 more Burna
Boys (14 with the Spanner in a mob of 15), not 100, so their sizes are priced as BattleScribe
prices them (55 pts still; +10 a Burna Boy and +15 for the Spanner the 8th requires). Generated
add-models labels shown in the reader's language (`rules.option_labels`: the option's payload
keeps `label_parts`), after against the commit before: the only difference is that key, on 197
options of 196 whfb6 units, 134 of 133 ru_whfb, 349 of 349 aos1, 880 of 834 wh40k9; each label
is made again from its parts exactly. Both against 11758b2: whfb6 206 of 402 identical, ru_whfb
302 of 435, aos1 739 of 1,088, wh40k9 3,270 of 4,152. CPU not compared (one read of the
group's limits per model).

Issue 39 (one model: the import reads the engine's model only, `units.data.ImportData` over
`GameData`; `catalogue.Entry`, `entries.Index` and their XML reader deleted), before (189e97f)
against after: whfb6 402 of 402 identical, ru_whfb 435 of 435 (9 catalogues refused both times),
aos1 1,088 of 1,088, wh40k9 4,151 of 4,152; every catalogue's warning count unchanged. The one
difference: Blood Angels' Sanguinary Priest on Bike [Legends] carries its Chainsword after its
grenades, not before: the engine took the Chainsword through the "Melee weapons" link written
after the grenades, and the importer's own model matched it to the first entry of the same ids
(inside the "Ranged/Melee weapon" group); the tree now holds the very option the engine selected
(`tests/rules/battlescribe/units/test_smallest.py`, the Priest's shape). Reading the files of
the 52 wh40k9 imports (parse, headers, models): 22.6 s CPU before, 16.5 s after; the bench's
import CPU, base and this alternately on a loaded 2-CPU machine: 61.7 and 61.8 s before, 53.1
and 55.4 s after (peak memory 182 MB -> 170 MB).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import sys
from pathlib import Path

import _django

_django.environment()


def dump_one(system_key: str, files: list[Path], doc_id: str) -> dict:
    """The units the import makes of `doc_id`'s catalogue (run in a forked child)."""
    from rules.battlescribe.units import slug
    from rules.battlescribe.xml_reader import BattleScribeError, SourceFile
    from rules.battlescribe_import import parse_import
    from rules.catalogue_files import CatalogueFileError
    from rules.systems.registry import get_system

    system = get_system(system_key)
    sources = [SourceFile(p.name, p.read_bytes()) for p in files]
    try:
        result = parse_import(system_key=system_key, files=sources)
    except (BattleScribeError, CatalogueFileError) as exc:
        return {"status": "refused", "units": {}, "errors": [str(e) for e in exc.errors[:5]]}
    except Exception as exc:
        return {"status": "CRASH", "units": {}, "errors": [f"{type(exc).__name__}: {exc}"[:300]]}
    faction_slug = f"bs-{slug(doc_id, 60)}"
    units: dict[str, dict] = {}
    for plan in result.plans:
        if plan.slug != faction_slug:
            continue
        for unit in plan.units:
            data = unit.values["data"]
            key = f"{data.get('battlescribe_id', '')} {unit.values['name']}"
            while key in units:
                key += "'"
            units[key] = {
                "price": system.price(data),
                "options": [{"key": o.key, **o.values} for o in unit.options],
                "sizes": [
                    {k: m.get(k) for k in ("name", "count", "min_count", "max_count")}
                    for m in data.get("models", [])
                ],
                "data": unit.values,
            }
    return {"status": "ok", "units": units, "warnings": len(result.warnings)}


def forked(system_key: str, files: list[Path], doc_id: str) -> dict:
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        try:
            out = dump_one(system_key, files, doc_id)
        except BaseException as exc:
            out = {"status": "CRASH", "units": {}, "errors": [repr(exc)[:300]]}
        with os.fdopen(write_fd, "w") as pipe:
            json.dump(out, pipe, default=str, sort_keys=True)
        os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd) as pipe:
        text = pipe.read()
    os.waitpid(pid, 0)
    return json.loads(text) if text else {"status": "CRASH", "units": {}, "errors": ["no output"]}


def dump(folder: Path, system_key: str, pattern: str, out_path: Path) -> dict:
    _django.setup()
    from bench_battlescribe_corpus import Doc, closure

    from rules.battlescribe_import import parse_import  # noqa: F401 - imported once, before forking

    docs = [Doc(p) for p in sorted(folder.iterdir()) if p.suffix in (".cat", ".gst")]
    by_id = {d.id: d for d in docs}
    systems = {d.id: d for d in docs if d.kind == "gameSystem"}
    out: dict[str, dict] = {}
    for doc in docs:
        if doc.kind != "catalogue" or not fnmatch.fnmatch(doc.path.name, pattern):
            continue
        files = [d.path for d in closure(doc, by_id)]
        if doc.system_id in systems:
            files.insert(0, systems[doc.system_id].path)
        out[doc.path.name] = forked(system_key, files, doc.id)
        print(doc.path.name, out[doc.path.name]["status"], len(out[doc.path.name]["units"]), flush=True)
        # Written after each catalogue: a long run stopped half-way keeps what it found.
        out_path.write_text(json.dumps(out, default=str, sort_keys=True, indent=0))
    return out


def diff(before: dict, after: dict) -> int:
    catalogues = sorted(set(before) | set(after))
    units = identical = 0
    differing: list[str] = []
    for name in catalogues:
        b, a = before.get(name, {}), after.get(name, {})
        if b.get("status") != a.get("status"):
            differing.append(f"{name}: status {b.get('status')} -> {a.get('status')}")
        bu, au = b.get("units", {}), a.get("units", {})
        for key in sorted(set(bu) | set(au)):
            units += 1
            if key not in bu or key not in au:
                differing.append(f"{name}: {key}: {'only after' if key in au else 'only before'}")
                continue
            if bu[key] == au[key]:
                identical += 1
                continue
            parts = [p for p in ("price", "options", "sizes", "data") if bu[key][p] != au[key][p]]
            detail = ""
            if "price" in parts:
                detail = f" ({bu[key]['price'].get('points')} -> {au[key]['price'].get('points')})"
            differing.append(f"{name}: {key}: {', '.join(parts)} differ{detail}")
    differ = units - identical
    print(f"catalogues {len(catalogues)}, units {units}, identical {identical}, differing {differ}")
    for line in differing:
        print("  " + line)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?")
    parser.add_argument("--system")
    parser.add_argument("--glob", default="*")
    parser.add_argument("--out")
    parser.add_argument("--diff", nargs=2)
    args = parser.parse_args()
    if args.diff:
        before, after = (json.loads(Path(p).read_text()) for p in args.diff)
        return diff(before, after)
    dump(Path(args.folder), args.system, args.glob, Path(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
