"""The fantasy systems in the registry: situation schema and checks (estimates contract),
reference targets that fit the profile schema, rule names in the seeds' languages, the
digest's own units, and the input limits."""

from __future__ import annotations

import jsonschema
import pytest

from rules.systems.fantasy_combat.estimate import attack
from rules.systems.fantasy_combat.situation import PROPERTIES, situation_errors
from rules.systems.fantasy_combat.variants import RU_WHFB, WHFB6
from rules.systems.registry import get_system

SYSTEMS = ("whfb6", "ru_whfb", "aos1")


@pytest.mark.parametrize("key", SYSTEMS)
def test_situation_schema_follows_the_contract(key):
    system = get_system(key)
    schema = system.situation_schema
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert set(schema["properties"]["mode"]["enum"]) == {"shooting", "melee"}
    for name, prop in schema["properties"].items():
        assert prop["title"] and "default" in prop, name
        assert prop["type"] in ("boolean", "integer", "number", "string"), name
        if prop["type"] == "integer":
            assert "minimum" in prop and "maximum" in prop, name
        if prop["type"] == "string":
            assert prop["default"] in prop["enum"], name
    jsonschema.Draft202012Validator.check_schema(schema)
    defaults = {k: p["default"] for k, p in schema["properties"].items()}
    assert system.situation_errors(defaults) == {}


@pytest.mark.parametrize("key", SYSTEMS)
def test_reference_targets_fit_the_profile_schema_and_can_be_attacked(key):
    system = get_system(key)
    defaults = {k: p["default"] for k, p in system.situation_schema["properties"].items()}
    for target in system.reference_targets.values():
        for model in target["models"]:
            jsonschema.validate(model, system.profile_schema)
        for other in system.reference_targets.values():
            result = system.attack(other, target, defaults)
            assert sum(result["kills_distribution"]) == pytest.approx(1, abs=1e-9)
            assert result["p_destroyed"] == pytest.approx(result["kills_distribution"][-1])


def test_whfb_fields_the_contract_names():
    assert {"mode", "range_inches", "moved", "cover", "charging", "round", "fighting_models"} <= set(
        PROPERTIES
    )
    assert PROPERTIES["cover"]["enum"] == ["none", "soft", "hard"]


@pytest.mark.parametrize(
    ("situation", "field"),
    [
        ({"mode": "shooting", "charging": True}, "charging"),
        ({"mode": "melee", "charging": True, "round": 2}, "round"),
        ({"mode": "melee", "charging": True, "defender_charged": True}, "defender_charged"),
        ({"mode": "melee", "stand_and_shoot": True}, "stand_and_shoot"),
        ({"mode": "melee", "cover": "hard"}, "cover"),
    ],
)
def test_situation_errors_name_the_field(situation, field):
    assert field in situation_errors(situation)


def test_bad_situation_values_are_refused_naming_the_field():
    unit = get_system("whfb6").reference_targets["orcs-20"]
    with pytest.raises(ValueError, match="round: must be a whole number from 1 to 10"):
        attack(unit, unit, {"round": 0}, variants=WHFB6)
    with pytest.raises(ValueError, match="colour: unknown field"):
        attack(unit, unit, {"colour": "red"}, variants=WHFB6)


def test_rules_named_in_czech_or_russian_work_like_english():
    """The catalogue accepts the seeds' names (rules.yaml `source_name`): so does the engine."""
    targets = get_system("whfb6").reference_targets
    english = dict(targets["orcs-20"], models=[dict(targets["orcs-20"]["models"][0], rules=["Hatred"])])
    czech = dict(targets["orcs-20"], models=[dict(targets["orcs-20"]["models"][0], rules=["Nenávist"])])
    russian = dict(targets["orcs-20"], models=[dict(targets["orcs-20"]["models"][0], rules=["Ненависть"])])
    target = targets["spearmen-20"]
    expected = attack(english, target, {}, variants=WHFB6)["expected"]["hits"]
    assert attack(czech, target, {}, variants=WHFB6)["expected"]["hits"] == expected
    assert attack(russian, target, {}, variants=RU_WHFB)["expected"]["hits"] == expected
    assert expected > attack(targets["orcs-20"], target, {}, variants=WHFB6)["expected"]["hits"]


def test_the_digests_goblin_wolf_chariot_makes_impact_hits_on_the_charge():
    """§8.7: D6 impact hits at the chariot's S5 (+1 with scythed wheels); the crew row (no T)
    and the wolves strike with their own profiles; the chariot body is what is hit."""
    chariot = {
        "format": 1,
        "system": "whfb6",
        "name": "Goblin Wolf Chariot",
        "models": [
            {
                "name": "Chariot",
                "count": 1,
                "troop_type": "chariot",
                "s": 5,
                "t": 4,
                "w": 3,
                "rules": ["Impact Hits(D6)"],
            },
            {
                "name": "Crew",
                "count": 1,
                "ws": 2,
                "bs": 3,
                "s": 3,
                "i": 2,
                "a": 1,
                "ld": 6,
                "weapons": [{"name": "Spear", "range": 0, "strength": "user", "rules": ["Fight in Ranks"]}],
            },
            {"name": "Giant Wolves", "count": 1, "ws": 3, "s": 3, "i": 3, "a": 1},
        ],
    }
    target = get_system("whfb6").reference_targets["spearmen-20"]
    result = attack(chariot, target, {"mode": "melee", "charging": True}, variants=WHFB6)
    impact = next(w for w in result["weapons"] if w["name"] == "Impact hits")
    assert impact["expected"]["hits"] == pytest.approx(3.5, abs=1e-12)
    assert {w["model"] for w in result["weapons"]} == {"Chariot", "Crew", "Giant Wolves"}
    scythed = dict(
        chariot,
        models=[
            dict(chariot["models"][0], rules=["Impact Hits(D6)", "Scythed Wheels"]),
            *chariot["models"][1:],
        ],
    )
    result = attack(scythed, target, {"mode": "melee", "charging": True}, variants=WHFB6)
    assert next(w for w in result["weapons"] if w["name"] == "Impact hits")["expected"][
        "hits"
    ] == pytest.approx(4.5)
    assert attack(chariot, target, {"mode": "melee"}, variants=WHFB6)["expected"]["attacks"] == pytest.approx(
        2
    )


def test_units_too_large_for_the_time_budget_are_refused():
    big = {
        "format": 1,
        "system": "whfb6",
        "name": "Horde",
        "models": [
            {"name": "Giant", "count": 1000, "ws": 3, "s": 3, "t": 3, "w": 20, "i": 3, "a": 10, "ld": 7}
        ],
    }
    # 20,001 × 20,001 wound states: the joint table, not the wounds, is past the engine's limit
    with pytest.raises(ValueError, match="too large for an exact estimate"):
        attack(big, big, {}, variants=WHFB6)
    heavy = {
        "format": 1,
        "system": "whfb6",
        "name": "Heavy",
        "models": [
            {
                "name": "Ogre",
                "count": 300,
                "ws": 3,
                "s": 4,
                "t": 4,
                "w": 10,
                "i": 3,
                "a": 5,
                "ld": 7,
                "weapons": [{"name": "Club", "range": 0, "multiple_wounds": "D3"}],
            }
        ],
    }
    with pytest.raises(ValueError, match="too large for an exact estimate"):
        attack(heavy, heavy, {}, variants=WHFB6)


#: (models, wounds, attacks) of the largest units the engine accepts, for the memory test here and
#: the CPU-time budget in `bench/bench_compute_cost.py`.
LARGEST_ACCEPTED = [(1000, 1, 2), (60, 5, 4), (100, 3, 3)]


def largest_accepted_unit(count: int, wounds: int, attacks: int) -> dict:
    return {
        "format": 1,
        "system": "whfb6",
        "name": "Big",
        "models": [
            {
                "name": "M",
                "count": count,
                "ws": 3,
                "s": 4,
                "t": 3,
                "w": wounds,
                "i": 3,
                "a": attacks,
                "ld": 7,
                "rules": ["Killing Blow"],
                "weapons": [{"name": "Axe", "range": 0, "multiple_wounds": "D3"}],
            }
        ],
    }


@pytest.mark.parametrize(("count", "wounds", "attacks"), LARGEST_ACCEPTED)
def test_the_largest_accepted_inputs_stay_within_the_memory_budget(count, wounds, attacks):
    """Under 300 MB traced. (Their CPU time against the 2 s budget is measured by
    `bench/bench_compute_cost.py`, not asserted here: the test machine is shared.)"""
    import tracemalloc

    unit = largest_accepted_unit(count, wounds, attacks)
    attack(unit, unit, {}, variants=WHFB6)
    tracemalloc.start()
    result = attack(unit, unit, {}, variants=WHFB6)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert sum(result["kills_distribution"]) == pytest.approx(1, abs=1e-9)
    assert peak < 300e6


@pytest.mark.parametrize(
    ("model", "message"),
    [
        ({"name": "m", "count": "lots", "t": 3, "w": 1}, "models[0]"),
        ({"name": "m", "count": 0, "t": 3, "w": 1}, "count of at least 1"),
        ({"name": "m", "count": 2, "ws": 3}, "nothing can be hit"),
    ],
)
def test_malformed_units_are_refused_naming_the_model(model, message):
    target = get_system("whfb6").reference_targets["orcs-20"]
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        attack({"name": "Bad", "models": [model]}, target, {}, variants=WHFB6)


@pytest.mark.parametrize("key", ["whfb6", "ru_whfb"])
def test_reference_targets_carry_our_points_priced_as_the_bundled_armies_price(key):
    """Issue 43: the fantasy reference targets carried no points, so a WHFB gauntlet counted
    models and a 60-pt hero could not be set against a 195-pt troll. Each target's model now
    costs what the bundled model of the same kit costs (`BUNDLED_PEERS`), its name says so, and
    the system prices it as any unit of its lists."""
    from rules.catalogue_files import read_catalogue
    from rules.systems.fantasy_combat.reference_targets import BUNDLED_PEERS, POINTS

    system = get_system(key)
    assert system.points_sized
    for slug, target in system.reference_targets.items():
        [model] = target["models"]
        assert model["points"] == POINTS[key][slug] > 0
        assert system.price(target)["points"] == model["points"] * model["count"]
        assert f"our {model['points']} pts" in target["name"]
    bundled = {
        (faction.slug, unit.slug, model["name"]): model["points"]
        for faction in read_catalogue().factions if faction.system_key == key
        for unit in faction.units for model in unit.values["data"]["models"]
    }
    assert BUNDLED_PEERS[key]
    for slug, peer in BUNDLED_PEERS[key].items():
        assert POINTS[key][slug] == bundled[peer], (slug, peer)


@pytest.mark.parametrize("key", ["opr", "whfb6", "ru_whfb", "wh40k9"])
def test_a_gauntlet_of_a_points_system_counts_points_against_its_reference_targets(key):
    """Every system that prices its lists prices its reference targets, so its gauntlet counts
    points (`gauntlet.by_points`), never models."""
    from armybuilder.estimates.gauntlet import GauntletUnit, by_points, unit_worth

    system = get_system(key)
    targets = [GauntletUnit(t["name"], t, unit_worth(system, t)) for t in system.reference_targets.values()]
    assert all(target.worth > 0 for target in targets)
    assert by_points(system, targets)
