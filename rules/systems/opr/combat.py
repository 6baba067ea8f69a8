"""The OPR attack sequence (`docs/rules/opr-combat.md`), exactly, one rule per function.

Read top to bottom it is the spec's "Sequence": which weapons attack (§1), the quality
test (§2), extra hits (§3), Blast (§4), the defence test (§5), wounds and Deadly (§6),
Regeneration (§7), allocation (§8) and several weapons in turn (§9). Each step says which
faces of a d6 do what or how a count changes; the arithmetic is `rules.dice`, which knows
no OPR rule.

Decisions taken here beyond the spec's own (each in one named function or constant):
- the defender's unit-wide rules that act before any model is chosen (Stealth, Aircraft)
  count when every model of the defender has them (`unit_has`);
- a weapon's defence dice are rolled together with the profile of the model its first
  wound goes to (the damaged model, else the next one in allocation order): the model
  that "takes" the attack (`resolve_weapon`);
- Blast counts the defender's models alive when that weapon resolves;
- a damaged model takes the next wounds whoever allocates ("one model at a time");
- once the defender is destroyed the remaining weapons have no target: their attacks,
  hits and wounds count only while it lives;
- Reliable (Q2) wins over Good Shot / Bad Shot (`quality`); Cautious needs the defender
  beyond 12" and no other enemy within 12" (`Situation.no_enemy_within_12`);
- Precise picks the dearest model even if it is a hero (`precise_order`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from points.opr.unit import Model, Unit, Weapon
from rules.dice import counts
from rules.dice.allocation import (
    DENSE_CELLS_LIMIT,
    AllocationSpace,
    DenseDistribution,
    Placement,
    StateDistribution,
    dense_cells,
)
from rules.dice.bounded_cache import ByteBoundedCache
from rules.dice.d6 import FACES, D6Test, value_pmf
from rules.dice.pmf import PMF, mean, point_mass
from rules.systems.opr.situation import Situation

NATURAL_ONE = 1
NATURAL_FIVE = 5
NATURAL_SIX = 6
#: §2 (seed, Aircraft): "units shooting at it have −12" range".
AIRCRAFT_RANGE_PENALTY = 12
#: §2 Stealth: −1 to hit "when further than 6"".
STEALTH_RANGE = 6
#: §5: cover is +1 to defence, +2 for an Entrenched defender.
COVER_BONUS = 1
ENTRENCHED_COVER_BONUS = 2


class WeaponGroup(NamedTuple):
    """§1: every model carrying the same weapon (with the same attacking profile) attacks together.

    Named tuples, as `WeaponOutcome`: built several times an attack, a frozen dataclass's
    field-by-field `__init__` cost more than the rest of their step (issue 42)."""

    weapon: Weapon
    model: Model
    models: int
    attacks: int
    melee: bool


def unit_has(unit: Unit, rule: str) -> bool:
    """Decision: a unit has a defensive rule that acts before allocation when all its models have it."""
    for model in unit.models:  # noqa: SIM110 - a loop, not all(): asked several times an attack, slower
        if not model.has(rule):
            return False
    return True


# §1 Attacks ---------------------------------------------------------------------------


def in_range(weapon: Weapon, defender: Unit, range_inches: float) -> bool:
    """§1, §2: a ranged weapon reaches the defender; an Aircraft defender takes 12" off its
    range unless the weapon has Lock-On."""
    reach = weapon.range
    if unit_has(defender, "Aircraft") and not weapon.has("Lock-On"):
        reach -= AIRCRAFT_RANGE_PENALTY
    return range_inches <= reach


def used_in_mode(weapon: Weapon, defender: Unit, melee: bool, range_inches: float) -> bool:
    """§1: shooting uses ranged weapons in range; melee uses melee weapons and Assault weapons."""
    if melee:
        return weapon.is_melee or weapon.has("Assault")
    return not weapon.is_melee and in_range(weapon, defender, range_inches)


def attacks(attacker: Unit, defender: Unit, melee: bool, range_inches: float) -> list[WeaponGroup]:
    """§1 Attacks = weapon attacks × number of models carrying it, per weapon profile.

    Models carrying the same weapon attack together when their quality and rules (which
    change the hit roll) are the same; otherwise each profile is its own group.
    """
    groups: dict[tuple, WeaponGroup] = {}
    for model in attacker.models:
        for weapon in model.weapons:
            if not used_in_mode(weapon, defender, melee, range_inches) or weapon.attacks * model.count == 0:
                continue
            key = (weapon, model.quality, model.rules)
            if key in groups:
                g = groups[key]
                carried = g.models if g.model is model else g.models + model.count
                total = g.attacks + weapon.attacks * model.count
                groups[key] = WeaponGroup(weapon, g.model, carried, total, melee)
            else:
                groups[key] = WeaponGroup(weapon, model, model.count, weapon.attacks * model.count, melee)
    return list(groups.values())


# §2 Quality test ----------------------------------------------------------------------


def quality(model: Model, weapon: Weapon, melee: bool) -> int:
    """§2 Q: Reliable → 2; Good Shot / Bad Shot → 4 / 5 for ranged weapons; else the model's Q."""
    if weapon.has("Reliable"):
        return 2
    if not melee and model.has("Good Shot"):
        return 4
    if not melee and model.has("Bad Shot"):
        return 5
    return model.quality


def quality_modifier(model: Model, weapon: Weapon, defender: Unit, situation: Situation) -> int:
    """§2 modifiers: +1 Lance charging, Cautious with no enemy within 12", Spearhead against a
    defender that has not activated; −1 Stealth beyond 6", −1 shooting an Aircraft;
    Lock-On ignores the negative ones."""
    bonus = 0
    if weapon.has("Lance") and situation.charging:
        bonus += 1
    if model.has("Cautious") and situation.no_enemy_within_12:
        bonus += 1
    if model.has("Spearhead") and not situation.defender_activated:
        bonus += 1
    penalty = 0
    if unit_has(defender, "Stealth") and situation.shooting and situation.range_inches > STEALTH_RANGE:
        penalty += 1
    if unit_has(defender, "Aircraft") and situation.shooting:
        penalty += 1
    if weapon.has("Lock-On"):
        penalty = 0
    return bonus - penalty


@lru_cache(maxsize=256)
def quality_test(q: int, modifier: int) -> D6Test:
    """§2: success when d6 + modifiers ≥ Q; a natural 6 always succeeds, a natural 1 always fails."""
    return D6Test(q, modifier, always_succeed=frozenset({NATURAL_SIX}), always_fail=frozenset({NATURAL_ONE}))


# §3 Extra hits, §4 Blast --------------------------------------------------------------


def extra_hits(model: Model, weapon: Weapon, situation: Situation, melee: bool) -> int:
    """§3 extra hits on a natural 6: Rending, Furious when charging, Relentless when the
    attacker did not move (shooting). Decision (spec): they stack."""
    extra = 0
    if weapon.has("Rending"):
        extra += 1
    if model.has("Furious") and situation.charging:
        extra += 1
    if model.has("Relentless") and not melee and not situation.attacker_moved:
        extra += 1
    return extra


@lru_cache(maxsize=256)
def hits_per_attack(test: D6Test, extra: int) -> PMF:
    """§2–3: one attack scores 0 hits, 1 hit, or 1 + extra hits on a natural 6 (kept per test
    and extra hits, read-only: a few dozen in all)."""
    return _read_only(counts.successes_per_die(test, {NATURAL_SIX: extra}))


def _read_only(pmf: PMF) -> PMF:
    pmf.setflags(write=False)
    return pmf


def blast_factor(weapon: Weapon, models_in_defender: int) -> int:
    """§4 Blast(X): each hit becomes min(X, models in the defender) hits."""
    x = weapon.value_of("Blast")
    return 1 if x is None else max(0, min(x, models_in_defender))


def blast(hits: PMF, weapon: Weapon, models_in_defender: int) -> PMF:
    """§4: the hits after Blast multiplies them."""
    return counts.multiply(hits, blast_factor(weapon, models_in_defender))


# §5 Defence test, §6 Wounds, §7 Regeneration ----------------------------------------


def cover_bonus(target: Model, weapon: Weapon, situation: Situation) -> int:
    """§5: +1 in cover or with Shield (always in cover), +2 if Entrenched; No Cover and
    Lock-On ignore cover."""
    if weapon.has("No Cover") or weapon.has("Lock-On"):
        return 0
    if not (situation.defender_in_cover or target.has("Shield")):
        return 0
    return ENTRENCHED_COVER_BONUS if target.has("Entrenched") else COVER_BONUS


def armour_piercing(weapon: Weapon, situation: Situation) -> int:
    """§5: the weapon's AP, +1 for Lance when charging."""
    return weapon.ap + (1 if weapon.has("Lance") and situation.charging else 0)


def defence_test(target: Model, weapon: Weapon, situation: Situation) -> D6Test:
    """§5: success when d6 + modifiers − AP ≥ D. A natural 1 always fails; a natural 6 always
    succeeds except against Corrosive or for a Delicate defender; Resistant makes a natural 5
    succeed too (not against Corrosive). A Spearhead defender has +1 after its activation."""
    modifier = cover_bonus(target, weapon, situation) - armour_piercing(weapon, situation)
    if target.has("Spearhead") and situation.defender_activated:
        modifier += 1
    six = five = False
    if not weapon.has("Corrosive"):
        six = not target.has("Delicate")
        five = target.has("Resistant")
    return _defence_test(target.defence, modifier, six, five)


@lru_cache(maxsize=512)
def _defence_test(defence: int, modifier: int, six: bool, five: bool) -> D6Test:
    """`defence_test`'s test, one per (D, modifier, automatic faces): a few dozen in all, and the
    same object each time (`wound_per_defence_die` is kept by it)."""
    automatic = frozenset(face for face, on in ((NATURAL_SIX, six), (NATURAL_FIVE, five)) if on)
    return D6Test(defence, modifier, automatic, frozenset({NATURAL_ONE}))


def regeneration(target: Model, weapon: Weapon) -> bool:
    """§7: a Regeneration defender cancels wounds with natural 6s, not against Brutal."""
    return target.has("Regeneration") and not weapon.has("Brutal")


@lru_cache(maxsize=512)
def wound_per_defence_die(test: D6Test, regenerates: bool) -> tuple[PMF, int]:
    """§6–7: a failed defence die is one wound; with Regeneration a natural 6 takes one away
    (a natural 6 that fails, against Corrosive, both wounds and cancels: net 0). Kept per
    test (read-only): a few dozen in all."""
    values = [(0 if test.succeeds(f) else 1) - (1 if regenerates and f == NATURAL_SIX else 0) for f in FACES]
    pmf, low = value_pmf(values)
    return _read_only(pmf), low


def deadly(weapon: Weapon) -> int:
    """§6 Deadly(X): each wound is X wounds on one model; the excess is lost (the allocation
    core never carries it over)."""
    return weapon.value_of("Deadly") or 1


def wounds(n_attacks: int, hits: PMF, wound_die: tuple[PMF, int], limit: int) -> PMF:
    """§6–7 for one weapon: P(w wounds) before Deadly multiplies them, folded at `limit`.

    Each of the `n_attacks` attacks scores `hits` (after extra hits and Blast), each hit
    rolls a defence die scoring `wound_die`. Regeneration's dice are rolled together, so
    the count is max(0, failed tests − natural 6s) over the whole attack, not per hit.
    """
    hits_bytes, die_bytes = hits.tobytes(), wound_die[0].tobytes()
    key = (n_attacks, hits_bytes, die_bytes, wound_die[1], limit)
    return WOUNDS_CACHE.get_or_compute(
        key, lambda: _wounds(n_attacks, hits_bytes, die_bytes, wound_die[1], limit))


#: Wound PMFs by the exact odds, so equal odds from different units share one computation;
#: bounded by bytes (a PMF is as long as the wounds the attack can cause).
WOUNDS_CACHE = ByteBoundedCache(max_bytes=32 * 1024 * 1024)


def _wounds(n_attacks: int, hits: bytes, die: bytes, die_low: int, limit: int) -> PMF:
    """`wounds` (the PMFs as their bytes, `wounds`'s key), its trailing impossible counts
    dropped: a weapon's PMF is as long as the wounds it can cause, not as long as the
    defender's toughness (the allocation walks only that many steps)."""
    per_attack, low = _per_attack(hits, die, die_low)
    result = counts.clamped_sum(per_attack, low, n_attacks, limit)
    if not result[-1]:  # trailing impossible counts, dropped
        nonzero = np.flatnonzero(result)
        result = result[: int(nonzero[-1]) + 1] if len(nonzero) else result[:1]
    result.setflags(write=False)
    return result


@lru_cache(maxsize=1024)
def _per_attack(hits: bytes, die: bytes, die_low: int) -> tuple[PMF, int]:
    """One attack's net wounds (`counts.signed_compound` of its hits and their defence dice),
    kept per pair of PMFs (their bytes): the odds of a few dozen tests, not the inputs."""
    pmf, low = counts.signed_compound(np.frombuffer(hits), np.frombuffer(die), die_low)
    return _read_only(pmf), low


# §8 Allocation, §9 several weapons ----------------------------------------------------


def defender_order(defender: Unit, model_costs: Sequence[float]) -> tuple[int, ...]:
    """§8 Decision: the defender allocates to the model that loses the fewest points, heroes
    last while other models live (ties: the unit's own order)."""
    return tuple(
        sorted(range(len(defender.models)), key=lambda i: (defender.models[i].has("Hero"), model_costs[i], i))
    )


def precise_order(defender: Unit, model_costs: Sequence[float]) -> tuple[int, ...]:
    """§8 Precise: the attacker allocates and picks the most expensive model first (heroes
    included: the hero's protection is the defender's choice, which Precise takes away)."""
    return tuple(sorted(range(len(defender.models)), key=lambda i: (-model_costs[i], i)))


def allocate(weapon: Weapon, defender: Unit, model_costs: Sequence[float]) -> Placement:
    """§8: who picks the model each wound goes to, and how many wounds one failed test is."""
    order = precise_order if weapon.has("Precise") else defender_order
    return Placement(order(defender, model_costs), deadly(weapon))


class WeaponOutcome(NamedTuple):
    """§ Outputs, per weapon: expected attacks, hits (after extra hits and Blast), wounds taken
    and models killed, while the defender still had models."""

    group: WeaponGroup
    attacks: float
    hits: float
    wounds: float
    kills: float


@dataclass(frozen=True)
class AttackOutcome:
    """The exact result of one attack: a distribution over the defender's allocation states."""

    dist: DenseDistribution | StateDistribution
    weapons: tuple[WeaponOutcome, ...]

    @property
    def states(self) -> PMF:
        """The probabilities of the states the defender may be left in."""
        return self.dist.probs

    @property
    def kills(self) -> PMF:
        """P(k models killed), k = 0 … models in the defender (computed once, read-only)."""
        known = self.__dict__
        if "kills" not in known:
            known["kills"] = _read_only(self.dist.distribution(self.dist.models_killed,
                                                               self.dist.total_models + 1))
        return known["kills"]

    @property
    def wounds(self) -> PMF:
        """P(w wounds taken), w = 0 … the defender's total toughness (lost Deadly excess not counted)."""
        known = self.__dict__
        if "wounds" not in known:
            known["wounds"] = _read_only(self.dist.distribution(self.dist.wounds, self.dist.total_wounds + 1))
        return known["wounds"]

    @property
    def p_destroyed(self) -> float:
        """P(every model killed): the last entry of `kills` (the destroyed unit is one state)."""
        known = self.__dict__
        if "p_destroyed" not in known:
            known["p_destroyed"] = float(self.kills[-1])
        return known["p_destroyed"]

    def expected_points_destroyed(self, model_costs: Sequence[float]) -> float:
        """Σ over states of P(state) × the points of the models it has lost."""
        if len(model_costs) == 1:  # one profile: its cost × the expected kills (`kills`, kept)
            return float(model_costs[0]) * mean(self.kills)
        # `.dot`: the same products and sums as `@`, without the matmul ufunc's dispatch
        lost = self.dist.killed.dot(np.asarray(model_costs, dtype=np.float64))
        return float(self.dist.probs.dot(lost))


_NO_WOUNDS = _read_only(point_mass(0))


def resolve_weapon(
    dist: DenseDistribution | StateDistribution,
    group: WeaponGroup,
    placement: Placement,
    defender: Unit,
    situation: Situation,
) -> tuple[DenseDistribution | StateDistribution, WeaponOutcome]:
    """§2–8 for one weapon group, from every state the defender may be in.

    In each state the weapon meets a definite model (the damaged one, else the next in
    allocation order) and a definite number of models (for Blast): those two select the
    wound distribution, computed once per distinct pair.
    """
    weapon, model = group.weapon, group.model
    q = quality(model, weapon, group.melee)
    hit_test = quality_test(q, quality_modifier(model, weapon, defender, situation))
    hits = hits_per_attack(hit_test, extra_hits(model, weapon, situation, group.melee))
    limit = dist.max_events(placement.damage)
    if isinstance(dist, DenseDistribution) and dist.untouched:
        return _resolve_untouched(dist, group, placement, defender, situation, hits, limit)
    # Blast only sees the models alive up to its X: states that differ beyond that share odds.
    keys, inverse = dist.target_codes(placement, weapon.value_of("Blast") or 0)
    stride = dist.total_models + 1
    # Only the pairs some state with probability meets: a state of probability 0 adds exactly 0
    # whatever its row.
    reached = np.zeros(len(keys), dtype=bool)
    reached[inverse[dist.probs > 0]] = True
    rows: list[PMF] = []
    expected_hits = np.zeros(len(keys))
    for i, key in enumerate(keys.tolist()):
        if key < 0 or not reached[i]:  # destroyed (nothing left to attack), or never met
            rows.append(_NO_WOUNDS)
            continue
        target_model = defender.models[key // stride]
        blasted = blast(hits, weapon, key % stride)
        defence = defence_test(target_model, weapon, situation)
        die = wound_per_defence_die(defence, regeneration(target_model, weapon))
        rows.append(wounds(group.attacks, blasted, die, limit))
        expected_hits[i] = group.attacks * mean(blasted)
    table = np.zeros((len(rows), max(len(r) for r in rows)))
    for i, row in enumerate(rows):
        table[i, : len(row)] = row
    after = dist.resolve(table[inverse], placement)
    p_alive = float(dist.probs[~dist.destroyed].sum())
    outcome = WeaponOutcome(
        group=group,
        attacks=group.attacks * p_alive,
        hits=float(dist.probs.dot(expected_hits[inverse])),
        wounds=float(after.probs.dot(after.wounds) - dist.probs.dot(dist.wounds)),
        kills=float(after.probs.dot(after.models_killed) - dist.probs.dot(dist.models_killed)),
    )
    return after, outcome


def _resolve_untouched(
    dist: DenseDistribution,
    group: WeaponGroup,
    placement: Placement,
    defender: Unit,
    situation: Situation,
    hits: PMF,
    limit: int,
) -> tuple[DenseDistribution, WeaponOutcome]:
    """`resolve_weapon` from the untouched defender (the first weapon of an attack): one state,
    with certainty, so one wound row and the outcome's sums over states are that state's own
    terms (the others' are exactly 0), taken without a pass over every state or its codes."""
    weapon = group.weapon
    target = dist.space.untouched_target(placement)
    if target < 0:  # a defender of no models: nothing to attack
        row, expected_hits = _NO_WOUNDS, 0.0
    else:
        target_model = defender.models[target]
        blasted = blast(hits, weapon, dist.total_models)
        die = wound_per_defence_die(defence_test(target_model, weapon, situation),
                                    regeneration(target_model, weapon))
        row, expected_hits = wounds(group.attacks, blasted, die, limit), group.attacks * mean(blasted)
    after = dist.resolve_untouched(row, placement)
    outcome = WeaponOutcome(
        group=group,
        attacks=group.attacks * (0.0 if target < 0 else 1.0),  # no model to attack: destroyed
        hits=float(expected_hits),
        wounds=float(after.probs.dot(after.wounds)),  # `.dot`: `@`'s sums, a cheaper call
        kills=float(after.probs.dot(after.models_killed)),
    )
    return after, outcome


def resolve_attack(
    attacker: Unit, defender: Unit, situation: Situation, model_costs: Sequence[float]
) -> AttackOutcome:
    """§9: the attacker's weapons resolve one after another against the same defender, the
    allocation state carrying from one to the next. `model_costs[i]` is the cost of one model
    of `defender.models[i]` (it decides the allocation order)."""
    if len(model_costs) != len(defender.models):
        raise ValueError("one model cost per model profile of the defender")
    groups = attacks(attacker, defender, situation.melee, situation.range_inches)
    placements = [allocate(group.weapon, defender, model_costs) for group in groups]
    dist = start_distribution(defender, placements or [Placement(defender_order(defender, model_costs))])
    outcomes = []
    for group, placement in zip(groups, placements, strict=True):
        dist, outcome = resolve_weapon(dist, group, placement, defender, situation)
        outcomes.append(outcome)
    return AttackOutcome(dist, tuple(outcomes))


def start_distribution(defender: Unit,
                       placements: Sequence[Placement]) -> DenseDistribution | StateDistribution:
    """The untouched defender: on the whole (cached) allocation machine when it is small, else
    as a sparse distribution that grows with the attack (`rules.dice.allocation.dense_cells`)."""
    if len(defender.models) == 1:  # most units: no lists to build
        (only,) = defender.models
        toughness, counts_ = (only.toughness,), (only.count,)
    else:
        toughness = tuple([m.toughness for m in defender.models])
        counts_ = tuple([m.count for m in defender.models])
    distinct = (placements[0],) if len(placements) == 1 else tuple(dict.fromkeys(placements))
    if dense_cells(toughness, counts_, distinct) <= DENSE_CELLS_LIMIT:
        space = SPACES.get_or_compute((toughness, counts_, distinct),
                                      lambda: AllocationSpace(toughness, counts_, distinct))
        return DenseDistribution.start(space)
    return StateDistribution.untouched(toughness, counts_)


class _SpaceCache:
    """Small allocation machines by (toughness, counts, placements), least recently used out
    past `max_bytes` (their states and paths counted): a defender met by many attackers with
    the same placements is built once, and the cache never grows with the inputs' size."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.bytes = 0
        self._entries: dict[tuple, tuple[AllocationSpace, int]] = {}

    @staticmethod
    def _size(space: AllocationSpace) -> int:
        states = len(space)
        width = 16
        for placement in space.placements:  # a loop, not sum(): once a matchup, on a cold cache
            width += space.max_events(placement.damage) + 1
        return 8 * states * width + 250 * states  # paths and per-state arrays; the state tuples

    def get_or_compute(self, key: tuple, build: Callable[[], AllocationSpace]) -> AllocationSpace:
        if key in self._entries:
            space, size = self._entries.pop(key)
            self._entries[key] = (space, size)
            return space
        space = build()
        size = self._size(space)
        self._entries[key] = (space, size)
        self.bytes += size
        while self.bytes > self.max_bytes and len(self._entries) > 1:
            oldest = next(iter(self._entries))
            self.bytes -= self._entries.pop(oldest)[1]
        return space

    def clear(self) -> None:
        self._entries.clear()
        self.bytes = 0


SPACES = _SpaceCache(max_bytes=64 * 1024 * 1024)
