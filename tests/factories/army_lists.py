"""Factories for the army-list tests: players, an OPR faction with options, lists.

The units are the worked examples of `docs/rules/opr-points.md` §9 (Infantry 143 pts,
Brutes 200 pts), so expected points are known exactly without the bundled catalogue.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from armybuilder.lists import services
from armybuilder.models import ArmyList
from rules.models import Faction, GameSystem, UnitTemplate, UpgradeOption
from tests.factories.opr_documents import PLASMA

_numbers = itertools.count(1)

INFANTRY: dict[str, Any] = {
    "format": 1,
    "system": "opr",
    "name": "Infantry",
    "models": [
        {
            "name": "Trooper",
            "count": 10,
            "quality": 4,
            "defence": 5,
            "toughness": 1,
            "rules": [],
            "weapons": [
                {"name": "Rifle", "range": 24, "attacks": 1, "ap": 0, "rules": []},
                {"name": "Knife", "range": 0, "attacks": 1, "ap": 0, "rules": []},
            ],
        }
    ],
}
BRUTES: dict[str, Any] = {
    "format": 1,
    "system": "opr",
    "name": "Brutes",
    "models": [
        {
            "name": "Brute",
            "count": 3,
            "quality": 3,
            "defence": 4,
            "toughness": 3,
            "rules": ["Fearless", "Furious"],
            "weapons": [{"name": "Great Axe", "range": 0, "attacks": 3, "ap": 2, "rules": ["Rending"]}],
        }
    ],
}
#: The eleven units of the bundled Ashen Concord faction, by slug (editor and print tests).
ASHEN_CONCORD_ELEVEN = (
    "concord-wardens",
    "ashguard-veterans",
    "warden-captain",
    "cinder-adept",
    "slagworks-sappers",
    "signal-corps",
    "dune-outriders",
    "magma-mortar-team",
    "pyre-walker",
    "basalt-crawler",
    "ember-hawk",
)
INFANTRY_POINTS = 143
BRUTES_POINTS = 200

#: Every test account's password (a real hasher checks it where a test logs in).
PASSWORD = "correct horse battery staple"


def make_user(name: str | None = None, password: str = PASSWORD) -> User:
    name = name or f"player{next(_numbers)}"
    return User.objects.create_user(username=name, email=f"{name}@example.com", password=password)


def token_client(user: User) -> APIClient:
    """An API client that authenticates like an app: `Authorization: Token <key>`, nothing else."""
    client = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def opr_system() -> GameSystem:
    system, _ = GameSystem.objects.get_or_create(key="opr", defaults={"name": "OPR-style"})
    return system


def make_faction(
    *, owner: User | None = None, slug: str | None = None, system: GameSystem | None = None
) -> Faction:
    slug = slug or f"faction-{next(_numbers)}"
    return Faction.objects.create(
        system=system or opr_system(), slug=slug, name=slug.replace("-", " ").title(), owner=owner
    )


def make_unit(
    *,
    faction: Faction,
    data: dict[str, Any] | None = None,
    slug: str | None = None,
    with_options: bool = True,
) -> UnitTemplate:
    """A unit template (Infantry by default) with a plasma upgrade and up to 5 extra troopers."""
    data = copy.deepcopy(data or INFANTRY)
    slug = slug or f"unit-{next(_numbers)}"
    from rules.systems.registry import get_system

    template = UnitTemplate.objects.create(
        faction=faction,
        slug=slug,
        name=data["name"],
        data=data,
        points=get_system("opr").price(data)["points"],
    )
    if with_options:
        model = data["models"][0]["name"]
        UpgradeOption.objects.create(
            unit=template,
            key="plasma",
            group="Weapons",
            label="Replace Rifle with Plasma Gun",
            kind="replace_weapon",
            applies_to=model,
            payload={"replace": "Rifle", "with": PLASMA},
            min_count=0,
            max_count=1,
            position=1,
        )
        UpgradeOption.objects.create(
            unit=template,
            key="extra",
            group="Models",
            label="Extra trooper",
            kind="add_models",
            applies_to=model,
            payload={"count": 1},
            min_count=0,
            max_count=5,
            position=2,
        )
    return template


def make_list(
    *,
    owner: User,
    faction: Faction,
    name: str = "Patrol",
    points_limit: int = 1000,
    units: list[UnitTemplate] | None = None,
    **kwargs: Any,
) -> ArmyList:
    army_list = services.army_list_create(
        owner=owner, system=faction.system, faction=faction, name=name, points_limit=points_limit, **kwargs
    )
    for unit in units or []:
        services.army_list_add_unit(
            army_list=army_list, unit=unit, options={}, expected_version=army_list.version
        )
    return army_list
