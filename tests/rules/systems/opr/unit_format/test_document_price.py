"""A unit document priced in one pass (`document_price`, issue 42) gives exactly what reading the
document and pricing the unit gives: the same points and exact total for every document it
takes, the independent `Fraction` reference's total, and every document it does not take goes to
`price(parse_unit(...))`, errors and all."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings

from points.opr import clear_caches, price, tables
from rules.systems.opr import unit_points_of_dict
from rules.systems.opr.unit_format import document_price as module
from rules.systems.opr.unit_format import parse_unit, reader, unit_to_dict
from rules.systems.opr.unit_format.document_price import fast_price, price_document
from tests.points.opr import opr_reference
from tests.points.opr.strategies import units
from tests.rules.systems.opr.unit_format.documents import (
    ODD_DOCUMENTS,
    by_document,
    by_reading,
    plain_document,
    valid_document,
)

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _plain_valid() -> dict:
    """The shared valid document (`documents.valid_document`) with its second model not Massive
    (a Massive model's parts are left to the reader), so that the one pass takes it; auras and
    orders kept."""
    doc = valid_document()
    doc["models"][1]["rules"] = ["Order(Fast)", "Hero"]
    del doc["models"][1]["parts"]
    return doc


@SETTINGS
@given(units())
def test_one_pass_equals_reading_and_pricing_on_random_units(unit):
    doc = plain_document(unit)
    found = fast_price(copy.deepcopy(doc))
    assert found is not None  # a valid document of plain JSON takes the one pass
    expected = price(parse_unit(doc))
    assert found == (expected.points, expected.exact)
    assert found[1] == opr_reference.unit_cost(doc)
    assert unit_points_of_dict(doc) == found[0]


def _bench():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[5] / "bench" / "bench_points.py"
    spec = importlib.util.spec_from_file_location("bench_points_for_test", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


@pytest.mark.parametrize("rich", [False, True])
def test_one_pass_equals_the_reference_on_the_benchs_random_and_rule_rich_units(rich):
    """The cold figure's units (every rule of the vocabulary, values included, auras), many of them:
    each taken by the one pass and priced as the reader and engine and the reference price it."""
    bench = _bench()
    rng = random.Random(42 + rich)
    for tag in range(300):
        doc = json.loads(json.dumps(unit_to_dict(bench.random_unit(rng, tag, rich=rich))))
        found = fast_price(doc)
        assert found is not None
        expected = price(parse_unit(doc))
        assert found == (expected.points, expected.exact)
        assert found[1] == opr_reference.unit_cost(doc)


def test_the_plain_valid_document_takes_the_one_pass():
    doc = _plain_valid()
    expected = price(parse_unit(doc))
    assert fast_price(doc) == (expected.points, expected.exact)
    assert fast_price(valid_document()) is None  # a Massive model: the reader reads its parts
    assert price_document(valid_document()) == by_reading(valid_document())[1]


@pytest.mark.parametrize("base", [valid_document, _plain_valid])
@pytest.mark.parametrize("name", sorted(ODD_DOCUMENTS))
def test_every_odd_document_is_priced_or_refused_as_reading_it_does(name, base):
    doc = ODD_DOCUMENTS[name](base())
    expected = by_reading(doc)
    found = fast_price(copy.deepcopy(doc))
    if found is not None:
        assert expected == ("value", found)
    assert by_document(doc) == expected


WRITTEN_OTHERWISE = {
    "upper case": ["LOCK-ON", "RENDING"],
    "spaces in a value": ["Blast( 3 )"],
    "alias with a value": ["Blast(3)", "Deadly(2)"],
    "value at its bound": ["Blast(100)"],
    "value out of range": ["Blast(101)"],
    "value zero": ["Deadly(0)"],
    "not a rule": ["Laser"],
    "a model rule on a weapon": ["Fearless"],
    "an empty text": [""],
    "a number": [3],
    "a list": [["Rending"]],
    "Assault and Reliable": ["Assault", "Reliable"],
    "Lock-On and No Cover": ["Lock-On", "No Cover"],
    "Indirect": ["Indirect"],
}


@pytest.mark.parametrize("name", sorted(WRITTEN_OTHERWISE))
def test_weapon_rules_written_otherwise_are_read_by_the_reader(name):
    doc = _plain_valid()
    doc["models"][0]["weapons"][0]["rules"] = WRITTEN_OTHERWISE[name]
    expected = by_reading(doc)
    found = fast_price(copy.deepcopy(doc))
    if found is not None:
        assert expected == ("value", found)
    assert by_document(doc) == expected


@pytest.mark.parametrize("rules", [["Good Shot", "Relentless"], ["Bad Shot", "Furious"], ["Cautious"],
                                   ["Fear(2)", "Caster(3)", "Transport(5)", "Hero"], ["Order(Fast)"],
                                   ["FEARLESS"], ["Vengeance", "Relentless"], ["Tough(1)"], ["Massive"]])
def test_model_rules_that_change_weapons_and_abilities(rules):
    doc = _plain_valid()
    doc["models"][0]["rules"] = rules
    expected = by_reading(doc)
    found = fast_price(copy.deepcopy(doc))
    if found is not None:
        assert expected == ("value", found)
    assert by_document(doc) == expected


def test_the_tables_follow_a_flipped_decision(monkeypatch):
    """A test that flips a decision rebuilds the integer tables (`clear_caches`); the one pass
    reads the new ones, so its price stays the engine's."""
    doc = _plain_valid()
    doc["models"][0]["weapons"][0]["rules"] = ["Reliable"]
    before = fast_price(copy.deepcopy(doc))
    assert before is not None
    monkeypatch.setattr(tables, "RANGE_MODIFIER_POINTS",
                        tuple((x, y * 2) for x, y in tables.RANGE_MODIFIER_POINTS))
    clear_caches()
    try:
        after = fast_price(copy.deepcopy(doc))
        expected = price(parse_unit(doc))
        assert after == (expected.points, expected.exact) != before
    finally:
        monkeypatch.undo()
        clear_caches()
    assert fast_price(copy.deepcopy(doc)) == before


def test_nothing_is_learned_but_what_the_reader_forgets():
    """The one pass keeps no cache of its own: its tables are the vocabulary, made at import;
    a rule written otherwise is learned by the reader, whose `clear_caches` forgets it."""
    vocabulary = module._vocabulary()
    sizes = (len(vocabulary.model), len(vocabulary.weapon))
    doc = _plain_valid()
    doc["models"][0]["weapons"][0]["rules"] = ["LOCK-ON"]
    reader.clear_caches()
    assert fast_price(doc) is not None
    assert "LOCK-ON" in reader._FAST_RULES["weapon"]
    assert (len(vocabulary.model), len(vocabulary.weapon)) == sizes and "LOCK-ON" not in vocabulary.weapon
    reader.clear_caches()
    assert "LOCK-ON" not in reader._FAST_RULES["weapon"]
    assert module._vocabulary() is vocabulary


_MOVEMENT = ("Aircraft", "Ambush", "Scout", "Flying", "Fast", "Agile")


@pytest.mark.parametrize("mask", range(2 ** len(_MOVEMENT)))
def test_transport_is_priced_by_the_models_movement_rules(mask):
    """Transport(X)'s factor from the import-time table, for every set of movement rules."""
    doc = _plain_valid()
    movement = [name for i, name in enumerate(_MOVEMENT) if mask >> i & 1]
    del doc["models"][1]  # its order, which the reference does not read
    doc["models"][0]["rules"] = ["Transport(7)", *movement]
    doc["models"][0]["toughness"] = 3
    expected = by_reading(doc)
    found = fast_price(copy.deepcopy(doc))
    if found is not None:
        assert expected == ("value", found)
    assert by_document(doc) == expected
    if expected[0] == "value":
        assert expected[1][1] == opr_reference.unit_cost(doc)


@pytest.mark.parametrize("others", [[], ["Furious"], ["Relentless"], ["Good Shot"], ["Bad Shot", "Furious"]])
@pytest.mark.parametrize("weapon_rules", [[], ["Reliable"], ["Assault"], ["Assault", "Reliable"],
                                          ["Lock-On"]])
def test_cautious_models_on_every_range(others, weapon_rules):
    """Cautious's hit term from the import-time table by range (melee lines: its melee term),
    added to the other rules' hit chance: as `hit_ratio` gives it, on every range the format allows."""
    doc = _plain_valid()
    del doc["models"][1]  # its order, which the reference does not read
    model = doc["models"][0]
    model["rules"] = ["Cautious", *others]
    weapons = [{"name": f"W{r}", "range": r, "attacks": 2, "ap": 1,
                "rules": weapon_rules if r or "Assault" not in weapon_rules else []} for r in range(121)]
    # at most 50 weapons a model (the schema's bound)
    doc["models"] = [{**model, "weapons": weapons[start:start + 41]} for start in range(0, 121, 41)]
    found = fast_price(copy.deepcopy(doc))
    assert found is not None
    expected = price(parse_unit(doc))
    assert found == (expected.points, expected.exact)
    assert found[1] == opr_reference.unit_cost(doc)


@pytest.mark.parametrize("grants", ["Stealth", "stealth", "STEALTH", "Fast", "Ukrycie", "Fearless", "Laser",
                                    "Hero"])
@pytest.mark.parametrize("field", ["auras", "orders"])
def test_auras_and_orders_as_written_or_read_by_the_reader(grants, field):
    """What an aura or order grants, written as the tables write it, is priced from the table;
    written otherwise (another case, an alias) or not grantable, the reader reads it, errors and all."""
    doc = _plain_valid()
    doc["models"][1][field] = [{"grants": grants}, {"grants": "Fast", "range": 12}]
    expected = by_reading(doc)
    found = fast_price(copy.deepcopy(doc))
    if found is not None:
        assert expected == ("value", found)
    assert by_document(doc) == expected
