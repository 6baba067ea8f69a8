"""Age of Sigmar 1st edition units as the BattleScribe import writes them (invented data)."""

from __future__ import annotations

from typing import Any

from rules.models import Faction, GameSystem, UnitTemplate
from rules.systems.registry import get_system
from tests.factories.army_lists import make_faction

LURKING = {"name": "Lurking", "text": "Skulkers can run and shoot in the same turn."}
AXE = {"name": "Axe", "type": "melee", "range": 1, "attacks": 2, "to_hit": 4, "to_wound": 4, "rend": 0,
       "damage": 1}


def imported_warscroll(name: str, *, profile: bool = True, count: int = 5,
                       abilities: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """An AoS unit with text abilities; `profile` False: a warscroll the data gave no profile
    (`profile_in_source: false`, no characteristics), as the import marks one."""
    model: dict[str, Any] = {"name": name, "count": count, "points": 12, "weapons": [dict(AXE)]}
    if profile:
        model.update(move=6, wounds=1, save=5, bravery=6)
    unit: dict[str, Any] = {"format": 1, "system": "aos1", "name": name, "models": [model],
                            "abilities": list(abilities if abilities is not None else [LURKING])}
    if not profile:
        unit["profile_in_source"] = False
    return unit


def aos_faction() -> Faction:
    system, _ = GameSystem.objects.get_or_create(key="aos1", defaults={"name": "Age of Sigmar"})
    return make_faction(system=system)


def aos_catalogue_unit(faction: Faction, data: dict[str, Any]) -> UnitTemplate:
    return UnitTemplate.objects.create(faction=faction, slug=data["name"].lower().replace(" ", "-"),
                                       name=data["name"], data=data,
                                       points=int(get_system("aos1").price(data)["points"]))
