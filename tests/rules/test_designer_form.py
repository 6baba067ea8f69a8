"""The designer's inputs for list fields of a profile schema (40k `keywords` and `abilities`):
keywords typed comma-separated, abilities as a JSON list of rules as data or as text."""

from __future__ import annotations

from rules.designer_form import FieldSpec, _text
from rules.systems.registry import get_system

PROPERTIES = get_system("wh40k9").profile_schema["properties"]
WEAPON = get_system("wh40k9").profile_schema["$defs"]["weapon"]["properties"]


def test_keywords_are_typed_comma_separated_and_shown_so():
    spec = FieldSpec.from_schema("keywords", PROPERTIES["keywords"])
    assert (spec.kind, spec.shape) == ("list", "strings")
    assert spec.parse(" INFANTRY, PRIMARIS ,") == (["INFANTRY", "PRIMARIS"], None)
    assert _text(["INFANTRY", "PRIMARIS"]) == "INFANTRY, PRIMARIS"


def test_model_abilities_take_a_json_list_and_plain_text_becomes_one_item():
    spec = FieldSpec.from_schema("abilities", PROPERTIES["abilities"])
    assert (spec.kind, spec.shape) == ("list", "array")
    fnp = '[{"type": "feel_no_pain", "target": 5}, "Shock Assault"]'
    assert spec.parse(fnp) == ([{"type": "feel_no_pain", "target": 5}, "Shock Assault"], None)
    assert spec.parse("Angels of Death") == (["Angels of Death"], None)
    value, error = spec.parse("[{broken")
    assert value is None and error
    assert _text([{"type": "feel_no_pain", "target": 5}]) == '[{"type": "feel_no_pain", "target": 5}]'


def test_weapon_abilities_stay_text_unless_written_as_data():
    spec = FieldSpec.from_schema("abilities", WEAPON["abilities"])
    assert (spec.kind, spec.shape) == ("list", "text-or-array")
    assert spec.parse("Blast") == ("Blast", None)
    assert spec.parse('[{"type": "extra_attacks", "value": 1}]') == (
        [{"type": "extra_attacks", "value": 1}],
        None,
    )
