"""What one OPR matchup costs to compute, predicted before it is queued.

The exact engine (`combat.resolve_attack`) spends its time and memory in the allocation
walk (`rules.dice.allocation.StateDistribution.resolve`): for each weapon group it walks
every state the defender may be in (`support`) for as many steps as that weapon can cause
events (`reach`), one row of (groups + 3) integers per (state, step). So the cost is

    rows     = Σ over weapon groups of support_i × (reach_i + 1)
    seconds  = SECONDS_FIXED + SECONDS_PER_TABLE × wound PMFs + SECONDS_PER_STEP × Σ (reach_i + 1)
               + SECONDS_PER_CELL × rows × (min(profiles, 10) + 4)
    bytes    = BYTES_FIXED + BYTES_PER_CELL × max_i(support_i × (reach_i + 1)) × (profiles + 4)

with `reach_i` exact (attacks × hits an attack can score × Blast, at most the events that
destroy the defender) and `support_i` an upper bound that is tight in practice:

- one profile (every order is the same): the states lie on one chain, so the support is
  1 + the events so far;
- several orders: each order removes models from its own end of the unit, so the support is
  the product over orders of (1 + the events allocated in that order so far);
- never more than the states whose wounds could have been dealt so far (`_states_within`):
  the kill vectors with Σ killed × toughness ≤ wounds so far, times the damaged-model states.

The constants were measured on the development machine (2 cores shared by other work: the
best of five `time.process_time`, `tracemalloc` peak); they err on the high side, and are
checked against measurement on a grid of inputs in `tests/rules/systems/opr/test_compute_cost.py`
(agreement within 3×).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np

from points.opr.unit import Unit
from rules.dice.allocation import DENSE_CELLS_LIMIT, dense_cells
from rules.systems.opr.combat import allocate, attacks, blast_factor, extra_hits
from rules.systems.opr.situation import Situation
from rules.systems.opr.unit_prices import points_engine_prices

#: The small-unit path (`combat.start_distribution` builds the whole machine when
#: `dense_cells` ≤ DENSE_CELLS_LIMIT): Python per state and placement, numpy per cell.
DENSE_SECONDS_PER_STATE = 1.5e-6
DENSE_SECONDS_PER_CELL = 6e-9
DENSE_BYTES_PER_STATE = 400
SECONDS_FIXED = 2e-4
SECONDS_PER_TABLE = 1.5e-4
SECONDS_PER_STEP = 5e-5
SECONDS_PER_CELL = 2.2e-8
TIME_WIDTH_CAP = 10
BYTES_FIXED = 8 * 1024
BYTES_PER_CELL = 30


def _states_within(toughness: list[int], counts: list[int], wounds: int, orders: int) -> int:
    """Allocation states whose wounds taken are at most `wounds`: kill vectors k (0 ≤ k_g ≤
    count_g) with Σ k_g × toughness_g ≤ wounds, times the damaged-model variants (a model of
    one of the groups first in some order, with 1 … toughness − 1 wounds). A dynamic
    programme over the wound total, one profile at a time."""
    wounds = min(wounds, sum(t * c for t, c in zip(toughness, counts, strict=True)))
    ways = np.zeros(wounds + 1)
    ways[0] = 1.0
    for t, c in zip(toughness, counts, strict=True):
        # new[w] = Σ_{k=0..c} ways[w − k t]: a strided running sum, window c + 1.
        new = np.zeros_like(ways)
        for r in range(min(t, wounds + 1)):
            lane = ways[r::t]
            running = np.cumsum(lane)
            shifted = np.concatenate([np.zeros(c + 1), running])[: len(lane)]
            new[r::t] = running - shifted
        ways = new
    damaged = 1 + min(orders, len(toughness)) * (max(toughness) - 1)
    return int(min(ways.sum() * damaged, 2**62))


def predicted_rows(attacker: Unit, defender: Unit, situation: Situation,
                   model_costs: tuple[float, ...]) -> tuple[int, int, int, int]:
    """(rows walked in total, the largest batch of rows, wound PMFs computed, steps walked)
    of this matchup.

    A wound PMF is computed per weapon group and distinct (model hit, models left for Blast)
    among the states it meets: at most min(support, profiles) × (Blast X + 1)."""
    toughness = [m.toughness for m in defender.models]
    counts = [m.count for m in defender.models]
    total_models = sum(counts)
    groups = attacks(attacker, defender, situation.melee, situation.range_inches)
    support, rows, largest, wounds_so_far, tables, steps = 1, 0, 0, 0, 0, 0
    events_by_order: dict[tuple[int, ...], int] = {}
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
        events_by_order[placement.order] = events_by_order.get(placement.order, 0) + reach
        wounds_so_far += reach * placement.damage
        if sum(1 for c in counts if c > 0) == 1:  # one profile: every order is the same chain
            grown = 1 + sum(events_by_order.values())
        else:  # each order eats the unit from its own end: the positions along each multiply
            grown = 1
            for events in events_by_order.values():
                grown *= 1 + events
        support = min(grown, _states_within(toughness, counts, wounds_so_far, len(events_by_order)))
    return rows, largest, tables, steps


def dense_cost(attacker: Unit, defender: Unit, situation: Situation,
               model_costs: tuple[float, ...]) -> tuple[float, int] | None:
    """(seconds, bytes) when the engine takes the small-unit path (the whole allocation machine,
    `dense_cells` ≤ DENSE_CELLS_LIMIT), else None: building the machine (per state and
    placement), its paths and one matrix step per weapon (per cell)."""
    toughness = [m.toughness for m in defender.models]
    counts = [m.count for m in defender.models]
    groups = attacks(attacker, defender, situation.melee, situation.range_inches)
    if not groups:  # no weapon reaches: the engine builds no machine at all
        return SECONDS_FIXED, BYTES_FIXED
    placements = list(dict.fromkeys([allocate(g.weapon, defender, model_costs) for g in groups]))
    cells = dense_cells(toughness, counts, placements)
    if cells > DENSE_CELLS_LIMIT:
        return None
    events = max(sum(c * -(-t // p.damage) for t, c in zip(toughness, counts, strict=True))
                 for p in placements)
    states = max(1, cells // ((events + 1) * len(placements)))
    tables = sum(min(states, len(counts) * (min(g.weapon.value_of("Blast"), sum(counts)) + 1
                                              if g.weapon.value_of("Blast") else 1)) for g in groups)
    seconds = (SECONDS_FIXED + SECONDS_PER_TABLE * tables + DENSE_SECONDS_PER_STATE * states * len(placements)
               + DENSE_SECONDS_PER_CELL * (cells + states * (events + 1) * len(groups)))
    return seconds, int(BYTES_FIXED + DENSE_BYTES_PER_STATE * states + 16 * cells)


def matchup_cost(attacker: Unit, defender: Unit, situation: Situation) -> tuple[float, int]:
    """(seconds, bytes) predicted for `combat.resolve_attack(attacker, defender, situation)`."""
    model_costs = points_engine_prices(defender).model_costs
    dense = dense_cost(attacker, defender, situation, model_costs)
    if dense is not None:
        return dense
    rows, largest, tables, steps = predicted_rows(attacker, defender, situation, model_costs)
    width = len(defender.models) + 4
    # numpy's per-row work grows with the profiles only up to a point (wide rows vectorise);
    # the memory of a row does not stop growing.
    time_width = min(len(defender.models), TIME_WIDTH_CAP) + 4
    seconds = (SECONDS_FIXED + SECONDS_PER_TABLE * tables + SECONDS_PER_STEP * steps
               + SECONDS_PER_CELL * rows * time_width)
    return seconds, int(BYTES_FIXED + BYTES_PER_CELL * largest * width)


#: The second stage: a fixed part (the regroup tables), then numpy work per group of survivors.
SECONDS_SECOND_STAGE_FIXED = 6e-4
SECONDS_PER_SURVIVOR_GROUP = 1e-4


def _reach(attacker: Unit, defender: Unit, situation: Situation) -> tuple[int, int]:
    """(the most wounds the first stage can deal, a bound on the distinct groups of survivors).

    Survivors lie on one chain per allocation order (each order removes models from its own
    end), so their groups are at most the product over orders of (1 + events in that order)."""
    total_models = sum(m.count for m in defender.models)
    costs = points_engine_prices(defender).model_costs
    wounds, events_by_order = 0, {}
    for group in attacks(attacker, defender, situation.melee, situation.range_inches):
        per_attack = 1 + extra_hits(group.model, group.weapon, situation, group.melee)
        placement = allocate(group.weapon, defender, costs)
        events = group.attacks * per_attack * max(1, blast_factor(group.weapon, total_models))
        wounds += events * placement.damage
        events_by_order[placement.order] = events_by_order.get(placement.order, 0) + events
    groups = 1
    for events in events_by_order.values():
        groups *= 1 + min(events, total_models)
    return wounds, groups


def second_stage_cost(attacker: Unit, defender: Unit, situation: Situation) -> tuple[float, int]:
    """(seconds, bytes) of `aftermath.second_stage`: in melee, one counter-attack per distinct
    group of survivors (at most the first stage's states, and for one profile its models + 1),
    each at most the whole defender striking the attacker; numpy work per group besides."""
    if not situation.second_stage:
        return 0.0, 0
    from rules.systems.opr.aftermath import counter_situation

    toughness = [m.toughness for m in defender.models]
    counts = [m.count for m in defender.models]
    wounds, chains = _reach(attacker, defender, situation)
    states = _states_within(toughness, counts, wounds, len(defender.models))
    survivor_groups = min(states, chains, int(np.prod([c + 1 for c in counts], dtype=np.float64)))
    seconds = SECONDS_SECOND_STAGE_FIXED + SECONDS_PER_SURVIVOR_GROUP * survivor_groups
    if not situation.melee:
        return seconds, 0
    counter_seconds, counter_bytes = matchup_cost(defender, attacker, counter_situation(situation))
    return seconds + survivor_groups * counter_seconds, counter_bytes


def estimate_cost(attacker: Mapping[str, Any], defender: Mapping[str, Any],
                  situation: Mapping[str, Any]) -> tuple[float, int]:
    """The registry's `estimate_cost` for OPR: unit-format dicts and a situation dict in,
    predicted (seconds, bytes) of one `attack` out, the second stage included."""
    a, d = _parsed(_canonical(attacker)), _parsed(_canonical(defender))
    s = Situation.from_dict(situation or {})
    first_seconds, first_bytes = matchup_cost(a, d, s)
    second_seconds, second_bytes = second_stage_cost(a, d, s)
    outcome_seconds, outcome_bytes = outcome_cost(d)
    outcome_seconds += SECONDS_PER_PRICED_WEAPON * sum(len(m.weapons) + 1 for m in (*a.models, *d.models))
    if s.second_stage and s.melee:  # the counter-attack's distributions are the attacker's
        counter_seconds, counter_bytes = outcome_cost(a)
        outcome_seconds, outcome_bytes = outcome_seconds + counter_seconds, outcome_bytes + counter_bytes
    return first_seconds + second_seconds + outcome_seconds, max(first_bytes, second_bytes) + outcome_bytes


#: The result itself: its distributions are Python lists, one float per model and per wound
#: of the defender, whatever the attack did (a unit no weapon reaches still gets them).
OUTCOME_SECONDS_PER_MODEL = 1e-6
OUTCOME_BYTES_PER_MODEL = 200
OUTCOME_BYTES_PER_WOUND = 40
#: Both units are priced (points destroyed, efficiency): per model profile and weapon.
SECONDS_PER_PRICED_WEAPON = 1.5e-5


def outcome_cost(defender: Unit) -> tuple[float, int]:
    """(seconds, bytes) of writing the result's distributions for `defender`."""
    models = sum(m.count for m in defender.models)
    wounds = sum(m.count * m.toughness for m in defender.models)
    return (OUTCOME_SECONDS_PER_MODEL * models,
            OUTCOME_BYTES_PER_MODEL * models + OUTCOME_BYTES_PER_WOUND * wounds)


def _canonical(unit: Mapping[str, Any]) -> str:
    return json.dumps(unit, sort_keys=True, separators=(",", ":"))


@lru_cache(maxsize=512)
def _parsed(canonical: str) -> Unit:
    """A unit parsed once per distinct JSON: a list-vs-list check prices every pair of its
    units, and each unit meets every unit of the other list."""
    from rules.systems.opr.unit_format import parse_unit

    return parse_unit(json.loads(canonical))
