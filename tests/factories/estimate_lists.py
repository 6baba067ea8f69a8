"""Units and lists for the estimate tests, made through the catalogue and the builder's services.

The units are OPR units in the unit format (`tests/factories/opr_documents.py`);
`distinct_units` makes many that differ (so that a list-vs-list job computes every matchup
instead of reusing a repeated one).
"""

from __future__ import annotations

import copy
from typing import Any

from armybuilder.lists.services import army_list_add_unit, army_list_create
from armybuilder.models import ArmyList
from rules.models import Faction, UnitTemplate
from rules.systems.registry import get_system
from tests.factories.army_lists import make_faction
from tests.factories.opr_documents import BLADE, LAUNCHER, RIFLE, opr_unit


def catalogue_unit(faction: Faction, data: dict[str, Any], *, slug: str | None = None,
                   role: str = UnitTemplate.Role.INFANTRY, position: int = 0) -> UnitTemplate:
    """A catalogue unit priced by the engine, as the loader stores one."""
    return UnitTemplate.objects.create(faction=faction, slug=slug or data["name"].lower().replace(" ", "-"),
                                       name=data["name"], data=copy.deepcopy(data), role=role,
                                       position=position, points=int(get_system("opr").price(data)["points"]))


def distinct_units(prefix: str, how_many: int) -> list[dict[str, Any]]:
    """`how_many` different units with two or three weapons and 5 to 20 models."""
    return [opr_unit(f"{prefix} {i}", count=5 + i % 16, quality=3 + i % 3, defence=3 + i % 4,
                     toughness=1 + i % 3, weapons=[RIFLE, BLADE, LAUNCHER] if i % 2 else [RIFLE, BLADE])
            for i in range(how_many)]


def army_list_of(owner: Any, units: list[dict[str, Any]], *, name: str = "Patrol", public: bool = False,
                 faction: Faction | None = None) -> ArmyList:
    """A list of `owner` holding one of each unit (each added from its own catalogue unit)."""
    faction = faction or make_faction()
    army_list = army_list_create(owner=owner, system=faction.system, faction=faction, name=name,
                                 points_limit=100_000, is_public=public)
    for data in units:
        template = catalogue_unit(faction, data, slug=f"{name}-{data['name']}".lower().replace(" ", "-"))
        army_list_add_unit(army_list=army_list, unit=template, options={}, expected_version=None)
    army_list.refresh_from_db()
    return army_list
