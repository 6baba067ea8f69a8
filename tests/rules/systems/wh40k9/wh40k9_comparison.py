"""The side-by-side table of this engine and the `warhammer-stats` package (PyPI 0.1.1):
the same weapons against the same targets, built for both from one description.

Shared by `tests/rules/systems/wh40k9/test_vs_warhammer_stats.py` and
`bench/bench_estimates_40k.py`. warhammer-stats models one weapon against a target of
endless identical models (no unit size), so the defender here has enough models that the
unit is never wiped (its kills cannot reach the unit's size).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Weapon:
    key: str
    shots: str
    bs: int
    s: int
    ap: int
    d: str
    abilities: tuple = field(default_factory=tuple)


@dataclass(frozen=True)
class Target:
    key: str
    t: int
    sv: int
    w: int
    inv: int | None = None
    fnp: int | None = None


WEAPONS = (
    Weapon("bolt rifle ×10", "10", 3, 4, -1, "1"),
    Weapon(
        "heavy bolter ×3 (re-roll 1s to hit)",
        "9",
        3,
        5,
        -1,
        "2",
        ({"type": "reroll", "roll": "hit", "which": "ones"},),
    ),
    Weapon("lascannon ×2 (D6)", "2", 3, 9, -3, "D6"),
    Weapon("krak missile D3 ×2", "2", 3, 8, -2, "D3"),
    Weapon(
        "plasma ×5 (re-roll failed hits)",
        "5",
        3,
        7,
        -3,
        "1",
        ({"type": "reroll", "roll": "hit", "which": "failed"},),
    ),
    Weapon(
        "shuriken ×10 (6s to wound AP −3)", "20", 3, 4, 0, "1", ({"type": "extra_ap", "on": 6, "ap": -3},)
    ),
    Weapon(
        "storm bolter ×5 (exploding 6s)", "10", 3, 4, 0, "1", ({"type": "extra_hits", "on": 6, "hits": 1},)
    ),
    Weapon("melta D6 shots ×2", "2D6", 3, 8, -4, "D6"),
)
TARGETS = (
    Target("GEQ T3 W1 5+", 3, 5, 1),
    Target("MEQ T4 W2 3+", 4, 3, 2),
    Target("TEQ T4 W3 2+ 4++", 4, 2, 3, inv=4),
    Target("vehicle T7 W10 3+", 7, 3, 10),
    Target("MEQ with FNP 5+", 4, 3, 2, fnp=5),
)


def engine_units(weapon: Weapon, target: Target) -> tuple[dict[str, Any], dict[str, Any]]:
    """This engine's attacker (one model firing `shots` shots of Assault) and defender."""
    shooter = {
        "format": 1,
        "system": "wh40k9",
        "name": weapon.key,
        "models": [
            {
                "name": "Shooter",
                "count": 1,
                "points": 0,
                "m": 6,
                "ws": 3,
                "bs": weapon.bs,
                "s": 4,
                "t": 4,
                "w": 1,
                "a": 1,
                "ld": 7,
                "sv": 3,
                "weapons": [
                    {
                        "name": weapon.key,
                        "range": 24,
                        "type": f"Assault {weapon.shots}",
                        "s": weapon.s,
                        "ap": weapon.ap,
                        "d": int(weapon.d) if weapon.d.isdigit() else weapon.d,
                        "abilities": list(weapon.abilities),
                    }
                ],
            }
        ],
    }
    most_attacks = 24 if weapon.shots == "20" else 12 if weapon.shots in ("10", "2D6") else 10
    count = min(400 // target.w, max(most_attacks * 2 + 1, 40 // target.w + 1))
    abilities = [{"type": "feel_no_pain", "target": target.fnp}] if target.fnp else []
    defender = {
        "format": 1,
        "system": "wh40k9",
        "name": target.key,
        "models": [
            {
                "name": "Target",
                "count": count,
                "points": 0,
                "m": 6,
                "ws": 4,
                "bs": 4,
                "s": 4,
                "t": target.t,
                "w": target.w,
                "a": 1,
                "ld": 7,
                "sv": target.sv,
                "invuln": target.inv,
                "abilities": abilities,
                "weapons": [],
            }
        ],
    }
    return shooter, defender


def warhammer_stats_attack(weapon: Weapon, target: Target) -> Any:
    """The same attack in warhammer-stats: its `Attack` object (run it with `.run()`)."""
    from warhammer_stats import Attack, PMFCollection
    from warhammer_stats import Target as WTarget
    from warhammer_stats import Weapon as WWeapon
    from warhammer_stats.modifiers.generator_modifiers import GenerateExtraAutomaticHitsUnmodifiable
    from warhammer_stats.modifiers.reroll_modifiers import ReRollFailed, ReRollOnes
    from warhammer_stats.modifiers.splitter_modifiers import OnAnUnmodifiableRollOfNAddAP
    from warhammer_stats.utils.modifier_collection import ModifierCollection

    def dice(text: str) -> Any:
        if "D" in text:
            n, sides = text.split("D")
            return PMFCollection.mdn(int(n or 1), int(sides))
        return PMFCollection.static(int(text))

    hit_mods, wound_mods = [], []
    for ability in weapon.abilities:
        if ability["type"] == "reroll":
            (hit_mods if ability["roll"] == "hit" else wound_mods).append(
                ReRollOnes() if ability["which"] == "ones" else ReRollFailed()
            )
        elif ability["type"] == "extra_hits":
            hit_mods.append(GenerateExtraAutomaticHitsUnmodifiable(ability["on"], ability["hits"]))
        elif ability["type"] == "extra_ap":
            wound_mods.append(OnAnUnmodifiableRollOfNAddAP(ability["on"], -ability["ap"]))
    gun = WWeapon(
        bs=weapon.bs,
        shots=dice(weapon.shots),
        strength=weapon.s,
        ap=-weapon.ap,
        damage=dice(weapon.d),
        modifiers=ModifierCollection(hit_mods=hit_mods, wound_mods=wound_mods),
        name=weapon.key,
    )
    enemy = WTarget(
        toughness=target.t,
        save=target.sv,
        invuln=target.inv or 7,
        fnp=target.fnp or 7,
        wounds=target.w,
        name=target.key,
    )
    return Attack(gun, enemy)


def clear_warhammer_stats_caches() -> None:
    """warhammer-stats memoises its kill trees; a fair timing starts without them."""
    from warhammer_stats.attack.phases import kill_phase

    for name in (
        "generate_kill_tree",
        "generate_mortal_kill_tree",
        "generate_one_kill_tree",
        "calculate_kills",
    ):
        getattr(kill_phase, name).cache_clear()


def _engine_caches() -> list[tuple[str, Any]]:
    """Every `functools` cache of a module of `rules.systems.wh40k9` and of the dice core it
    uses, found once (walking the packages is slow and not part of what is cleared)."""
    import importlib
    import pkgutil

    import rules.dice
    import rules.systems.wh40k9 as package

    if not _CACHES:
        names = [f"{package.__name__}.{m.name}" for m in pkgutil.iter_modules(package.__path__)]
        names += [f"{rules.dice.__name__}.{m.name}" for m in pkgutil.iter_modules(rules.dice.__path__)]
        for name in names:
            for attribute, value in vars(importlib.import_module(name)).items():
                own = getattr(value, "__module__", None) == name  # not an imported one
                if own and callable(getattr(value, "cache_clear", None)):
                    _CACHES.append((f"{name}.{attribute}", value))
    return _CACHES


_CACHES: list[tuple[str, Any]] = []


def clear_engine_caches() -> list[str]:
    """Clear every memo cache of the 40k engine (`_engine_caches`), so that a timed estimate
    starts cold; returns their names, so a benchmark can show what it cleared."""
    for _name, cached in _engine_caches():
        cached.cache_clear()
    return [name for name, _cached in _engine_caches()]


#: Where the two engines read the rules differently: the rule and the spec line.
KNOWN_DIFFERENCES = {
    "damage_definition": "docs/rules/wh40k9.md §5 Step 5 ('excess damage from a single normal attack "
    "is lost'): "
    "this engine's `damage` is the wounds the unit actually loses (cut at the current model's "
    "remaining wounds); warhammer-stats' total damage cuts each attack's damage at the model's "
    "full W only.",
    "fnp": "docs/rules/wh40k9.md §5 'Ignoring wounds' with Step 5: each point of damage is a wound the model "
    "would lose and gets its own Feel No Pain roll until the model dies (a D6 on a W2 model is "
    "rolled point by point); warhammer-stats first cuts the damage to W, then rolls.",
    "six_trigger": "docs/rules/wh40k9.md §5 Step 2 and §6.4 ('unmodified 6' judged on the wound roll): "
    "a 6 is "
    "1/6 of all wound rolls, i.e. 1/4 of the successful 3+ rolls; warhammer-stats applies the extra "
    "AP to 1/6 of the successful wounds.",
    "exploding_dependence": "docs/rules/wh40k9.md §5 Step 1 with the `extra_hits` ability: the 6 that scores "
    "an extra hit is itself a hit, so the two counts are dependent (checked exactly against icepool "
    "in tests/rules/systems/wh40k9/test_attack.py); warhammer-stats convolves them as independent, "
    "which keeps the mean damage but changes the kills on multi-wound models.",
}


def differences(weapon: Weapon, target: Target) -> dict[str, str]:
    """metric ("damage", "kills") -> KNOWN_DIFFERENCES key, for the metrics that differ by rule."""
    out: dict[str, str] = {}
    if weapon.d != "1" and target.w > 1:
        out["damage"] = "damage_definition"
    if any(a["type"] == "extra_hits" for a in weapon.abilities) and target.w > 1:
        out["kills"] = "exploding_dependence"
    if target.fnp and weapon.d != "1":
        out["damage"] = out["kills"] = "fnp"
    if any(a["type"] == "extra_ap" for a in weapon.abilities):
        out["damage"] = out["kills"] = "six_trigger"
    return out
