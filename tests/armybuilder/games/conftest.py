"""Fixtures of the play-mode tests: the bundled catalogue and its example lists (one per game
system), a player, and throttles counted in memory per test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command

from armybuilder.models import ArmyList
from tests.factories.army_lists import make_user
from tests.factories.throttle_rates import set_rates


@pytest.fixture(autouse=True)
def throttle_cache(settings: Any) -> Iterator[None]:
    """A private in-memory throttle counter per test, with rates no ordinary test reaches."""
    settings.CACHES = {
        **settings.CACHES,
        settings.API_THROTTLE_CACHE: {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "game-throttle-tests",
        },
    }
    from django.core.cache import caches

    caches[settings.API_THROTTLE_CACHE].clear()
    set_rates(
        settings,
        user="100000/hour",
        ip="100000/hour",
        estimates="100000/hour",
        page="100000/hour",
        game_odds="100000/min",
    )
    yield


@pytest.fixture
def examples(db: None) -> dict[str, ArmyList]:
    """The gallery's example list of each system, by system key."""
    call_command("load_catalogue", verbosity=0)
    call_command("load_example_lists", verbosity=0)
    return {army_list.system.key: army_list for army_list in ArmyList.objects.select_related("system")}


@pytest.fixture
def player(db: None) -> Any:
    return make_user("player")
