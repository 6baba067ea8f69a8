"""The published JSON Schemas of the unit format (docs/unit-format.md: "documented by a JSON Schema the
project
publishes, and validates against")."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from rules.systems.opr.unit_format import ARMY_SCHEMA_FILE, UNIT_SCHEMA_FILE, army_schema, unit_schema
from rules.systems.opr.unit_format.schema import schema_errors
from tests.factories.opr_units import INFANTRY_JSON, VETERAN_SQUAD_JSON
from tests.points.opr.strategies import units


def test_schema_files_are_valid_json_schemas():
    """Both files are valid draft 2020-12 schemas, readable by any tool."""
    for path in (UNIT_SCHEMA_FILE, ARMY_SCHEMA_FILE):
        Draft202012Validator.check_schema(json.loads(path.read_text(encoding="utf-8")))


def test_spec_examples_validate():
    """docs/unit-format.md's example unit (and the §9 Infantry) satisfy the published schema."""
    assert schema_errors(VETERAN_SQUAD_JSON, "unit") == []
    assert schema_errors(INFANTRY_JSON, "unit") == []
    army = {
        "format": 1,
        "system": "opr",
        "name": "Patrol",
        "points_limit": 1000,
        "options": {"army_structure": True, "unit_balance": False},
        "units": [{"unit": VETERAN_SQUAD_JSON, "count": 1}, {"catalogue_unit": "orcs/boyz", "options": []}],
    }
    assert schema_errors(army, "army") == []


def test_schema_states_the_profile_ranges():
    """docs/unit-format.md: Q and D 2–6, toughness ≥ 1, ap −1..5, range 0 = melee."""
    model = unit_schema()["$defs"]["model"]["properties"]
    assert (model["quality"]["minimum"], model["quality"]["maximum"]) == (2, 6)
    assert (model["defence"]["minimum"], model["defence"]["maximum"]) == (2, 6)
    assert model["toughness"]["minimum"] == 1
    weapon = unit_schema()["$defs"]["weapon"]["properties"]
    assert (weapon["ap"]["minimum"], weapon["ap"]["maximum"]) == (-1, 5)
    assert army_schema()["properties"]["units"]["items"]["properties"]["unit"]["$ref"] == "unit.schema.json"


@settings(max_examples=150, deadline=None)
@given(unit=units(), mutation=st.sampled_from(
    [None, ("quality", 9), ("defence", 1), ("toughness", 0), ("count", -1), ("name", 5), ("extra", True)]))
def test_fast_validator_agrees_with_jsonschema(unit, mutation):
    """The jsonschema-rs fast path says "valid" exactly when jsonschema finds no error."""
    from rules.systems.opr.unit_format import unit_to_dict
    from rules.systems.opr.unit_format.schema import _fast_validator, _validator

    data = unit_to_dict(unit)
    if mutation is not None:
        field, value = mutation
        data["models"][0][field] = value
    python_valid = not list(_validator("unit").iter_errors(data))
    assert _fast_validator("unit").is_valid(data) is python_valid
