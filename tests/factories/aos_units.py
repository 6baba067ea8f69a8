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


def aos_unit(name: str, count: int, *, wounds: int = 1, save: int = 4, bravery: int = 6,
             weapons: tuple | list = ()) -> dict[str, Any]:
    """A unit of one kind of model for the maths (move 5, no abilities)."""
    return {"format": 1, "system": "aos1", "name": name,
            "models": [{"name": name, "count": count, "move": 5, "wounds": wounds, "save": save,
                        "bravery": bravery, "weapons": list(weapons)}]}


def aos_weapon(attacks: int | str = 1, to_hit: int = 4, to_wound: int = 4, rend: int = 0,
               damage: int | str = 1, kind: str = "melee", range_: int = 1) -> dict[str, Any]:
    """A weapon profile (melee, 1", 4+/4+ unless told)."""
    return {"name": "W", "type": kind, "range": range_, "attacks": attacks, "to_hit": to_hit,
            "to_wound": to_wound, "rend": rend, "damage": damage}
