"""Characteristic values as a system's schema takes them (`rules.battlescribe.units.values`)."""

from __future__ import annotations

from rules.battlescribe.units.values import ABSENT, convert, field_names, slug


def test_a_value_reads_as_the_first_of_number_text_or_null_the_schema_accepts():
    number = {"type": "integer"}
    assert convert("3+", number) == (True, 3)
    assert convert('6"', number) == (True, 6)
    assert convert("-", {"type": ["integer", "null"]}) == (True, None)
    assert convert("-", number) == (True, ABSENT)  # a dash where null is not taken: left out
    assert convert("D3", number) == (False, "D3")
    assert convert("D3", {"type": ["integer", "string"]}) == (True, "D3")
    assert convert("Missile", {"enum": ["missile", "melee"]}) == (True, "missile")


def test_a_characteristic_name_matches_a_field_by_key_title_or_description():
    properties = {
        "ws": {"title": "WS", "description": "Weapon Skill (1-10)"},
        "m": {"description": "Movement in inches"},
    }
    names = field_names(properties)
    assert names["ws"] == "ws" and names["weaponskill"] == "ws"
    assert names["movement"] == "m"  # the first word of a description: "Movement"


def test_a_slug_is_ascii_and_never_empty():
    assert slug("Ögryn Squad (Bone 'ead)") == "ogryn-squad-bone-ead"
    assert slug("!!!") == "x"
    assert slug("a" * 100, 10) == "a" * 10
