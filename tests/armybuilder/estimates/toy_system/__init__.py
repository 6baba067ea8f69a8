"""A toy game system that exists only to prove the seam: darts thrown at balloons.

Everything about it lives in this package: its unit format (models with `darts` and
`balloons`), its price, its situation (`mode` and `wind`, and a rule that wind only blows
on shooting) and its exact attack. Registering it (the `toy_system` fixture) must be all
it takes for the estimate form, the API, the jobs and the `estimate` command to serve it.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import comb
from typing import Any

from points.shared_format import FieldError, UnitFormatError
from rules.systems.messages import gettext_noop
from rules.systems.profile_fields import characteristic, envelope
from rules.systems.registry import GameSystem

KEY = "toydarts"

SITUATION_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "mode": {"type": "string", "enum": ["shooting", "melee"], "default": "shooting",
                 "title": gettext_noop("Attack"),
                 "x-enum-labels": {"shooting": gettext_noop("Shooting"), "melee": gettext_noop("Melee")}},
        "wind": {"type": "integer", "minimum": 0, "maximum": 3, "default": 0, "title": "Wind strength",
                 "description": "Each point of wind makes a dart one sixth less likely to hit.",
                 "x-command-aliases": [{"flag": "--gale", "value": 3}]},
    },
}


def situation_errors(situation: Mapping[str, Any]) -> dict[str, list[str]]:
    if situation["wind"] and situation["mode"] != "shooting":
        return {"wind": [gettext_noop("Wind only matters when shooting.")]}
    return {}


def _check(unit: Any) -> list[dict[str, Any]]:
    if not isinstance(unit, Mapping) or not isinstance(unit.get("models"), list) or not unit["models"]:
        raise UnitFormatError([FieldError("models", "A toy unit needs a list of models.")])
    issues = []
    for i, model in enumerate(unit["models"]):
        for field in ("count", "darts", "balloons"):
            value = model.get(field) if isinstance(model, Mapping) else None
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 20:
                issues.append(FieldError(f"models[{i}].{field}", "Must be a whole number from 0 to 20."))
    if issues:
        raise UnitFormatError(issues)
    return unit["models"]


def price(unit: Mapping[str, Any]) -> dict[str, Any]:
    models = _check(unit)
    return {"points": sum(3 * m["count"] for m in models), "exact": True}


def attack(attacker: Mapping[str, Any], defender: Mapping[str, Any], situation: Mapping[str, Any]) -> dict:
    """Every dart hits on 1 − wind/6 (4+ in melee); a model dies when all its balloons pop
    (one hit each, hits spread to the first model first)."""
    darts = sum(m["count"] * m["darts"] for m in attacker["models"])
    p = 0.5 if situation["mode"] == "melee" else 1 - situation["wind"] / 6
    hits = [comb(darts, k) * p ** k * (1 - p) ** (darts - k) for k in range(darts + 1)]
    balloons = max(1, defender["models"][0]["balloons"])
    size = sum(m["count"] for m in defender["models"])
    kills = [0.0] * (size + 1)
    for k, pk in enumerate(hits):
        kills[min(size, k // balloons)] += pk
    expected_kills = sum(k * pk for k, pk in enumerate(kills))
    points = price(defender)["points"] / max(1, size)
    attacker_points = price(attacker)["points"]
    tail = [sum(kills[k:]) for k in range(size + 1)]
    return {
        "attacker": attacker.get("name", ""), "defender": defender.get("name", ""),
        "situation": dict(situation),
        "expected": {"attacks": float(darts), "hits": darts * p, "wounds": darts * p,
                     "damage": darts * p, "kills": expected_kills},
        "kills_distribution": kills, "kills_at_least": tail, "p_destroyed": kills[-1],
        "expected_points_destroyed": expected_kills * points,
        "points_efficiency": 100 * expected_kills * points / attacker_points if attacker_points else None,
        "attacker_points": attacker_points, "defender_points": price(defender)["points"],
        "weapons": [{"name": "Dart", "model": m.get("name", ""), "models": m["count"], "melee": False,
                     "expected": {"attacks": m["count"] * m["darts"]}} for m in attacker["models"]],
        "outcomes": [
            {"key": "p_any_pop", "label": "At least one balloon pops", "kind": "probability",
             "value": 1 - hits[0]},
            {"key": "hits_spread", "label": "Darts that hit", "kind": "distribution", "value": hits,
             "expected": darts * p},
            {"key": "darts_thrown", "label": "Darts thrown", "kind": "number", "value": float(darts)},
        ],
    }


def toy_unit(name: str, *, count: int = 4, darts: int = 2, balloons: int = 1) -> dict[str, Any]:
    return {"format": 1, "system": KEY, "name": name,
            "models": [{"name": name, "count": count, "darts": darts, "balloons": balloons}]}


#: One model of a toy unit: darts it throws, balloons it carries (headings "Dt", "Bl").
PROFILE_SCHEMA = envelope(
    profile={
        "darts": characteristic("Dt", "Darts thrown per turn", maximum=20, nullable=False, long="Darts"),
        "balloons": characteristic("Bl", "Balloons to pop", maximum=20, nullable=False, long="Balloons"),
    },
    weapon={},
    weapon_columns=[],
)


def make_system() -> GameSystem:
    return GameSystem(
        key=KEY, name="Toy darts", source_language="en", profile_schema=PROFILE_SCHEMA, order=99,
        price=price, validate=lambda army: [], attack=attack,
        reference_targets={"balloon-bunch": toy_unit("Balloon bunch", count=6, darts=0)},
        situation_schema=SITUATION_SCHEMA, situation_errors=situation_errors,
    )
