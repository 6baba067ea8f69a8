"""Options whose BattleScribe price is per model (`realm_ranks.cat`, hand-written in the shape of
the community WHFB data) cost that much for every model the unit has, at any size.

Prices expected are worked out by hand the way BattleScribe totals them: 10 Grave Spearmen at
6 and their Champion at 16 (76); "Great Weapons" +2 per selection of any `model` in the unit;
"Grave Mail" +1 per "Grave Spearman" only; "Bone Horns" +1 per 5 models (a step, not per model).
"""

from __future__ import annotations

import pytest

from rules.battlescribe_import import parse_import
from rules.options import OptionError, apply_options
from rules.systems.registry import get_system
from tests.rules.battlescribe.files import sources

RANKS = ("realm.gst", "realm_ranks.cat")


@pytest.fixture(scope="module")
def spearmen():
    result = parse_import(system_key="whfb6", files=sources(*RANKS))
    (plan,) = result.plans
    (unit,) = plan.units
    options = [{**o.values, "key": o.key} for o in unit.options]
    return result, unit.values["data"], options


def points(unit, options, chosen) -> int:
    return get_system("whfb6").price(apply_options(unit, options, chosen))["points"]


def test_per_model_options_are_marked_with_their_cost_per_model(spearmen):
    _result, _unit, options = spearmen
    by_key = {o["key"]: o for o in options}
    great, mail = by_key["opt-rl-sp-great"], by_key["opt-rl-sp-mail"]
    # repeated per `model` in the unit: every model (spearmen and champion) pays
    assert (great["cost"], great["applies_to"], great["payload"]["per_model"]) == (2, "", True)
    # repeated per the spearman entry (its childId): the spearmen only
    assert (mail["cost"], mail["applies_to"], mail["payload"]["per_model"]) == (1, "Grave Spearman", True)
    horns = by_key["opt-rl-sp-horns"]
    assert (horns["cost"], "per_model" in horns["payload"]) == (2, False)  # a step: priced at the minimum
    torch = by_key["opt-rl-sp-torch"]  # an upgrade of the model entry: one per model taking it
    assert (torch["cost"], torch["applies_to"], "all" in torch["payload"]) == (3, "Grave Spearman", False)


@pytest.mark.parametrize(
    ("chosen", "expected"),
    [
        ({}, 76),
        ({"opt-rl-sp-great": 1}, 76 + 2 * 11),
        ({"opt-rl-sp-great": 1, "more-grave-spearman": 5}, 106 + 2 * 16),
        ({"opt-rl-sp-mail": 1}, 76 + 10),
        ({"opt-rl-sp-mail": 1, "more-grave-spearman": 5}, 106 + 15),
        ({"opt-rl-sp-great": 1, "opt-rl-sp-mail": 1, "more-grave-spearman": 20}, 30 * 6 + 16 + 2 * 31 + 30),
        ({"opt-rl-sp-torch": 4}, 76 + 12),
        # one torch per model: the limit follows the unit's size (15 spearmen, 15 torches)
        ({"opt-rl-sp-torch": 15, "more-grave-spearman": 5}, 106 + 45),
        # a group without a maximum of its own: its members combine, as in BattleScribe
        ({"opt-rl-sp-standard": 1, "opt-rl-sp-drummer": 1}, 76 + 15),
    ],
)
def test_price_follows_the_unit_size(spearmen, chosen, expected):
    _result, unit, options = spearmen
    assert points(unit, options, chosen) == expected


def test_per_model_count_ignores_option_order(spearmen):
    """Models added by an option listed after the per-model option still pay for it."""
    _result, unit, options = spearmen
    chosen = {"opt-rl-sp-great": 1, "more-grave-spearman": 5}
    assert points(unit, list(reversed(options)), chosen) == points(unit, options, chosen) == 138
    applied = apply_options(unit, options, chosen)
    (record,) = [u for u in applied["upgrades"] if u["key"] == "opt-rl-sp-great"]
    assert (record["count"], record["cost"]) == (16, 2)


def test_per_model_option_counts_models_split_from_its_profile(spearmen):
    """Spearmen who took a torch become a profile of their own and still pay for the mail."""
    _result, unit, options = spearmen
    chosen = {"opt-rl-sp-mail": 1, "opt-rl-sp-torch": 3, "more-grave-spearman": 2}
    applied = apply_options(unit, options, chosen)
    assert sorted((m["name"], m["count"]) for m in applied["models"]) == [
        ("Grave Champion", 1),
        ("Grave Spearman", 9),
        ("Grave Spearman (Grave Torch)", 3),
    ]
    assert points(unit, options, chosen) == 12 * 6 + 16 + 12 + 9


def test_growth_and_non_per_model_steps_are_reported(spearmen):
    result, _unit, _options = spearmen
    warnings = "\n".join(result.warnings)
    growth = "selectionEntry[@name='Grave Spearman']: the model has no maximum; the unit is offered up to 110"
    assert growth in warnings
    step = (
        "selectionEntry[@name='Bone Horns']: its price changes with the unit's size "
        "(2 at 10, 2 at 11, 3 at 17) but not per model; priced at the minimum size only"
    )
    assert step in warnings


def test_per_model_maximum_still_binds(spearmen):
    """11 torches on 10 spearmen (no more added) is refused, naming the option."""
    _result, unit, options = spearmen
    with pytest.raises(OptionError) as caught:
        apply_options(unit, options, {"opt-rl-sp-torch": 11})
    assert caught.value.errors[0][0] == "options.opt-rl-sp-torch"


def test_capped_group_keeps_its_cap(spearmen):
    """The "Armour" group says max 1: still one of its members at most."""
    _result, _unit, options = spearmen
    mail = next(o for o in options if o["key"] == "opt-rl-sp-mail")
    assert mail["payload"]["group_max"] == 1
