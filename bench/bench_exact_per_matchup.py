"""Exact engines per matchup vs a numpy Monte-Carlo at 10⁵ trials, per system (issue 42).

    .venv/bin/python bench/bench_exact_per_matchup.py [--trials 100000] [--sample 8] [--seed 7] [--rounds 3]
        [--systems whfb6 ru_whfb aos1] [--no-icepool]

For each system a 20 × 20 list-vs-list job runs through the job's own path
(`armybuilder.estimates.compute.list_vs_list`: units and situation prepared once per job,
every matchup both ways, each through the system's `cell_attack`: `matrix_attack` where a system
has one, the same cell figures as `attack` without the distributions a cell throws away) with
the engine's caches cleared; its CPU seconds divided by the
matchups it computed are the exact engine's time per matchup. Beside it, `--sample` matchups
of the same lists are simulated with `--trials` trials each by numpy Monte-Carlo:
- OPR: `tests/rules/systems/opr/opr_simulation.py`, the vectorised simulator written from
  `docs/rules/opr-combat.md` that the tests use as their oracle (the whole attack);
- WHFB 6th and the RU house rules (the bench_estimates_fantasy lists) and AoS 1st (the
  catalogue units of `tests.factories.cost_inputs`): written here from the specs, the attacker's
  blows only
  (hit, wound, save, ward for WHFB; attacks, hit, wound, save with rend, damage for AoS),
  one vectorised draw per step. They do *less* than the exact engine (no combat result, break
  test or battleshock), so the ratio printed for them is a lower bound.
The exact job and the Monte-Carlo sample alternate `--rounds` times (medians), so both meet the
same load. Prints per system: exact ms per matchup, Monte-Carlo ms per matchup, their ratio and
the target (≥ 100×); then OPR's exact engine (the whole attack, caches cleared) against icepool
computing the same wounds PMF on four spec cases (target ≥ 20×), and beside it, not judged,
the exact engine on the same cases back to back (as a job's matchups follow one another; each
call still clears the caches and builds its units), then the load average.
Times are CPU seconds of this process: the machine is shared. Exit status 0 when every
target is met.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import time
from collections.abc import Callable, Mapping
from typing import Any

import _django
import numpy as np

_django.setup()

from armybuilder.estimates.compute import list_vs_list  # noqa: E402
from rules.systems.registry import get_system  # noqa: E402

CLOCK = time.process_time
TARGET_RATIO = 100.0
UNITS = 20


def _side(name: str, units: list[Mapping[str, Any]]) -> dict[str, Any]:
    return {"name": name, "units": [{"name": f"{name}{i}", "unit": dict(u)} for i, u in enumerate(units)]}


def exact_per_matchup(system_key: str, list_a: list, list_b: list, situation: dict) -> tuple[float, dict]:
    """CPU seconds per distinct matchup of the whole job (list A against B and back), the
    engine's caches cleared first."""
    system = get_system(system_key)
    inputs = {"list_a": _side("A", list_a), "list_b": _side("B", list_b), "situation": situation}
    list_vs_list(system_key, {**inputs, "list_a": _side("A", list_a[:1]), "list_b": _side("B", list_b[:1])})
    system.clear_caches()
    start = CLOCK()
    result = list_vs_list(system_key, inputs)
    seconds = CLOCK() - start
    # A job computes each distinct pair once (repeated units are served from the first).
    a, b = {_key(u) for u in list_a}, {_key(u) for u in list_b}
    distinct = len({(x, y) for x in a for y in b} | {(y, x) for x in a for y in b})
    return seconds / distinct, result


def _key(unit: Mapping[str, Any]) -> str:
    return json.dumps(unit, sort_keys=True)


def _dice(value: Any, rng: np.random.Generator, shape: Any) -> np.ndarray:
    """A characteristic as rolled: 3, "3", "D3", "2D6", "D6+1" (AoS attacks and damage)."""
    text = str(value if value not in (None, "") else 1).strip().upper()
    match = re.fullmatch(r"(\d*)D(\d+)(?:\+(\d+))?", text)
    if not match:
        return np.full(shape, int(re.sub(r"\D", "", text) or 0))
    count, faces, plus = int(match[1] or 1), int(match[2]), int(match[3] or 0)
    return rng.integers(1, faces + 1, size=(*np.atleast_1d(shape), count)).sum(axis=-1) + plus


def _target(value: Any) -> int:
    return int(re.sub(r"\D", "", str(value)) or 7) if value not in (None, "", "-") else 7


def aos_blows(attacker: Mapping, defender: Mapping, trials: int, rng: np.random.Generator) -> np.ndarray:
    """AoS 1st (spec §2.3): each weapon's attacks roll to hit, to wound, the defender saves
    with rend, unsaved attacks deal damage; models slain from the wounds (one wound pool)."""
    pool = defender["models"][0]
    save, wounds_each = _target(pool.get("save")), int(pool.get("wounds") or 1)
    damage_total = np.zeros(trials, dtype=np.int64)
    for model in attacker["models"]:
        for weapon in model.get("weapons") or ():
            if weapon.get("type") not in (None, "melee"):
                continue
            attacks = _dice(weapon.get("attacks"), rng, (trials, int(model.get("count", 1)))).sum(axis=1)
            most = int(attacks.max()) if attacks.size else 0
            alive = np.arange(most)[None, :] < attacks[:, None]
            hit = rng.integers(1, 7, size=alive.shape) >= _target(weapon.get("to_hit"))
            wound = rng.integers(1, 7, size=alive.shape) >= _target(weapon.get("to_wound"))
            saved = rng.integers(1, 7, size=alive.shape) + int(weapon.get("rend") or 0) >= save
            through = alive & hit & wound & ~saved
            damage = _dice(weapon.get("damage"), rng, alive.shape)
            damage_total += (through * damage).sum(axis=1)
    return np.minimum(damage_total // wounds_each, sum(int(m.get("count", 1)) for m in defender["models"]))


WHFB_TO_WOUND = {-3: 7, -2: 6, -1: 5, 0: 4, 1: 3}


def whfb_blows(attacker: Mapping, defender: Mapping, trials: int, rng: np.random.Generator) -> np.ndarray:
    """WHFB 6th (spec §6–§7): the attacker's front rank of five strikes; to hit by WS against
    WS, to wound by S against T, armour save less S above 3, ward; models slain by wounds."""
    a, d = attacker["models"][0], defender["models"][0]
    blows = 5 * int(a.get("a") or 1)
    to_hit = 3 if a["ws"] > d["ws"] else 5 if d["ws"] > 2 * a["ws"] else 4
    to_wound = WHFB_TO_WOUND.get(max(-3, min(1, a["s"] - d["t"])), 2) if a["s"] - d["t"] < 2 else 2
    save = _target(d.get("save")) + max(0, a["s"] - 3)
    shape = (trials, blows)
    hit = rng.integers(1, 7, size=shape) >= to_hit
    wound = rng.integers(1, 7, size=shape) >= to_wound
    saved = rng.integers(1, 7, size=shape) >= save
    warded = rng.integers(1, 7, size=shape) >= _target(d.get("ward"))
    wounds = (hit & wound & ~saved & ~warded).sum(axis=1)
    return np.minimum(wounds // int(d.get("w") or 1), int(d["count"]))


def opr_mc(situation: dict) -> Callable[[Mapping, Mapping, int, np.random.Generator], np.ndarray]:
    from rules.systems.opr.unit_format import parse_unit
    from rules.systems.opr.unit_prices import points_engine_prices
    from tests.rules.systems.opr.opr_simulation import simulate

    def run(attacker: Mapping, defender: Mapping, trials: int, rng: np.random.Generator) -> np.ndarray:
        costs = list(points_engine_prices(parse_unit(defender)).model_costs)
        return simulate(attacker, defender, situation, costs, trials, rng).kills

    return run


def mc_per_matchup(simulate: Callable, list_a: list, list_b: list, trials: int, sample: int,
                   seed: int) -> float:
    rng = np.random.default_rng(seed)
    pairs = [(a, b) for a in list_a for b in list_b][:: max(1, len(list_a) * len(list_b) // sample)][:sample]
    start = CLOCK()
    for attacker, defender in pairs:
        simulate(attacker, defender, trials, rng)
    return (CLOCK() - start) / len(pairs)


def systems(seed: int) -> list[tuple[str, list, list, dict, Callable]]:
    import bench_estimates
    import bench_estimates_fantasy

    from rules.systems.opr.unit_format.writer import unit_to_dict
    from tests.factories.cost_inputs import armed_units

    opr_a, opr_b = bench_estimates.make_lists(seed)
    opr_situation = bench_estimates.SITUATION.as_dict()
    rng = random.Random(seed)
    whfb = [bench_estimates_fantasy.make_unit(rng, i) for i in range(2 * UNITS)]
    aos = [u for u in armed_units("aos1")
           if all(w.get("type") in (None, "melee") for m in u["models"] for w in m.get("weapons") or ())]
    aos = (aos * 3)[: 2 * UNITS] if aos else []
    return [
        ("opr", [unit_to_dict(u) for u in opr_a], [unit_to_dict(u) for u in opr_b], opr_situation,
         opr_mc(opr_situation)),
        ("whfb6", whfb[:UNITS], whfb[UNITS:], bench_estimates_fantasy.SITUATION, whfb_blows),
        # the Russian house rules run the same engine with their switches on (same lists and blows)
        ("ru_whfb", [{**u, "system": "ru_whfb"} for u in whfb[:UNITS]],
         [{**u, "system": "ru_whfb"} for u in whfb[UNITS:]], bench_estimates_fantasy.SITUATION, whfb_blows),
        ("aos1", aos[:UNITS], aos[UNITS:], {"mode": "melee"}, aos_blows),
    ]


#: OPR vs icepool: (models, attacks, quality, weapon rules, defender models, defence,
#: toughness); each spelled out for icepool from `docs/rules/opr-combat.md` as the tests do.
ICEPOOL_CASES = [
    (10, 1, 4, [], 10, 4, 1),
    (3, 1, 4, ["Blast(3)"], 2, 5, 3),
    (20, 3, 3, [], 20, 4, 1),
    (10, 2, 4, [], 10, 5, 2),
]
TARGET_ICEPOOL = 20.0


def opr_vs_icepool(rounds: int) -> tuple[float, float]:
    """CPU seconds per case: the exact OPR engine (the whole attack, caches cleared each time)
    and icepool computing the same wounds PMF, the two alternating round by round, medians of
    the rounds; the PMFs are checked equal first."""
    from rules.systems.opr import combat
    from rules.systems.opr.estimate import estimate
    from rules.systems.opr.situation import Situation
    from tests.factories.opr_combat_units import model, priced, unit, weapon
    from tests.rules.dice.icepool_oracle import as_pmf, die_from_faces

    def by_icepool(models: int, attacks: int, quality: int, rules: list[str], count: int, defence: int,
                   toughness: int) -> np.ndarray:
        hit = [1 if face >= quality or face == 6 else 0 for face in range(1, 7)]  # a 1 misses, a 6 hits
        hit[0] = 0
        blast = next((int(r[6:-1]) for r in rules if r.startswith("Blast(")), 1)
        hits = (models * attacks) @ die_from_faces(hit)
        if blast > 1:
            hits = hits.map(lambda h: h * min(blast, count))
        fails = [1 if (face == 1 or face < defence) and face != 6 else 0 for face in range(1, 7)]
        wounds = (hits @ die_from_faces(fails)).map(lambda w: min(w, count * toughness))
        return as_pmf(wounds, length=count * toughness + 1)

    def exact(models: int, attacks: int, quality: int, rules: list[str], count: int, defence: int,
              toughness: int) -> np.ndarray:
        combat.WOUNDS_CACHE.clear()
        combat.SPACES.clear()
        attacker = unit(model(count=models, q=quality, weapons=[weapon(attacks=attacks, rules_=rules)]))
        defender = unit(model(count=count, d=defence, t=toughness))
        result = estimate(attacker, defender, Situation(), prices=priced(100.0, 10.0))
        return np.array(result["wounds_distribution"])

    cases = ICEPOOL_CASES
    for case in cases:
        expected, found = by_icepool(*case), exact(*case)
        assert np.allclose(found[: len(expected)], expected, atol=1e-12), case
    # Round by round, one engine then the other (both meet the same load); the medians.
    exact_rounds, pool_rounds = [], []
    for _ in range(rounds):
        start = CLOCK()
        for case in cases:
            exact(*case)
        exact_rounds.append((CLOCK() - start) / len(cases))
        start = CLOCK()
        for case in cases:
            by_icepool(*case)
        pool_rounds.append((CLOCK() - start) / len(cases))
    return float(np.median(exact_rounds)), float(np.median(pool_rounds))


def opr_back_to_back(rounds: int, repeat: int = 8) -> float:
    """CPU seconds per case of the exact OPR engine when the cases follow one another as a job's
    matchups do (each case `repeat` times in a row, its caches cleared and its units built anew
    every call), the median of the rounds. Printed beside the judged figure, not judged: the
    judged one times each case once after icepool's run, so it also pays for the CPU caches
    icepool filled (about half of it on the 2-core machine, issue 42)."""
    from rules.systems.opr import combat
    from rules.systems.opr.estimate import estimate
    from rules.systems.opr.situation import Situation
    from tests.factories.opr_combat_units import model, priced, unit, weapon

    def exact(models: int, attacks: int, quality: int, rules: list[str], count: int, defence: int,
              toughness: int) -> None:
        combat.WOUNDS_CACHE.clear()
        combat.SPACES.clear()
        attacker = unit(model(count=models, q=quality, weapons=[weapon(attacks=attacks, rules_=rules)]))
        defender = unit(model(count=count, d=defence, t=toughness))
        estimate(attacker, defender, Situation(), prices=priced(100.0, 10.0))

    seconds = []
    for _ in range(rounds):
        start = CLOCK()
        for case in ICEPOOL_CASES:
            for _ in range(repeat):
                exact(*case)
        seconds.append((CLOCK() - start) / (len(ICEPOOL_CASES) * repeat))
    return float(np.median(seconds))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=100_000)
    parser.add_argument("--sample", type=int, default=8, help="matchups simulated per system")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=3,
                        help="exact job and Monte-Carlo sample alternated this many times; medians")
    parser.add_argument("--systems", nargs="+", default=None,
                        help="only these systems (default: all); the verdict covers what ran")
    parser.add_argument("--no-icepool", action="store_true", help="leave out OPR vs icepool")
    args = parser.parse_args()
    met = True
    for key, list_a, list_b, situation, simulate in systems(args.seed):
        if args.systems and key not in args.systems:
            continue
        # Alternated round by round, so both meet the same load on a shared machine.
        exact_rounds, mc_rounds = [], []
        for _ in range(args.rounds):
            exact_rounds.append(exact_per_matchup(key, list_a, list_b, situation)[0])
            mc_rounds.append(mc_per_matchup(simulate, list_a, list_b, args.trials, args.sample, args.seed))
        exact, mc = float(np.median(exact_rounds)), float(np.median(mc_rounds))
        ratio = mc / exact if exact > 0 else float("inf")
        met &= ratio >= TARGET_RATIO
        print(f"{key:6} exact {exact * 1000:7.3f} ms/matchup ({len(list_a)}×{len(list_b)} both ways, cold)  "
              f"MC {args.trials} trials {mc * 1000:8.1f} ms/matchup  ratio {ratio:7.1f}×  "
              f"target ≥ {TARGET_RATIO:.0f}× {'met' if ratio >= TARGET_RATIO else 'MISSED'}")
    if not args.no_icepool:
        exact, pool = opr_vs_icepool(9)
        ratio = pool / exact
        met &= ratio >= TARGET_ICEPOOL
        verdict = "met" if ratio >= TARGET_ICEPOOL else "MISSED"
        print(f"opr vs icepool (same wounds PMF): exact {exact * 1000:.3f} ms, icepool {pool * 1000:.3f} ms  "
              f"ratio {ratio:.1f}×  target ≥ {TARGET_ICEPOOL:.0f}× {verdict}")
        back_to_back = opr_back_to_back(9)
        print(f"  (not judged) exact, the cases back to back as a job's matchups: "
              f"{back_to_back * 1000:.3f} ms, {pool / back_to_back:.1f}× icepool's")
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs); CPU seconds")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
