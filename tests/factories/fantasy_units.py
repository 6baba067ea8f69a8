"""A one-profile Warhammer Fantasy unit in the catalogue unit format, for the fantasy tests:
an average human (WS/BS/S/T/I 3, W 1, A 1, Ld 7, infantry) unless `profile` says otherwise."""

from __future__ import annotations

from typing import Any


def unit(name: str, count: int, **profile: Any) -> dict[str, Any]:
    model = {
        "name": name, "count": count, "ws": 3, "bs": 3, "s": 3, "t": 3, "w": 1, "i": 3, "a": 1, "ld": 7,
        "troop_type": "infantry", **profile,
    }
    return {"format": 1, "system": "whfb6", "name": name, "models": [model]}
