"""What a row of a list is, whichever backend keeps the list: a unit, or the roster's configuration.

A roster of the BattleScribe engine holds selections that field no models (a battle size, a
detachment's command cost, an allegiance): the engine builds, costs and checks them, and the
`.rosz` writes them back, but they are not units of the army. Such a row says so in its data
(`rules.battlescribe_lists.CONFIGURATION_FIELD`, written by the engine backend); a row of a
bundled list never does, so these functions answer the same for every list without asking
which backend keeps it.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import ngettext

from armybuilder.lists.errors import ArmyListError
from armybuilder.models import MAX_UNITS_PER_LIST, ListUnit
from rules.battlescribe_lists import CONFIGURATION_FIELD


def is_configuration(unit: ListUnit) -> bool:
    """Whether a row is its roster's configuration (a selection that fields no models): the
    system's rules, the interchange file, the estimates and every "N units" never see it."""
    if not unit.selection:
        return False
    data = unit.data or {}
    if CONFIGURATION_FIELD in data:  # what the engine found in the selection tree (`unit_costs`)
        return data[CONFIGURATION_FIELD] is True
    return not data.get("models")  # a row the engine has not refreshed since


def fielded(units: Sequence[ListUnit]) -> list[ListUnit]:
    """The rows of `units` that field models, in order (every row but the configuration)."""
    return [unit for unit in units if not is_configuration(unit)]


def configuration(units: Sequence[ListUnit]) -> list[ListUnit]:
    """The roster's configuration rows of `units`, in order (`is_configuration`)."""
    return [unit for unit in units if is_configuration(unit)]


def check_room(*, current: int, adding: int) -> None:
    """Refuse a change that would take a list past `MAX_UNITS_PER_LIST` rows."""
    if current + adding > MAX_UNITS_PER_LIST:
        raise ArmyListError(
            [
                (
                    "units",
                    ngettext(
                        "A list has at most %(limit)d unit.",
                        "A list has at most %(limit)d units.",
                        MAX_UNITS_PER_LIST,
                    )
                    % {"limit": MAX_UNITS_PER_LIST},
                )
            ]
        )
