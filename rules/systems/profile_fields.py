"""Building blocks of the profile schemas of the catalogue-priced systems.

A profile schema is the JSON Schema of one model in the unit format: the envelope fields
every system shares (`name`, `count`, `points`, `rules`, `weapons`) plus the system's own
characteristics. Two non-standard keywords help the pages stay system-agnostic: `x-profile`
lists the characteristics in the order the books print them (the columns of a profile
table), and `$defs.weapon["x-columns"]` does the same for a weapon table. Each `title` is
the heading the books print (an abbreviation such as "WS"), shown as a column heading and a
form label; `x-long` is its full name ("Weapon Skill"), shown where a heading is explained.
"""

from __future__ import annotations

from typing import Any

from points.catalogue.i18n import gettext_noop

#: Envelope fields of a model: not characteristics, never shown as profile columns.
ENVELOPE_FIELDS = ("name", "count", "points", "rules", "weapons", "items", "min_count", "max_count")
#: The weapon fields every unit-format weapon has (`docs/unit-format.md`), in display
#: order: used where a system's schema does not describe its weapons. Stored units lose key
#: order (Postgres jsonb), so columns are always ordered from a schema, never from the data.
UNIT_FORMAT_WEAPON_FIELDS: dict[str, dict[str, Any]] = {
    "range": {"title": "Range", "type": "integer", "minimum": 0},
    "attacks": {"title": "Attacks", "type": "integer", "minimum": 0},
    "ap": {"title": "AP", "type": "integer"},
}


def characteristic(
    title: str,
    description: str,
    *,
    minimum: int = 0,
    maximum: int = 10,
    nullable: bool = True,
    long: str = "",
) -> dict[str, Any]:
    """An integer characteristic; `null` is the books' "-" (the model lacks it)."""
    return {
        "title": title,
        **({"x-long": long} if long else {}),
        "description": description,
        "type": ["integer", "null"] if nullable else "integer",
        "minimum": minimum,
        "maximum": maximum,
    }


def roll_target(
    title: str, description: str, *, minimum: int = 2, maximum: int = 6, long: str = ""
) -> dict[str, Any]:
    """A "N+" value stored as N (`3` is "3+"); `null` means none ("-")."""
    return {
        "title": title,
        **({"x-long": long} if long else {}),
        "description": description,
        "type": ["integer", "null"],
        "minimum": minimum,
        "maximum": maximum,
        "format": "roll-target",
    }


def dice_value(title: str, description: str, *, long: str = "") -> dict[str, Any]:
    """A number or a dice expression ("D3", "2D6", "D6+1")."""
    return {
        "title": title,
        **({"x-long": long} if long else {}),
        "description": description,
        "oneOf": [
            {"type": "integer", "minimum": 0, "maximum": 100},
            {"type": "string", "pattern": r"^[0-9]*[Dd](3|6)([+][0-9]+)?$"},
        ],
    }


def envelope(
    *,
    profile: dict[str, Any],
    weapon: dict[str, Any],
    weapon_columns: list[str],
    extra: dict[str, Any] | None = None,
    unit_fields: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A model schema: the shared envelope fields, then `profile` (in column order).

    `unit_fields` are properties of the UNIT, not of a model (a 40k datasheet's Power Rating,
    a Warhammer Fantasy army slot and unit size): kept under `x-unit-fields`, checked by the
    unit schema (`rules.systems.unit_schema`) and given inputs by the designer.
    """
    weapon_schema = {
        "type": "object",
        "required": ["name"],
        "properties": {
            "name": {"title": "Weapon", "type": "string", "minLength": 1, "maxLength": 120},
            **weapon,
            "rules": {"title": "Rules", "type": "array", "items": {"type": "string", "minLength": 1}},
        },
        "additionalProperties": False,
        "x-columns": weapon_columns,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "required": ["name", "count", *[k for k, v in profile.items() if "null" not in _types(v)]],
        "properties": {
            "name": {"title": "Model", "type": "string", "minLength": 1, "maxLength": 120},
            "count": {"title": "Models", "type": "integer", "minimum": 1, "maximum": 1000},
            "points": {
                "title": "Pts",
                "description": "Points per model, from the army book",
                "type": "number",
                "minimum": 0,
                "maximum": 10000,
            },
            **profile,
            **(extra or {}),
            "rules": {"title": "Rules", "type": "array", "items": {"type": "string", "minLength": 1}},
            "weapons": {"title": "Weapons", "type": "array", "items": {"$ref": "#/$defs/weapon"}},
            "items": {
                "title": "Equipment and magic items",
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name"],
                    "properties": {
                        "name": {"type": "string"},
                        "kind": {"type": "string"},
                        "unique": {"type": "boolean"},
                        "bound_spell": {"type": "boolean"},
                        # Points per model carrying it, added to the unit's price unless an
                        # upgrade of the unit prices it (`points.catalogue.pricing`).
                        "points": {"type": "number", "minimum": 0, "maximum": 10000},
                        "requires_rule": {
                            "type": "string",
                            "description": "Only a model with this rule may carry it (e.g. Battle Standard)",
                        },
                    },
                },
            },
        },
        "additionalProperties": False,
        "x-profile": list(profile),
        **({"x-unit-fields": dict(unit_fields)} if unit_fields else {}),
        "$defs": {"weapon": weapon_schema},
    }


def _types(schema: dict[str, Any]) -> list[str]:
    kind = schema.get("type", [])
    return kind if isinstance(kind, list) else [kind]

#: The envelope's labels and those of characteristics several systems share, marked for
#: translation: schemas are data, so `makemessages` finds their strings only here.
LABELS = (
    gettext_noop("Only a model with this rule may carry it (e.g. Battle Standard)"),
    gettext_noop("Model"),
    gettext_noop("Models"),
    gettext_noop("Pts"),
    gettext_noop("Points per model, from the army book"),
    gettext_noop("Rules"),
    gettext_noop("Weapons"),
    gettext_noop("Equipment and magic items"),
    gettext_noop("Weapon"),
    gettext_noop("Strength"),
    gettext_noop("Toughness"),
    gettext_noop("Leadership"),
    gettext_noop("Wounds"),
    gettext_noop("Attacks"),
    gettext_noop("Type"),
    gettext_noop("Range"),
    gettext_noop("Damage"),
    gettext_noop("melee"),
    gettext_noop("missile"),
)
