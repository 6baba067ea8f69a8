"""Characteristic values as a system's schema takes them, and names as slugs.

Nothing here knows a game system: characteristics are matched to the fields of the target system's
profile schema by name (a field's key, its `title` such as "WS" or "Sv", or the first words of its
`description` such as "Weapon Skill"), and each value is converted to whatever that field's JSON
Schema accepts ("3+" -> 3, "6\"" -> 6, "-" -> null, "D3").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator

from rules.battlescribe.mapping import norm

DASHES = ("", "-", "—", "–", "*", "n/a", "none")


def slug(text: str, limit: int = 80) -> str:
    """An ASCII slug (`[a-z0-9-]`), never empty."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    out = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:limit].strip("-")
    return out or "x"


def field_names(properties: Mapping[str, Any]) -> dict[str, str]:
    """{normalised characteristic name: schema field} from each field's key, title, description."""
    names: dict[str, str] = {}
    first_words: dict[str, set[str]] = {}
    for key, schema in properties.items():
        description = re.split(r"[(;,:]", str(schema.get("description", "")))[0]
        for name in (description, key, schema.get("title", "")):
            if name and norm(name):
                names[norm(name)] = key
        if description.split():  # "Movement in inches": community data writes "Movement"
            first_words.setdefault(norm(description.split()[0]), set()).add(key)
    for word, keys in first_words.items():
        if word and word not in names and len(keys) == 1:
            names[word] = next(iter(keys))
    return names


@lru_cache(maxsize=256)
def _validator(schema_json: str) -> Draft202012Validator:
    import json

    return Draft202012Validator(json.loads(schema_json))


_SCHEMA_JSON: dict[int, tuple[Mapping[str, Any], str]] = {}


def _schema_json(schema: Mapping[str, Any]) -> str:
    import json

    known = _SCHEMA_JSON.get(id(schema))
    if known is None or known[0] is not schema:
        known = (schema, json.dumps(schema, sort_keys=True))
        _SCHEMA_JSON[id(schema)] = known
    return known[1]


def convert(text: str, schema: Mapping[str, Any]) -> tuple[bool, Any]:
    """(accepted, value): `text` as the first of int / the text / null that `schema` accepts.

    "3+", "6\"" and "12''" read as their number; a leading "+" ("+1" to Strength) stays
    text. A dash is null where the field takes null, and no value (`ABSENT`) otherwise.
    """
    return _convert(text.strip(), _schema_json(schema))


@lru_cache(maxsize=8192)
def _convert(raw: str, schema_json: str) -> tuple[bool, Any]:
    validator = _validator(schema_json)
    candidates: list[Any] = []
    digits = re.fullmatch(r"(-?\d+)\s*(\+|(?:\"|''|”)+|in|cm)?", raw)
    if digits:
        candidates.append(int(digits.group(1)))
    between = re.fullmatch(r"(\d+)\s*(?:\"|''|”)?\s*-\s*(\d+)\s*(?:\"|''|”)?", raw)
    if between:  # a 40k aircraft's Move, "20-50\"" (or "20\"-50\"")
        candidates.append(f"{between.group(1)}-{between.group(2)}")
    if raw.lower() in DASHES:
        return True, (None if validator.is_valid(None) else ABSENT)
    candidates.append(raw)
    if raw.lower() != raw:  # "Missile" where the field's enum says "missile"
        candidates.append(raw.lower())
    for value in candidates:
        if validator.is_valid(value):
            return True, value
    return False, raw


#: A dash in a field that has no "none" value: the field is left out.
ABSENT = object()
