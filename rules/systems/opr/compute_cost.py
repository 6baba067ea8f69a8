"""What one OPR matchup costs to compute, predicted before it is queued.

The exact engine (`combat.resolve_attack`) spends its time and memory in the allocation
walk (`rules.dice.allocation.StateDistribution.resolve`, or on small defenders the whole
machine, `AllocationSpace`): for each weapon group it walks every state the defender may be
in (`support`) for as many steps as that weapon can cause events (`reach`), one row of
(groups + 3) integers per (state, step). Then the second stage (`aftermath.second_stage`)
works once per distinct group of survivors, in melee with a counter-attack of those
survivors. So the cost is a sum of work by kind (`estimate_work`):

    rows     = Σ over weapon groups of support_i × (reach_i + 1)
    seconds  = Σ SECONDS_PER[kind] × work[kind]   (wound PMFs, steps, rows × width, survivor
               groups, each group's counter-attack counted by the same kinds, …)
    bytes    = BYTES_FIXED + BYTES_PER_CELL × max_i(support_i × (reach_i + 1)) × (profiles + 4)
               + per step, per wound-PMF entry, the second stage's, the result's lists

with `reach_i` exact (attacks × hits an attack can score × Blast, at most the events that
destroy the defender) and `support_i` the least of three upper bounds (`_Reach.states`):

- positions: one profile (every order is the same) lies on one chain, 1 + the events so far;
  several orders multiply (1 + the events allocated in each);
- structure (`structural_states`): each order eats one profile at a time and leaves it only
  once it is dead, so the dead profiles are a union of order prefixes, at most one profile
  per order is partly killed, and only the orders eating it fed it. Precise next to the
  defender's own order is two orders: their positions' product (88² on 80 + 1 + 5 models)
  is far above the ~600 states the structure allows;
- budget (`_Reach.kill_vectors`): the kill vectors the wounds so far could pay for, and the
  events so far — Deadly(X) puts X wounds on one model and loses the excess, so killing a
  model takes ⌈toughness / X⌉ events, not its toughness in wounds, and a damaged model can
  only carry multiples of X (`damaged_values`: none below T7 with Deadly(6)).

Counting Deadly's events as X wounds each, with every damaged state, and multiplying the two
orders' positions, over-predicted the OPR Deadly(6) + Corrosive family (`bench/bench_cost_models.py
--systems opr-deadly`) up to 24× in memory and 17× in rows walked. (Corrosive only changes the
defence test's automatic successes: it adds no work.) The constants were fitted on a sweep of
accepted inputs, checked by the same bench (within 3× both ways) and on a grid in
`tests/rules/systems/opr/test_compute_cost.py`.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from points.opr.unit import Unit
from rules.dice.allocation import DENSE_CELLS_LIMIT, Placement, dense_cells
from rules.systems.opr.combat import WOUNDS_CACHE, allocate, attacks, blast_factor, defender_order, extra_hits
from rules.systems.opr.situation import Situation
from rules.systems.opr.unit_prices import points_engine_prices

#: CPU seconds per unit of each kind of work (`matchup_work`, `second_stage_work`,
#: `estimate_work`), fitted on the development machine against a sweep of accepted inputs
#: (`bench/bench_cost_models.py`, the OPR and the `opr-deadly` families: best of three
#: `time.process_time`, at load 8–12 on two cores), least squares on the ratio, times 1.3
#: (the safe side):
#: - attacks: one `resolve_attack` (its distribution set up, its outcome assembled);
#: - weapons: one weapon group resolved (hit and defence PMFs, the wound table);
#: - tables: one wound PMF (`combat.wounds`);
#: - steps / cells: the sparse walk (`StateDistribution.resolve`), per step and per row × width;
#: - dense_states / dense_cells: the small-unit path (`AllocationSpace`: per state and
#:   placement in Python, per cell in numpy);
#: - second_stage: the regroup tables; survivor_groups: the per-group loop of
#:   `aftermath.second_stage` (after shooting there is no loop, one pass over every state:
#:   still counted per group, the safe side);
#:   counter_groups: a melee group's extra work around its counter-attack (whose own work is
#:   counted by kind, once per group);
#: - estimate, outcome_models, priced_weapons: pricing both units and writing the result.
SECONDS_PER: dict[str, float] = {
    "attacks": 1.3e-5, "weapons": 1.2e-4, "tables": 1.6e-5, "steps": 2.3e-5, "cells": 1.1e-8,
    "dense_states": 1.0e-6, "dense_steps": 0.8e-6, "dense_cells": 1e-9, "dense_resolve": 8e-9,
    "table_entries": 0.0,
    "second_stage": 6.7e-5, "survivor_groups": 1.3e-5, "counter_groups": 4e-5,
    "estimate": 6.5e-5, "outcome_models": 8e-8, "priced_weapons": 2.1e-6,
}
#: A list job's cell (`estimate_cell_cost`): the kinds of `SECONDS_PER` as the engine does the
#: work now (`estimate_work(cell=True)`), each family of kinds at its own share of the
#: matchup's price (`CELL_SHARES`), fitted on 180 accepted cells (`bench/bench_cost_models.py
#: --cells --systems opr`, seeds 1–3: least squares on the relative error, times 1.3, the safe
#: side). A chain's arrays (`chain_states`) cost too little to fit: nothing.
CELL_SHARES: dict[str, float] = {
    # fixed per cell (its distribution set up, both units priced, the regroup tables)
    "attacks": 0.42, "estimate": 0.42, "second_stage": 0.42,
    "weapons": 0.36, "tables": 0.36,  # per weapon group and wound PMF
    "dense_states": 0.9, "dense_steps": 0.9, "dense_cells": 0.9, "dense_resolve": 0.9,
    "steps": 0.95, "cells": 0.95,  # the sparse walk
    "survivor_groups": 2.3, "counter_groups": 2.3,  # the melee second stage's per-group loop
    "outcome_models": 2.0, "priced_weapons": 2.0,  # the result's lists, the units' prices
    "table_entries": 1.0,
}
CELL_SECONDS_PER: dict[str, float] = {
    **{kind: SECONDS_PER[kind] * share for kind, share in CELL_SHARES.items()}, "chain_states": 0.0}
#: A cell's fixed bytes, its second stage's, a chain's per state (a few int64 arrays, no
#: Python list of states) and a built path's per cell (the path, the events padded to it,
#: their product): fitted with `CELL_SECONDS_PER`, least squares on the relative error.
CELL_BYTES_FIXED = 3 * 1024
CELL_SECOND_STAGE_BYTES = 3 * 1024
CELL_CHAIN_BYTES_PER_STATE = 24
CELL_DENSE_BYTES_PER_STATE = 200
CELL_BYTES_PER_PATH_CELL = 24
#: A wound PMF's terms before it is cut to the defender, per hit the weapon can score (Python
#: floats in a list up to `rules.dice.pmf._PYTHON_TERMS` draws, numpy's arrays above).
CELL_BYTES_PER_HIT = 24
#: What a unit-vs-unit matchup does beyond its cell (`estimate_cost` over `engine_cost`): both
#: units parsed from their dicts, the situation read, the job's own wrapping of the result.
#: Measured on the 180 accepted matchups of `bench/bench_cost_models.py --systems opr` (seeds
#: 1–3) against the same inputs as cells: a median 43 µs CPU at machine factor 1.57 (28 µs on
#: the reference machine) and 1.2 KB of traced peak, little dependent on the units' size; times
#: 1.3 (the safe side: on sub-millisecond matchups the clock's noise is of the same order).
MATCHUP_SECONDS = 3.6e-5
MATCHUP_BYTES = 1600
#: The kinds of work that build the small-unit allocation machine, cached by the engine.
MACHINE_KINDS = frozenset({"dense_states", "dense_steps", "dense_cells", "chain_states"})
DENSE_BYTES_PER_STATE = 400
TIME_WIDTH_CAP = 10
BYTES_FIXED = 12 * 1024
#: The second stage's own tables (regroup tests, the counter's distributions per group).
SECOND_STAGE_BYTES = 12 * 1024
BYTES_PER_CELL = 24
BYTES_PER_STEP = 600
#: A wound PMF is written on the defender's whole event range (`combat._wounds` keeps a view
#: of it), and the engine's cache keeps every one computed in the attack.
BYTES_PER_TABLE_ENTRY = 8
#: Against Regeneration a wound PMF is summed over all of a weapon's attacks by FFT before it
#: is cut to the defender: spectra as long as the hits it can score (145 models × 4 attacks
#: at a single regenerating model: 50 KB).
BYTES_PER_HIT = 64
#: The allocation machine of a defender no weapon reaches: its states, nothing more.
BYTES_PER_BARE_STATE = 100


def _kill_vectors_within(per_model: list[int], counts: list[int], budget: int) -> float:
    """`_kill_vectors` on hashable arguments: a job prices the same defender against many
    attackers, and the same (profile, budget) recurs between them."""
    return _kill_vectors(tuple(per_model), tuple(counts), budget)


@lru_cache(maxsize=8192)
def _kill_vectors(per_model: tuple[int, ...], counts: tuple[int, ...], budget: int) -> float:
    """Kill vectors k (0 ≤ k_g ≤ count_g) with Σ k_g × per_model_g ≤ `budget`: a dynamic
    programme over the budget, one profile at a time (`per_model` is what killing one model
    of the profile takes: its wounds, or the events it needs)."""
    budget = min(budget, sum(t * c for t, c in zip(per_model, counts, strict=True)))
    ways = np.zeros(budget + 1)
    ways[0] = 1.0
    for t, c in zip(per_model, counts, strict=True):
        # new[w] = Σ_{k=0..c} ways[w − k t]: a strided running sum, window c + 1.
        new = np.zeros_like(ways)
        for r in range(min(t, budget + 1)):
            lane = ways[r::t]
            running = np.cumsum(lane)
            shifted = np.concatenate([np.zeros(c + 1), running])[: len(lane)]
            new[r::t] = running - shifted
        ways = new
    return float(ways.sum())


def damaged_values(toughness: int, damages: frozenset[int]) -> int:
    """The wounds a damaged (still alive) model of `toughness` can carry: with events of one
    damage d only the multiples of d below its toughness (Deadly(6) leaves a T6 model no
    damaged state at all, a T12 model one), else anything from 1 to toughness − 1."""
    if len(damages) == 1:
        (damage,) = damages
        return -(-toughness // damage) - 1
    return toughness - 1


#: Allocation orders × profiles past which `structural_states` is not enumerated (its bound
#: then comes from the others alone): (profiles + 1)^orders prefix combinations.
STRUCTURE_COMBINATIONS = 2_500


@lru_cache(maxsize=2048)
def _structure(counts: tuple[int, ...], orders: tuple[tuple[int, ...], ...]
               ) -> tuple[np.ndarray, np.ndarray] | None:
    """The dead sets reachable under these allocation orders, as a 0/1 matrix (sets ×
    profiles), with the profile each order is eating in each (sets × orders, −1: none left);
    None past `STRUCTURE_COMBINATIONS`.

    Each order kills its profiles one after another and leaves one only once it is dead, so
    the dead profiles are a prefix of each order, united, and each order eats the first
    profile of its own that is not dead."""
    groups = len(counts)
    if (groups + 1) ** len(orders) > STRUCTURE_COMBINATIONS:
        return None
    empty = frozenset(g for g in range(groups) if counts[g] == 0)
    deads = {empty.union(*(order[:p] for order, p in zip(orders, prefixes, strict=True)))
             for prefixes in itertools.product(range(groups + 1), repeat=len(orders))}
    dead_rows = np.zeros((len(deads), groups), dtype=np.int64)
    eating = np.full((len(deads), len(orders)), -1, dtype=np.int64)
    for i, dead in enumerate(sorted(deads, key=sorted)):
        dead_rows[i, list(dead)] = 1
        for o, order in enumerate(orders):
            eating[i, o] = next((g for g in order if g not in dead), -1)
    return dead_rows, eating


def structural_states(counts: list[int], orders: tuple[tuple[int, ...], ...], order_events: list[int],
                      per_event: list[int], damaged: list[int], budgets: list[tuple[list[int], int]]
                      ) -> tuple[float, float]:
    """(alive vectors, allocation states) reachable under these orders within the budgets.

    Per reachable dead set (`_structure`) a profile being eaten holds 0 … count − 1 kills,
    and only the orders eating it now can have killed in it (an order leaves a profile only
    once it is dead): at most (their events / `per_event[g]`) + 1 values; a damaged model
    sits in one of them (`damaged[g]` values). A budget (per-model cost, total) keeps only
    the dead sets it can pay for and, of each eaten profile, the kills the rest can pay
    for. Several orders make far fewer states than the product of their positions (two
    orders over 80 + 1 + 5 models: ~600 states, not 88²)."""
    structure = _structure(tuple(counts), orders)
    if structure is None:
        return float("inf"), float("inf")
    dead, eating = structure
    rows = np.arange(len(dead))
    share = np.zeros(dead.shape)  # events of the orders eating each profile
    for o, events in enumerate(order_events):
        eaten_now = eating[:, o] >= 0
        np.add.at(share, (rows[eaten_now], eating[eaten_now, o]), events)
    eaten = share > 0
    c = np.asarray(counts, dtype=np.float64)
    kills = np.minimum(c, np.floor(share / np.asarray(per_event, dtype=np.float64)) + 1)
    affordable = np.ones(len(dead), dtype=bool)
    for per_model, total in budgets:
        cost = np.asarray(per_model, dtype=np.float64)
        left = total - dead @ (cost * c)
        affordable &= left >= 0
        kills = np.minimum(kills, np.floor(np.maximum(left, 0)[:, None] / cost) + 1)
    partial = np.prod(np.where(eaten, kills, 1.0), axis=1) * affordable
    states = partial * (1 + eaten @ np.asarray(damaged, dtype=np.float64))
    return float(partial.sum()), float(states.sum())


@lru_cache(maxsize=8192)
def _structural_states(counts: tuple[int, ...], orders: tuple[tuple[int, ...], ...],
                       order_events: tuple[int, ...], per_event: tuple[int, ...], damaged: tuple[int, ...],
                       budgets: tuple[tuple[tuple[int, ...], int], ...]) -> tuple[float, float]:
    """`structural_states` on hashable arguments, kept: the defenders of a job meet the same
    reach from attackers alike."""
    return structural_states(list(counts), orders, list(order_events), list(per_event), list(damaged),
                             [(list(per_model), total) for per_model, total in budgets])


class _Reach:
    """What the weapons so far can have done to the defender, for bounding its states:
    events per allocation order, events and wounds in all, the damages used."""

    def __init__(self, defender: Unit):
        self.toughness = [m.toughness for m in defender.models]
        self.counts = [m.count for m in defender.models]
        self.events_by_order: dict[tuple[int, ...], int] = {}
        self.events = 0
        self.wounds = 0
        self.damages: set[int] = set()
        #: The most steps one weapon walks (its events + 1), the most events any can take.
        self.longest = 0
        self.destroy = 0
        #: `structure` and `kill_vectors` of the reach as it is (`states` after the last weapon
        #: and `alive_vectors` ask for the same reach): cleared by `add`.
        self._known: dict[str, Any] = {}

    def add(self, placement: Any, events: int) -> None:
        self.events_by_order[placement.order] = self.events_by_order.get(placement.order, 0) + events
        self.events += events
        # an event puts at most its damage, and at most a model's toughness, on the unit
        self.wounds += events * min(placement.damage, max(self.toughness))
        self.damages.add(placement.damage)
        self._known.clear()

    def kill_vectors(self) -> float:
        """Kill vectors within reach, by two bounds: the wounds dealt (Σ killed × toughness)
        and the events (a model takes at least ⌈toughness / largest damage⌉ of them)."""
        if "kill_vectors" not in self._known:
            self._known["kill_vectors"] = self._kill_vectors()
        return self._known["kill_vectors"]

    def _kill_vectors(self) -> float:
        by_wounds = _kill_vectors_within(self.toughness, self.counts, self.wounds)
        most = max(self.damages)
        needed = [-(-t // most) for t in self.toughness]
        return min(by_wounds, _kill_vectors_within(needed, self.counts, self.events))

    def structure(self) -> tuple[float, float]:
        if "structure" not in self._known:
            self._known["structure"] = self._structure()
        return self._known["structure"]

    def _structure(self) -> tuple[float, float]:
        damages = frozenset(self.damages)
        damaged = [damaged_values(t, damages) for t in self.toughness]
        most = max(self.damages)
        per_event = [-(-t // most) for t in self.toughness]
        budgets = [(self.toughness, self.wounds), (per_event, self.events)]
        orders, events = tuple(self.events_by_order), list(self.events_by_order.values())
        return _structural_states(tuple(self.counts), orders, tuple(events), tuple(per_event), tuple(damaged),
                                  tuple((tuple(per_model), total) for per_model, total in budgets))

    def chain(self) -> float:
        """States by positions along the orders: one profile (every order is the same chain)
        1 + the events; else each order eats the unit from its own end, so the positions
        along each multiply."""
        if sum(1 for c in self.counts if c > 0) == 1:
            return 1.0 + self.events
        grown = 1.0
        for events in self.events_by_order.values():
            grown *= 1 + events
        return grown

    def states(self) -> float:
        """A bound on the allocation states the distribution can hold now."""
        damages = frozenset(self.damages)
        most_damaged = max(damaged_values(t, damages) for t in self.toughness)
        targets = min(len(self.events_by_order), len(self.counts))
        within = self.kill_vectors() * (1 + targets * most_damaged)
        return min(self.chain(), self.structure()[1], within)

    def alive_vectors(self) -> float:
        """A bound on the distinct groups of survivors (alive vectors) the attack can leave."""
        box = float(np.prod([c + 1 for c in self.counts], dtype=np.float64))
        return min(self.chain(), self.structure()[0], self.kill_vectors(), box)


def predicted_rows(attacker: Unit, defender: Unit, situation: Situation,
                   model_costs: tuple[float, ...]) -> tuple[int, int, int, int]:
    """(rows walked in total, the largest batch of rows, wound PMFs computed, steps walked)
    of this matchup (`_walk`)."""
    return _walk(attacker, defender, situation, model_costs)[:4]


def _walk(attacker: Unit, defender: Unit, situation: Situation,
          model_costs: tuple[float, ...]) -> tuple[int, int, int, int, _Reach]:
    """`predicted_rows`, and what the whole attack can reach (`_Reach`, for the second stage).

    A wound PMF is computed per weapon group and distinct (model hit, models left for Blast)
    among the states it meets: at most min(support, profiles) × (Blast X + 1)."""
    toughness = [m.toughness for m in defender.models]
    counts = [m.count for m in defender.models]
    total_models = sum(counts)
    groups = attacks(attacker, defender, situation.melee, situation.range_inches)
    support, rows, largest, tables, steps = 1, 0, 0, 0, 0
    reached = _Reach(defender)
    for group in groups:
        placement = allocate(group.weapon, defender, model_costs)
        destroy = sum(c * -(-t // placement.damage) for t, c in zip(toughness, counts, strict=True))
        per_attack = 1 + extra_hits(group.model, group.weapon, situation, group.melee)
        reach = min(destroy, group.attacks * per_attack * max(1, blast_factor(group.weapon, total_models)))
        batch = support * (reach + 1)
        blast_x = group.weapon.value_of("Blast")
        tables += min(support, len(counts) * (min(blast_x, total_models) + 1 if blast_x else 1))
        rows += batch
        steps += reach + 1
        largest = max(largest, batch)
        reached.add(placement, reach)
        reached.longest = max(reached.longest, reach + 1)
        reached.destroy = max(reached.destroy, destroy)
        support = int(min(reached.states(), 2**62))
    return rows, largest, tables, steps, reached


def _most_events(groups: list[Any], defender: Unit, situation: Situation, total_models: int) -> int:
    """The longest sum a wound PMF is built from on the whole range (`counts.clamped_sum`, by
    FFT over every attack): only against Regeneration (a die may take a wound away, so
    nothing can be cut before the end) and not for Brutal weapons; else the sum is cut at
    the defender's events as it grows."""
    if not any(m.has("Regeneration") for m in defender.models):
        return 0
    return max((g.attacks * (2 + extra_hits(g.model, g.weapon, situation, g.melee))
                * max(1, blast_factor(g.weapon, total_models)) for g in groups
                if not g.weapon.has("Brutal")), default=0)


def dense_cost(attacker: Unit, defender: Unit, situation: Situation,
               model_costs: tuple[float, ...], *, cell: bool = False) -> tuple[dict[str, float], int] | None:
    """(work by kind, bytes) when the engine takes the small-unit path (the whole allocation
    machine, `dense_cells` ≤ DENSE_CELLS_LIMIT), else None: building the machine (per state
    and placement), its paths and one matrix step per weapon (per cell). `cell`: counted as
    the engine does it (`_dense_cell_work`), for a list job's cell price."""
    toughness = [m.toughness for m in defender.models]
    counts = [m.count for m in defender.models]
    groups = attacks(attacker, defender, situation.melee, situation.range_inches)
    placements = list(dict.fromkeys([allocate(g.weapon, defender, model_costs) for g in groups]))
    # no weapon reaches: the untouched defender still starts on the machine of its own order
    placements = placements or [Placement(defender_order(defender, model_costs))]
    cells = dense_cells(toughness, counts, placements)
    if cells > DENSE_CELLS_LIMIT:
        return None
    events = max(sum(c * -(-t // p.damage) for t, c in zip(toughness, counts, strict=True))
                 for p in placements)
    states = max(1, cells // ((events + 1) * len(placements)))
    tables = sum(min(states, len(counts) * (min(g.weapon.value_of("Blast"), sum(counts)) + 1
                                              if g.weapon.value_of("Blast") else 1)) for g in groups)
    if cell:
        return _dense_cell_work(groups, placements, toughness, counts, states, events, tables,
                                _most_events(groups, defender, situation, sum(counts)))
    work = {"attacks": 1.0, "weapons": float(len(groups)), "tables": float(tables),
            "dense_states": float(states * len(placements)),
            "dense_steps": float((events + 1) * len(placements)), "dense_cells": float(cells),
            "dense_resolve": float(states * (events + 1) * len(groups)),
            "table_entries": float(tables * (events + 1))}
    if not groups:  # the machine's states alone: no paths, no wound table
        return work, int(BYTES_FIXED + BYTES_PER_BARE_STATE * states)
    # the paths (`AllocationSpace.paths`, one int64 per cell) and the per-state arrays
    return work, int(BYTES_FIXED + DENSE_BYTES_PER_STATE * states + 16 * cells
                     + BYTES_PER_TABLE_ENTRY * work["table_entries"]
                     + BYTES_PER_HIT * _most_events(groups, defender, situation, sum(counts)))


def _dense_cell_work(groups: list[Any], placements: list[Placement], toughness: list[int], counts: list[int],
                     states: int, events: int, tables: int, most_events: int) -> tuple[dict[str, float], int]:
    """`dense_cost` as the engine does the work (issue 42): one profile under one placement is a
    chain, listed with a few arrays (no Python per state) and walked without paths by the first
    weapon (`DenseDistribution.resolve_untouched`); the paths of a placement are built only
    when a weapon after the first uses it, or the first on a machine that is not a chain; the
    matrix step (per state and event) is every weapon's but the first's, which starts from the
    untouched unit. Its own kinds (`CELL_SECONDS_PER`): `chain_states` for a chain's arrays."""
    chain = len(toughness) == 1 and len(placements) == 1
    # the placements whose paths are built: any a later weapon uses, the first's off a chain
    later = set(placements) if len(groups) > 1 or (groups and not chain) else set()
    path_cells = sum(states * (sum(c * -(-t // p.damage) for t, c in zip(toughness, counts, strict=True)) + 1)
                     for p in later)
    work = {"attacks": 1.0, "weapons": float(len(groups)), "tables": float(tables),
            "chain_states": float(states) if chain else 0.0,
            "dense_states": 0.0 if chain else float(states * len(placements)),
            "dense_steps": 0.0 if chain else float((events + 1) * len(later)),
            "dense_cells": float(path_cells),
            "dense_resolve": float(states * (events + 1) * max(0, len(groups) - 1)),
            "table_entries": float(tables * (events + 1))}
    per_state = CELL_CHAIN_BYTES_PER_STATE if chain else CELL_DENSE_BYTES_PER_STATE
    return work, int(CELL_BYTES_FIXED + per_state * states + CELL_BYTES_PER_PATH_CELL * path_cells
                     + BYTES_PER_TABLE_ENTRY * work["table_entries"] + BYTES_PER_HIT * most_events)


def matchup_work(attacker: Unit, defender: Unit, situation: Situation, *,
                 cell: bool = False) -> tuple[dict[str, float], int]:
    """(work by kind, bytes) of `combat.resolve_attack(attacker, defender, situation)`: the
    kinds of `SECONDS_PER`, on the dense or the sparse path as the engine picks (`cell`: the
    dense path as `_dense_cell_work` counts it)."""
    model_costs = points_engine_prices(defender).model_costs
    dense = dense_cost(attacker, defender, situation, model_costs, cell=cell)
    if dense is not None:
        return dense
    rows, largest, tables, steps, reached = _walk(attacker, defender, situation, model_costs)
    counts = [m.count for m in defender.models]
    width = len(defender.models) + 4
    # numpy's per-row work grows with the profiles only up to a point (wide rows vectorise);
    # the memory of a row does not stop growing. Past one exact integer per state the merge
    # hashes whole rows (`allocation._merge`: a product over every column, then a check), and
    # its work grows with every profile (50 profiles: 3.5× the capped width's).
    time_width = (min(len(defender.models), TIME_WIDTH_CAP) if _states_fit_one_integer(defender)
                  else len(defender.models)) + 4
    groups = attacks(attacker, defender, situation.melee, situation.range_inches)
    # a wound PMF is as long as the wounds its weapon can cause (`combat._wounds` drops the
    # impossible tail): for a cell, at most the longest weapon's events + 1, not the whole unit's
    entries = reached.longest if cell else reached.destroy + 1
    work = {"attacks": 1.0, "weapons": float(len(groups)), "tables": float(tables), "steps": float(steps),
            "cells": float(rows * time_width), "table_entries": float(tables * entries)}
    # a step's rows are kept until the merge: a few small arrays each, whatever their length
    return work, int(BYTES_FIXED + BYTES_PER_CELL * largest * width + BYTES_PER_STEP * reached.longest
                     + BYTES_PER_TABLE_ENTRY * work["table_entries"]
                     + BYTES_PER_HIT * _most_events(groups, defender, situation, sum(counts)))


def _states_fit_one_integer(defender: Unit) -> bool:
    """Whether `rules.dice.allocation._merge` codes a state as one integer (else it hashes rows)."""
    size = len(defender.models) + 1
    for model in defender.models:
        size *= model.count + 1
    return size * max(model.toughness for model in defender.models) < 2**62


def seconds_of(work: Mapping[str, float]) -> float:
    """Predicted CPU seconds of some work by kind (`SECONDS_PER`)."""
    return sum(SECONDS_PER[kind] * amount for kind, amount in work.items())


def matchup_cost(attacker: Unit, defender: Unit, situation: Situation) -> tuple[float, int]:
    """(seconds, bytes) predicted for `combat.resolve_attack(attacker, defender, situation)`."""
    work, size = matchup_work(attacker, defender, situation)
    return seconds_of(work), size


def survivor_groups(attacker: Unit, defender: Unit, situation: Situation) -> float:
    """A bound on the distinct groups of survivors the first stage leaves (the second stage
    works once per group): the alive vectors within the attack's reach (`_Reach`)."""
    model_costs = points_engine_prices(defender).model_costs
    reached = _walk(attacker, defender, situation, model_costs)[4]
    if not reached.events_by_order:
        return 1.0
    return reached.alive_vectors()


def second_stage_work(attacker: Unit, defender: Unit, situation: Situation, *,
                      cell: bool = False) -> tuple[dict[str, float], int]:
    """(work by kind, bytes) of `aftermath.second_stage`: the regroup tables, then per
    distinct group of survivors a few numpy passes and, in melee, one counter-attack of those
    survivors against the attacker (at most the whole defender's, `matchup_work`), unless the
    defender is exhausted (`Situation.defender_exhausted`: it does not strike back). `cell`:
    as the engine does it, after shooting one pass over the kills and wounds distributions
    (`aftermath.shooting_classes`, counted by the result's models), no group at all."""
    if not situation.second_stage:
        return {}, 0
    from rules.systems.opr.aftermath import counter_situation

    if cell and not situation.melee:
        # no counter-attack, yet its distributions are written on the attacker's whole range
        # (`aftermath._shooting_stage`: float64 per wound and per model of the attacker)
        wounds = sum(m.count * (m.toughness + 1) for m in attacker.models)
        return {"second_stage": 1.0}, CELL_SECOND_STAGE_BYTES + BYTES_PER_TABLE_ENTRY * (wounds + 2)
    groups = survivor_groups(attacker, defender, situation)
    work = {"second_stage": 1.0, "survivor_groups": groups}
    if not situation.melee:
        return work, SECOND_STAGE_BYTES
    work["counter_groups"] = groups
    if situation.defender_exhausted:  # it does not strike back: each group's sums, no counter-attack
        return work, SECOND_STAGE_BYTES
    counter, counter_bytes = matchup_work(defender, attacker, counter_situation(situation), cell=cell)
    for kind, amount in counter.items():
        # the attacker's allocation machine is built once (`combat.SPACES`), then every group uses it
        work[kind] = work.get(kind, 0.0) + amount * (1 if kind in MACHINE_KINDS else groups)
    # every group's wound tables stay in the engine's cache (distinct survivors, distinct odds)
    kept = BYTES_PER_TABLE_ENTRY * (groups - 1) * counter.get("table_entries", 0.0)
    kept = min(WOUNDS_CACHE.max_bytes, kept)
    return work, int((CELL_SECOND_STAGE_BYTES if cell else SECOND_STAGE_BYTES) + counter_bytes + kept)


def second_stage_cost(attacker: Unit, defender: Unit, situation: Situation) -> tuple[float, int]:
    """(seconds, bytes) of `aftermath.second_stage` (`second_stage_work`)."""
    work, size = second_stage_work(attacker, defender, situation)
    return seconds_of(work), size


def estimate_work(attacker: Unit, defender: Unit, situation: Situation, *,
                  cell: bool = False) -> tuple[dict[str, float], int]:
    """(work by kind, bytes) of one `estimate.estimate`: the first stage, the second, and the
    result (both units priced, the distributions written). `cell`: as the engine does the
    work (`_dense_cell_work`, `second_stage_work`), for a list job's cell price."""
    work, first_bytes = matchup_work(attacker, defender, situation, cell=cell)
    second, second_bytes = second_stage_work(attacker, defender, situation, cell=cell)
    for kind, amount in second.items():
        work[kind] = work.get(kind, 0.0) + amount
    models, outcome_bytes = outcome_size(defender)
    if situation.second_stage and situation.melee:  # the counter-attack's distributions are the attacker's
        counter_models, counter_bytes = outcome_size(attacker)
        models, outcome_bytes = models + counter_models, outcome_bytes + counter_bytes
    work["estimate"] = 1.0
    work["outcome_models"] = float(models)
    work["priced_weapons"] = float(sum(len(m.weapons) + 1 for m in (*attacker.models, *defender.models)))
    return work, max(first_bytes, second_bytes) + outcome_bytes


def engine_cost(attacker: Unit, defender: Unit, situation: Situation) -> tuple[float, int]:
    """Predicted (seconds, bytes) of one attack as the engine does the work now: the work of
    `estimate_work(cell=True)` (the second stage's regroup and, in melee, its per-group
    counter-attacks included) at `CELL_SECONDS_PER`, the wound sums' terms on top; never
    above the full count (`estimate_work`), which still bounds it."""
    work, size = estimate_work(attacker, defender, situation, cell=True)
    hits = _most_hits(attacker, defender, situation)
    if situation.second_stage and situation.melee:  # the counter-attack's sums, the attacker's wounds
        from rules.systems.opr.aftermath import counter_situation

        hits = max(hits, _most_hits(defender, attacker, counter_situation(situation)))
    size += CELL_BYTES_PER_HIT * hits
    full_work, full_size = estimate_work(attacker, defender, situation)
    seconds = sum(CELL_SECONDS_PER[kind] * amount for kind, amount in work.items())
    return min(seconds, seconds_of(full_work)), min(size, full_size)


def estimate_cell_cost(attacker: Mapping[str, Any], defender: Mapping[str, Any],
                       situation: Mapping[str, Any]) -> tuple[float, int]:
    """The registry's `estimate_cell_cost` for OPR: predicted (seconds, bytes) of a list job's
    cell (`attack` on units and a situation the job prepared once), `engine_cost`: the same
    engine as a unit-vs-unit matchup's, which only adds reading its inputs (`estimate_cost`)."""
    a, d = _parsed(_canonical(attacker)), _parsed(_canonical(defender))
    return engine_cost(a, d, Situation.from_dict(situation or {}))


def _most_hits(attacker: Unit, defender: Unit, situation: Situation) -> int:
    """The most hits one weapon group can score (attacks × hits an attack scores × Blast): its
    wound PMF is summed over them before it is cut to the defender (`pmf.power`'s terms)."""
    total_models = sum(m.count for m in defender.models)
    return max((g.attacks * (1 + extra_hits(g.model, g.weapon, situation, g.melee))
                * max(1, blast_factor(g.weapon, total_models))
                for g in attacks(attacker, defender, situation.melee, situation.range_inches)), default=0)


def estimate_cost(attacker: Mapping[str, Any], defender: Mapping[str, Any],
                  situation: Mapping[str, Any]) -> tuple[float, int]:
    """The registry's `estimate_cost` for OPR: unit-format dicts and a situation dict in,
    predicted (seconds, bytes) of one `attack` out, the second stage included (`engine_cost`).

    Priced from the work as the engine does it since it does less (issue 42): the full count
    (`estimate_work` without `cell`, at `SECONDS_PER`) over-predicted matchups up to 21× in
    time and 59× in memory (`bench/bench_cost_models.py --systems opr`, seeds 1–3), the
    engine's own count, with what a matchup adds to a cell (`MATCHUP_SECONDS`, `MATCHUP_BYTES`),
    is within 3× on all 180 of them."""
    a, d = _parsed(_canonical(attacker)), _parsed(_canonical(defender))
    seconds, size = engine_cost(a, d, Situation.from_dict(situation or {}))
    return seconds + MATCHUP_SECONDS, size + MATCHUP_BYTES


#: The result itself: its distributions are Python lists (a pointer and a float object per
#: entry), kills and kills-at-least per model, wounds per wound of the defender, whatever the
#: attack did (a unit no weapon reaches still gets them).
OUTCOME_BYTES_PER_MODEL = 100
OUTCOME_BYTES_PER_WOUND = 32


def outcome_size(defender: Unit) -> tuple[int, int]:
    """(models, bytes) of the result's distributions for `defender`."""
    models = sum(m.count for m in defender.models)
    wounds = sum(m.count * m.toughness for m in defender.models)
    return models, OUTCOME_BYTES_PER_MODEL * models + OUTCOME_BYTES_PER_WOUND * wounds


def _canonical(unit: Mapping[str, Any]) -> str:
    return json.dumps(unit, sort_keys=True, separators=(",", ":"))


@lru_cache(maxsize=512)
def _parsed(canonical: str) -> Unit:
    """A unit parsed once per distinct JSON: a list-vs-list check prices every pair of its
    units, and each unit meets every unit of the other list."""
    from rules.systems.opr.unit_format import parse_unit

    return parse_unit(json.loads(canonical))
