"""The army rules of the AoS 1st edition rules sheet (`shared/spec/systems/003_aos.md` §3).

The sheet has no points and no limits at all: "you can use any number of models from your
collection". Units are one warscroll each (the unit format's shape already guarantees it)
and the general is chosen after deployment, which a list does not model. So only the
project-wide rule applies: the points limit (always on; bundled AoS units carry 0 points
because the source prints none).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from points.catalogue.army import points_limit_violations

OPTION_KEYS: dict[str, str] = {}


def validate(
    army: Mapping[str, Any], price: Callable[[Mapping[str, Any]], Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The points limit only."""
    return points_limit_violations(army, price)
