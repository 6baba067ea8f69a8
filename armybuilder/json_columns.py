"""JSON columns written cheaply: one orjson serialization per document, one placeholder per row.

A list import writes every unit in one `bulk_create`. Django inserts many rows on Postgres as
`UNNEST(%s::jsonb[])`: each column's documents become one text array, which psycopg quotes in
Python, a regular-expression substitution per double quote of every document. A 1.1 MB import
spent more time there than pricing its 200 units. A field with a placeholder of its own is
inserted row by row (`VALUES (...), (...)`, Django leaves such fields out of UNNEST), each
document serialized once by orjson and quoted by libpq.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import models
from psycopg.types.json import Jsonb


def json_bytes(value: Any) -> bytes:
    """The document as JSON (what `json.dumps` writes, but in one pass of orjson); a value
    orjson refuses (an integer past 64 bits) is written by the standard library instead."""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:
        return json.dumps(value).encode()


class DocumentJSONField(models.JSONField):
    """A `JSONField` serialized by orjson and never inserted through UNNEST (see the module)."""

    def get_placeholder(self, value: Any, compiler: Any, connection: Any) -> str:
        return "%s"

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if self.encoder is not None or connection.vendor != "postgresql":
            return super().get_db_prep_value(value, connection, prepared)
        if not prepared:
            value = self.get_prep_value(value)
        return Jsonb(value, dumps=json_bytes)
