"""Reading and writing the unit format (docs/unit-format.md): all errors at once, with field paths."""

import copy
import math

import pytest
from hypothesis import assume, given, settings

from points.opr import price
from points.opr.unit import Aura, Part, Rule
from rules.systems.opr.unit_format import (
    FieldError,
    UnitFormatError,
    army_to_dict,
    parse_army,
    parse_unit,
    unit_to_dict,
)
from tests.factories.opr_units import INFANTRY_JSON, VETERAN_SQUAD_JSON
from tests.points.opr.strategies import units


def errors_of(document, reader=parse_unit):
    with pytest.raises(UnitFormatError) as caught:
        reader(document)
    return {e.path: e.message for e in caught.value.errors}


def with_change(path_setter, base=INFANTRY_JSON):
    document = copy.deepcopy(base)
    path_setter(document)
    return document


# --- valid documents -----------------------------------------------------------------------


def test_spec_example_unit_parses():
    """docs/unit-format.md's Veteran Squad parses: two profiles, Fear(1), a Rending blade, an aura."""
    u = parse_unit(VETERAN_SQUAD_JSON)
    veteran, sergeant = u.models
    assert veteran.rules == (Rule("Fearless"), Rule("Fear", 1))
    assert veteran.weapons[1].rules == (Rule("Rending"),)
    assert sergeant.auras == (Aura("Fast", "friends", "grant", 6),)
    assert price(u).model_count == 5


def test_polish_aliases_any_case_with_or_without_diacritics():
    """docs/unit-format.md: rule names accept the English names and the Polish aliases of
    docs/rules/opr-points.md."""
    doc = with_change(
        lambda d: d["models"][0].update(rules=["NIEUSTRASZONY", "zwiadowca", "Strach(2)", "Niewrazliwy"])
    )
    doc["models"][0]["weapons"][0]["rules"] = ["Rozrywający", "rozprysk(3)", "Zracy", "bez oslon"]
    u = parse_unit(doc)
    assert u.models[0].rules == (Rule("Fearless"), Rule("Scout"), Rule("Fear", 2), Rule("Resistant"))
    assert u.models[0].weapons[0].rules == (
        Rule("Rending"),
        Rule("Blast", 3),
        Rule("Corrosive"),
        Rule("No Cover"),
    )


@pytest.mark.parametrize("written", ["Lock-On", "lock on", "LOCKON", "Lock_On", "Namierzanie"])
def test_spelling_of_rule_names_is_tolerated(written):
    """Case, spaces, hyphens and underscores do not matter."""
    doc = with_change(lambda d: d["models"][0]["weapons"][0].update(rules=[written]))
    assert parse_unit(doc).models[0].weapons[0].rules == (Rule("Lock-On"),)


def test_defaults_for_optional_fields():
    """toughness defaults to 1, ap to 0, rules/weapons to empty, format and system to 1 and "opr"."""
    u = parse_unit(
        {
            "name": "Mob",
            "models": [
                {
                    "name": "Grunt",
                    "count": 3,
                    "quality": 5,
                    "defence": 6,
                    "weapons": [{"name": "Club", "range": 0, "attacks": 1}],
                }
            ],
        }
    )
    m = u.models[0]
    assert (m.toughness, m.weapons[0].ap, m.rules, u.system, u.format) == (1, 0, (), "opr", 1)


def test_orders_and_order_rule():
    """§6 Order(X): as an `orders` entry, or written as a rule `Order(Fast)` / `Rozkaz(Szybki)`."""
    doc = with_change(
        lambda d: d["models"][0].update(
            rules=["Rozkaz(Szybki)"], orders=[{"grants": "Stealth", "to": "enemies", "effect": "negate"}]
        )
    )
    orders = parse_unit(doc).models[0].orders
    assert orders == (Aura("Fast", "friends", "grant", 12), Aura("Stealth", "enemies", "negate", 12))


def test_massive_with_parts():
    """§4 Massive: the rule plus the parts whose toughness is summed."""
    doc = with_change(
        lambda d: d["models"][0].update(
            rules=["Masywny"], parts=[{"name": "Hull", "toughness": 6}, {"name": "Turret", "toughness": 3}]
        )
    )
    assert parse_unit(doc).models[0].parts == (Part("Hull", 6), Part("Turret", 3))


def test_integral_floats_are_whole_numbers():
    """JSON writers may emit 4.0 for 4; it is accepted as 4."""
    doc = with_change(lambda d: d["models"][0].update(quality=4.0, count=10.0))
    assert parse_unit(doc).models[0].quality == 4


def test_round_trip_of_the_spec_example():
    """unit_to_dict is the inverse: parse(to_dict(u)) == u, with canonical English names."""
    u = parse_unit(VETERAN_SQUAD_JSON)
    assert parse_unit(unit_to_dict(u)) == u
    polish = with_change(lambda d: d["models"][0].update(rules=["Nieustraszony"]))
    assert unit_to_dict(parse_unit(polish))["models"][0]["rules"] == ["Fearless"]


@settings(max_examples=100, deadline=None)
@given(units())
def test_round_trip_of_any_valid_unit(u):
    """parse_unit(unit_to_dict(u)) == u for every unit the reader accepts."""
    for m in u.models:
        names = {r.name for r in m.rules}
        assume(not {"Fast", "Slow"} <= names)
    assert parse_unit(unit_to_dict(u)) == u


def test_army_round_trip_and_options():
    """docs/unit-format.md army list: points_limit, options, units with counts; army_to_dict is the
    inverse."""
    doc = {
        "format": 1,
        "system": "opr",
        "name": "Patrol",
        "points_limit": 1000,
        "options": {"army_structure": True, "unit_balance": False},
        "units": [{"unit": INFANTRY_JSON, "count": 2}, {"unit": VETERAN_SQUAD_JSON}],
    }
    a = parse_army(doc)
    assert (a.name, a.points_limit, a.unit_count) == ("Patrol", 1000, 3)
    assert a.options == {"army_structure": True, "unit_balance": False}
    assert parse_army(army_to_dict(a)) == a


def test_catalogue_reference_needs_a_resolver():
    """docs/unit-format.md: a list entry may reference the catalogue; the pure core needs a resolver for
    it."""
    doc = {
        "name": "L",
        "points_limit": 500,
        "units": [{"catalogue_unit": "orcs/boyz", "options": ["Banner"]}],
    }
    assert errors_of(doc, parse_army) == {
        "units[0].catalogue_unit": "catalogue references cannot be resolved here; export the list with units "
        "written in full"
    }
    resolved = parse_army(doc, lambda ref, options: INFANTRY_JSON)
    assert resolved.units[0].unit.name == "Infantry"


def test_catalogue_resolver_errors_become_field_errors():
    """An unknown catalogue unit, or a resolved unit with errors, is reported under the entry's path."""
    doc = {
        "name": "L",
        "points_limit": 500,
        "units": [{"catalogue_unit": "orcs/nobody"}, {"catalogue_unit": "orcs/broken"}],
    }

    def resolve(ref, options):
        if ref == "orcs/nobody":
            raise KeyError(ref)
        return {"name": "Broken", "models": [{"name": "X", "count": 1, "quality": 9, "defence": 4}]}

    errors = errors_of(doc, lambda d: parse_army(d, resolve))
    assert errors["units[0].catalogue_unit"].startswith("unknown catalogue unit 'orcs/nobody'")
    assert errors["units[1].catalogue_unit.models[0].quality"] == "must be between 2 and 6"


# --- bad input: every kind of invalid field, with its path ---------------------------------------


@pytest.mark.parametrize(
    ("change", "path", "message"),
    [
        (
            lambda d: d["models"][0]["weapons"][0].update(ap=6),
            "models[0].weapons[0].ap",
            "must be between -1 and 5",
        ),
        (lambda d: d["models"][0].update(quality=7), "models[0].quality", "must be between 2 and 6"),
        (lambda d: d["models"][0].update(quality=1), "models[0].quality", "must be between 2 and 6"),
        (lambda d: d["models"][0].update(defence=0), "models[0].defence", "must be between 2 and 6"),
        (lambda d: d["models"][0].update(toughness=0), "models[0].toughness", "must be between 1 and 100"),
        (lambda d: d["models"][0].update(count=-1), "models[0].count", "must be between 1 and 1000"),
        (lambda d: d["models"][0].update(count=0), "models[0].count", "must be between 1 and 1000"),
        (
            lambda d: d["models"][0]["weapons"][0].update(attacks=-2),
            "models[0].weapons[0].attacks",
            "must be between 0 and 100",
        ),
        (
            lambda d: d["models"][0]["weapons"][0].update(range=-6),
            "models[0].weapons[0].range",
            "must be between 0 and 120",
        ),
        (lambda d: d["models"][0].update(quality="4+"), "models[0].quality", "must be a whole number"),
        (lambda d: d["models"][0].update(quality=True), "models[0].quality", "must be a whole number"),
        (lambda d: d["models"][0].update(quality=4.5), "models[0].quality", "must be a whole number"),
        (lambda d: d["models"][0].update(quality=math.nan), "models[0].quality", "must be a whole number"),
        (lambda d: d["models"][0].update(count=10**400), "models[0].count", "must be between 1 and 1000"),
        (lambda d: d["models"][0].update(count=1e300), "models[0].count", "must be between 1 and 1000"),
        (lambda d: d.update(models=[]), "models", "must not be empty"),
        (lambda d: d.update(models={}), "models", "must be a list"),
        (lambda d: d.update(name=""), "name", "must not be empty"),
        (lambda d: d.update(name="x" * 201), "name", "must be at most 200 characters"),
        (lambda d: d.pop("name"), "name", "is required"),
        (lambda d: d["models"][0].pop("quality"), "models[0].quality", "is required"),
        (lambda d: d["models"][0]["weapons"][0].pop("range"), "models[0].weapons[0].range", "is required"),
        (lambda d: d.update(format=2), "format", "must be 1"),
        (lambda d: d.update(system="whfb6"), "system", 'must be "opr"'),
        (lambda d: d["models"][0].update(rules="Fearless"), "models[0].rules", "must be a list"),
        (lambda d: d["models"][0].update(rules=[1]), "models[0].rules[0]", "must be a string"),
        (
            lambda d: d["models"][0].update(rules=["Fear(1"]),
            "models[0].rules[0]",
            "must look like Name or Name(X)",
        ),
        (
            lambda d: d["models"][0].update(rules=["Stealht"]),
            "models[0].rules[0]",
            "unknown rule 'Stealht' (did you mean Stealth?)",
        ),
        (lambda d: d["models"][0].update(rules=["Impact(3)"]), "models[0].rules[0]", "unknown rule 'Impact'"),
        (
            lambda d: d["models"][0].update(rules=["Fear"]),
            "models[0].rules[0]",
            "Fear needs a value: Fear(X)",
        ),
        (
            lambda d: d["models"][0].update(rules=["Fear(x)"]),
            "models[0].rules[0]",
            "Fear(X): X must be a whole number, not 'x'",
        ),
        (
            lambda d: d["models"][0].update(rules=["Caster(7)"]),
            "models[0].rules[0]",
            "Caster(X): X must be between 1 and 6",
        ),
        (
            lambda d: d["models"][0].update(rules=["Fear(99999999999999)"]),
            "models[0].rules[0]",
            "Fear(X): X must be a whole number, not '99999999999999'",
        ),
        (
            lambda d: d["models"][0].update(rules=["Fearless(2)"]),
            "models[0].rules[0]",
            "Fearless takes no value",
        ),
        (
            lambda d: d["models"][0].update(rules=["Rending"]),
            "models[0].rules[0]",
            "Rending is a weapon rule; list it in a weapon's rules",
        ),
        (
            lambda d: d["models"][0]["weapons"][0].update(rules=["Furious"]),
            "models[0].weapons[0].rules[0]",
            "Furious is a model rule; list it in the model's rules",
        ),
        (
            lambda d: d["models"][0]["weapons"][0].update(rules=["Blast(0)"]),
            "models[0].weapons[0].rules[0]",
            "Blast(X): X must be between 1 and 100",
        ),
        (
            lambda d: d["models"][0].update(rules=["Fearless", "Nieustraszony"]),
            "models[0].rules[1]",
            "Fearless is listed twice (first at models[0].rules[0])",
        ),
        (
            lambda d: d["models"][0].update(rules=["Fast", "Slow"]),
            "models[0].rules[1]",
            "Slow contradicts Fast",
        ),
        (
            lambda d: d["models"][0]["weapons"][1].update(rules=["Assault"]),
            "models[0].weapons[1].rules",
            "Assault is for ranged weapons (range above 0); a melee weapon is already priced as melee",
        ),
        (
            lambda d: d["models"][0]["weapons"][0].update(rules=["AP(2)"], ap=1),
            "models[0].weapons[0].rules[0]",
            "AP(2) contradicts ap 1",
        ),
        (
            lambda d: d["models"][0].update(rules=["Tough(3)"], toughness=2),
            "models[0].rules[0]",
            "Tough(3) contradicts toughness 2",
        ),
        (
            lambda d: d["models"][0].update(auras=[{"grants": "Ambush"}]),
            "models[0].auras[0].grants",
            "Ambush cannot be granted by an aura",
        ),
        (
            lambda d: d["models"][0].update(auras=[{"grants": "Fast", "range": 9}]),
            "models[0].auras[0].range",
            "must be one of: 6, 12",
        ),
        (
            lambda d: d["models"][0].update(auras=[{"grants": "Fast", "to": "allies"}]),
            "models[0].auras[0].to",
            'must be one of: "friends", "enemies"',
        ),
        (
            lambda d: d["models"][0].update(orders=[{"grants": "Fast", "range": 6}]),
            "models[0].orders[0].range",
            "must be 12",
        ),
        (
            lambda d: d["models"][0].update(orders=[{"grants": "Scout"}]),
            "models[0].orders[0].grants",
            "Scout cannot be granted by an order",
        ),
        (
            lambda d: d["models"][0].update(rules=["Order"]),
            "models[0].rules[0]",
            "Order needs the ability it gives: Order(Fast)",
        ),
        (
            lambda d: d["models"][0].update(rules=["Massive"]),
            "models[0].parts",
            "a Massive model needs its parts (each with a toughness)",
        ),
        (
            lambda d: d["models"][0].update(
                parts=[{"name": "A", "toughness": 3}, {"name": "B", "toughness": 3}]
            ),
            "models[0].parts",
            "only a Massive model has parts; add the Massive rule",
        ),
        (
            lambda d: d["models"][0].update(rules=["Massive"], parts=[{"name": "A", "toughness": 3}]),
            "models[0].parts",
            "must have at least 2 items",
        ),
        (lambda d: d["models"][0].update(qualty=4), "models[0].qualty", "unknown field; expected one of"),
        (lambda d: d.update(colour="red"), "colour", "unknown field; expected one of"),
        (lambda d: d["models"].append("a model"), "models[1]", "must be an object"),
    ],
)
def test_invalid_field_is_reported_with_its_path(change, path, message):
    """docs/unit-format.md: out-of-range numbers, wrong types, unknown names… each an error naming its
    field."""
    errors = errors_of(with_change(change))
    assert path in errors, errors
    assert errors[path].startswith(message), errors[path]


def test_all_errors_are_reported_at_once():
    """docs/unit-format.md: errors are "reported all at once with the path of each field"."""
    doc = with_change(lambda d: d["models"][0].update(quality=9, defence=1, rules=["Bogus"]))
    doc["models"][0]["weapons"][0]["ap"] = 7
    doc["models"].append(
        {
            "name": "Sarge",
            "count": 1,
            "quality": 4,
            "defence": 4,
            "weapons": [{"name": "Gun", "range": 12, "attacks": -1}],
        }
    )
    errors = errors_of(doc)
    assert set(errors) == {
        "models[0].quality",
        "models[0].defence",
        "models[0].rules[0]",
        "models[0].weapons[0].ap",
        "models[1].weapons[0].attacks",
    }


def test_error_text_and_dict():
    """An error prints as `path: message` and serialises for the command line and the API."""
    e = FieldError("models[1].weapons[0].ap", "must be between -1 and 5")
    assert str(e) == "models[1].weapons[0].ap: must be between -1 and 5"
    assert UnitFormatError([e]).to_dict() == {
        "errors": [{"path": "models[1].weapons[0].ap", "message": "must be between -1 and 5"}]
    }


def test_errors_are_sorted_with_numeric_indexes():
    """models[2] comes before models[10] in the error list."""
    doc = {"name": "U", "models": [{"name": "M", "count": 1, "quality": 4, "defence": 4} for _ in range(11)]}
    doc["models"][10]["quality"] = 9
    doc["models"][2]["quality"] = 9
    with pytest.raises(UnitFormatError) as caught:
        parse_unit(doc)
    assert [e.path for e in caught.value.errors] == ["models[2].quality", "models[10].quality"]


@pytest.mark.parametrize("document", [None, [], "unit", 42, 4.2, b"{}", True, object()])
def test_non_object_input_is_an_error_not_a_traceback(document):
    """Nothing raises a traceback on bad input: a non-dict document is one error at the root."""
    errors = errors_of(document)
    assert list(errors) == [""]
    assert errors[""].startswith("must be an object")


def test_absurdly_nested_input_is_an_error():
    """Deeply nested junk is refused, not a RecursionError."""
    deep: list = []
    node = deep
    for _ in range(10_000):
        node.append([])
        node = node[0]
    errors = errors_of({"name": "U", "models": deep})
    assert list(errors) == [""]


def test_non_string_keys_and_odd_values_are_errors():
    """Python callers may pass anything; keys are read as text and odd values are type errors."""
    errors = errors_of(
        {"name": "U", "models": [{1: 2, "name": "M", "count": 1, "quality": {}, "defence": 4}]}
    )
    assert errors["models[0].1"].startswith("unknown field")
    assert errors["models[0].quality"] == "must be a whole number"


@pytest.mark.parametrize(
    ("document", "path", "message"),
    [
        ({"name": "L", "units": []}, "points_limit", "is required"),
        ({"name": "L", "points_limit": 0, "units": []}, "points_limit", "must be between 1 and 100000"),
        (
            {"name": "L", "points_limit": 500, "units": [{}]},
            "units[0]",
            "needs exactly one of unit (the unit in full) or catalogue_unit",
        ),
        (
            {"name": "L", "points_limit": 500, "units": [{"unit": INFANTRY_JSON, "count": 0}]},
            "units[0].count",
            "must be between 1 and 100",
        ),
        (
            {
                "name": "L",
                "points_limit": 500,
                "units": [
                    {
                        "unit": {
                            "name": "X",
                            "models": [
                                {
                                    "name": "M",
                                    "count": 1,
                                    "quality": 4,
                                    "defence": 4,
                                    "weapons": [{"name": "W", "range": 6, "attacks": 1, "ap": 9}],
                                }
                            ],
                        }
                    }
                ],
            },
            "units[0].unit.models[0].weapons[0].ap",
            "must be between -1 and 5",
        ),
        (
            {"name": "L", "points_limit": 500, "units": [], "options": {"max_points": True}},
            "options.max_points",
            "unknown option; known: army_structure",
        ),
        (
            {"name": "L", "points_limit": 500, "units": [], "options": {"unit_balance": "yes"}},
            "options.unit_balance",
            "must be true or false",
        ),
        (
            {"name": "L", "points_limit": 500, "units": [{"catalogue_unit": "no-slash"}]},
            "units[0].catalogue_unit",
            "must look like faction-slug/unit-slug",
        ),
    ],
)
def test_invalid_army_field_is_reported_with_its_path(document, path, message):
    """docs/unit-format.md army list: the same error paths, prefixed by the entry (`units[0].unit.…`)."""
    errors = errors_of(document, parse_army)
    assert path in errors, errors
    assert errors[path].startswith(message), errors[path]


@pytest.mark.parametrize("document", [None, [], "list", 7])
def test_non_object_army_is_an_error(document):
    """Nothing raises a traceback on bad input (army lists too)."""
    assert list(errors_of(document, parse_army)) == [""]
