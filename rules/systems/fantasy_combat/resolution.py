"""Combat resolution and the break test (`docs/rules/whfb6.md` §9.1, §9.2, §10.3; `docs/rules/ru_whfb.md`
§2.6).

Everything is computed per cell of the joint distribution of (attacker's wounds lost,
defender's wounds lost) after the round, so the bonuses that depend on the survivors
(rank bonus, outnumbering, the US ≥ 5 of a flank charge, fear's greater US) are exact.

"Wounds caused" (§9.1) are the wounds each unit's rank and file actually lost: saved and
regenerated wounds do not count (§7.3), a Killing Blow counts the wounds its victim had
left, and the excess of a Multiple Wounds hit beyond its model is lost (§7.4), so it does
not count either (decision: the digest says "all unsaved wounds" without covering excess).
Challenges and overkill are not modelled.

**Decision** (§10.8 leaves a Stubborn unit using its General's Leadership open): the unit
tests on the better of its own Ld and the General's (§9.2), and a Stubborn unit tests that Ld
unmodified — the reading kept from before the question was raised. The result says which Ld
and which modifier each side's break test used (`BreakTest`), so a player can check it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from rules.systems.fantasy_combat.situation import Situation
from rules.systems.fantasy_combat.tables import two_d6_at_most
from rules.systems.fantasy_combat.units import Unit
from rules.systems.fantasy_combat.variants import Variants
from rules.systems.fantasy_combat.wound_track import Array, WoundTrack


def rank_bonus(models: int, width: int, unit: Unit) -> int:
    """§9.1: +1 per rank after the first, max +3; ranks need ≥ 4 models and a front of ≥ 4;
    never for skirmishers or fast cavalry."""
    if width < 4 or unit.has("skirmishers") or unit.has("fast cavalry"):
        return 0
    ranks = models // width + (1 if models % width >= 4 else 0)
    return max(0, min(3, ranks - 1))


def rank_bonuses(models: np.ndarray, width: int, unit: Unit) -> np.ndarray:
    """`rank_bonus` for every count of surviving models at once."""
    if width < 4 or unit.has("skirmishers") or unit.has("fast cavalry"):
        return np.zeros_like(models)
    ranks = models // width + (models % width >= 4)
    return np.clip(ranks - 1, 0, 3)


def standard_bonus(standard: bool, army_standard: bool, variants: Variants) -> int:
    """§9.1, §11.5: a standard or the battle standard in the unit, +1 — one standard bonus per
    side; RU §2.6, #44: the Army Battle Standard stacks with a unit standard (+2)."""
    if variants.army_standard_stacks:
        return int(standard) + int(army_standard)
    return int(standard or army_standard)


@cache
def leadership_fails(ld: int, difference: int, *, stubborn: bool, reroll: bool) -> Fraction:
    """§9.2: the loser breaks if 2D6 > Ld − difference (Stubborn: unmodified Ld, §10.8); the
    battle standard re-rolls a failed test once. Neither seed has Steadfast or "insane courage"
    (a double 1 always passing, §18.2 / §20.11): both are later editions' rules and not applied."""
    target = ld if stubborn else ld - difference
    fail = 1 - two_d6_at_most(target)
    return fail * fail if reroll else fail


@cache
def _fail_chance(ld: int, difference: int, stubborn: bool, reroll: bool) -> float:
    """`leadership_fails` as a float, kept: a few Ld values, differences and flags in all."""
    return float(leadership_fails(ld, difference, stubborn=stubborn, reroll=reroll))


@cache
def _losing_table(ld: int, stubborn: bool, reroll: bool) -> np.ndarray:
    """P(break) by how much the side lost, index = max(0, difference) for 0 … ld + 12 (0: it
    did not lose), read-only: past ld + 12 2D6 > Ld − difference always, so a larger
    difference reads the last entry and one lookup serves a whole table."""
    table = np.array([0.0] + [_fail_chance(ld, d, stubborn, reroll) for d in range(1, max(ld, 0) + 13)])
    table.setflags(write=False)
    return table


@dataclass(frozen=True)
class BreakTest:
    """How a side's break test is taken (§9.2, §10.8): the Ld, whose it is, and whether the
    combat result modifies it; or why there is no test (Unbreakable, RU Swarm)."""

    leadership: int
    general: bool  # the General's Ld (§9.2) is the better one
    modified: bool  # 2D6 against Ld − difference; False: Stubborn, unmodified Ld (§10.8)
    reroll: bool  # the battle standard's re-roll (§9.2)
    kind: str = "test"  # "test", "unbreakable" (§10.9), "swarm" (RU #39)


def break_test(unit: Unit, general_ld: int, reroll: bool, variants: Variants) -> BreakTest:
    """The unit's break test (`BreakTest`), kept with the unit: a job asks it in every
    matchup with the same General's Ld, re-roll and rules."""
    key = ("break_test", general_ld, reroll)
    known = unit._memo.get(key)
    if known is None or known[0] is not variants:
        known = unit._memo[key] = (variants, _break_test(unit, general_ld, reroll, variants))
    return known[1]


def _break_test(unit: Unit, general_ld: int, reroll: bool, variants: Variants) -> BreakTest:
    ld = max(unit.leadership, general_ld)
    kind = (
        "unbreakable"
        if unit.has("unbreakable")
        else "swarm"
        if variants.swarm_wounds_instead_of_break and unit.has("swarm")
        else "test"
    )
    return BreakTest(
        leadership=ld,
        general=general_ld > unit.leadership,
        modified=not unit.has("stubborn"),
        reroll=reroll,
        kind=kind,
    )


@dataclass(slots=True)
class CombatResult:
    """The round's result: distribution of (attacker's CR − defender's CR) and the break chances.
    (Not frozen: built in every matchup, and a frozen dataclass sets each field the slow way.)"""

    difference: np.ndarray  # P(difference = offset + i)
    offset: int
    p_attacker_wins: float
    p_draw: float
    p_defender_wins: float
    p_defender_breaks: float
    p_attacker_breaks: float
    p_defender_destroyed: float
    p_attacker_destroyed: float
    attacker_test: BreakTest
    defender_test: BreakTest
    #: RU #39: P(a losing Swarm suffers k extra wounds), k = 0, 1, …; None: not a Swarm.
    attacker_swarm_wounds: np.ndarray | None = None
    defender_swarm_wounds: np.ndarray | None = None


def _models_alive(unit: Unit, track: WoundTrack) -> np.ndarray:
    others = sum(m.count for k, m in enumerate(unit.models) if k not in unit.pool)
    return track.alive + others


def _causes_fear(unit: Unit) -> bool:
    return unit.has("fear") or unit.has("causes fear") or unit.has("terror")


def _fearless(unit: Unit) -> bool:
    """Immune to the fear auto-break: fear-causers (§10.3), Immune to Psychology, Unbreakable (§10.9)."""
    return _causes_fear(unit) or unit.has("immune to psychology") or unit.has("unbreakable")


def _by_loss(test: BreakTest, lost_by: np.ndarray) -> np.ndarray:
    """P(the side breaks) for each difference it lost by (`lost_by`; ≤ 0 where it did not
    lose) from its break test alone: none without a test (§10.9 Unbreakable; RU #39 a Swarm
    takes wounds instead)."""
    if test.kind != "test":
        return np.zeros(len(lost_by))
    table = _losing_table(test.leadership, not test.modified, test.reroll)
    return table[np.minimum(np.maximum(lost_by, 0), len(table) - 1)]


def _break_probability(
    dist: Array,
    diff: np.ndarray,
    offset: int,
    difference: np.ndarray,
    by_loss: np.ndarray,
    forced: np.ndarray | None,
    destroyed: np.ndarray,
    *,
    columns: bool,
) -> float:
    """P(a side breaks or is destroyed) over `dist`: its break test's chance of each combat
    result (`by_loss`, read per difference: `difference` holds each one's probability, so the
    table-sized work is one product), then the cells where it breaks whatever the test —
    `forced` (the fear auto-break, a Swarm's wounds taking its last) and its destroyed states
    (the last state of its track: `columns` for the defender's, else the attacker's rows) —
    raised to certain."""
    p = float(difference @ by_loss)
    if destroyed[-1]:  # the pool's last state, the only one where no model is left
        last = (slice(None), -1) if columns else (-1, slice(None))
        p += float(dist[last] @ (1.0 - by_loss[diff[last] - offset]))
    if forced is not None:
        forced = forced.copy()
        if destroyed[-1]:
            forced[last] = False  # counted above
        p += float(dist[forced] @ (1.0 - by_loss[diff[forced] - offset]))
    return p


def _per_state_all(
    unit: Unit, track: WoundTrack, width: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per wound state of the unit's track: models alive, Unit Strength, rank bonus, rank bonus
    − wounds lost (the unit's own part of the combat result: the attacker's row, negated the
    defender's column) and whether the unit is destroyed. They depend on the unit and its width
    only, and a job asks in every matchup, so they are kept with the unit."""
    key = ("per_state", track.size, width)
    known = unit._memo.get(key)
    if known is None:
        models = _models_alive(unit, track)
        strength = unit.unit_strength(0) + track.alive * unit.target.unit_strength
        ranks = rank_bonuses(models, width, unit)
        known = unit._memo[key] = (models, strength, ranks, ranks - np.arange(track.size), models == 0)
    return known


def _item_bonus(unit: Unit) -> int:
    """A magic item's combat result bonus in the unit (War Banner, §14), kept with the unit."""
    known = unit._memo.get("combat_result_bonus")
    if known is None:
        known = unit._memo["combat_result_bonus"] = max(
            (m.item_effects.get("combat_result", 0) for m in unit.models), default=0
        )
    return known


def _wounds_left(track: WoundTrack) -> np.ndarray:
    """The wounds the pool has left in each state of its track."""
    return track.size - 1 - np.arange(track.size)


def _swarm_wounds(dist: Array, lost_by: np.ndarray, wounds_left: np.ndarray) -> np.ndarray:
    """RU #39: extra wounds equal to the difference the Swarm lost by (none more than it has
    left), as P(k extra wounds)."""
    extra = np.minimum(np.maximum(lost_by, 0), wounds_left)
    return np.bincount(extra.ravel().astype(np.int64), weights=dist.ravel())


def resolve(
    dist: Array,
    attacker: Unit,
    defender: Unit,
    tracks: tuple[WoundTrack, WoundTrack],
    situation: Situation,
    variants: Variants,
) -> CombatResult:
    """§9.1 combat result of the round and §9.2 break tests, exactly over `dist`.

    The difference is built from per-state vectors (wounds caused, ranks, the flank charge's
    bonus) plus the one term that needs both states (which side has the greater US), so the
    table-sized work is a few array operations."""
    if situation.flank == "front" and situation.attacker_musician == situation.defender_musician:
        plain = _plain(dist, attacker, defender, tracks, situation, variants)
        if plain is not None:
            return plain
    return resolve_cell_by_cell(dist, attacker, defender, tracks, situation, variants)


def resolve_cell_by_cell(
    dist: Array,
    attacker: Unit,
    defender: Unit,
    tracks: tuple[WoundTrack, WoundTrack],
    situation: Situation,
    variants: Variants,
) -> CombatResult:
    """`resolve` the general way: every case (a flank or rear charge, a musician's tie-break, a
    Swarm), each cell's difference on the whole table (`_plain` is the shortcut of the rest)."""
    ta, td = tracks
    _, us_a, _, own_a, destroyed_a = _per_state_all(attacker, ta, situation.attacker_width)
    _, us_d, ranks_d, own_d, destroyed_d = _per_state_all(defender, td, situation.defender_width)

    flank = {"front": 0, "flank": 1, "rear": 2}[situation.flank]
    # §9.1: a flank or rear charger of US ≥ 5 cancels the rank bonus, but skirmishers do not (§3.5)
    flanking = (us_a >= 5) if flank > 0 else None
    extra_a, extra_d = _item_bonus(attacker), _item_bonus(defender)
    constant = (
        standard_bonus(situation.attacker_standard, situation.attacker_army_standard, variants)
        + extra_a
        + int(situation.high_ground == "attacker")
        - standard_bonus(situation.defender_standard, situation.defender_army_standard, variants)
        - extra_d
        - int(situation.high_ground == "defender")
    )
    # attacker's CR − defender's CR: wounds caused, ranks, flank, US (§9.1); integers, so
    # exact in any order
    row = own_a + np.where(flanking, flank, 0) if flanking is not None else own_a
    diff = np.add.outer(row, constant - own_d)
    diff += np.sign(np.subtract.outer(us_a, us_d))
    if flanking is not None and not attacker.has("skirmishers"):
        diff += np.multiply.outer(flanking, ranks_d)  # the defender's ranks cancelled
    if situation.attacker_musician != situation.defender_musician:  # §9.1: tie-break
        diff[diff == 0] = 1 if situation.attacker_musician else -1

    fear_breaks = variants.fear_auto_break or situation.fear_auto_break
    # §9.2 / RU #44: units within 12" of the battle standard re-roll a failed break test — the
    # bearer's own unit is one of them, so carrying it gives the re-roll as well as the +1.
    test_a = break_test(
        attacker,
        situation.attacker_general_ld,
        situation.attacker_battle_standard or situation.attacker_army_standard,
        variants,
    )
    test_d = break_test(
        defender,
        situation.defender_general_ld,
        situation.defender_battle_standard or situation.defender_army_standard,
        variants,
    )
    offset = int(diff.min())
    # Cells where a side breaks whatever its test: beaten by a fear-causer of greater US
    # (§9.2, §10.3: a side that tests), or RU #39, a losing Swarm takes the difference as
    # wounds and is gone when they are all it has left.
    forced_d = forced_a = None
    if fear_breaks and test_d.kind == "test" and _causes_fear(attacker) and not _fearless(defender):
        forced_d = (diff > 0) & np.greater.outer(us_a, us_d)
    if fear_breaks and test_a.kind == "test" and _causes_fear(defender) and not _fearless(attacker):
        forced_a = (diff < 0) & np.less.outer(us_a, us_d)
    if test_d.kind == "swarm":
        forced_d = (diff > 0) & (diff >= _wounds_left(td)[None, :])
    if test_a.kind == "swarm":
        forced_a = (diff < 0) & (-diff >= _wounds_left(ta)[:, None])
    if forced_d is None and forced_a is None:
        # One pass over the table: each cell's difference and whether either side is destroyed
        # (the last state of its track, the only one with no model left: bit 0 the defender's,
        # bit 1 the attacker's), binned; the break chances are then read per difference.
        key = diff * 4 - 4 * offset
        if destroyed_d[-1]:
            key[:, -1] += 1
        if destroyed_a[-1]:
            key[-1, :] += 2
        binned = np.bincount(key.ravel(), weights=dist.ravel())
        binned = np.concatenate([binned, np.zeros(-len(binned) % 4)]).reshape(-1, 4)
        difference = binned.sum(axis=1)
        values = np.arange(offset, offset + len(difference))
        gone_d, gone_a = binned[:, 1::2].sum(), binned[:, 2:].sum()
        p_break_d = float((binned[:, 0] + binned[:, 2]) @ _by_loss(test_d, values)) + gone_d
        p_break_a = float((binned[:, 0] + binned[:, 1]) @ _by_loss(test_a, -values)) + gone_a
        p_destroyed_d, p_destroyed_a = float(gone_d), float(gone_a)
    else:
        difference = np.bincount((diff - offset).ravel(), weights=dist.ravel())
        values = np.arange(offset, offset + len(difference))
        p_break_d = _break_probability(
            dist, diff, offset, difference, _by_loss(test_d, values), forced_d, destroyed_d, columns=True
        )
        p_break_a = _break_probability(
            dist, diff, offset, difference, _by_loss(test_a, -values), forced_a, destroyed_a, columns=False
        )
        p_destroyed_d = float(dist[:, destroyed_d].sum())
        p_destroyed_a = float(dist[destroyed_a, :].sum())

    zero = -offset  # the index of a draw in `difference` (past its end: no draw is possible)
    return CombatResult(
        difference=difference,
        offset=offset,
        p_attacker_wins=float(difference[max(zero + 1, 0) :].sum()),
        p_draw=float(difference[zero]) if 0 <= zero < len(difference) else 0.0,
        p_defender_wins=float(difference[: max(zero, 0)].sum()),
        p_defender_breaks=p_break_d,
        p_attacker_breaks=p_break_a,
        p_defender_destroyed=p_destroyed_d,
        p_attacker_destroyed=p_destroyed_a,
        attacker_test=test_a,
        defender_test=test_d,
        attacker_swarm_wounds=_swarm_wounds(dist, -diff, _wounds_left(ta)[:, None])
        if test_a.kind == "swarm"
        else None,
        defender_swarm_wounds=_swarm_wounds(dist, diff, _wounds_left(td)[None, :])
        if test_d.kind == "swarm"
        else None,
    )


#: `_plain`'s sums per result of the destroyed bits (none, the defender's, the attacker's,
#: both): the defender standing, the attacker standing, the defender destroyed, the attacker.
_BY_BITS = np.array([[1.0, 1.0, 0.0, 0.0], [0.0, 1.0, 1.0, 0.0], [1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]])
#: How far from a draw `_Side.breaks` reads the break chances by slicing (`_plain`); a combat
#: result further out goes the general way.
_REACH = 64


@dataclass(frozen=True, slots=True)
class _Side:
    """What the combat result and the break test read of one unit in its role (attacker or
    defender) for a job's situation (`_side`), so that a matchup adds the two sides' vectors.

    `key`: per state of its track, 12 × its own part of the combat result (the attacker's
    wounds caused are the defender's lost, so the attacker's rank bonus, standard and item
    bonus count up from its row and its wounds lost down; the defender's the other way, so
    negated), plus its bit of the destroyed state (the last one, when no model is left there:
    1 the defender's, 2 the attacker's) and, the attacker's, 4: `np.add.outer` of the two is
    `_plain`'s binning key but for the US term. `breaks[_REACH + v]`: P(the unit breaks on its
    test) when the attacker's combat result minus the defender's is v (`_by_loss`, sliced)."""

    key: np.ndarray
    us: np.ndarray
    test: BreakTest
    breaks: np.ndarray
    causes_fear: bool
    fearless: bool


def _side(
    unit: Unit, track: WoundTrack, situation: Situation, variants: Variants, attacking: bool
) -> _Side:
    """`_Side` of the unit, kept with it for the job's situation and rules."""
    memo_key = ("resolve_side", attacking, track.size)
    known = unit._memo.get(memo_key)
    if known is not None and known[0] is situation and known[1] is variants:
        return known[2]
    who = "attacker" if attacking else "defender"
    _, us, _, own, destroyed = _per_state_all(unit, track, getattr(situation, f"{who}_width"))
    standards = getattr(situation, f"{who}_standard"), getattr(situation, f"{who}_army_standard")
    bonus = (
        standard_bonus(*standards, variants)
        + _item_bonus(unit)
        + int(situation.high_ground == who)
    )
    test = break_test(
        unit,
        getattr(situation, f"{who}_general_ld"),
        getattr(situation, f"{who}_battle_standard") or getattr(situation, f"{who}_army_standard"),
        variants,
    )
    sign = 1 if attacking else -1
    key = 12 * sign * (own + bonus)
    if destroyed[-1]:
        key[-1] += 2 if attacking else 1
    if attacking:
        key += 4  # `_plain`'s 4 × (1 + the sign of the US), its constant part
    # the unit loses by -v as the attacker, by v as the defender
    lost_by = np.arange(-_REACH, _REACH + 1) * -sign
    side = _Side(key, us, test, _by_loss(test, lost_by), _causes_fear(unit), _fearless(unit))
    unit._memo[memo_key] = (situation, variants, side)
    return side


def _plain(
    dist: Array,
    attacker: Unit,
    defender: Unit,
    tracks: tuple[WoundTrack, WoundTrack],
    situation: Situation,
    variants: Variants,
) -> CombatResult | None:
    """`resolve` of a front combat without a musician's tie-break and without a Swarm, from
    the two sides' kept vectors (`_side`) in a few array operations: each cell binned by its
    combat result, which side has the greater US (the fear auto-break's condition, §10.3) and
    which side is destroyed, so the break chances are read per bin. None: not such a combat
    (or a combat result past `_REACH`), for the general way."""
    a = _side(attacker, tracks[0], situation, variants, True)
    d = _side(defender, tracks[1], situation, variants, False)
    if a.test.kind == "swarm" or d.test.kind == "swarm":
        return None
    fear = variants.fear_auto_break or situation.fear_auto_break
    # beaten by a fear-causer of greater US, a side that tests breaks whatever its test
    fear_d = fear and d.test.kind == "test" and a.causes_fear and not d.fearless
    fear_a = fear and a.test.kind == "test" and d.causes_fear and not a.fearless
    # 12 × (attacker's CR − defender's CR) + 4 × (1 + the sign of US_a − US_d) + the destroyed
    # bits (`_Side.key`: 12 × each side's part, its bit, the 4; the sign of the US, §9.1, is the
    # one term that needs both states: once in the result, once in the bin). Integers.
    key = np.add.outer(a.key, d.key)
    sign = np.sign(np.subtract.outer(a.us, d.us))
    sign *= 16
    key += sign
    # (the ufuncs' reductions: `.min()`, `.sum()` and the like without their Python wrappers)
    low, high = int(np.minimum.reduce(key, axis=None)), int(np.maximum.reduce(key, axis=None))
    offset = low // 12  # the cells' smallest combat result (the rest of the key is 0 … 11)
    rows = high // 12 - offset + 1
    if offset < -_REACH or offset + rows - 1 > _REACH:
        return None
    key -= 12 * offset
    binned = np.bincount(key.ravel(), weights=dist.ravel(), minlength=12 * rows).reshape(rows, 3, 4)
    zero = -offset
    forced_d = forced_a = 0.0
    if fear_d or fear_a:  # who breaks to fear depends on the US sign: kept apart per result
        difference = np.add.reduce(binned, axis=(1, 2))
        gone_d = float(np.add.reduce(binned[:, :, 1::2], axis=None))
        gone_a = float(np.add.reduce(binned[:, :, 2:], axis=None))
        standing_d = binned[:, :, 0] + binned[:, :, 2]  # (result, US sign): the defender not destroyed
        standing_a = binned[:, :, 0] + binned[:, :, 1]
        if fear_d:  # the defender lost (result > 0) to a greater US: it breaks whatever its test
            forced_d = float(np.add.reduce(standing_d[max(zero + 1, 0) :, 2]))
            standing_d[max(zero + 1, 0) :, 2] = 0.0
        if fear_a:  # the attacker lost (result < 0) to a greater US
            forced_a = float(np.add.reduce(standing_a[: max(zero, 0), 0]))
            standing_a[: max(zero, 0), 0] = 0.0
        standing_d, standing_a = np.add.reduce(standing_d, axis=1), np.add.reduce(standing_a, axis=1)
    else:
        bits = np.add.reduce(binned, axis=1)  # per result, by which side is destroyed
        difference = np.add.reduce(bits, axis=1)
        # each side standing, each side destroyed: the bits' columns added by one product
        # (exact: the other terms are zeros)
        standing_d, standing_a, gone_d, gone_a = (bits @ _BY_BITS).T
        gone_d, gone_a = float(np.add.reduce(gone_d)), float(np.add.reduce(gone_a))
    start = _REACH + offset
    p_break_d = float(standing_d @ d.breaks[start : start + rows]) + forced_d + gone_d
    p_break_a = float(standing_a @ a.breaks[start : start + rows]) + forced_a + gone_a
    return CombatResult(
        difference=difference,
        offset=offset,
        p_attacker_wins=float(np.add.reduce(difference[max(zero + 1, 0) :])),
        p_draw=float(difference[zero]) if 0 <= zero < len(difference) else 0.0,
        p_defender_wins=float(np.add.reduce(difference[: max(zero, 0)])),
        p_defender_breaks=p_break_d,
        p_attacker_breaks=p_break_a,
        p_defender_destroyed=gone_d,
        p_attacker_destroyed=gone_a,
        attacker_test=a.test,
        defender_test=d.test,
    )
