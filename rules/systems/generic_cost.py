"""The cost a system without its own cost model is bounded by (`GameSystem.estimate_cost`'s
default): a conservative guess from the unit format's shared shape alone, so that a new system
is bounded before anyone has fitted a model of its engine.

Pure Python: it reads models with a `count` and a `weapons` list, nothing of any system.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Seconds and bytes per (defender state × attack die) of a dense machine.
GENERIC_SECONDS_PER_CELL = 1e-7
GENERIC_BYTES_PER_STATE = 1024
GENERIC_ATTACKS_PER_WEAPON = 6


def positive_count(value: Any) -> int:
    """A model count read from untrusted data: a positive int, else 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def generic_cost(attacker: Mapping[str, Any], defender: Mapping[str, Any],
                 situation: Mapping[str, Any]) -> tuple[float, int]:
    """The conservative (seconds, bytes) of one attack: the defender's states (its models, plus
    one, squared) times the attacker's dice (each weapon of each model rolls a few)."""
    models = [m for m in defender.get("models") or [] if isinstance(m, Mapping)]
    states = (sum(positive_count(m.get("count")) for m in models) + 1) ** 2
    dice = sum(positive_count(m.get("count")) * len(m.get("weapons") or []) * GENERIC_ATTACKS_PER_WEAPON
               for m in attacker.get("models") or [] if isinstance(m, Mapping))
    return GENERIC_SECONDS_PER_CELL * states * max(1, dice), GENERIC_BYTES_PER_STATE * states
