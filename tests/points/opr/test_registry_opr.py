"""The OPR system in the game-system registry (DESIGN.md "One seam for game systems")."""

import pytest

from points.shared_format import UnitFormatError
from rules.systems.registry import get_system
from tests.factories.opr_units import INFANTRY_JSON


def test_opr_is_registered():
    """Views, API and jobs find OPR by key; its profile schema gives the Q/D/T ranges."""
    opr = get_system("opr")
    assert opr.key == "opr"
    props = opr.profile_schema["properties"]
    assert (props["quality"]["minimum"], props["quality"]["maximum"]) == (2, 6)
    assert (props["defence"]["minimum"], props["defence"]["maximum"]) == (2, 6)
    assert props["toughness"]["minimum"] == 1
    assert "unit_balance" in opr.structure_options


def test_registry_price_is_the_points_engine():
    """price(unit dict) → JSON-ready breakdown; the spec's Infantry is 143."""
    result = get_system("opr").price(INFANTRY_JSON)
    assert (result["points"], result["exact"], result["category"]) == (143, "143", "shooter")


def test_registry_validate_returns_violation_dicts():
    """validate(army dict) → violation dicts with rule, unit and message."""
    army = {"name": "Tiny", "points_limit": 100, "units": [{"unit": INFANTRY_JSON}]}
    violations = get_system("opr").validate(army)
    assert {"rule": "points_limit", "unit": None}.items() <= violations[0].items()
    assert violations[0]["message"] == "Tiny totals 143 pts, over its points limit of 100"


def test_registry_price_raises_the_format_error_on_bad_input():
    """Bad input is a UnitFormatError with field paths (the API turns it into a 400)."""
    with pytest.raises(UnitFormatError):
        get_system("opr").price({"name": "X", "models": []})


def test_registry_points_is_the_price_without_the_breakdown():
    """`unit_points` (what the list editor prices each option with) is `price(...)["points"]`:
    OPR's own `points`, and the `price` of a system that declares none; the same errors."""
    from dataclasses import replace

    from rules.systems.registry import unit_points

    opr = get_system("opr")
    assert opr.points is not None
    assert unit_points(opr, INFANTRY_JSON) == opr.price(INFANTRY_JSON)["points"] == 143
    assert unit_points(replace(opr, points=None), INFANTRY_JSON) == 143
    with pytest.raises(UnitFormatError):
        unit_points(opr, {"name": "X", "models": []})
