"""The fantasy cost model counts the work the engine really does (issue 25): `work_plan.planned`
walks the strikers as `combat` will, and its counts are checked here against the engine's own
throws, counted while a real `attack` runs (each one-die step's rows × states, each convolved
throw's batches), and on the matchups the old model over-predicted: deep units of which only
the front rank is in contact. Counts, not times: the machine is shared."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from rules.systems.fantasy_combat import estimate
from rules.systems.fantasy_combat.estimate import attack, estimate_cost, matchup_work
from rules.systems.fantasy_combat.situation import Situation
from rules.systems.fantasy_combat.variants import WHFB6
from rules.systems.fantasy_combat.wound_track import WoundTrack
from tests.factories.fantasy_units import unit


def work(attacker, defender, situation):
    return matchup_work(attacker, defender, Situation.from_dict(situation, WHFB6), WHFB6)


def engine_work(monkeypatch, attacker, defender, situation) -> Counter:
    """What `attack` really throws: one-die steps and the (rows × states) each touches, and the
    convolved throws' batches (one per distinct number of dice among the rows)."""
    seen: Counter = Counter()
    one_die, independent = WoundTrack.one_die, WoundTrack._throw_independent

    def counted_one_die(dist, transition):
        seen["steps"] += 1
        seen["cells"] += dist.shape[0] * dist.shape[1]
        return one_die(dist, transition)

    def counted_independent(self, dist, dice_per_row, per_die, *untouched):
        seen["batches"] += len(np.unique(dice_per_row))
        return independent(self, dist, dice_per_row, per_die, *untouched)

    monkeypatch.setattr(WoundTrack, "one_die", staticmethod(counted_one_die))
    monkeypatch.setattr(WoundTrack, "_throw_independent", counted_independent)
    attack(attacker, defender, situation, variants=WHFB6)
    return seen


def test_a_deep_unit_throws_the_dice_of_its_front_rank_only():
    """§6.2: five wide against five wide, five models strike each way whatever the depth. The
    dice are independent (one wound each on W1 models), so each side's throw is one batch per
    number of its models fighting across its states (5, 4, 3, 2, 1 or none: 6), built from 5
    one-die convolutions. 150 models deep costs the same batches and convolutions as 20: the
    old model priced every model's dice (150 dice, 30× these convolutions)."""
    defender = unit("Spearmen", 20)
    shallow = work(unit("Deep", 20, i=4), defender, {"mode": "melee", "round": 2})
    deep = work(unit("Deep", 150, i=4), defender, {"mode": "melee", "round": 2})
    for counted in (shallow, deep):
        assert (counted["strikers"], counted["batches"], counted["convolutions"]) == (2, 6 + 6, 5 + 5)
    assert deep["steps"] == shallow["steps"] == 0


def test_the_deep_units_prediction_grows_with_its_states_not_its_dice():
    """The same matchups priced: the deep unit adds its 130 wound states (fighters per state,
    the joint table, break-test chances), a few per cent of the shallow unit's seconds per
    extra model, not 7.5× its dice."""
    defender = unit("Spearmen", 20)
    shallow, _ = estimate_cost(unit("Deep", 20, i=4), defender, {"mode": "melee", "round": 2}, variants=WHFB6)
    deep, _ = estimate_cost(unit("Deep", 150, i=4), defender, {"mode": "melee", "round": 2}, variants=WHFB6)
    assert shallow < deep < 2 * shallow


def test_a_strike_order_roll_off_is_counted_once_per_order():
    """§6.2: equal Initiative and no charge: both orders are computed, half each, so the round's
    strikers are applied twice; different Initiatives apply each once."""
    a, d = unit("A", 10), unit("D", 10)
    assert work(a, d, {"mode": "melee", "round": 2})["strikers"] == 4
    assert work(unit("A", 10, i=4), d, {"mode": "melee", "round": 2})["strikers"] == 2


def test_a_spear_in_ranks_throws_for_two_ranks():
    """§12.3: spears not charging fight in two ranks, ten models five wide, so ten dice."""
    spears = unit(
        "Spears",
        30,
        i=4,
        weapons=[{"name": "Spear", "range": 0, "strength": "user", "rules": ["Fight in Ranks"]}],
    )
    counted = work(spears, unit("D", 30, a=0), {"mode": "melee", "round": 2})
    assert counted["convolutions"] == 10


@pytest.mark.parametrize(
    ("attacker", "defender", "situation"),
    [
        (unit("Deep", 150, i=4), unit("Spearmen", 20), {"mode": "melee", "round": 2}),
        (unit("A", 12), unit("D", 9, w=2), {"mode": "melee", "round": 2}),  # roll-off
        (unit("Ogres", 6, w=3, a=3, s=4), unit("Men", 25), {"mode": "melee", "charging": True}),
        (
            {
                "format": 1,
                "system": "whfb6",
                "name": "Chariot",
                "models": [
                    {
                        "name": "Chariot",
                        "count": 2,
                        "troop_type": "chariot",
                        "ws": 3,
                        "s": 5,
                        "t": 4,
                        "w": 3,
                        "a": 1,
                        "rules": ["Impact Hits(D6)", "Killing Blow"],
                    }
                ],
            },
            unit("Men", 12, w=2),
            {"mode": "melee", "charging": True},
        ),
        (
            unit("Archers", 30, weapons=[{"name": "Bow", "range": 24, "strength": 3}]),
            unit("Horde", 200),
            {"mode": "shooting", "range_inches": 10},
        ),
        (
            unit("Archers", 30, weapons=[{"name": "Bow", "range": 24, "strength": 3}]),
            unit("Ten", 10, w=3),
            {"mode": "shooting", "range_inches": 10},
        ),
    ],
    ids=["deep-unit", "roll-off", "multi-wound-attackers", "impact-hits", "convolved", "looped-shooting"],
)
def test_the_plan_counts_the_engines_own_throws(monkeypatch, attacker, defender, situation):
    """Steps, (rows × states) stepped and convolved batches, as planned and as the engine does
    them (each one-die step and each convolved throw counted while `attack` runs)."""
    planned = work(attacker, defender, situation)
    seen = engine_work(monkeypatch, attacker, defender, situation)
    assert seen["steps"] + seen["batches"] > 0  # the matchup rolls dice
    assert (planned["steps"], planned["cells"], planned["batches"]) == (
        seen["steps"],
        seen["cells"],
        seen["batches"],
    )


def test_every_priced_kind_is_counted():
    """A price without a count would be silently ignored (and a count without a price is free)."""
    counted = work(unit("A", 10), unit("D", 10), {"mode": "melee"})
    assert set(estimate.SECONDS_PER) <= set(counted)
    assert set(estimate.BYTES_PER) <= set(counted)


def test_a_convolved_throws_memory_is_one_batch_of_rows():
    """30 archers at a 200-model horde (201 states, past `FFT_FROM_STATES`): the shooters lose
    nothing, so their table is one row (issue 42; it was a row per number of archers left, 31,
    each its own batch), transformed at a width of 256 (201 states + 30 wounds, to a power of
    two). An older model held all 31 rows' spectra at once."""
    archers = unit("Archers", 30, weapons=[{"name": "Bow", "range": 24, "strength": 3}])
    counted = work(archers, unit("Horde", 200), {"mode": "shooting", "range_inches": 10})
    assert (counted["batches"], counted["spectra"], counted["spectrum_cells"]) == (1, 256, 256)
