"""A plain `Fraction` reference implementation of the OPR cost formula: the independent oracle
of the points engine's tests (`tests/rules/systems/opr/unit_format/test_fast_path.py`) and the
baseline of `bench/bench_points.py`.

Written from `docs/rules/opr-points.md` (the seed's tables, translated), independently of the
points engine in `points/opr/`: it imports nothing from the project, caches nothing and uses
`fractions.Fraction` for every value, step by step, as a straightforward implementation of the
spec would. It reads a unit-format dict (`docs/unit-format.md`) with English rule names
and does not validate it. `bench/bench_points.py` times the real path against it (target:
"≥ 5× faster than a plain Fraction implementation") and checks that both give the same exact
total for every unit it times.

The project's own Decisions where the spec is silent are followed (so that the two agree):
Reliable wins over Good/Bad Shot; a weapon with Lock-On and No Cover adds the No Cover row once;
a Massive model's summed toughness also multiplies its per-toughness abilities.
"""

from __future__ import annotations

import re
from fractions import Fraction as F
from itertools import pairwise
from typing import Any

RULE = re.compile(r"^\s*([^()]*?)\s*(?:\(\s*([^()]*?)\s*\))?\s*$")


def split_rule(text: str) -> tuple[str, int | None]:
    """"Blast(3)" -> ("Blast", 3); "Rending" -> ("Rending", None)."""
    name, value = RULE.match(text).groups()
    return name, int(value) if value else None


def line(points: list[tuple[int, F]], x: int, slope_above: F) -> F:
    """Linear interpolation between listed points; the first value below; a line above."""
    if x <= points[0][0]:
        return points[0][1]
    if x >= points[-1][0]:
        return points[-1][1] + slope_above * (x - points[-1][0])
    for (x0, y0), (x1, y1) in pairwise(points):
        if x0 <= x <= x1:
            return y0 + (y1 - y0) * F(x - x0, x1 - x0)
    raise AssertionError(x)


def slope(points: list[tuple[int, F]]) -> F:
    (x0, y0), (x1, y1) = points[-2], points[-1]
    return (y1 - y0) / (x1 - x0)


# §3 defence table, columns D = 6, 5, 4, 3, 2
DEFENCE = {6: F("0.8"), 5: F("1"), 4: F("1.33"), 3: F("1.67"), 2: F("2")}
DEFENCE_ROWS = {
    "Delicate": {6: F("-0.13"), 5: F("-0.1"), 4: F("-0.08"), 3: F("-0.07"), 2: F("-0.05")},
    "Resistant": {6: F("0.35"), 5: F("0.3"), 4: F("0.2"), 3: F("0.1"), 2: F("0.05")},
    "Regeneration": {6: F("0.4"), 5: F("0.45"), 4: F("0.5"), 3: F("0.65"), 2: F("1")},
    "Spearhead": {6: F("0.1"), 5: F("0.17"), 4: F("0.17"), 3: F("0.17"), 2: F("0.1")},
}
# §4 toughness
TOUGHNESS = [(1, F(1)), (2, F("2.15")), (3, F("3.5")), (6, F(8)), (9, F(13)), (12, F(18))]
# §5 range and Cautious
RANGES = [(12, F("0.65")), (18, F(1)), (24, F("1.25")), (30, F("1.45")), (36, F("1.55"))]
CAUTIOUS = [(12, F(0)), (18, F("0.5")), (24, F("0.7")), (30, F("0.8")), (36, F("0.9"))]
AP = {-1: F("0.8"), 0: F(1), 1: F("1.5"), 2: F("1.9"), 3: F("2.25"), 4: F("2.5"), 5: F("2.65")}
AP_ROWS = {
    "Lance": [F("0.15"), F("0.35"), F("0.3"), F("0.25"), F("0.15"), F("0.1"), F("0.05")],
    "No Cover": [F("0.1"), F("0.25"), F("0.2"), F("0.15"), F("0.1"), F("0.1"), F("0.05")],
    "Corrosive": [F("0.05"), F("0.05"), F("0.1"), F("0.25"), F("0.4"), F("0.5"), F("0.55")],
}
BLAST = [(1, F(1)), (2, F("1.95")), (3, F("2.8")), (6, F("4.3"))]
DEADLY = [(1, F(1)), (2, F("1.9")), (3, F("2.6")), (6, F("3.8"))]
WEAPON_FACTORS = {"Indirect": F("1.2"), "Lock-On": F("1.1"), "Limited": F("0.4"),
                  "Overcharge": F("1.4"), "Precise": F("1.5"), "Brutal": F("1.1")}
# §6 abilities priced per point of toughness; auras and orders
PER_TOUGHNESS = {"Ambush": F(2), "Scout": F(2), "Fast": F(1), "Slow": F(-1), "Skirmisher": F("1.5"),
                 "Immobile": F("-2.5"), "Agile": F("0.5"), "Clumsy": F("-0.5"), "Flying": F(1),
                 "Aircraft": F(3), "Counter": F(2), "Stealth": F(2), "Entrenched": F(1),
                 "Shield": F("1.25"), "Guardian": F(3), "Instinct": F(-1)}
AURA = {"Fast": F(8), "Slow": F(8), "Skirmisher": F(12), "Agile": F(4), "Clumsy": F(4), "Flying": F(8),
        "Furious": F(24), "Relentless": F(28), "Counter": F(16), "Delicate": F(4), "Resistant": F(16),
        "Regeneration": F(28), "Stealth": F(16), "Entrenched": F(8), "Shield": F(10), "Fearless": F(12),
        "Reckless": F(12), "Guardian": F(24), "Instinct": F(8)}
ORDER = {"Fast": F(10), "Slow": F(10), "Skirmisher": F(15), "Immobile": F(25), "Agile": F(5), "Clumsy": F(5),
         "Flying": F(10), "Furious": F(30), "Relentless": F(35), "Counter": F(20), "Delicate": F(5),
         "Resistant": F(20), "Regeneration": F(35), "Stealth": F(20), "Entrenched": F(10),
         "Shield": F("12.5"), "Fearless": F(15), "Reckless": F(15), "Guardian": F(30), "Instinct": F(10)}
TRANSPORT = [("Aircraft", F("3.5")), ("Ambush", F("2.5")), ("Scout", F("2.5")), ("Flying", F("1.5")),
             ("Fast", F("1.25")), ("Agile", F("1.25"))]
FLAT = {"Relay": F(4), "Mending": F(20), "Radio": F(3), "Hero": F(0)}


def weapon_cost(weapon: dict[str, Any], quality: int, model_rules: dict[str, int | None],
                melee: bool) -> F:
    """§5: attacks × 2 × range modifier × hit chance × ability modifiers."""
    rules = dict(split_rule(r) for r in weapon.get("rules", []))
    rng = weapon["range"]
    range_mod = F("0.6") if melee else line(RANGES, rng, slope(RANGES))
    q = quality
    if "Reliable" in rules:
        q = 2
    elif not melee and "Good Shot" in model_rules:
        q = 4
    elif not melee and "Bad Shot" in model_rules:
        q = 5
    hit = F(7 - q)
    if "Rending" in rules:
        hit += 1
    if melee and "Furious" in model_rules:
        hit += F("0.65")
    if not melee and "Relentless" in model_rules:
        hit += F("0.65")
    if "Lance" in rules:
        hit += F("0.65")
    if "Spearhead" in model_rules:
        hit += F("0.5")
    if "Lock-On" in rules:
        hit += F("0.35")
    if "Cautious" in model_rules:
        hit += F(0) if melee else line(CAUTIOUS, rng, slope(CAUTIOUS))
    ap = weapon.get("ap", 0)
    ap_mod = AP[ap]
    for row, values in AP_ROWS.items():
        if row in rules or (row == "No Cover" and "Lock-On" in rules):
            ap_mod += values[ap + 1]
    cost = F(weapon["attacks"]) * 2 * range_mod * hit * ap_mod
    for name, x in rules.items():
        if name == "Blast" and x is not None:
            cost *= line(BLAST, x, slope(BLAST))
        elif name == "Deadly" and x is not None:
            cost *= line(DEADLY, x, slope(DEADLY))
        elif name in WEAPON_FACTORS:
            cost *= WEAPON_FACTORS[name]
    if "Vengeance" in model_rules:
        cost *= F("1.1")
    return cost


def unit_cost(unit: dict[str, Any]) -> F:
    """§1: Σ model cost × count, the cheaper weapon category halved over the whole unit (§5)."""
    fixed = []  # (count, base + abilities) per profile
    melee_costs, ranged_costs = [], []  # (count, weapon cost) per weapon line
    for model in unit["models"]:
        rules = dict(split_rule(r) for r in model.get("rules", []))
        q, d, count = model["quality"], model["defence"], model["count"]
        t = model.get("toughness", 1)
        if "Massive" in rules and model.get("parts"):
            t = sum(p["toughness"] for p in model["parts"])
        m = F(1)
        if "Fearless" in rules:
            m *= F("0.5")
        if "Reckless" in rules:
            m *= F("0.5")
        morale = F("1.3") - F(q - 1, 10) * m
        defence = DEFENCE[d] + sum((row[d] for name, row in DEFENCE_ROWS.items() if name in rules), F(0))
        toughness = line(TOUGHNESS, t, F(5, 3))
        base = 5 * morale * defence * toughness
        abilities = F(0)
        for name, x in rules.items():
            if name in PER_TOUGHNESS:
                abilities += PER_TOUGHNESS[name] * t
            elif name == "Transport":
                factors = [f for rule, f in TRANSPORT if rule in rules]
                abilities += max(factors, default=F(1)) * x
            elif name == "Fear":
                abilities += F("0.75") * x
            elif name == "Caster":
                abilities += 8 * x
            elif name in FLAT:
                abilities += FLAT[name]
        for aura in model.get("auras", []):
            abilities += AURA[aura["grants"]] * (2 if aura.get("range", 6) >= 12 else 1)
        for order in model.get("orders", []):
            abilities += ORDER[order["grants"]]
        fixed.append((count, base + abilities))
        for weapon in model.get("weapons", []):
            melee = weapon["range"] == 0
            cost = weapon_cost(weapon, q, rules, melee)
            (melee_costs if melee else ranged_costs).append((count, cost))
            if not melee and "Assault" in [split_rule(r)[0] for r in weapon.get("rules", [])]:
                melee_costs.append((count, weapon_cost(weapon, q, rules, True)))
    melee_total = sum((c * cost for c, cost in melee_costs), F(0))
    ranged_total = sum((c * cost for c, cost in ranged_costs), F(0))
    # the cheaper category costs half
    weapons = melee_total + ranged_total / 2 if melee_total > ranged_total else ranged_total + melee_total / 2
    return sum((c * cost for c, cost in fixed), F(0)) + weapons


def unit_points(unit: dict[str, Any]) -> int:
    """The rounded points (§1: half-up, once per unit)."""
    return (unit_cost(unit) + F(1, 2)).__floor__()
