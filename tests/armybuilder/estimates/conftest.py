"""Fixtures of the estimate tests: players, the OPR catalogue row, throttles that never bite."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from rules.models import Faction
from tests.factories.army_lists import make_faction, make_user
from tests.factories.throttle_rates import set_rates


@pytest.fixture(autouse=True)
def throttle_cache(settings: Any) -> Iterator[None]:
    """A private in-memory throttle counter per test, with rates no ordinary test reaches."""
    settings.CACHES = {**settings.CACHES, settings.API_THROTTLE_CACHE: {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "estimate-throttle-tests"}}
    from django.core.cache import caches

    caches[settings.API_THROTTLE_CACHE].clear()
    set_rates(settings, user="100000/hour", ip="100000/hour", estimates="100000/hour", pdf="100000/hour",
              page="100000/hour")
    yield


@pytest.fixture
def throttle_rates(settings: Any) -> Callable[..., None]:
    return lambda **rates: set_rates(settings, **rates)


@pytest.fixture
def owner(db: None) -> Any:
    return make_user("owner")


@pytest.fixture
def other(db: None) -> Any:
    return make_user("other")


@pytest.fixture
def faction(db: None) -> Faction:
    return make_faction(slug="test-guard")
