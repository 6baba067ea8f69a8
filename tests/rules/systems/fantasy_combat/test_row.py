"""A list job's row computed at once (`row.matrix_row`, issue 42) gives each matchup's cell
(`estimate.matrix_attack`) within 1e-12: both variants, strike order by Initiative, charges,
RU's ASF re-roll against a lower Initiative, multiple wounds and Killing Blow on multi-wound
models, ward and regeneration saves, fear and its auto-break, and a row mixing the defenders
the batch resolves with those it leaves to the matchup (a Swarm, a table too large, flank
charges and musicians' tie-breaks)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rules.systems.fantasy_combat import row
from rules.systems.fantasy_combat.combat import fight_round
from rules.systems.fantasy_combat.estimate import _sides, matrix_attack, prepare_situation, prepare_unit
from rules.systems.fantasy_combat.row import ALONE_CELLS, _one_each, matrix_row
from rules.systems.fantasy_combat.variants import RU_WHFB, WHFB6, Variants
from tests.factories.fantasy_units import unit
from tests.rules.systems.fantasy_combat.test_shortcuts import _situation, _unit


def _same(found: dict, expected: dict, where: str) -> None:
    """Equal but for floats, which are within 1e-12."""
    if isinstance(expected, dict):
        assert list(found) == list(expected), where
        for key in expected:
            _same(found[key], expected[key], f"{where}.{key}")
    elif isinstance(expected, list):
        assert len(found) == len(expected), where
        for index, (a, b) in enumerate(zip(found, expected, strict=True)):
            _same(a, b, f"{where}[{index}]")
    elif isinstance(expected, float):
        assert isinstance(found, float) and found == pytest.approx(expected, rel=0, abs=1e-12), where
    else:
        assert found == expected, where


def _row_equals_its_matchups(attacker: dict, defenders: list[dict], sit, variants: Variants) -> bool:
    """The row against the matchups one by one, each on units read anew (nothing kept from
    another call); a refused matchup refuses the row. True: the row was computed."""
    try:
        expected = [
            matrix_attack(prepare_unit(attacker), prepare_unit(d), sit, variants=variants) for d in defenders
        ]
    except ValueError as error:
        with pytest.raises(ValueError, match=str(error)[:40].replace("(", r"\(")):
            matrix_row(prepare_unit(attacker), [prepare_unit(d) for d in defenders], sit, variants=variants)
        return False
    found = matrix_row(prepare_unit(attacker), [prepare_unit(d) for d in defenders], sit, variants=variants)
    _same(found, expected, "row")
    return True


def _system(variants: Variants) -> str:
    return "ru_whfb" if variants is RU_WHFB else "whfb6"


def _tagged(unit_dict: dict, variants: Variants) -> dict:
    return {**unit_dict, "system": _system(variants)}


@pytest.mark.parametrize("variants", [WHFB6, RU_WHFB], ids=["whfb6", "ru_whfb"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_row_gives_each_matchups_cell(variants, seed):
    """Random units (multi-wound, Killing Blow, multiple wounds, wards, regeneration, fear,
    ASF and ASL, Swarms) in random situations: every row equals its matchups."""
    rng = random.Random(seed)
    units = [_unit(rng, i, _system(variants)) for i in range(14)]
    units += [
        _tagged(unit("Elves", 10, i=5, rules=["Always Strikes First"]), variants),
        _tagged(unit("Slow", 10, i=2, w=2), variants),
        _tagged(unit("Quick", 10, i=6, ward=5), variants),
    ]
    batched = rows = 0
    for _ in range(8):
        sit = prepare_situation(_situation(rng, variants), variants=variants)
        attacker = rng.choice(units)
        computed = _row_equals_its_matchups(attacker, units, sit, variants)
        rows += computed
        batched += computed and sit.flank == "front" and sit.attacker_musician == sit.defender_musician
    assert rows >= 4 and batched >= 2  # the batch was taken in some of them


@pytest.mark.parametrize("variants", [WHFB6, RU_WHFB], ids=["whfb6", "ru_whfb"])
@pytest.mark.parametrize("situation", [
    {"mode": "melee", "charging": True},
    {"mode": "melee", "round": 2, "charging": False},  # by Initiative; RU: ASF and its re-roll
    {"mode": "melee", "round": 2, "charging": False, "fear_auto_break": True, "defender_failed_fear": True},
    {"mode": "melee", "charging": False, "attacker_standard": True, "defender_musician": True},
    {"mode": "melee", "charging": True, "flank": "flank"},
])
def test_a_row_mixing_batched_and_single_defenders_gives_each_matchups_cell(variants, situation, monkeypatch):
    """Defenders the batch resolves (with several batches: `ROW_CELLS` made small) among ones
    it leaves to the matchup: a Swarm (RU: wounds instead of a break test), a table larger than
    `ALONE_CELLS`; an attacker that causes fear, with ASF and Killing Blow."""
    monkeypatch.setattr(row, "ROW_CELLS", 600)
    attacker = _tagged(unit("Wights", 16, ws=4, s=4, t=4, w=1, i=5, a=1, save=4,
                            rules=["Always Strikes First", "Killing Blow", "Fear"]), variants)
    defenders = [
        unit("Spears", 20, save=5),
        unit("Ogres", 4, s=4, t=4, w=3, i=2, a=3, troop_type="monstrous"),
        unit("Rats", 6, w=3, rules=["Swarm"], troop_type="swarm"),
        unit("Horde", 150, w=2, i=4, save=6),
        unit("Elves", 12, i=6, ws=4, rules=["Always Strikes First"], ward=6),
        unit("Trolls", 3, s=5, t=4, w=3, i=1, a=3, regeneration=4, rules=["Fear"],
             weapons=[{"name": "Club", "range": 0, "kind": "great_weapon", "multiple_wounds": "D3"}]),
        unit("Dwarfs", 15, t=4, i=2, save=4, rules=["Stubborn"]),
        unit("Ghosts", 5, ward=4, rules=["Ethereal", "Terror"]),
    ]
    defenders = [_tagged(d, variants) for d in defenders]
    if variants is WHFB6:  # an RU table's option (WHFB: always)
        situation = {k: v for k, v in situation.items() if k != "fear_auto_break"}
    sit = prepare_situation(situation, variants=variants)
    horde = prepare_unit(defenders[3])
    assert 17 * (horde.pool_models * horde.wounds_per_model + 1) > ALONE_CELLS  # computed alone
    assert _row_equals_its_matchups(attacker, defenders, sit, variants)
    assert _row_equals_its_matchups(defenders[1], [attacker, *defenders], sit, variants)


@pytest.mark.parametrize("variants", [WHFB6, RU_WHFB], ids=["whfb6", "ru_whfb"])
@pytest.mark.parametrize("seed", [4, 5])
def test_a_round_of_one_batch_each_is_the_round_fought_to_the_bit(variants, seed):
    """`_one_each` (one batch of two-outcome dice a side: either side first, or a roll-off)
    builds `fight_round`'s table bit for bit, and declines every other round."""
    rng = random.Random(seed)
    units = [_unit(rng, i, _system(variants)) for i in range(14)]
    taken = declined = 0
    for _ in range(80):
        attacker, defender = rng.sample(units, 2)
        sit = prepare_situation(_situation(rng, variants), variants=variants)
        sides = _sides(prepare_unit(attacker), prepare_unit(defender), sit)[2]
        try:
            expected = fight_round(sides, sit, variants, tally=False)[0]
        except ValueError:
            continue
        found = _one_each(sides, sit, variants)
        if found is None:
            declined += 1
            continue
        taken += 1
        assert np.array_equal(found, expected)
    assert taken >= 20 and declined >= 5


@pytest.mark.parametrize("variants", [WHFB6, RU_WHFB], ids=["whfb6", "ru_whfb"])
def test_a_batch_with_a_combat_result_past_the_reach_is_resolved_one_by_one(variants, monkeypatch):
    """A batch whose combat results pass `_REACH` (made ±1 here, so most do; the matchup's
    own reach stays ±64) is resolved defender by defender, as each matchup is."""
    monkeypatch.setattr(row, "_REACH", 1)
    rng = random.Random(9)
    units = [_unit(rng, i, _system(variants)) for i in range(10)]
    sit = prepare_situation({"mode": "melee", "charging": True, "attacker_standard": True}, variants=variants)
    assert any(_row_equals_its_matchups(attacker, units, sit, variants) for attacker in units[:3])


@pytest.mark.parametrize("variants", [WHFB6, RU_WHFB], ids=["whfb6", "ru_whfb"])
@pytest.mark.parametrize(("rider_i", "horse_i", "foot_i", "charging", "taken"), [
    (4, 3, 3, True, True),  # the chargers strike first (riders and horses, or the infantry)
    (5, 4, 2, False, True),  # by Initiative: riders, horses, then the infantry
    (2, 1, 6, False, True),  # the infantry first, then riders and horses (thrown as `_apply` does)
    (5, 2, 3, False, False),  # infantry between the riders and the horses: fought
])
def test_a_sides_strikes_before_the_others_one_batch_are_the_round_fought_to_the_bit(
    variants, rider_i, horse_i, foot_i, charging, taken
):
    """Cavalry (a rider's and a horse's batch) against infantry (one batch), both ways: where
    one side's batches all come before the other's, `_one_each` builds `fight_round`'s table
    bit for bit (the defender's a column, read strided as `_apply` reads it; the second side's
    next batches thrown as `_apply` throws them); strikes interleaved are left to it."""
    cavalry = _tagged(unit("Knights", 6, ws=4, s=4, t=3, i=rider_i, a=1, save=3, troop_type="cavalry",
                           mount={"name": "Horse", "ws": 3, "s": 3, "i": horse_i, "a": 1}), variants)
    infantry = _tagged(unit("Spears", 20, i=foot_i, save=5), variants)
    situation = {"mode": "melee", "charging": charging, "round": 1 if charging else 2}
    sit = prepare_situation(situation, variants=variants)
    for attacker, defender in ((cavalry, infantry), (infantry, cavalry)):
        sides = _sides(prepare_unit(attacker), prepare_unit(defender), sit)[2]
        expected = fight_round(sides, sit, variants, tally=False)[0]
        found = _one_each(sides, sit, variants)
        assert (found is not None) == taken
        if found is not None:
            assert np.array_equal(found, expected)
