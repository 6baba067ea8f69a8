"""Each switchable decision of `points.opr.tables`, flipped: the code reads the flag and gives
the documented other result (issue 18.4). The default results are checked next to the rules
they belong to (test_morale, test_ability_cost, test_weapon_cost, test_toughness); here each
flag is turned off and the price moves exactly as the flag's comment in `tables` says.
"""

from fractions import Fraction as F

import pytest

from points.opr import price, tables
from points.opr.ability_cost import transport_factor
from points.opr.morale import morale, morale_multiplier
from points.opr.unit import Part
from points.opr.unit_cost import clear_caches
from points.opr.weapon_cost import ap_modifier
from tests.factories.opr_units import model, unit, weapon
from tests.points.opr.test_weapon_cost import line


@pytest.fixture
def flip(monkeypatch):
    """Switch one decision flag off for the test, with every engine cache cleared around it."""

    def switch(name: str) -> None:
        assert getattr(tables, name) is True, f"{name} must default to True"
        monkeypatch.setattr(tables, name, False)
        clear_caches()

    yield switch
    clear_caches()


def test_morale_multipliers_not_stacking_keep_the_strongest(flip):
    """§2 Decision off: Fearless + Reckless give m = 1/2, not 1/4 (Q4: 1.3 − 0.3 × 0.5 = 1.15)."""
    flip("MORALE_MULTIPLIERS_STACK")
    m, terms = morale_multiplier(frozenset({"Fearless", "Reckless"}))
    assert m == F(1, 2)
    assert len(terms) == 2
    assert morale(4, frozenset({"Fearless", "Reckless"})).modifier == F("1.15")


def test_transport_lowest_factor_when_highest_does_not_win(flip):
    """§6 Decision off: Fast and Flying → the lowest factor, Fast's 1.25 (on: Flying's 1.5)."""
    flip("TRANSPORT_HIGHEST_FACTOR_WINS")
    assert transport_factor(frozenset({"Fast", "Flying"})) == (F("1.25"), "Fast")
    assert transport_factor(frozenset({"Scout", "Aircraft"})) == (F("2.5"), "Scout")
    assert transport_factor(frozenset({"Hero"}))[0] == tables.TRANSPORT_DEFAULT_FACTOR


def test_shot_skill_wins_when_reliable_does_not_override(flip):
    """§5 Decision off: a Bad Shot model's Reliable ranged weapon uses Q 5, not Q 2."""
    flip("RELIABLE_OVERRIDES_SHOT_SKILL")
    assert line(weapon("W", 24, 1, 0, "Reliable"), quality=5, model_rules={"Bad Shot"}).quality == 5
    # Without a shot skill, Reliable still sets Q 2.
    assert line(weapon("W", 24, 1, 0, "Reliable"), quality=5).quality == 2


def test_lock_on_with_no_cover_adds_the_row_twice_when_switched_off(flip):
    """§5 Decision off: Lock-On + No Cover add the No Cover row twice (AP 0: 1 + 2 × 0.25)."""
    flip("LOCK_ON_NO_COVER_ROW_ONCE")
    value, terms = ap_modifier(0, frozenset({"Lock-On", "No Cover"}))
    assert value == F("1.5")
    assert [t.name for t in terms] == ["AP 0", "No Cover", "No Cover (Lock-On)"]


def test_massive_abilities_priced_by_the_models_own_toughness_when_switched_off(flip):
    """§4 + §6 Decision off: Stealth on a Massive 6+3 model is 2 × 6, not 2 × 9."""
    flip("MASSIVE_TOUGHNESS_FOR_ABILITIES")
    beast = model("Beast", 1, 4, 4, 6, rule_names=["Massive", "Stealth"], parts=[Part("A", 6), Part("B", 3)])
    [stealth] = price(unit(beast)).models[0].abilities
    assert (stealth.name, stealth.quantity, stealth.cost) == ("Stealth", 6, 12)
