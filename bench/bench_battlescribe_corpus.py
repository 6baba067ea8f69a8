"""Corpus bench of the BattleScribe import: every catalogue of a folder, the real import path.

    .venv/bin/python bench/bench_battlescribe_corpus.py DIR --system KEY [--glob PATTERN] [--only NAME]

For each catalogue (.cat/.catz) of DIR (those matching `--glob`, e.g. "*6thAB*"), the game
system it names and every catalogue it links (transitively) are imported together by
`rules.battlescribe_import.parse_import` (the `--dry-run` of `manage.py import_battlescribe`,
no database), each catalogue in its own forked process, so one crash or runaway cannot hide
the others and the peak memory is that catalogue's alone. Printed per catalogue:

- status: `ok` (imported), `refused` (a `BattleScribeError`/`CatalogueFileError`: a clear
  refusal), `CRASH` (any other exception: a bug), `timeout`, or `library` (a catalogue that
  offers no unit of its own and is refused for it);
- units imported / root units BattleScribe offers. The second figure is counted here from the
  XML, independently of the importer: the catalogue's root selection entries and root entry
  links whose entry is of type `unit`, `model` or `upgrade` and not hidden, plus those of the catalogues
  it links with `importRootEntries="true"` (BattleScribe's "add unit" menu). An offered unit
  counts as imported when a unit of the catalogue's faction carries its BattleScribe id;
- CPU seconds of the import (user + system of the forked process, Django start-up excluded),
  peak memory (max RSS of the process, Django included).
Then the totals, the share of offered units imported and the targets (3 s CPU, 300 MB), the
worst catalogue and the load average. `--verbose` prints the units left out and the warning
that names each. `--write` imports into Postgres instead (a fresh test database with the
bundled catalogue, each catalogue written in one transaction as the upload page does, then
deleted untimed so the next is a first write too), judged on wall seconds (target 6 s); the
CPU seconds Postgres spent on it are printed beside the import's own (their sum is what the
wall time comes to on an idle machine, disk waits aside: on a shared one the wall time mostly
measures the wait for a core):

    .venv/bin/python -m armybuilder.launcher exec python bench/bench_battlescribe_corpus.py DIR \
        --system KEY --write
"""

from __future__ import annotations

import argparse
import contextlib
import fnmatch
import json
import os
import resource
import select
import sys
import time
import traceback
from pathlib import Path
from xml.etree import ElementTree

import _django

_django.environment()

CPU_TARGET_S = 3.0
WRITE_TARGET_S = 6.0
MEMORY_TARGET_MB = 300.0
TIMEOUT_S = 300.0
#: Root entry types BattleScribe offers (an `upgrade` at the root: AoS battalions, 1st-edition
#: Grand Alliance warscrolls).
UNIT_TYPES = ("unit", "model", "upgrade")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _list(element, name: str) -> list:
    for child in element:
        if _local(child.tag) == name:
            return list(child)
    return []


class Doc:
    """What the bench needs of one file, read with the standard library's parser."""

    def __init__(self, path: Path):
        root = ElementTree.parse(path).getroot()
        self.path = path
        self.kind = _local(root.tag)
        self.id = root.get("id", "")
        self.name = root.get("name", "")
        self.system_id = root.get("gameSystemId", self.id)
        self.links = [
            (link.get("targetId", ""), link.get("importRootEntries", "false").lower() == "true")
            for link in _list(root, "catalogueLinks")
        ]
        self.roots = [
            (
                _local(e.tag),
                e.get("id", ""),
                e.get("targetId", ""),
                e.get("type", ""),
                e.get("hidden") == "true",
            )
            for name in ("selectionEntries", "entryLinks")
            for e in _list(root, name)
        ]
        #: every selection entry (any depth, shared or not) by id: (type, hidden)
        self.entries = {
            e.get("id", ""): (e.get("type", ""), e.get("hidden") == "true")
            for e in root.iter()
            if _local(e.tag) == "selectionEntry"
        }


def offered_units(doc: Doc, docs_by_id: dict[str, Doc], entries: dict[str, tuple[str, bool]]) -> list[str]:
    """BattleScribe ids of the units `doc`'s "add unit" menu offers (see the module docstring)."""
    found: list[str] = []
    seen_docs: set[str] = set()

    def visit(d: Doc) -> None:
        if d.id in seen_docs:
            return
        seen_docs.add(d.id)
        for kind, entry_id, target, entry_type, hidden in d.roots:
            if hidden:
                continue
            if kind == "selectionEntry" and entry_type in UNIT_TYPES:
                found.append(entry_id)
            elif kind == "entryLink":
                target_type, target_hidden = entries.get(target, ("", True))
                if target_type in UNIT_TYPES and not target_hidden:
                    found.append(target)
        for target, import_roots in d.links:
            if import_roots and target in docs_by_id:
                visit(docs_by_id[target])

    visit(doc)
    return list(dict.fromkeys(found))


def closure(doc: Doc, docs_by_id: dict[str, Doc]) -> list[Doc]:
    """`doc` and every catalogue it links, transitively (the files one import needs)."""
    out, todo = [], [doc]
    while todo:
        d = todo.pop()
        if d in out:
            continue
        out.append(d)
        todo += [docs_by_id[t] for t, _roots in d.links if t in docs_by_id]
    return out


def run_one(
    system_key: str, files: list[Path], doc_id: str, offered: list[str], write: bool = False
) -> dict:
    """In the forked child: the real import of `files` (dry run, or `write`: into Postgres, in
    one transaction, as the upload page does); what it gave for `doc_id`."""
    from rules.battlescribe.units import slug
    from rules.battlescribe.xml_reader import BattleScribeError, SourceFile
    from rules.battlescribe_import import import_files, parse_import
    from rules.catalogue_files import CatalogueFileError

    sources = [SourceFile(p.name, p.read_bytes()) for p in files]
    wall = time.perf_counter()
    try:
        if write:
            result = import_files(system_key=system_key, files=sources)
            wall = time.perf_counter() - wall
            _forget(result)
        else:
            result = parse_import(system_key=system_key, files=sources)
            wall = time.perf_counter() - wall
    except (BattleScribeError, CatalogueFileError) as exc:
        return {"status": "refused", "errors": exc.errors[:5], "imported": []}
    except Exception as exc:
        tb = traceback.format_exception(exc)
        return {
            "status": "CRASH",
            "errors": [f"{type(exc).__name__}: {str(exc)[:300]}", *tb[-3:]],
            "imported": [],
        }
    faction_slug = f"bs-{slug(doc_id, 60)}"
    imported = [
        unit.values["data"].get("battlescribe_id")
        for plan in result.plans
        if plan.slug == faction_slug
        for unit in plan.units
    ]
    left_out = [w for w in result.warnings if "not imported" in w or "skipped" in w or "left out" in w]
    return {"status": "ok", "errors": [], "imported": imported, "left_out": left_out[:50], "wall": wall}


def _forget(result) -> None:
    """Delete what a `--write` import stored (not timed), so the next catalogue's import is a
    first write too, not an update of the library catalogues they share."""
    from rules.models import Faction

    Faction.objects.filter(pk__in=[f.pk for f in result.factions]).delete()


def postgres_cpu() -> float | None:
    """CPU seconds the embedded Postgres of this checkout has used so far: its postmaster's own
    and that of the backends it has reaped (`cutime`, `cstime` of /proc/PID/stat), so a
    connection's work counts once it closes. None without the embedded server."""
    from armybuilder.launcher import DATA

    try:
        pid = int((DATA / "pg" / "postmaster.pid").read_text().split()[0])
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, ValueError, IndexError):
        return None
    # after the ")" of the command: state is field 3, so utime..cstime (14-17) are [11:15]
    return sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def fork_run(
    system_key: str, files: list[Path], doc_id: str, offered: list[str], write: bool = False
) -> dict:
    if write:  # the child opens its own connection; the parent's is not shared across fork
        from django.db import connections

        connections.close_all()
        before = postgres_cpu()
        out = _fork_run(system_key, files, doc_id, offered, write)
        backend = Path(f"/proc/{out.get('backend_pid', 0)}")
        deadline = time.monotonic() + 10
        while backend.exists() and time.monotonic() < deadline:  # until the postmaster reaps it
            time.sleep(0.01)
        after = postgres_cpu()
        out["db_cpu"] = (after - before) if before is not None and after is not None else None
        return out
    return _fork_run(system_key, files, doc_id, offered, write)


def _fork_run(
    system_key: str, files: list[Path], doc_id: str, offered: list[str], write: bool = False
) -> dict:
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read_fd)
        try:
            start = resource.getrusage(resource.RUSAGE_SELF)
            out = run_one(system_key, files, doc_id, offered, write)
            end = resource.getrusage(resource.RUSAGE_SELF)
            out["cpu"] = (end.ru_utime + end.ru_stime) - (start.ru_utime + start.ru_stime)
            out["rss_mb"] = end.ru_maxrss / 1024
        except BaseException as exc:
            out = {"status": "CRASH", "errors": [repr(exc)[:300]], "imported": [], "cpu": 0, "rss_mb": 0}
        if write:  # close the connection so its backend's CPU is reaped (`postgres_cpu`)
            from django.db import connection, connections

            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                out["backend_pid"] = cursor.fetchone()[0]
            connections.close_all()
        with os.fdopen(write_fd, "w") as pipe:
            json.dump(out, pipe)
        os._exit(0)
    os.close(write_fd)
    chunks, deadline = [], time.monotonic() + TIMEOUT_S
    with os.fdopen(read_fd) as pipe:
        while True:
            ready, _w, _x = select.select([pipe], [], [], max(deadline - time.monotonic(), 0))
            if not ready:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
                return {"status": "timeout", "errors": [], "imported": [], "cpu": TIMEOUT_S, "rss_mb": 0}
            chunk = pipe.read()
            if not chunk:
                break
            chunks.append(chunk)
    _pid, status, usage = os.wait4(pid, 0)
    if not chunks:
        return {
            "status": "CRASH",
            "errors": [f"exit status {status}"],
            "imported": [],
            "cpu": 0,
            "rss_mb": usage.ru_maxrss / 1024,
        }
    return json.loads("".join(chunks))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--system", required=True)
    parser.add_argument("--glob", default="*", help="catalogue file names to bench (e.g. '*6thAB*')")
    parser.add_argument("--only", default="", help="bench the catalogues whose name contains this")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--json", type=Path, help="also write the per-catalogue results here")
    parser.add_argument(
        "--write",
        action="store_true",
        help="import into Postgres (a fresh test database; run under `armybuilder.launcher exec`) "
        "instead of the dry run; judged on wall seconds against the 6 s target",
    )
    args = parser.parse_args()

    _django.setup()
    from rules.battlescribe_import import parse_import  # noqa: F401 - imported once, before forking
    from rules.systems.registry import get_system

    get_system(args.system)
    # Writing: a fresh test database with the bundled catalogue (the game systems an import needs).
    database = contextlib.ExitStack()
    if args.write:
        database.enter_context(_django.database())

    paths = sorted(p for p in args.folder.iterdir() if p.suffix.lower() in (".gst", ".cat"))
    docs = [Doc(p) for p in paths]
    docs_by_id = {d.id: d for d in docs}
    systems = {d.id: d for d in docs if d.kind == "gameSystem"}
    entries: dict[str, tuple[str, bool]] = {}
    for d in docs:
        for key, value in d.entries.items():
            entries.setdefault(key, value)
    targets = [
        d
        for d in docs
        if d.kind == "catalogue"
        and fnmatch.fnmatch(d.path.name, args.glob)
        and args.only.lower() in d.path.name.lower()
    ]
    rows, totals = [], {"imported": 0, "offered": 0, "cpu": 0.0}
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} at start, {os.cpu_count()} CPUs; "
          + ("written into Postgres" if args.write else "dry run"))
    print(
        f"{'catalogue':48} {'status':8} {'units':>11} {'cpu s':>7} {'wall s':>7} {'peak MB':>8}"
        + (f" {'db cpu s':>8} {'cpu+db':>7}" if args.write else "")
    )
    for doc in targets:
        system = systems.get(doc.system_id)
        files = [d.path for d in closure(doc, docs_by_id)]
        if system is not None:
            files.insert(0, system.path)
        offered = offered_units(doc, docs_by_id, entries)
        out = fork_run(args.system, files, doc.id, offered, args.write)
        imported = sum(1 for unit_id in offered if unit_id in set(out["imported"]))
        status = out["status"]
        if status == "refused" and not offered:
            status = "library"
        totals["imported"] += imported
        totals["offered"] += len(offered)
        totals["cpu"] += out["cpu"]
        rows.append(
            {
                "catalogue": doc.path.name,
                **out,
                "status": status,
                "offered": len(offered),
                "imported_offered": imported,
                "files": len(files),
            }
        )
        print(
            f"{doc.path.name[:48]:48} {status:8} {imported:>5}/{len(offered):<5} "
            f"{out['cpu']:>7.2f} {out.get('wall', 0.0):>7.2f} {out['rss_mb']:>8.0f}"
            + (
                f" {out['db_cpu']:>8.2f} {out['cpu'] + out['db_cpu']:>7.2f}"
                if args.write and out.get("db_cpu") is not None
                else ""
            ),
            flush=True,
        )
        if status in ("refused", "CRASH") or args.verbose:
            for line in out["errors"][:5]:
                print(f"    {line.strip()[:400]}")
        if args.verbose:
            missing = [u for u in offered if u not in set(out["imported"])]
            if missing:
                print(f"    left out: {missing[:20]}")
            for line in out.get("left_out", [])[:20]:
                print(f"    {line[:300]}")
    counts = {
        s: sum(1 for r in rows if r["status"] == s) for s in ("ok", "refused", "CRASH", "timeout", "library")
    }
    share = totals["imported"] / totals["offered"] if totals["offered"] else 1.0
    worst_cpu = max((r["cpu"] for r in rows), default=0.0)
    worst_mb = max((r["rss_mb"] for r in rows), default=0.0)
    worst_wall = max(rows, key=lambda r: r.get("wall", 0.0), default=None)
    worst_cpu_row = max(rows, key=lambda r: r["cpu"], default=None)
    worst_busy = max(rows, key=lambda r: r["cpu"] + (r.get("db_cpu") or 0.0), default=None)
    print(
        f"\n{len(rows)} catalogues: "
        + ", ".join(f"{n} {s}" for s, n in counts.items() if n)
        + f"\nroot units imported: {totals['imported']}/{totals['offered']} ({share:.1%}; target 98%)"
        + f"\nCPU: {totals['cpu']:.1f} s in all, worst catalogue {worst_cpu:.2f} s (target {CPU_TARGET_S} s)"
        + f"\npeak memory: worst {worst_mb:.0f} MB (target {MEMORY_TARGET_MB:.0f} MB)"
        + (
            f"\nworst catalogue by CPU: {worst_cpu_row['catalogue']} {worst_cpu_row['cpu']:.2f} s; by wall: "
            f"{worst_wall['catalogue']} {worst_wall.get('wall', 0.0):.2f} s"
            + (
                f" into Postgres (target {WRITE_TARGET_S} s); by CPU of the import and of Postgres: "
                f"{worst_busy['catalogue']} {worst_busy['cpu']:.2f} + "
                f"{worst_busy.get('db_cpu') or 0.0:.2f} s "
                "(the wall time an idle machine would take, without disk waits)"
                if args.write
                else ""
            )
            if rows
            else ""
        )
        + f"\nload average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} at the end"
    )
    database.close()
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    ok = (
        not counts["CRASH"]
        and not counts["timeout"]
        and share >= 0.98
        and (worst_cpu <= CPU_TARGET_S or args.write)
        and worst_mb <= MEMORY_TARGET_MB
        and (not args.write or max((r.get("wall", 0.0) for r in rows), default=0.0) <= WRITE_TARGET_S)
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
