"""Every printed row of the WHFB 6th tables (`docs/rules/whfb6.md` §5.3, §6.3, §6.5, §7.1, §18.2),
copied here literally and compared with the engine's table functions."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.systems.fantasy_combat.tables import (
    RU_TABLES_IN_SOURCE,
    WS_TABLE_SUSPECT_CELLS,
    armour_save_target,
    melee_need,
    save_chance,
    shooting_hit_chance,
    shooting_need,
    to_wound_need,
    two_d6_at_most,
)

# §5.3, copied: effective BS -> D6 needed.
BS_TABLE = {-3: 10, -2: 9, -1: 8, 0: 7, 1: 6, 2: 5, 3: 4, 4: 3, 5: 2, 6: 1, 7: 0, 8: -1, 9: -2, 10: -3}
# §18.1: the chance of each need, 7/8/9 being "6 then 4+/5+/6", 10 impossible, 1 always misses.
NEED_CHANCE = {
    10: Fraction(0),
    9: Fraction(1, 36),
    8: Fraction(1, 18),
    7: Fraction(1, 12),
    6: Fraction(1, 6),
    5: Fraction(2, 6),
    4: Fraction(3, 6),
    3: Fraction(4, 6),
    2: Fraction(5, 6),
}

# §6.3, copied exactly (rows attacker WS 1-10, columns defender WS 1-10).
WS_TABLE = [
    [4, 4, 5, 5, 5, 5, 5, 5, 5, 5],
    [3, 4, 4, 4, 5, 5, 5, 5, 5, 5],
    [3, 3, 4, 4, 4, 5, 5, 5, 5, 5],
    [3, 3, 3, 4, 4, 4, 4, 4, 5, 5],
    [3, 3, 3, 3, 4, 4, 4, 4, 4, 4],
    [3, 3, 3, 3, 3, 4, 4, 4, 4, 4],
    [3, 3, 3, 3, 3, 3, 4, 4, 4, 4],
    [3, 3, 3, 3, 3, 3, 3, 4, 4, 4],
    [3, 3, 3, 3, 3, 3, 3, 3, 4, 4],
    [3, 3, 3, 3, 3, 3, 3, 3, 3, 3],
]

# §6.5, copied exactly (rows S 1-10, columns T 1-10); None is "N".
N = None
WOUND_TABLE = [
    [4, 5, 6, 6, N, N, N, N, N, N],
    [3, 4, 5, 6, 6, N, N, N, N, N],
    [2, 3, 4, 5, 6, 6, N, N, N, N],
    [2, 2, 3, 4, 5, 6, 6, N, N, N],
    [2, 2, 2, 3, 4, 5, 6, 6, N, N],
    [2, 2, 2, 2, 3, 4, 5, 6, 6, N],
    [2, 2, 2, 2, 2, 3, 4, 5, 6, 6],
    [2, 2, 2, 2, 2, 2, 3, 4, 5, 6],
    [2, 2, 2, 2, 2, 2, 2, 3, 4, 5],
    [2, 2, 2, 2, 2, 2, 2, 2, 3, 4],
]


@pytest.mark.parametrize(("bs", "need"), sorted(BS_TABLE.items()))
def test_bs_table_row(bs, need):
    """§5.3: need = 7 − BS; a 1 always misses (best 2+); 7/8/9 need a 6 then 4+/5+/6."""
    assert shooting_need(bs) == need
    assert shooting_hit_chance(bs) == NEED_CHANCE[min(10, max(2, need))]


@pytest.mark.parametrize("attacker", range(1, 11))
def test_ws_table_row(attacker):
    """§6.3: every printed cell is the formula, except the two cells the spec flags (§20.1),
    where the engine uses the formula's 4 on purpose."""
    for defender in range(1, 11):
        printed = WS_TABLE[attacker - 1][defender - 1]
        if (attacker, defender) in WS_TABLE_SUSPECT_CELLS:
            assert WS_TABLE_SUSPECT_CELLS[(attacker, defender)] == printed
            assert melee_need(attacker, defender) == 4
        else:
            assert melee_need(attacker, defender) == printed, (attacker, defender)


def test_ws_zero_is_hit_automatically():
    """§1: WS 0 is hit automatically."""
    assert melee_need(3, 0) == 1


@pytest.mark.parametrize("strength", range(1, 11))
def test_to_wound_table_row(strength):
    """§6.5, every cell."""
    assert [to_wound_need(strength, t) for t in range(1, 11)] == WOUND_TABLE[strength - 1]


@pytest.mark.parametrize(
    ("kit", "expected"),
    [
        ({}, None),
        ({"shield": True}, 6),
        ({"armour": "light"}, 6),
        ({"armour": "heavy"}, 5),
        ({"armour": "light", "shield": True}, 5),
        ({"armour": "heavy", "shield": True}, 4),
        ({"mounted": True}, 6),
        ({"shield": True, "mounted": True, "barding": True}, 4),  # §7.1 example: barded horse and shield
        ({"armour": "light", "shield": True, "hand_weapon_and_shield": True}, 4),  # §7.1 example
        ({"armour": "heavy", "shield": True, "mounted": True, "barding": True}, 2),
        ({"enchanted_shield": True}, 5),  # "5+ on its own"
        ({"enchanted_shield": True, "armour": "light"}, 4),  # "with light armour 4+"
        ({"scaly_skin": 3}, 3),  # a Dragon
        ({"scaly_skin": 5, "armour": "heavy"}, 3),  # natural armour stacks
        (
            {
                "armour": "heavy",
                "shield": True,
                "mounted": True,
                "barding": True,
                "hand_weapon_and_shield": True,
            },
            1,
        ),
    ],
)
def test_armour_save_built_from_kit(kit, expected):
    """§7.1: start at 7+, each item improves the save."""
    assert armour_save_target(**kit) == expected


@pytest.mark.parametrize(
    ("save", "strength", "ap", "chance"),
    [
        (4, 5, 0, Fraction(1, 6)),  # §7.1 example: 4+ hit at S5 saves on 6+
        (5, 3, 0, Fraction(2, 6)),
        (5, 4, 0, Fraction(1, 6)),
        (5, 5, 0, Fraction(0)),
        (4, 4, 1, Fraction(1, 6)),  # armour piercing −1 more
        (1, 3, 0, Fraction(5, 6)),  # a 1 always fails, even for 1+
        (None, 3, 0, Fraction(0)),
    ],
)
def test_armour_save_modified_by_strength(save, strength, ap, chance):
    """§7.1: −1 per point of S above 3, armour piercing −1 more; a roll of 1 always fails."""
    assert save_chance(save, max(0, strength - 3) + ap) == chance


@pytest.mark.parametrize(
    ("x", "ways"),
    [(2, 1), (3, 3), (4, 6), (5, 10), (6, 15), (7, 21), (8, 26), (9, 30), (10, 33), (11, 35), (12, 36)],
)
def test_two_d6_cumulative_row(x, ways):
    """§18.2."""
    assert two_d6_at_most(x) == Fraction(ways, 36)


def test_russian_chapter_prints_none_of_the_core_tables():
    """docs/rules/ru_whfb.md §2.1: the core tables are [NOT IN SOURCE]; recorded in data."""
    assert RU_TABLES_IN_SOURCE and not any(RU_TABLES_IN_SOURCE.values())
