"""The slot chart's messages count in words (issue 30, item 12: "1 Core units", "1 Lords"):
[EXTERNAL] 6th-edition slot chart (`points/whfb6/composition.py`, quoted in the WHFB digest §13)."""

from __future__ import annotations

from points.whfb6.composition import slot_chart_violations


def _army(*slots: str, points_limit: int = 2000) -> dict:
    units = [{"unit": {"name": f"Unit {i}", "slot": slot, "models": []}} for i, slot in enumerate(slots)]
    return {"points_limit": points_limit, "units": units}


def test_one_core_unit_is_a_core_unit():
    messages = [v["message"] for v in slot_chart_violations(_army("core"))]
    assert "The army has 1 Core unit; at least 3 needed at this game size." in messages


def test_two_core_units_are_core_units():
    messages = [v["message"] for v in slot_chart_violations(_army("core", "core"))]
    assert "The army has 2 Core units; at least 3 needed at this game size." in messages
