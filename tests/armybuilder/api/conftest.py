"""Fixtures of the API tests: accounts, tokens, a small OPR catalogue, lists built by the services.

Lists are made with `armybuilder.lists.services` (never by writing rows), so the API is tested
against exactly what the pages produce. The throttle counters live in a private in-memory
cache per test, with generous rates unless a test lowers them (`throttle_rates`).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from armybuilder.api import list_cache
from armybuilder.lists.services import army_list_add_unit, army_list_create
from armybuilder.lists.sharing import army_list_share
from armybuilder.models import ArmyList
from rules.models import Faction, GameSystem, UnitTemplate, UpgradeOption
from rules.systems.registry import get_system
from tests.factories import army_lists
from tests.factories.army_lists import PASSWORD, token_client
from tests.factories.estimate_lists import catalogue_unit
from tests.factories.opr_documents import PLASMA, opr_unit
from tests.factories.throttle_rates import set_rates


@pytest.fixture(autouse=True)
def throttle_cache(settings: Any) -> Iterator[None]:
    """A fresh in-memory counter store per test, and rates no ordinary test reaches."""
    settings.CACHES = {**settings.CACHES, settings.API_THROTTLE_CACHE: {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "api-throttle-tests"}}
    from django.core.cache import caches

    caches[settings.API_THROTTLE_CACHE].clear()
    list_cache.clear()  # ids and versions of lists repeat between tests
    set_rates(settings, user="100000/hour", ip="100000/hour", login="100000/hour", estimates="100000/hour",
              pdf="100000/hour", page="100000/hour")
    yield


@pytest.fixture(autouse=True)
def fast_password_hashing(settings: Any) -> None:
    """Accounts are made in nearly every test; a deliberately slow hash would dominate the run."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def throttle_rates(settings: Any, monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Lower (or raise) throttle rates for one test: `throttle_rates(user="2/minute")`.

    The clock stands still at the start of an hour, so a test's requests never straddle
    two counting windows.
    """
    from armybuilder.api.throttling import SharedCacheThrottle

    monkeypatch.setattr(SharedCacheThrottle, "timer", lambda self: 3600.0 * 500_000)
    return lambda **rates: set_rates(settings, **rates)


@pytest.fixture
def make_user(db: None) -> Callable[[str], Any]:
    return lambda username: army_lists.make_user(username, PASSWORD)


@pytest.fixture
def owner(make_user: Callable[[str], Any]) -> Any:
    return make_user("owner")


@pytest.fixture
def other(make_user: Callable[[str], Any]) -> Any:
    return make_user("other")


@pytest.fixture
def anonymous_client() -> APIClient:
    return APIClient()


@pytest.fixture
def owner_client(owner: Any) -> APIClient:
    return token_client(owner)


@pytest.fixture
def other_client(other: Any) -> APIClient:
    return token_client(other)


@pytest.fixture
def opr(db: None) -> GameSystem:
    """The OPR system's catalogue row (the registry must know it: the engine prices its units)."""
    registered = get_system("opr")
    system, _ = GameSystem.objects.get_or_create(key="opr", defaults={"name": registered.name})
    return system


@pytest.fixture
def faction(opr: GameSystem) -> Faction:
    return Faction.objects.create(system=opr, slug="test-guard", name="Test Guard")


@pytest.fixture
def units(faction: Faction) -> dict[str, UnitTemplate]:
    """Three units of the faction, priced by the engine as the loader would cache them."""
    made = {}
    for position, (slug, data, role) in enumerate([
        ("veterans", opr_unit("Veterans", count=5, defence=5, rules=["Fearless"], model_name="Veteran"),
         UnitTemplate.Role.INFANTRY),
        ("recruits", opr_unit("Recruits", count=10, quality=5, defence=6, model_name="Recruit"),
         UnitTemplate.Role.INFANTRY),
        ("captain", opr_unit("Captain", count=1, quality=3, defence=4, toughness=3,
                             rules=["Hero", "Tough(3)"]),
         UnitTemplate.Role.HERO),
    ]):
        made[slug] = catalogue_unit(faction, data, slug=slug, role=role, position=position)
    UpgradeOption.objects.create(
        unit=made["veterans"], key="plasma", group="Replace one Rifle", label="Plasma Gun",
        kind=UpgradeOption.Kind.REPLACE_WEAPON, payload={"replace": "Rifle", "with": PLASMA},
        min_count=0, max_count=2, position=0)
    UpgradeOption.objects.create(
        unit=made["veterans"], key="more", group="", label="+1 Veteran", kind=UpgradeOption.Kind.ADD_MODELS,
        payload={"count": 1}, min_count=0, max_count=5, position=1)
    return made


@pytest.fixture
def private_list(owner: Any, opr: GameSystem, faction: Faction, units: dict[str, UnitTemplate]) -> ArmyList:
    """The owner's private list with two units, made by the services."""
    army_list = army_list_create(owner=owner, system=opr, faction=faction, name="Patrol", points_limit=500)
    army_list_add_unit(army_list=army_list, unit=units["veterans"], options={"plasma": 1},
                       expected_version=None)
    army_list_add_unit(army_list=army_list, unit=units["recruits"], expected_version=None)
    army_list.refresh_from_db()
    return army_list


@pytest.fixture
def shared_list(private_list: ArmyList) -> ArmyList:
    """The same list, private but shared by link."""
    army_list_share(army_list=private_list, expected_version=None)
    private_list.refresh_from_db()
    return private_list


@pytest.fixture
def example_lists(db: None) -> list[ArmyList]:
    """The bundled catalogue and the example lists: a list of every bundled system at least."""
    call_command("load_catalogue", stdout=io.StringIO())
    call_command("load_example_lists", stdout=io.StringIO())
    lists = list(ArmyList.objects.filter(owner__username="examples"))
    assert {army_list.system.key for army_list in lists} >= {"opr", "whfb6", "wh40k9", "aos1", "ru_whfb"}
    return lists


@pytest.fixture
def imported_list(owner: Any, example_lists: list[ArmyList]) -> ArmyList:
    """The owner's list of a faction imported with its BattleScribe source (a list the roster
    engine evaluates), with one unit; beside the example lists (whose catalogue it needs)."""
    from rules.battlescribe_import import import_files
    from tests.rules.battlescribe.files import sources

    faction = import_files(system_key="wh40k9", files=sources("slots.gst", "slots_warband.cat"),
                           owner=owner).factions[0]
    imported = army_list_create(owner=owner, system=faction.system, faction=faction, name="BS",
                                points_limit=500)
    army_list_add_unit(army_list=imported, unit=UnitTemplate.objects.get(faction=faction, slug="bs-se-lord"),
                       expected_version=imported.version)
    return imported


def if_match(army_list: ArmyList) -> dict[str, str]:
    """Headers for a write to `army_list` at its current version (as the ETag of a GET says)."""
    army_list.refresh_from_db()
    return {"HTTP_IF_MATCH": f'"{army_list.version}"'}
