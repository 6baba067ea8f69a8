"""Benchmark of the list import: each format, a 2,000-point list, against our JSON.

    .venv/bin/python -m armybuilder.launcher exec python bench/bench_list_import.py [--repeat N]

In a fresh test database (the bundled catalogue loaded), a 2,000-point OPR list is built
from a bundled faction and written out in every format we read — our list file (JSON), Army
Forge's share JSON, BattleScribe's .rosz, New Recruit's JSON roster (the same roster as JSON)
and our plain text — plus an Army Forge army book of the same units. Each is imported through
the one entry point (`armybuilder.lists.imports.import_source`: detect, read, check, price,
save in one transaction) `--repeat` times; the median wall time is printed with its ratio to
importing our own JSON file the same way (the baseline: the import that already existed).
Target: every format ≤ 200 ms. Exit 0 when all are met.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from xml.etree import ElementTree

import _django

_django.environment()

TARGET_MS = 200.0
LIST_POINTS = 2000


def new_recruit(xml: bytes) -> dict:
    def element(node: ElementTree.Element) -> dict:
        out: dict = dict(node.attrib)
        for child in node:
            tag = child.tag.rsplit("}", 1)[-1]
            if len(child) or tag in ("selections", "costs", "forces", "costLimits"):
                out[tag] = [element(grandchild) for grandchild in child]
        return out

    return {"roster": element(ElementTree.fromstring(xml))}


def sources(user):
    from armybuilder.lists.army_forge_export import army_forge_document
    from armybuilder.lists.importers import Source
    from armybuilder.lists.interchange import army_list_to_dict
    from armybuilder.lists.services import army_list_add_unit, army_list_create, list_units_in_order
    from armybuilder.roster.battlescribe import roster_document
    from armybuilder.roster.text import army_list_text
    from rules.battlescribe.unit_roster import roster_rosz, roster_xml
    from rules.models import Faction

    faction = Faction.objects.filter(system__key="opr", owner=None).order_by("slug").first()
    army_list = army_list_create(owner=user, system=faction.system, faction=faction, name="Bench 2000",
                                 points_limit=LIST_POINTS)
    templates = list(faction.units.order_by("position", "pk"))
    index = 0
    while army_list.total_points < LIST_POINTS - 60:
        army_list_add_unit(army_list=army_list, unit=templates[index % len(templates)], options={},
                           expected_version=None)
        army_list.refresh_from_db()
        index += 1
    units = list_units_in_order(army_list)
    document = roster_document(army_list=army_list, units=units)
    forge = army_forge_document(army_list=army_list, units=units)
    book = {"uid": "benchbook", "name": "Bench Book", "upgradePackages": [],
            "units": [{**u, "equipment": u["loadout"]} for u in forge["units"]]}
    made = {
        "json": Source.of_text(json.dumps(army_list_to_dict(army_list=army_list, units=units)), "list.json"),
        "army_forge_list": Source.of_text(json.dumps(forge), "forge.json"),
        "army_forge_book": Source.of_text(json.dumps(book), "book.json"),
        "battlescribe": Source(name="list.rosz", data=roster_rosz(document)),
        "new_recruit": Source.of_text(json.dumps(new_recruit(roster_xml(document))), "roster.json"),
        "text": Source.of_text(army_list_text(army_list=army_list, units=units), "list.txt"),
    }
    return army_list, made


def timed(user, source, repeat: int) -> tuple[float, int, int]:
    """Median milliseconds of a full import (saved, then undone), units and left-out lines."""
    from django.db import transaction

    from armybuilder.lists.importers import Source
    from armybuilder.lists.imports import import_source

    class Undo(Exception):
        pass

    times, outcome = [], None
    for _ in range(repeat):
        fresh = Source(name=source.name, data=source.data)  # nothing parsed ahead
        try:
            with transaction.atomic():
                start = time.perf_counter()
                outcome = import_source(user=user, source=fresh, system_key="opr")
                times.append((time.perf_counter() - start) * 1000)
                raise Undo
        except Undo:
            pass
    return statistics.median(times), len(outcome.imported.units), len(outcome.imported.left_out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    _django.setup()
    from django.contrib.auth import get_user_model

    ok = True
    with _django.database():
        user = get_user_model().objects.create_user("bench", password="a-long-bench-password")
        army_list, made = sources(user)
        print(f"List import: a {army_list.total_points}-point OPR list of {army_list.units.count()} units, "
              f"median of {args.repeat} ({os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f})")
        baseline, _units, _left = timed(user, made["json"], args.repeat)
        for key, source in made.items():
            ms, units, left = timed(user, source, args.repeat)
            ok &= ms <= TARGET_MS
            print(f"  {key:16} {len(source.data) / 1024:6.1f} KiB  {ms:7.1f} ms  ×{ms / baseline:4.2f} of "
                  f"our JSON  ({units} units, {left} left out)  [target ≤ {TARGET_MS:.0f} ms]")
    print("all targets met" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
