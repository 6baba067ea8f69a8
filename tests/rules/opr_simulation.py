"""A Monte-Carlo simulation of the OPR attack sequence: the test oracle (and the benchmark's
reference), written from `shared/spec/opr-combat.md` independently of the exact engine.

It rolls dice: each attack's die (as counts of each face among the attack dice), each
hit's defence die, then places wounds one at a time on models. Vectorised over trials with
numpy; never used to answer, only to check the exact engine (spec: "A Monte-Carlo run …
may exist as a test oracle, never as the answer").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from points.unit import Model, Unit, Weapon
from rules.systems.opr.situation import Situation

FACES = np.arange(1, 7)


@dataclass
class Simulated:
    """Per trial: models killed, wounds taken, points lost; per weapon group: mean attacks/hits."""

    kills: np.ndarray
    wounds: np.ndarray
    points: np.ndarray
    weapon_hits: list[float]
    weapon_names: list[str]


def _all_have(unit: Unit, rule: str) -> bool:
    return all(m.has(rule) for m in unit.models)


def _weapon_groups(attacker: Unit, defender: Unit, s: Situation) -> list[tuple[Weapon, Model, int]]:
    """(weapon, attacking model, total attacks), in the order the engine resolves them."""
    found: dict[tuple, list] = {}
    for model in attacker.models:
        for weapon in model.weapons:
            if s.mode == "melee":
                usable = weapon.range == 0 or weapon.has("Assault")
            else:
                reach = weapon.range
                if _all_have(defender, "Aircraft") and not weapon.has("Lock-On"):
                    reach -= 12
                usable = weapon.range > 0 and s.range_inches <= reach
            if not usable or weapon.attacks * model.count == 0:
                continue
            key = (weapon, model.quality, model.rules)
            found.setdefault(key, [weapon, model, 0])[2] += weapon.attacks * model.count
    return [tuple(v) for v in found.values()]


def _hit_faces(model: Model, weapon: Weapon, defender: Unit, s: Situation, melee: bool) -> np.ndarray:
    """hits scored by each face 1..6 of one attack die."""
    q = model.quality
    if weapon.has("Reliable"):
        q = 2
    elif not melee and model.has("Good Shot"):
        q = 4
    elif not melee and model.has("Bad Shot"):
        q = 5
    plus = 0
    plus += 1 if weapon.has("Lance") and s.charging else 0
    cautious = s.mode == "shooting" and s.range_inches > 12 and not s.enemies_within_12
    plus += 1 if model.has("Cautious") and cautious else 0
    plus += 1 if model.has("Spearhead") and not s.defender_activated else 0
    minus = 0
    if not weapon.has("Lock-On"):
        minus += 1 if _all_have(defender, "Stealth") and s.mode == "shooting" and s.range_inches > 6 else 0
        minus += 1 if _all_have(defender, "Aircraft") and s.mode == "shooting" else 0
    extra = int(weapon.has("Rending"))
    extra += int(model.has("Furious") and s.charging)
    extra += int(model.has("Relentless") and not melee and not s.attacker_moved)
    hits = np.zeros(6, dtype=np.int64)
    for face in range(1, 7):
        ok = face == 6 or (face != 1 and face + plus - minus >= q)
        hits[face - 1] = (1 + (extra if face == 6 else 0)) if ok else 0
    return hits


def _defence_faces(target: Model, weapon: Weapon, s: Situation) -> tuple[np.ndarray, bool]:
    """(a boolean per face 1..6: this defence die fails, the target regenerates)."""
    cover = s.defender_in_cover or target.has("Shield")
    if weapon.has("No Cover") or weapon.has("Lock-On"):
        cover = False
    mod = (2 if target.has("Entrenched") else 1) if cover else 0
    mod += 1 if target.has("Spearhead") and s.defender_activated else 0
    ap = weapon.ap + (1 if weapon.has("Lance") and s.charging else 0)
    fails = np.zeros(6, dtype=bool)
    for face in range(1, 7):
        automatic_six = face == 6 and not weapon.has("Corrosive") and not target.has("Delicate")
        automatic_five = face == 5 and target.has("Resistant") and not weapon.has("Corrosive")
        ok = face != 1 and (automatic_six or automatic_five or face + mod - ap >= target.defence)
        fails[face - 1] = not ok
    return fails, target.has("Regeneration") and not weapon.has("Brutal")


def simulate(
    attacker: Unit,
    defender: Unit,
    situation: Situation,
    model_costs: list[float],
    trials: int,
    rng: np.random.Generator,
) -> Simulated:
    melee = situation.mode == "melee"
    profiles = defender.models
    toughness = np.array([m.toughness for m in profiles])
    costs = np.asarray(model_costs, dtype=float)
    n_profiles = len(profiles)
    # Defender picks the cheapest model, heroes after everyone else; Precise: dearest first.
    defender_pick = sorted(range(n_profiles), key=lambda i: (profiles[i].has("Hero"), costs[i], i))
    precise_pick = sorted(range(n_profiles), key=lambda i: (-costs[i], i))

    alive = np.tile(np.array([m.count for m in profiles]), (trials, 1))
    current = np.full(trials, -1)  # profile of the damaged model, -1 when none is damaged
    damage = np.zeros(trials, dtype=np.int64)
    taken = np.zeros(trials, dtype=np.int64)
    weapon_hits: list[float] = []
    names: list[str] = []

    for weapon, model, n_attacks in _weapon_groups(attacker, defender, situation):
        names.append(weapon.name)
        pick = precise_pick if weapon.has("Precise") else defender_pick
        living = alive.sum(axis=1) > 0
        # Which profile takes this weapon: the damaged model, else the first alive in `pick`.
        first_alive = np.array(pick)[np.argmax(alive[:, pick] > 0, axis=1)]
        taking = np.where(current >= 0, current, first_alive)

        attack_faces = rng.multinomial(n_attacks, [1 / 6] * 6, size=trials)
        hits = attack_faces @ _hit_faces(model, weapon, defender, situation, melee)
        blast = weapon.value_of("Blast")
        if blast:
            hits = hits * np.minimum(blast, alive.sum(axis=1))
        hits = np.where(living, hits, 0)
        weapon_hits.append(float(hits.mean()))

        events = np.zeros(trials, dtype=np.int64)
        for p in range(n_profiles):
            rows = np.nonzero(taking == p)[0]
            if not len(rows):
                continue
            fails, regenerates = _defence_faces(profiles[p], weapon, situation)
            defence_faces = rng.multinomial(hits[rows], [1 / 6] * 6)
            failed = defence_faces[:, fails].sum(axis=1)
            sixes = defence_faces[:, 5] if regenerates else 0
            events[rows] = np.maximum(0, failed - sixes)

        per_event = weapon.value_of("Deadly") or 1
        active = np.nonzero(events > 0)[0]
        while len(active):
            a = alive[active]
            fresh = np.array(pick)[np.argmax(a[:, pick] > 0, axis=1)]
            target = np.where(current[active] >= 0, current[active], fresh)
            has_target = a.sum(axis=1) > 0
            active, target = active[has_target], target[has_target]
            if not len(active):
                break
            room = toughness[target] - damage[active]
            dealt = np.minimum(per_event, room)
            taken[active] += dealt
            damage[active] += dealt
            dies = damage[active] >= toughness[target]
            dead_rows, dead_profiles = active[dies], target[dies]
            alive[dead_rows, dead_profiles] -= 1
            damage[dead_rows] = 0
            current[dead_rows] = -1
            current[active[~dies]] = target[~dies]
            events[active] -= 1
            active = active[events[active] > 0]

    killed = np.array([m.count for m in profiles]) - alive
    return Simulated(
        kills=killed.sum(axis=1),
        wounds=taken,
        points=killed @ costs,
        weapon_hits=weapon_hits,
        weapon_names=names,
    )
