"""Properties of the cost formula that hold for every unit (hypothesis), docs/rules/opr-points.md §1–§6."""

from dataclasses import replace
from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from points.opr import price
from points.opr.unit import Unit
from tests.points.opr.strategies import models, units, weapons

SETTINGS = settings(max_examples=100, deadline=None)


@SETTINGS
@given(units(allow_negative=False))
def test_cost_is_never_negative_without_negative_cost_rules(u):
    """§6: only Slow, Immobile, Clumsy and Instinct have negative prices; without them nothing is negative."""
    b = price(u)
    assert b.exact >= 0 and b.points >= 0
    for m in b.models:
        assert m.base_cost > 0 and m.ability_cost >= 0 and m.weapon_cost >= 0
        assert all(w.cost >= 0 for w in m.weapons)


@SETTINGS
@given(units(), st.data())
def test_better_quality_never_lowers_the_cost(u, data):
    """§2 and §5: a lower Q raises morale and hit chance, and the unit's weapon total after the
    warrior/shooter halving (max + min/2) grows with both categories."""
    i = data.draw(st.integers(0, len(u.models) - 1))
    m = u.models[i]
    assume(m.quality > 2)
    better = replace(u, models=(*u.models[:i], replace(m, quality=m.quality - 1), *u.models[i + 1 :]))
    assert price(better).exact >= price(u).exact


@SETTINGS
@given(units(), st.data())
def test_better_defence_never_lowers_the_cost(u, data):
    """§3: every row of the defence table grows from 6+ to 2+, so a better D never lowers the cost."""
    i = data.draw(st.integers(0, len(u.models) - 1))
    m = u.models[i]
    assume(m.defence > 2)
    better = replace(u, models=(*u.models[:i], replace(m, defence=m.defence - 1), *u.models[i + 1 :]))
    assert price(better).exact >= price(u).exact


@SETTINGS
@given(units(), st.data())
def test_adding_a_model_adds_exactly_its_cost_when_the_category_holds(u, data):
    """§1: unit cost = Σ model cost. One more model of a profile adds that profile's model_cost, as long
    as the unit stays a warrior (or a shooter): the §5 halving is decided for the whole unit."""
    i = data.draw(st.integers(0, len(u.models) - 1))
    bigger = replace(
        u, models=(*u.models[:i], replace(u.models[i], count=u.models[i].count + 1), *u.models[i + 1 :])
    )
    before, after = price(u), price(bigger)
    assume(before.category == after.category)
    assert after.exact - before.exact == after.models[i].model_cost == before.models[i].model_cost


@SETTINGS
@given(units(), st.randoms(use_true_random=False))
def test_order_of_models_and_weapons_does_not_change_the_total(u, rnd):
    """§1 and §5: sums and the unit-level classification do not depend on the order things are listed in."""
    shuffled_models = list(u.models)
    rnd.shuffle(shuffled_models)
    reordered = []
    for m in shuffled_models:
        ws = list(m.weapons)
        rnd.shuffle(ws)
        reordered.append(replace(m, weapons=tuple(ws)))
    other = Unit(u.name, tuple(reordered))
    assert price(other).exact == price(u).exact
    assert price(other).points == price(u).points


@SETTINGS
@given(units())
def test_rounding_happens_once_per_unit(u):
    """§1 Decision: exact terms all the way, one half-up rounding of the unit total."""
    b = price(u)
    assert b.exact == sum((m.count * m.model_cost for m in b.models), start=Fraction(0))
    assert b.points == (b.exact + Fraction(1, 2)).__floor__()
    for m in b.models:
        assert (
            m.model_cost == m.base_cost + sum((w.cost for w in m.weapons), start=Fraction(0)) + m.ability_cost
        )


@SETTINGS
@given(units())
def test_cheaper_category_is_halved(u):
    """§5: the weapons of the cheaper category (unit-wide) cost half, the others full."""
    b = price(u)
    assert (b.category == "warrior") == (b.melee_total > b.ranged_total)
    for m in b.models:
        for w in m.weapons:
            assert w.halved == (w.category == b.halved_category)
            assert w.cost == (w.cost_before_halving / 2 if w.halved else w.cost_before_halving)


@SETTINGS
@given(models(weapon_strategy=weapons(melee=False)), st.integers(1, 5))
def test_a_shooter_unit_with_only_ranged_weapons_scales_with_count(m, k):
    """§1 with a fixed category: k copies of a model profile cost k × one model."""
    one = price(Unit("U", (replace(m, count=1),)))
    many = price(Unit("U", (replace(m, count=k),)))
    assert many.exact == k * one.exact
