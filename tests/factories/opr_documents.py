"""OPR units in the interchange format (`docs/unit-format.md`): the JSON-ready dicts the
API, the catalogue and the estimate requests take, one model profile each.

`opr_unit` is the one builder of such a unit for every test (API, lists, estimates, pages);
the weapons are the ones those tests arm them with.
"""

from __future__ import annotations

import copy
from typing import Any

RIFLE = {"name": "Rifle", "range": 24, "attacks": 1, "ap": 0, "rules": []}
BLADE = {"name": "Blade", "range": 0, "attacks": 2, "ap": 1, "rules": ["Rending"]}
LAUNCHER = {"name": "Launcher", "range": 18, "attacks": 2, "ap": 2, "rules": ["Blast(3)"]}
PLASMA = {"name": "Plasma Gun", "range": 18, "attacks": 1, "ap": 2, "rules": []}


def opr_unit(name: str, *, count: int = 10, quality: int = 4, defence: int = 4, toughness: int = 1,
             weapons: list[dict[str, Any]] | None = None, rules: list[str] | None = None,
             model_name: str | None = None) -> dict[str, Any]:
    """A valid OPR unit in the interchange format: `count` models named `model_name` (the
    unit's name unless given), rifles unless `weapons` says otherwise."""
    return {"format": 1, "system": "opr", "name": name, "models": [{
        "name": model_name or name, "count": count, "quality": quality, "defence": defence,
        "toughness": toughness,
        "rules": list(rules or []), "weapons": copy.deepcopy(weapons if weapons is not None else [RIFLE]),
    }]}
