"""Throttle rates for a test: the API's scoped rates live in one nested setting, so a test that
needs a low rate for one scope replaces the dict with a copy (pytest-django's `settings`
fixture restores it afterwards)."""

from __future__ import annotations

from typing import Any


def set_rates(settings: Any, **rates: str) -> None:
    """Set `rates` (scope → "N/period") in `REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`."""
    rest = dict(settings.REST_FRAMEWORK)
    rest["DEFAULT_THROTTLE_RATES"] = {**rest["DEFAULT_THROTTLE_RATES"], **rates}
    settings.REST_FRAMEWORK = rest
