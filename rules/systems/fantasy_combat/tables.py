"""The Warhammer Fantasy tables as exact probabilities (`docs/rules/whfb6.md` §5.3, §6.3, §6.5, §7.1, §18.2).

Every chance is a `Fraction` so that tests can compare table rows exactly; the engine
turns them into floats once per attack profile. The Russian house rules print none of
these tables (`docs/rules/ru_whfb.md` §2.1, **[NOT IN SOURCE]**), so they use the same functions;
`RU_TABLES_IN_SOURCE` records that in data.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

#: Which of the core tables the Russian chapter itself prints (none: docs/rules/ru_whfb.md §0, §2.1).
RU_TABLES_IN_SOURCE: dict[str, bool] = {
    "bs_to_hit": False,
    "ws_to_hit": False,
    "to_wound": False,
    "armour_save_by_strength": False,
    "leadership_2d6": False,
}

#: The two cells of the printed WS table that break its own pattern (§6.3, §20.1):
#: (attacker WS, defender WS) -> value printed. The engine uses the formula (4 for both),
#: as the spec recommends; tests check every other printed cell against the formula.
WS_TABLE_SUSPECT_CELLS: dict[tuple[int, int], int] = {(3, 6): 5, (10, 10): 3}


@cache
def d6_at_least(need: int) -> Fraction:
    """P(D6 ≥ need) for a single roll, 0 when need > 6 and 1 when need ≤ 1 (§18.1); kept per
    need (every blow of every matchup asks)."""
    return Fraction(min(6, max(0, 7 - need)), 6)


def shooting_need(effective_bs: int) -> int:
    """The D6 score a shot needs: 7 − BS after modifiers (§5.3, the table's formula)."""
    return 7 - effective_bs


def shooting_hit_chance(effective_bs: int) -> Fraction:
    """P(hit) for one shot (§5.3): a natural 1 always misses (so 2+ at best); 7/8/9 need a 6
    and then 4+/5+/6 on a second die; 10 or more cannot hit."""
    need = shooting_need(effective_bs)
    if need <= 6:
        return d6_at_least(max(2, need))
    if need <= 9:
        return Fraction(1, 6) * d6_at_least(need - 3)
    return Fraction(0)


def shooting_hit_on_natural_six(effective_bs: int) -> Fraction:
    """P(hit whose first die is a natural 6): what Poisoned Attacks turn into wounds (§8.3).

    For 7+ to 9+ every hit starts with a 6, so this equals the hit chance (decision: the
    6 of "6 then 4+" is the natural 6 the rule means)."""
    need = shooting_need(effective_bs)
    if need <= 6:
        return Fraction(1, 6)
    return shooting_hit_chance(effective_bs)


def melee_need(attacker_ws: int, defender_ws: int) -> int:
    """The D6 score a close-combat blow needs (§6.3), by the table's rule rather than its
    two misprinted cells (see `WS_TABLE_SUSPECT_CELLS`): 3+ against a lower WS, 5+ against
    more than double, 4+ otherwise. WS 0 is hit automatically (§1), returned as 1."""
    if defender_ws <= 0:
        return 1
    if attacker_ws > defender_ws:
        return 3
    if defender_ws <= 2 * attacker_ws:
        return 4
    return 5


def to_wound_need(strength: int, toughness: int) -> int | None:
    """The D6 score to wound (§6.5), None when S cannot wound T ("N" in the table)."""
    d = toughness - strength
    if d <= -2:
        return 2
    if d >= 4:
        return None
    return {-1: 3, 0: 4, 1: 5, 2: 6, 3: 6}[d]


def strength_save_modifier(strength: int) -> int:
    """How much an attack of this Strength worsens the armour save (§7.1): S4 −1 … S10 −7."""
    return max(0, strength - 3)


def armour_save_target(
    *,
    armour: str = "none",
    shield: bool = False,
    mounted: bool = False,
    barding: bool = False,
    hand_weapon_and_shield: bool = False,
    enchanted_shield: bool = False,
    scaly_skin: int | None = None,
) -> int | None:
    """The unmodified armour save built from kit (§7.1), None for no save (7+ or worse).

    Start at 7+; shield +1 (an Enchanted Shield +2 instead), light armour +1, heavy +2,
    mounted +1, barding +1, hand weapon and shield (foot, close combat) +1; scaly skin X+
    is natural armour that stacks (it improves the save by 7 − X)."""
    bonus = {"none": 0, "light": 1, "heavy": 2}[armour]
    if shield or enchanted_shield:
        bonus += 2 if enchanted_shield else 1
    bonus += int(mounted) + int(barding) + int(hand_weapon_and_shield)
    if scaly_skin is not None:
        bonus += 7 - scaly_skin
    target = 7 - bonus
    return target if target <= 6 else None


def save_chance(target: int | None, worsened_by: int) -> Fraction:
    """P(armour save) for a save of `target`+ worsened by `worsened_by` (§7.1): a roll of 1
    always fails, even for a "1+" save; 7+ or worse is no save."""
    if target is None:
        return Fraction(0)
    need = target + worsened_by
    if need >= 7:
        return Fraction(0)
    return d6_at_least(max(2, need))


def fixed_save_chance(target: int | None) -> Fraction:
    """P(pass) of a save never modified (ward §7.2, regeneration §7.3)."""
    if target is None:
        return Fraction(0)
    return d6_at_least(max(2, target))


@cache
def two_d6_at_most(x: int) -> Fraction:
    """P(2D6 ≤ x) (§18.2): a Leadership test passes on 2D6 ≤ Ld."""
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= x)
    return Fraction(ways, 36)


#: Unit Strength per model by troop type (§3.1); monsters count their starting Wounds and
#: ridden monsters 1 per rider + the monster's (`None` here: computed from W).
UNIT_STRENGTH: dict[str, int | None] = {
    "infantry": 1,
    "character": 1,
    "swarm": 1,
    "cavalry": 2,
    "monstrous": 3,
    "war_machine": 3,
    "chariot": 4,
    "monster": None,
    "ridden_monster": None,
}

#: Base (frontage, depth) in mm by troop type, when the model gives no `base` (§3.1: cavalry
#: 25 × 50, ogre-sized 40 × 40; RU §1.3: infantry 20 × 20). **Decision** for the types the
#: specs do not size: swarms 40 × 40, chariots 50 × 100, monsters, ridden monsters and war
#: machines 50 × 50; a mounted character stands on a cavalry base.
BASES: dict[str, tuple[int, int]] = {
    "infantry": (20, 20),
    "character": (20, 20),
    "swarm": (40, 40),
    "cavalry": (25, 50),
    "monstrous": (40, 40),
    "war_machine": (50, 50),
    "chariot": (50, 100),
    "monster": (50, 50),
    "ridden_monster": (50, 50),
}
