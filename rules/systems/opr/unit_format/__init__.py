"""The unit interchange format (`docs/unit-format.md`): JSON Schema, reader, writer.

    parse_unit(data) -> Unit          parse_army(data) -> Army
    unit_to_dict(unit) -> dict        army_to_dict(army) -> dict

Bad input raises `UnitFormatError`, whose `errors` list every problem with its field path.
The published schemas are `unit.schema.json` and `army.schema.json` in this folder.
"""

from points.shared_format import FieldError, UnitFormatError
from rules.systems.opr.unit_format.reader import parse_army, parse_unit
from rules.systems.opr.unit_format.schema import ARMY_SCHEMA_FILE, UNIT_SCHEMA_FILE, army_schema, unit_schema
from rules.systems.opr.unit_format.writer import army_to_dict, unit_to_dict

__all__ = [
    "ARMY_SCHEMA_FILE",
    "UNIT_SCHEMA_FILE",
    "FieldError",
    "UnitFormatError",
    "army_schema",
    "army_to_dict",
    "parse_army",
    "parse_unit",
    "unit_schema",
    "unit_to_dict",
]
