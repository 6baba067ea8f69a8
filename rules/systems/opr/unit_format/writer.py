"""Writing the unit format: `Unit`/`Army` out to the canonical JSON-ready dict.

Canonical means English rule names, `Name(X)` for values, every profile field written
(toughness and ap included), auras and orders with all four fields. It is the inverse of the
reader: `parse_unit(unit_to_dict(u)) == u` for every unit the reader can produce, so an
exported list stands on its own and imports back unchanged.
"""

from __future__ import annotations

from typing import Any

from points.opr.army import Army
from points.opr.unit import Aura, Model, Unit, Weapon


def _aura(aura: Aura) -> dict[str, Any]:
    return {"grants": aura.grants, "to": aura.to, "effect": aura.effect, "range": aura.range}


def _weapon(weapon: Weapon) -> dict[str, Any]:
    return {
        "name": weapon.name,
        "range": weapon.range,
        "attacks": weapon.attacks,
        "ap": weapon.ap,
        "rules": [str(rule) for rule in weapon.rules],
    }


def _model(model: Model) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": model.name,
        "count": model.count,
        "quality": model.quality,
        "defence": model.defence,
        "toughness": model.toughness,
        "rules": [str(rule) for rule in model.rules],
        "weapons": [_weapon(w) for w in model.weapons],
    }
    if model.auras:
        out["auras"] = [_aura(a) for a in model.auras]
    if model.orders:
        out["orders"] = [_aura(o) for o in model.orders]
    if model.parts:
        out["parts"] = [{"name": p.name, "toughness": p.toughness} for p in model.parts]
    return out


def unit_to_dict(unit: Unit) -> dict[str, Any]:
    """The canonical interchange-format dict of a unit."""
    out: dict[str, Any] = {
        "format": unit.format,
        "system": unit.system,
        "name": unit.name,
        "models": [_model(m) for m in unit.models],
    }
    if unit.extra:
        out["extra"] = dict(unit.extra)
    return out


def army_to_dict(army: Army) -> dict[str, Any]:
    """The canonical interchange-format dict of a list, every unit written in full."""
    return {
        "format": army.format,
        "system": army.system,
        "name": army.name,
        "points_limit": army.points_limit,
        "options": dict(army.options),
        "units": [{"unit": unit_to_dict(e.unit), "count": e.count} for e in army.units],
    }
