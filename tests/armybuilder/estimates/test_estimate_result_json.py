"""A stored result reads back as the very numbers the job computed (`estimates.result_json`:
results are written with orjson, not the standard library, issue 10)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from armybuilder.estimates.compute import unit_vs_unit
from armybuilder.estimates.inputs import unit_vs_unit_inputs
from armybuilder.estimates.models import Estimate
from armybuilder.estimates.result_json import ResultEncoder, result_text
from tests.factories.estimate_rows import stored_estimate
from tests.rules.systems.wh40k9.wh40k9_comparison import TARGETS, WEAPONS, engine_units

#: Floats whose shortest forms are awkward: subnormal, tiny, huge, many digits, −0.
AWKWARD = [
    5e-324,
    8.225263339969966e-20,
    1e-5,
    1.7976931348623157e308,
    0.1 + 0.2,
    2.2222222222222205,
    -0.0,
    1.0,
    0.0,
    1 / 3,
]


def _bits(value: Any) -> Any:
    """`value` with every float replaced by its exact bits (so -0.0 ≠ 0.0 and 1 ≠ 1.0)."""
    if isinstance(value, float):
        return ("float", value.hex())
    if isinstance(value, dict):
        return {key: _bits(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_bits(item) for item in value]
    return value


def test_the_text_reads_back_as_the_same_doubles_as_the_standard_library_writes():
    value = {"floats": AWKWARD, "name": "shuriken ×10 (AP −3)", "none": None, "flag": True, "count": 7}
    assert _bits(json.loads(result_text(value))) == _bits(json.loads(json.dumps(value))) == _bits(value)


def test_what_orjson_refuses_is_written_by_the_standard_library():
    big = 2**70  # past 64 bits
    assert json.loads(result_text({"n": big})) == {"n": big}
    with pytest.raises(TypeError):
        result_text({"n": object()})  # neither writes it


def test_numpy_scalars_and_integer_keys_are_written_as_the_standard_library_writes_them():
    value = {1: np.float64(0.25), "k": [np.float64(1e-20)]}
    assert json.loads(result_text(value)) == json.loads(json.dumps(value)) == {"1": 0.25, "k": [1e-20]}


def test_the_result_field_writes_through_the_encoder():
    assert Estimate._meta.get_field("result").encoder is ResultEncoder
    assert json.dumps({"a": [0.5]}, cls=ResultEncoder) == result_text({"a": [0.5]})


@pytest.mark.django_db
def test_a_40k_result_stored_and_read_back_is_bit_for_bit_the_computed_one():
    attacker, defender = engine_units(WEAPONS[5], TARGETS[4])  # shuriken: 6s, FNP, long tails
    key, inputs = unit_vs_unit_inputs(attacker=attacker, defender=defender, situation={"range_inches": 12})
    result = unit_vs_unit(key, inputs)
    estimate = stored_estimate(
        kind=Estimate.Kind.UNIT_VS_UNIT,
        system=key,
        inputs=inputs,
        inputs_hash="0" * 64,
        status=Estimate.Status.DONE,
        result=result,
    )
    estimate.refresh_from_db()
    assert _bits(estimate.result) == _bits(result)
