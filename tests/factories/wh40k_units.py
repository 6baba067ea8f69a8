"""Warhammer 40,000 9th edition units in the unit format the engine reads (invented data):
a model with every characteristic at a plain default, a unit of such models, a gun."""

from __future__ import annotations

from typing import Any


def wh40k_model(name: str = "M", *, count: int = 1, weapons: list | None = None,
                **stats: Any) -> dict[str, Any]:
    """A model at a plain default (3+ to hit and save, S4 T4 W1); `stats` override."""
    base = {
        "name": name,
        "count": count,
        "points": 0,
        "m": 6,
        "ws": 3,
        "bs": 3,
        "s": 4,
        "t": 4,
        "w": 1,
        "a": 1,
        "ld": 7,
        "sv": 3,
        "rules": [],
        "weapons": weapons or [],
    }
    base.update(stats)
    return base


def wh40k_unit(*models: dict[str, Any], name: str = "U", **extra: Any) -> dict[str, Any]:
    """A unit of `models` in the unit format (format 1)."""
    return {"format": 1, "system": "wh40k9", "name": name, "models": list(models), **extra}


def wh40k_gun(
    *,
    kind: str = "Assault 1",
    rng: int = 24,
    s: Any = 4,
    ap: int = 0,
    d: Any = 1,
    abilities: list | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A ranged weapon (Assault 1, 24", S4 AP0 D1 unless told)."""
    return {
        "name": extra.pop("name", "Gun"),
        "range": rng,
        "type": kind,
        "s": s,
        "ap": ap,
        "d": d,
        "abilities": abilities or [],
        **extra,
    }
