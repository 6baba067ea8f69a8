"""Power Rating of a unit and Power Level of an army (`docs/rules/wh40k9.md` §1.1, §7.1).

A datasheet prints a Power Rating that may rise with the unit's size ("If this unit
contains 6 or more models, its Power Rating is increased to 10"). In the unit format the
datasheet's rating is the unit's `power_rating`, and each size step a
`power_rating_rules` entry `{"min_models": 6, "power": 10}`; the highest step the unit
reaches applies. An army's Power Level is the sum of its units' ratings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def model_count(unit: Mapping[str, Any]) -> int:
    return sum(int(model.get("count", 1)) for model in unit.get("models") or [])


def power_rating(unit: Mapping[str, Any]) -> int:
    """The unit's Power Rating at its current size (0 when the data gives none)."""
    rating = int(unit.get("power_rating") or 0)
    size = model_count(unit)
    steps = sorted(
        (rule for rule in unit.get("power_rating_rules") or [] if size >= int(rule["min_models"])),
        key=lambda rule: int(rule["min_models"]),
    )
    return int(steps[-1]["power"]) if steps else rating


def power_extras(unit: Mapping[str, Any]) -> dict[str, Any]:
    """What a 40k price reports besides points: the Power Rating (`power`)."""
    return {"power": power_rating(unit)}
