"""Small builders for units in tests: `unit(model(weapons=[rifle()]))` reads like the spec."""

from __future__ import annotations

from collections.abc import Iterable

from points.opr.army import Army, ArmyEntry
from points.opr.unit import Aura, Model, Part, Rule, Unit, Weapon


def rules(*written: str | Rule) -> tuple[Rule, ...]:
    """`rules("Fearless", "Blast(3)")` → (Rule("Fearless"), Rule("Blast", 3))."""
    out = []
    for item in written:
        if isinstance(item, Rule):
            out.append(item)
        elif "(" in item:
            name, value = item[:-1].split("(")
            out.append(Rule(name, int(value)))
        else:
            out.append(Rule(item))
    return tuple(out)


def weapon(name: str = "Rifle", range: int = 24, attacks: int = 1, ap: int = 0, *written: str) -> Weapon:
    return Weapon(name, range, attacks, ap, rules(*written))


def melee(name: str = "Knife", attacks: int = 1, ap: int = 0, *written: str) -> Weapon:
    return Weapon(name, 0, attacks, ap, rules(*written))


def model(
    name: str = "Soldier",
    count: int = 1,
    quality: int = 4,
    defence: int = 5,
    toughness: int = 1,
    *,
    rule_names: Iterable[str] = (),
    weapons: Iterable[Weapon] = (),
    auras: Iterable[Aura] = (),
    orders: Iterable[Aura] = (),
    parts: Iterable[Part] = (),
) -> Model:
    return Model(
        name,
        count,
        quality,
        defence,
        toughness,
        rules(*rule_names),
        tuple(weapons),
        tuple(auras),
        tuple(orders),
        tuple(parts),
    )


def unit(*models: Model, name: str = "Unit") -> Unit:
    return Unit(name, tuple(models))


def army(
    *units: Unit | tuple[Unit, int], limit: int = 2000, options: dict | None = None, name: str = "List"
) -> Army:
    entries = [ArmyEntry(*u) if isinstance(u, tuple) else ArmyEntry(u) for u in units]
    return Army(name, limit, tuple(entries), dict(options or {}))


def infantry() -> Unit:
    """docs/rules/opr-points.md §9 "Infantry": 10 × (Q4, D5, T1; Rifle 24" A1; Knife melee A1) = 143
    points."""
    return unit(
        model("Infantry", 10, 4, 5, 1, weapons=[weapon("Rifle", 24, 1), melee("Knife", 1)]), name="Infantry"
    )


def brutes() -> Unit:
    """docs/rules/opr-points.md §9 "Brutes": 3 × (Q3, D4, T3, Fearless, Furious; Great Axe melee A3 AP2
    Rending),
    200 points."""
    axe = melee("Great Axe", 3, 2, "Rending")
    return unit(model("Brute", 3, 3, 4, 3, rule_names=["Fearless", "Furious"], weapons=[axe]), name="Brutes")


INFANTRY_JSON = {
    "format": 1,
    "system": "opr",
    "name": "Infantry",
    "models": [
        {
            "name": "Infantry",
            "count": 10,
            "quality": 4,
            "defence": 5,
            "toughness": 1,
            "rules": [],
            "weapons": [
                {"name": "Rifle", "range": 24, "attacks": 1, "ap": 0, "rules": []},
                {"name": "Knife", "range": 0, "attacks": 1, "ap": 0, "rules": []},
            ],
        }
    ],
}

#: The example unit of docs/unit-format.md, verbatim.
VETERAN_SQUAD_JSON = {
    "format": 1,
    "system": "opr",
    "name": "Veteran Squad",
    "models": [
        {
            "name": "Veteran",
            "count": 4,
            "quality": 4,
            "defence": 5,
            "toughness": 1,
            "rules": ["Fearless", "Fear(1)"],
            "weapons": [
                {"name": "Rifle", "range": 24, "attacks": 1, "ap": 0, "rules": []},
                {"name": "Blade", "range": 0, "attacks": 1, "ap": 1, "rules": ["Rending"]},
            ],
        },
        {
            "name": "Sergeant",
            "count": 1,
            "quality": 4,
            "defence": 5,
            "toughness": 1,
            "rules": ["Fearless", "Fear(1)"],
            "weapons": [{"name": "Plasma Gun", "range": 18, "attacks": 1, "ap": 2, "rules": ["Overcharge"]}],
            "auras": [{"grants": "Fast", "to": "friends", "effect": "grant", "range": 6}],
        },
    ],
}
