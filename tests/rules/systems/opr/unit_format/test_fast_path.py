"""The fast paths of issue 16 give exactly what the careful ones give.

- `parse_unit`/`parse_army` read a valid document of plain JSON without copying it
  (`fast_parse_unit`, `fast_parse_army`) and hand everything else to the careful reader: for
  every document the fast path accepts, the unit is the careful reader's; every document it
  refuses is read (or rejected, with the same errors) by the careful reader.
- `price()` computes a unit's totals straight from the table lookups and builds the breakdown
  when read: the totals equal the sum of the breakdown's model totals, and equal an independent
  plain-`Fraction` implementation of the formula (`tests/points/opr/opr_reference.py`).
- Rule 4 of the army structure reads two costs per profile without building the breakdown.
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from points.opr import price, validate
from points.opr.army import Army, ArmyEntry
from points.opr.unit_cost import weapon_balance
from rules.systems.opr.unit_format import army_to_dict, parse_army, parse_unit
from rules.systems.opr.unit_format.reader import (
    careful_parse_army,
    careful_parse_unit,
    fast_parse_army,
    fast_parse_unit,
)
from tests.points.opr import opr_reference
from tests.points.opr.strategies import units
from tests.rules.systems.opr.unit_format.documents import (
    ODD_DOCUMENTS,
    outcome,
    plain_document,
    valid_document,
)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(units())
def test_fast_reader_gives_the_careful_readers_unit(unit):
    doc = plain_document(unit)
    fast = fast_parse_unit(copy.deepcopy(doc))
    assert fast is not None  # a valid document of plain JSON takes the fast path
    assert fast == careful_parse_unit(doc) == unit
    assert fast.extra == careful_parse_unit(doc).extra


@SETTINGS
@given(units())
def test_price_equals_an_independent_fraction_implementation(unit):
    doc = plain_document(unit)
    breakdown = price(parse_unit(doc))
    assert breakdown.exact == opr_reference.unit_cost(doc)
    assert breakdown.points == opr_reference.unit_points(doc)
    assert breakdown.exact == sum((m.total for m in breakdown.models), Fraction(0))
    assert breakdown.model_count == sum(m.count for m in unit.models)


@SETTINGS
@given(units())
def test_weapon_balance_reads_what_the_breakdown_shows(unit):
    shown = [(m.name, (m.base_cost.numerator, m.base_cost.denominator),
              (m.weapon_cost_before_halving.numerator, m.weapon_cost_before_halving.denominator))
             for m in price(unit).models]
    assert weapon_balance(unit) == shown


@pytest.mark.parametrize("name", sorted(ODD_DOCUMENTS))
def test_every_document_reads_as_the_careful_reader_reads_it(name):
    doc = ODD_DOCUMENTS[name](valid_document())
    fast = fast_parse_unit(copy.deepcopy(doc))
    careful = outcome(careful_parse_unit, doc)
    if fast is not None:
        assert careful == ("value", fast)
    assert outcome(parse_unit, doc) == careful


def test_the_fast_path_keeps_no_reference_to_the_callers_extra():
    doc = valid_document()
    unit = parse_unit(doc)
    doc["extra"]["note"].append("changed")
    assert unit.extra == {"note": ["kept", 1]}


def test_fast_army_reader_gives_the_careful_readers_army():
    unit = parse_unit(valid_document())
    army = Army("Patrol", 1000, (ArmyEntry(unit, 2), ArmyEntry(unit, 1)), {"hero_limits": False})
    doc = json.loads(json.dumps(army_to_dict(army)))
    fast = fast_parse_army(copy.deepcopy(doc))
    assert fast is not None
    assert fast == careful_parse_army(doc) == parse_army(doc)
    assert fast.options == {"hero_limits": False}
    assert validate(fast) == validate(careful_parse_army(doc))


@pytest.mark.parametrize("change", [
    lambda d: d["units"].append({"catalogue_unit": "a/b"}),
    lambda d: d["options"].update({"bogus": True}),
    lambda d: d["units"][0].update({"count": 0}),
    lambda d: d["units"][0]["unit"]["models"][0].update({"rules": ["Fast", "Slow"]}),
])
def test_odd_armies_read_as_the_careful_reader_reads_them(change):
    unit = parse_unit(valid_document())
    army = Army("Patrol", 1000, (ArmyEntry(unit, 1),), {"hero_limits": True})
    doc = json.loads(json.dumps(army_to_dict(army)))
    change(doc)
    assert fast_parse_army(copy.deepcopy(doc)) is None
    assert outcome(parse_army, doc) == outcome(careful_parse_army, doc)


@given(st.integers(2, 6), st.integers(2, 6), st.integers(0, 60), st.integers(-1, 5))
@settings(max_examples=60, deadline=None)
def test_unit_balance_violations_are_unchanged(quality, defence, weapon_range, ap):
    """Rule 4 from the two costs gives the violations the breakdown gave (compared by hand)."""
    doc = valid_document()
    doc["models"][0].update({"quality": quality, "defence": defence})
    doc["models"][0]["weapons"][0].update({"range": weapon_range, "ap": ap})
    army = Army("Patrol", 1000, (ArmyEntry(parse_unit(doc), 1),), {})
    expected = []
    for m in price(army.units[0].unit).models:
        if m.weapon_cost_before_halving < m.base_cost:
            expected.append((m.name, "weapons_under_base", m.base_cost))
        elif m.weapon_cost_before_halving > 5 * m.base_cost:
            expected.append((m.name, "weapons_over_base", 5 * m.base_cost))
    found = [(v.model, v.check, v.limit) for v in validate(army) if v.rule == "unit_balance"]
    assert found == expected


def test_rules_as_the_tables_write_them_read_as_the_careful_reader_reads_them():
    """The readings made at import (`_FIXED_READINGS`: every name and alias without a value, at
    its level) are `_read_rule`'s own, error-free; and so are plain `Name(X)` readings."""
    from points.catalogue.i18n import language_key
    from points.opr.rule_names import RULES
    from rules.systems.opr.unit_format import reader

    for level, readings in reader._FIXED_READINGS.items():
        for written, reading in readings.items():
            assert reader._read_rule(written, level, language_key()) == (reading, ())
    for spec in RULES:
        if spec.value_range is None:
            continue
        low, high = spec.value_range
        for written_name in (spec.name, *spec.aliases):
            for x in (low, high, (low + high) // 2):
                written = f"{written_name}({x})"
                assert reader._plain_valued_rule(written, spec.level) == \
                    reader._read_rule(written, spec.level, language_key())[0]


@pytest.mark.parametrize("written", ["Blast(0)", "Blast(101)", "Blast( 3)", "Blast(3) ", "Blast(+3)",
                                     "Blast(3", "Blast()", "Blast(٣)", "blast(3)", "Rending(3)", "Fear(2)"])
def test_other_spellings_of_a_valued_rule_are_left_to_the_careful_reading(written):
    """Anything but a name as the tables write it, digits and a bracket (or X out of range, or the
    wrong level) is not read by `_plain_valued_rule`: `_read_rule` reads it, errors and all."""
    from rules.systems.opr.unit_format import reader

    assert reader._plain_valued_rule(written, "weapon") is None


def test_forgetting_what_was_read_leaves_the_state_of_a_new_process():
    """`clear_caches` empties what units taught the reader and keeps the vocabulary made at
    import: the state a benchmark's cold call starts from is a new process's."""
    from rules.systems.opr.unit_format import reader

    parse_unit(valid_document())
    reader.clear_caches()
    assert reader._FAST_RULES == reader._FIXED_READINGS
    assert not reader._FAST_WEAPON_RULE_LISTS and not reader._WEAPONS


def test_a_full_rule_cache_forgets_what_it_learned_and_keeps_the_vocabulary(monkeypatch):
    """Past its bound the cache of rule readings starts again from the readings made at import, so
    a process that has read many odd spellings still reads `Rending` without normalising it."""
    from rules.systems.opr.unit_format import reader

    reader.clear_caches()
    monkeypatch.setattr(reader, "MAX_CACHED_WEAPONS", len(reader._FIXED_READINGS["weapon"]) + 2)
    for x in range(1, 6):
        reader._learn_rule(f"Blast({x})", "weapon")
    assert reader._FIXED_READINGS["weapon"].items() <= reader._FAST_RULES["weapon"].items()
    reader.clear_caches()
