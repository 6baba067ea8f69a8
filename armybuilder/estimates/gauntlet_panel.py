"""The gauntlet panel's state: every matchup of a list's gauntlet read from the shared cache in
one round trip, and one job queued (`gauntlet_tasks`) for the matchups still missing. The
computing itself is `gauntlet_live`'s, which the job calls.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from armybuilder.estimates.gauntlet import Gauntlet, measure
from armybuilder.estimates.gauntlet_live import (
    MAX_MATCHUPS,
    gauntlet_inputs,
    job_cache,
    job_key,
)
from armybuilder.estimates.gauntlet_tasks import gauntlet_queue
from armybuilder.models import ArmyList


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


def gauntlet_state(army_list: ArmyList, *, queue: bool = True) -> GauntletState:
    """The panel's state: every matchup read from the cache in one round trip; a durable job
    queued for the missing ones (`gauntlet_tasks.gauntlet_queue`: none while one of this list
    content is unfinished)."""
    inputs = gauntlet_inputs(army_list)
    pairs = inputs.pairs()
    if len(pairs) > MAX_MATCHUPS:
        return GauntletState("too_large", total=len(pairs), unit_ids=inputs.unit_ids)
    ordered = inputs.pair_keys()
    keys = set(ordered)
    found = job_cache().get_many(list(keys)) if keys else {}
    if len(found) < len(keys):
        if queue:
            gauntlet_queue(army_list, job_key(army_list, inputs))
        complete = [i for i, needed in enumerate(inputs.unit_keys(ordered)) if needed <= found.keys()]
        partial = measure(inputs.system, [inputs.units[i] for i in complete], inputs.opponents,
                          inputs.situations, cached=lambda key, compute: found[key],
                          count_points=inputs.counts_points())
        figures = {inputs.unit_ids[i]: row for i, row in zip(complete, partial.units, strict=True)}
        return GauntletState("computing", done=len(found), total=len(keys), unit_figures=figures,
                             unit_ids=inputs.unit_ids)
    report = measure(inputs.system, inputs.units, inputs.opponents, inputs.situations,
                     cached=lambda key, compute: found[key])
    left_out = sum(1 for figures in found.values() if figures.get("left_out"))
    return GauntletState("ready", report=report, done=len(keys), total=len(keys), left_out=left_out,
                         unit_figures=dict(zip(inputs.unit_ids, report.units, strict=True)),
                         unit_ids=inputs.unit_ids)
