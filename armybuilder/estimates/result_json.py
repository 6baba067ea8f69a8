"""How a job's result becomes JSON text when it is stored (`Estimate.result`).

A 40k unit-vs-unit result holds 250–650 floats (the wounds, kills and morale distributions),
and the standard library writes them at about 0.25 µs each: a quarter of a whole small
request and its job (`bench/bench_estimates_40k.py`). orjson writes the same values (each float in
its shortest round-trip form, so the numbers read back are the same doubles) about ten
times faster. Postgres stores the parsed `jsonb`, so spacing and escapes do not matter.
One difference: a NaN or an infinity (no engine returns one: its figures are probabilities
and expectations) is written as null, where the standard writer's `NaN` is refused by Postgres.

`ResultEncoder` is the field's encoder: Django hands it to the database adapter, which
writes the result through it (`json.dumps(value, cls=ResultEncoder)`).
"""

from __future__ import annotations

import json
from typing import Any

import orjson

#: numpy scalars and arrays as the standard encoder sees them (a float64 is a float there);
#: non-string keys written as strings, as the standard encoder does.
_OPTIONS = orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_NON_STR_KEYS


def result_text(value: Any) -> str:
    """`value` as JSON text, fast; what orjson refuses (integers past 64 bits, a float
    subclass) falls back to the standard encoder, which either writes it or raises."""
    try:
        return orjson.dumps(value, option=_OPTIONS).decode()
    except orjson.JSONEncodeError:
        return json.JSONEncoder().encode(value)


class ResultEncoder(json.JSONEncoder):
    """The encoder of `Estimate.result`: `result_text` behind the standard encoder's API."""

    def encode(self, o: Any) -> str:
        return result_text(o)
