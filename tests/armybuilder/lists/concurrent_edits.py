"""Many clients editing one list at once, on real Postgres (issue 18.2).

Shared by `tests/armybuilder/lists/test_concurrency.py` (a bounded run in CI) and
`bench/stress_concurrent_edits.py` (loops it under CPU load). Each worker thread has its own
database connection and plays a client: read the list, pick a change (add, option change,
duplicate, move, remove, rename, share), send it from the version it read, and on a stale
answer read again and retry, as the editor does after its 409. Every successful change
records the version it produced, so the checks can tell a lost update (two successes that
produced the same version, or a version no success produced) from a deadlock (a database
error) and from a list whose units drifted from what the successes add up to.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from dataclasses import dataclass, field

from django.db import DatabaseError, connection

from armybuilder.lists import services, sharing
from armybuilder.lists.errors import ArmyListError, StaleListError
from armybuilder.models import ArmyList, ListUnit
from rules.models import UnitTemplate

KINDS = ("add", "options", "duplicate", "move", "remove", "rename", "share")


@dataclass
class Outcome:
    """What all clients saw: successes (kind, version produced), stale retries, database errors."""

    successes: list[tuple[str, int]] = field(default_factory=list)
    stale: int = 0
    errors: list[str] = field(default_factory=list)
    unit_delta: int = 0
    renames: dict[int, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def success(self, kind: str, version: int, *, delta: int = 0, name: str | None = None) -> None:
        with self.lock:
            self.successes.append((kind, version))
            self.unit_delta += delta
            if name is not None:
                self.renames[version] = name


def _change(kind: str, army_list: ArmyList, template: UnitTemplate, rng: random.Random,
            outcome: Outcome, client: int) -> bool:
    """One change from the version just read; False when there was nothing to change it on."""
    version = army_list.version
    # Read through the list so each unit's `army_list` is this object: the services copy the
    # new version onto it, and a second query could already see another client's version.
    units = list(army_list.units.order_by("position"))
    if kind in ("options", "duplicate", "move", "remove") and not units:
        kind = "add"
    if kind == "add":
        services.army_list_add_unit(army_list=army_list, unit=template, options={}, expected_version=version)
        outcome.success(kind, army_list.version, delta=1)
    elif kind == "options":
        unit = rng.choice(units)
        services.army_list_unit_set_options(
            list_unit=unit, options={"extra": rng.randint(0, 5), "plasma": rng.randint(0, 1)},
            expected_version=version)
        outcome.success(kind, army_list.version)
    elif kind == "duplicate":
        services.army_list_unit_duplicate(list_unit=rng.choice(units), expected_version=version)
        outcome.success(kind, army_list.version, delta=1)
    elif kind == "move":
        services.army_list_unit_move(list_unit=rng.choice(units), position=rng.randrange(len(units)),
                                     expected_version=version)
        outcome.success(kind, army_list.version)
    elif kind == "remove":
        services.army_list_unit_remove(list_unit=rng.choice(units), expected_version=version)
        outcome.success(kind, army_list.version, delta=-1)
    elif kind == "rename":
        name = f"Client {client} rename {rng.randrange(10**6)}"
        services.army_list_update(army_list=army_list, expected_version=version, name=name)
        outcome.success(kind, army_list.version, name=name)
    else:
        sharing.army_list_share(army_list=army_list, expected_version=version)
        outcome.success(kind, army_list.version)
    return True


def _client(list_pk: int, template: UnitTemplate, changes: int, seed: int, start: threading.Barrier,
            outcome: Outcome) -> None:
    rng = random.Random(seed)
    try:
        start.wait(timeout=30)
        done = 0
        while done < changes:
            kind = rng.choice(KINDS)
            army_list = ArmyList.objects.select_related("system").get(pk=list_pk)
            try:
                _change(kind, army_list, template, rng, outcome, seed)
                done += 1
            except StaleListError:
                with outcome.lock:
                    outcome.stale += 1
            except (ListUnit.DoesNotExist, ArmyListError):
                # The unit this client read was removed or moved by another client meanwhile:
                # what the editor shows as "that unit is gone"; read again.
                with outcome.lock:
                    outcome.stale += 1
    except DatabaseError as exc:  # a deadlock or a serialization failure
        with outcome.lock:
            outcome.errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        connection.close()


def run_clients(*, army_list: ArmyList, template: UnitTemplate, clients: int, changes: int,
                seed: int = 0) -> Outcome:
    """`clients` threads, each making `changes` successful changes of `army_list` at once."""
    outcome = Outcome()
    start = threading.Barrier(clients)
    threads = [threading.Thread(target=_client, args=(army_list.pk, template, changes, seed * 1000 + i,
                                                      start, outcome)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    if any(thread.is_alive() for thread in threads):
        outcome.errors.append("a client did not finish within 300 s (a lock held forever?)")
    return outcome


def consistency_problems(*, army_list: ArmyList, initial_version: int, initial_units: int,
                         outcome: Outcome) -> list[str]:
    """Everything wrong with the final list given what the clients saw succeed (empty: all well)."""
    problems = list(outcome.errors)
    final = ArmyList.objects.get(pk=army_list.pk)
    produced = Counter(version for _, version in outcome.successes)
    twice = sorted(v for v, n in produced.items() if n > 1)
    if twice:
        problems.append(f"lost update: versions produced by two changes: {twice[:10]}")
    expected_versions = set(range(initial_version + 1, initial_version + len(outcome.successes) + 1))
    if set(produced) != expected_versions or final.version != initial_version + len(outcome.successes):
        problems.append(
            f"version {final.version} after {len(outcome.successes)} changes from {initial_version}")
    units = list(ListUnit.objects.filter(army_list=final).order_by("position"))
    if len(units) != initial_units + outcome.unit_delta:
        problems.append(f"{len(units)} units, expected {initial_units + outcome.unit_delta}")
    if [u.position for u in units] != list(range(len(units))):
        problems.append(f"positions not 0..n-1: {[u.position for u in units]}")
    if final.unit_count != len(units):
        problems.append(f"cached unit count {final.unit_count} != {len(units)} units")
    if final.total_points != sum(u.points for u in units):
        problems.append(f"cached total {final.total_points} != sum of units {sum(u.points for u in units)}")
    if outcome.renames:
        last = outcome.renames[max(outcome.renames)]
        if final.name != last:
            problems.append(f"name {final.name!r}, the last successful rename was {last!r}")
    return problems
