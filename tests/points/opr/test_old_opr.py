"""Old OPR import tolerance, docs/rules/opr-points.md §8 (seed "Stare OPR"): official names for the same
abilities."""

from pathlib import Path

import pytest

from points.opr.old_opr import OLD_OPR_NAMES
from points.opr.rule_names import canonical_name
from points.opr.unit import Rule
from rules.systems.opr.unit_format import UnitFormatError, parse_unit

DOC = Path(__file__).resolve().parents[3] / "points" / "opr" / "OLD_OPR.md"


def official_unit(model_rules, weapon_rules=(), **model_fields):
    model = {
        "name": "Boy",
        "count": 5,
        "quality": 5,
        "defence": 5,
        "rules": list(model_rules),
        "weapons": [{"name": "Choppa", "range": 0, "attacks": 2, "rules": list(weapon_rules)}],
    }
    model.update(model_fields)
    return {"name": "Boyz", "models": [model]}


@pytest.mark.parametrize(("official", "ours"), sorted(OLD_OPR_NAMES.items()))
def test_official_name_maps_to_our_rule(official, ours):
    """§8: the importer accepts official OPR names for the same abilities (OLD_OPR_NAMES)."""
    assert canonical_name(official) == ours


def test_mapping_table_is_documented():
    """The mapping is documented in points/opr/OLD_OPR.md, one row per entry."""
    text = DOC.read_text(encoding="utf-8")
    for official, ours in OLD_OPR_NAMES.items():
        assert f"| {official}" in text and ours in text


def test_official_unit_imports():
    """An official-style unit: Strider, Psychic(1), Tough(3), AP(1) import as Agile, Caster(1), T3, ap 1."""
    u = parse_unit(official_unit(["Strider", "Psychic(1)", "Tough(3)"], ["AP(1)", "Rending"]))
    m = u.models[0]
    assert m.rules == (Rule("Agile"), Rule("Caster", 1))
    assert m.toughness == 3
    assert (m.weapons[0].ap, m.weapons[0].rules) == (1, (Rule("Rending"),))


def test_tough_may_repeat_the_toughness_field():
    """Tough(X) agreeing with `toughness` is fine; disagreeing is an error
    (tested in tests/rules/systems/opr/unit_format/test_reader.py)."""
    assert parse_unit(official_unit(["Tough(3)"], toughness=3)).models[0].toughness == 3


def test_official_rule_without_an_equivalent_is_an_error():
    """§8 only maps the *same* abilities: Poison has no row in the seed's tables and is not guessed."""
    with pytest.raises(UnitFormatError) as caught:
        parse_unit(official_unit([], ["Poison"]))
    assert str(caught.value) == "models[0].weapons[0].rules[0]: unknown rule 'Poison'"
