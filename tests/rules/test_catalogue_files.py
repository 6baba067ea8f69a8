"""The catalogue reader's checks of options priced by count (`rules.catalogue_files`): each
broken payload is refused with a message naming the field, the rest of the option format as
the bundled factions use it."""

from __future__ import annotations

import pytest

from rules.catalogue_files import CatalogueFileError, read_faction_data


def faction(payload: dict, *, cost: int | None = 140, high: int = 2) -> dict:
    grow = {"key": "more-guards", "label": "Add 10 Guards", "kind": "add_models", "applies_to": "Guard",
            "payload": payload, "max": high}
    if cost is not None:
        grow["cost"] = cost
    return {
        "faction": {"slug": "bs-test", "name": "Test"},
        "units": [
            {
                "slug": "guards",
                "name": "Guards",
                "role": "infantry",
                "models": [{"name": "Guard", "count": 10, "points": 0, "move": 5, "wounds": 1, "save": 5,
                            "bravery": 6}],
                "upgrades": [{"key": "unit", "label": "Unit", "count": 1, "cost": 140}],
                "options": [grow],
            }
        ],
    }


def test_an_option_priced_by_count_is_read_with_its_prices():
    plan = read_faction_data("aos1", faction({"count": 10, "costs": [140, 220]}), source="test.yaml")
    [unit] = plan.units
    [grow] = unit.options
    assert grow.values["payload"]["costs"] == [140, 220]
    assert unit.values["points"] == 140


@pytest.mark.parametrize(
    ("payload", "cost", "message"),
    [
        ({"count": 10, "costs": [140, "220"]}, 140, "must be a list of whole numbers"),
        ({"count": 10, "costs": [140]}, 140, "gives 1 prices; the option can be taken up to 2 times"),
        ({"count": 10, "costs": [150, 220]}, 140, "the first price (150) must be the option's cost (140)"),
        ({"count": 10, "costs": [140, 220]}, None, "must be the option's cost (None)"),
        ({"count": 10, "costs": [140, 220], "per_model": True}, 140, "cannot also be priced by count"),
    ],
)
def test_broken_prices_by_count_are_refused_naming_the_field(payload, cost, message):
    with pytest.raises(CatalogueFileError) as caught:
        read_faction_data("aos1", faction(payload, cost=cost), source="test.yaml")
    [error] = [e for e in caught.value.errors if "payload.costs" in e]
    assert "units[0].options[0].payload.costs" in error and message in error
