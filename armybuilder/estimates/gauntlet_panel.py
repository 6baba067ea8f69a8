"""The gauntlet panel's state: the finished report read in one cache round trip, or, while
matchups are missing, each unit's measure and one job queued (`gauntlet_tasks`) for the rest.
The computing itself is `gauntlet_live`'s, which the job calls.

Three layers of the shared job cache, each keyed by what it depends on, so that a poll reads
as little as it can:
- the finished report (`report_key`: the list's id and version, each opponent list's id and
  version, the reference targets' content): a poll of a list nobody changed is one query for
  the opponents' versions and one cache read, whatever the size of the gauntlet;
- each unit's measure (`GauntletInputs.measure_keys`: the unit's content and every enemy's):
  after an edit only the edited unit's matchups are read again, and the report is combined
  from the units' measures (`gauntlet.combine`) without reading a matchup;
- the matchups themselves (`gauntlet.matchup_key`), which the jobs fill.
Every list change bumps its version (`armybuilder.lists.services`), so a report is never read
for content it was not measured on.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from armybuilder.estimates.gauntlet import (
    CACHE_VERSION,
    Gauntlet,
    UnitMeasure,
    combine,
    content_digest,
    measure_unit,
)
from armybuilder.estimates.gauntlet_live import (
    MATCHUP_SECONDS,
    MAX_MATCHUPS,
    gauntlet_inputs,
    gauntlet_settings,
    job_cache,
    job_key,
    opponent_lists,
)
from armybuilder.estimates.gauntlet_signal import landed, landings
from armybuilder.estimates.gauntlet_tasks import gauntlet_queue
from armybuilder.models import ArmyList
from rules.systems.registry import get_system

#: How long a finished report is kept: it is read by its inputs' versions, which any change moves
#: on, so this bounds only the room of reports no one asks for again.
REPORT_SECONDS = 24 * 3600
#: Bump when what a cached report or state holds changes.
REPORT_VERSION = "2"


@dataclass(frozen=True)
class GauntletState:
    """`ready` with the report, `computing` with how far, or `too_large`. `unit_figures` holds
    the figures of each list unit (by `ListUnit` id) whose matchups are all cached: every unit
    when ready, while computing those an edit did not touch (a unit's figures need only its
    own matchups), so the editor's unit rows show them before the whole table is done."""

    state: str
    report: Gauntlet | None = None
    done: int = 0
    total: int = 0
    left_out: int = 0
    unit_figures: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: Every unit of the list by `ListUnit` id, in the list's order (with figures or not).
    unit_ids: list[int] = field(default_factory=list)
    #: The report's cache key (`report_key`) when ready: what its rendered rows may be kept by.
    key: str = ""
    #: While computing, the keys of the matchups the units without figures still wait for.
    waiting_on: tuple[str, ...] = ()


@cache
def _reference_digest(system_key: str) -> str:
    """The content of a system's reference targets (fixed for the life of a process)."""
    return content_digest(get_system(system_key).reference_targets)


def report_key(army_list: ArmyList, others: list[ArmyList]) -> str:
    """The cache key of the list's finished report: what it was measured on, by version."""
    chosen = gauntlet_settings(army_list)
    system_key = army_list.system.key
    inputs = [REPORT_VERSION, CACHE_VERSION, army_list.pk, army_list.version, system_key,
              _reference_digest(system_key) if chosen["reference"] else "",
              [[other.pk, other.version] for other in others]]
    return f"gauntlet-report:{army_list.pk}:{content_digest(inputs)}"


def _slim(report: Gauntlet) -> Gauntlet:
    """The report as the panel keeps it: no matchups, and of the pairings only the best and
    worst three it shows (`Gauntlet.best_pairings`, `worst_pairings` read the same)."""
    pairings = report.pairings if len(report.pairings) <= 6 else report.pairings[:3] + report.pairings[-3:]
    return replace(report, matchups=[], pairings=pairings)


def gauntlet_state(army_list: ArmyList, *, queue: bool = True) -> GauntletState:
    """The panel's state: the finished report from the cache when the list and its opponents
    are as it was measured on; else each unit's measure, measuring the units whose matchups
    have all landed, and a durable job queued for the missing ones
    (`gauntlet_tasks.gauntlet_queue`: none while one of this list content is unfinished)."""
    others = opponent_lists(army_list)
    key = report_key(army_list, others)
    store = job_cache()
    finished = store.get(key)
    if isinstance(finished, GauntletState):
        return finished
    inputs = gauntlet_inputs(army_list, others=others)
    runs = inputs.runs()
    if len(inputs.units) * runs > MAX_MATCHUPS:
        return GauntletState("too_large", total=len(inputs.units) * runs, unit_ids=inputs.unit_ids)
    points = inputs.counts_points()
    measure_keys = inputs.measure_keys()
    measures: dict[str, UnitMeasure] = store.get_many(measure_keys) if measure_keys else {}
    unmeasured = [index for index, mkey in enumerate(measure_keys) if mkey not in measures]
    wanted = {index: inputs.unit_pair_keys(index) for index in unmeasured}
    needed = {pair for keys in wanted.values() for pair in keys}
    found = store.get_many(list(needed)) if needed else {}
    fresh = {measure_keys[index]: measure_unit(inputs.system, inputs.units[index], inputs.enemies(),
                                               inputs.situations, cached=lambda pair, compute: found[pair],
                                               points=points)
             for index in unmeasured if all(pair in found for pair in wanted[index])}
    if fresh:
        store.set_many(fresh, timeout=MATCHUP_SECONDS)
        measures.update(fresh)
    if len(found) < len(needed):
        if queue:
            gauntlet_queue(army_list, job_key(army_list, inputs))
        # Matchups counted once each, as the jobs compute them: a measured unit's are all there.
        waiting = {inputs.units[index].digest for index in unmeasured}
        measured_digests = {unit.digest for unit in inputs.units} - waiting
        done = runs * len(measured_digests) + len(found)
        figures = {inputs.unit_ids[index]: measures[mkey].row
                   for index, mkey in enumerate(measure_keys) if mkey in measures}
        return GauntletState("computing", done=done, total=done + len(needed) - len(found),
                             unit_figures=figures, unit_ids=inputs.unit_ids,
                             waiting_on=tuple(sorted(needed - found.keys())))
    ordered = [measures[mkey] for mkey in measure_keys]
    report = combine(inputs.units, inputs.opponents, ordered, points=points)
    left_out = len(frozenset().union(*(measured.left_out for measured in ordered)))
    total = runs * len({unit.digest for unit in inputs.units})
    state = GauntletState("ready", report=_slim(report), done=total, total=total, left_out=left_out,
                          unit_figures=dict(zip(inputs.unit_ids, report.units, strict=True)),
                          unit_ids=inputs.unit_ids, key=key)
    store.set(key, state, timeout=REPORT_SECONDS)
    return state


def _changed_since(army_list: ArmyList) -> bool:
    """Whether the list was changed (or its opponents chosen anew) since `army_list` was read."""
    current = ArmyList.objects.filter(pk=army_list.pk).values_list("version", "gauntlet").first()
    return current != (army_list.version, army_list.gauntlet)


#: Missing matchups a panel request waits for (`gauntlet_state_landed`): an edit's are at most a
#: few hundred (a unit both ways against three lists of 20 in both modes is 240), counted in one
#: Redis look at each word of the worker; more are a whole gauntlet, answered at once.
MAX_COUNTED = 500
#: Reads of the state one waiting request makes while it waits (an edit during the wait is one
#: more), besides the one at its end when only some of the missing landed.
MAX_LOOKS = 3


def gauntlet_state_landed(army_list: ArmyList, *, seconds: float) -> GauntletState:
    """`gauntlet_state`, but while the list computes, the answer waits up to `seconds` for the
    matchups it is missing (`gauntlet_signal`: the worker's word after each batch it stores)
    and is the state read again once they are all there, so the panel is current as soon as
    the job's results are, not at its next poll (issue 42).

    Bounded: only up to `MAX_COUNTED` missing matchups are waited for; after each word one
    Redis look counts those that landed (no value read); the state is read again only when all
    of them are there, or once at the deadline if some word came (the progress moved). With no
    waiting slot free or no Redis, it is `gauntlet_state`."""
    deadline = time.monotonic() + seconds
    state = gauntlet_state(army_list)

    def waitable(state: GauntletState) -> bool:
        # A whole gauntlet computing (thousands of matchups, seconds of work) is answered at
        # once with its progress, and polled as before: only an edit's few are waited for.
        return state.state == "computing" and 0 < len(state.waiting_on) <= MAX_COUNTED

    if seconds <= 0 or not waitable(state):
        return state
    with landings(army_list.pk) as wait:
        moved = False  # some of the missing landed since the state was read
        looks = 1
        woke = False
        while True:
            # Subscribed: what landed before is counted here, what lands after is heard.
            count = landed(list(state.waiting_on))
            if count == len(state.waiting_on):
                if looks >= MAX_LOOKS:
                    moved = True  # read once more below, then answer
                    break
                army_list.refresh_from_db(fields=["version", "gauntlet"])  # an edit since: its state
                state, moved, looks = gauntlet_state(army_list), False, looks + 1
                if waitable(state):
                    continue
                break
            if woke and _changed_since(army_list):
                # An edit since: the page asks again for it (and dropped this request), and the
                # job of the new content speaks on the same channel: stop waiting now.
                return state
            moved = moved or count > 0
            woke = wait(deadline - time.monotonic())
            if not woke:
                break
        if moved:  # some landed, not all: the progress moved
            army_list.refresh_from_db(fields=["version", "gauntlet"])
            state = gauntlet_state(army_list)
    return state
