"""Steps 3–5: allocation, saves, damage, Feel No Pain and mortal wounds, as a Markov chain
over the defending unit (docs/rules/wh40k9.md §5 Steps 3–5, "Mortal wounds", "Ignoring wounds").

The defender allocates each attack to one model, and once a model has lost wounds (or had
attacks allocated) every next attack must go to it (§5 Step 3), so damage falls on one
model at a time, in an order the defender picks. The engine's order (a **Decision** the
booklet leaves to the player): the cheapest models first (by `points`, then as listed),
so sergeants and characters last. Each model is the state's "current model"; a state is
the number of wounds the unit has lost counting every dead model's full W, so state s
is (models dead, damage on the current model) and there are (Σ W) + 1 states.

A normal attack that is not saved (`saves`) does its damage (rolled per attack, reduced
by `damage_reduction` to no less than 1); each point is ignored on the model's Feel No
Pain roll; what exceeds the current model's remaining wounds is lost (Step 5). A mortal
wound is one point of damage with no save, ignored only by Feel No Pain, and carries over
to the next model. Each event is a row-stochastic matrix over the states, so attacks are
applied one after another to the state distribution, exactly (as banded matrices: an event
never moves a state back, nor further than one model's wounds).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from rules.dice.pmf import PMF
from rules.systems.wh40k9.abilities import keywords_of, of_type, structured
from rules.systems.wh40k9.saves import p_unsaved

#: Up to this many states an attack's matrix is built whole (`apply_attacks`).
DENSE_STATES = 160
#: Up to this many states a fixed number of attacks is a matrix power (`apply_attacks`).
SQUARING_STATES = 24
#: Largest defending unit, in total wounds (Σ count × W): a bound of sanity only. The states
#: an attack works on are cut at what it can reach (`estimate.reach`), so a big unit costs its
#: per-model lists and the morale table (kills × models), which the cost model prices
#: (`estimate.estimate_cost`: 200,000 one-wound models shot by ten guns take ~0.07 s and
#: 52 MB); it was 400 wounds, which refused a horde of 401 that computes in a millisecond.
MAX_DEFENDER_WOUNDS = 1_000_000


@dataclass(frozen=True)
class ModelGroup:
    """Models of one defending profile: what the dice need of them."""

    name: str
    count: int
    wounds: int
    toughness: int
    save: int | None
    invuln: int | None
    fnp: int | None
    reduction: int
    points: float
    leadership: int
    keywords: frozenset[str]


def model_groups(unit: Mapping[str, Any]) -> list[ModelGroup]:
    """The defender's profiles in allocation order (cheapest first, then as listed)."""
    groups = []
    unit_keywords = keywords_of(unit)
    for model in unit.get("models") or ():
        count = int(model.get("count") or 0)
        if count <= 0:
            continue
        abilities = structured(model.get("abilities"))
        fnp = [int(a["target"]) for a in of_type(abilities, "feel_no_pain")] if abilities else []
        reduction = max((int(a["value"]) for a in of_type(abilities, "damage_reduction")), default=0) \
            if abilities else 0
        groups.append(ModelGroup(
            name=str(model.get("name", "")), count=count, wounds=max(1, int(model.get("w") or 1)),
            toughness=max(1, int(model.get("t") or 1)), save=model.get("sv"), invuln=model.get("invuln"),
            fnp=min(fnp) if fnp else None, reduction=reduction,
            points=float(model.get("points") or 0), leadership=int(model.get("ld") or 0),
            keywords=unit_keywords | keywords_of(model)))
    if len(groups) < 2:
        return groups
    return sorted(groups, key=lambda g: g.points)  # stable: equal points keep their listed order


def majority_toughness(groups: Sequence[ModelGroup]) -> int:
    """The T a wound roll uses against a mixed unit: **Decision** (the booklet is silent)
    — the T of most of the unit's models, the highest on a tie."""
    counts: dict[int, int] = {}
    for group in groups:
        counts[group.toughness] = counts.get(group.toughness, 0) + group.count
    return max(counts, key=lambda t: (counts[t], t))


def _thinned(pmf: PMF, p: float) -> PMF:
    """P(k points kept) when N ~ `pmf` points each stay with probability p, independently:
    Σ_n pmf[n]·Binomial(n, p)[k]. In plain floats: a damage PMF has a handful of values, where
    a numpy pass per binomial row costs more than the arithmetic."""
    q = 1.0 - p
    out = [0.0] * len(pmf)
    row = [1.0]  # Binomial(n, p) for n = 0, 1, …: each from the one before
    for n, weight in enumerate(pmf.tolist()):
        if n:
            row = [row[0] * q, *[row[k] * q + row[k - 1] * p for k in range(1, n)], row[n - 1] * p]
        if weight:
            for k, value in enumerate(row):
                out[k] += weight * value
    return np.array(out)


def check_defender(groups: Sequence[ModelGroup]) -> int:
    """The unit's total wounds; ValueError if it cannot be estimated (no models, too big)."""
    if not groups:
        raise ValueError("the defending unit has no models")
    total = sum(g.wounds * g.count for g in groups)
    if total > MAX_DEFENDER_WOUNDS:
        raise ValueError(f"the defending unit has {total} wounds in total; at most "
                         f"{MAX_DEFENDER_WOUNDS} can be estimated")
    return total


class Defender:
    """The state space of one defending unit and the matrices of the events that hit it.

    `size` states in all (0 … Σ W); the events work on the first `states` of them only:
    the caller proves no event sequence goes further (every attack moves the state forward
    by a bounded number of wounds, `estimate.reach`), so the rest keep probability exactly 0
    and are never computed. 40 vehicles hit by 20 one-damage shots need 21 states of 401.
    """

    def __init__(self, groups: Sequence[ModelGroup], *, states: int | None = None):
        total = check_defender(groups)
        self.groups = list(groups)
        self.models = sum(g.count for g in self.groups)
        self.size = total + 1  # states 0 … Σ W; the last one: every model dead
        self.states = n = self.size if states is None else max(1, min(self.size, states))
        self.truncated = n < self.size  # "every model dead" is outside the worked-on states
        # An event's matrix row depends only on the current model's group and remaining
        # wounds: `key[s]` picks state s's row in a table of (group, remaining) rows (the
        # last table row: every model dead, nothing moves).
        self.width = max(g.wounds for g in self.groups) + 1
        self.offsets = list(itertools.accumulate((g.wounds + 1 for g in self.groups), initial=0))
        s = np.arange(n)
        if len(self.groups) == 1:
            group = self.groups[0]
            self.dead, damage = np.divmod(s, group.wounds)
            self.key = group.wounds - damage  # remaining wounds; the group's rows start at 0
            self.points_lost = self.dead * group.points
        else:
            wounds = np.array([g.wounds for g in self.groups])
            counts = np.array([g.count for g in self.groups])
            prices = np.array([g.points for g in self.groups])
            starts = np.concatenate([[0], np.cumsum(wounds * counts)])
            dead_before = np.concatenate([[0], np.cumsum(counts)])
            points_before = np.concatenate([[0.0], np.cumsum(counts * prices)])
            # The "every model dead" state is past the last block: it gets the last group.
            group_of = np.minimum(np.searchsorted(starts, s, side="right") - 1, len(self.groups) - 1)
            index, damage = np.divmod(s - starts[group_of], wounds[group_of])
            self.key = np.array(self.offsets[:-1])[group_of] + wounds[group_of] - damage
            self.dead = dead_before[group_of] + index
            self.points_lost = points_before[group_of] + index * prices[group_of]
        if not self.truncated:
            self.dead[-1] = self.models
            self.points_lost[-1] = sum(g.points * g.count for g in self.groups)
            self.key[-1] = self.offsets[-1]

    def start(self) -> np.ndarray:
        v = np.zeros(self.states)
        v[0] = 1.0
        return v

    def full(self, v: np.ndarray) -> np.ndarray:
        """A distribution over the worked-on states written over all `size` states."""
        if len(v) == self.size:
            return v
        out = np.zeros(self.size)
        out[: len(v)] = v
        return out

    def _effective_damage(self, damage: PMF, group: ModelGroup, *, reduce: bool) -> PMF:
        """P(the model loses e wounds) before the overkill cut: reduction, then FNP per point."""
        if reduce and group.reduction and len(damage) > 2:
            values = np.maximum(1, np.arange(len(damage)) - group.reduction)
            values[0] = 0
            reduced = np.bincount(values, weights=damage, minlength=len(damage))
        else:
            reduced = damage
        if group.fnp is None:
            return reduced
        p_lost = 1 - (7 - max(2, group.fnp)) / 6
        return _thinned(reduced, p_lost)

    def _band(self, p_hit: list[float], per_group: list[PMF]) -> Band:
        """Each alive state: with p_hit[g] the current model (of group g) loses e ~
        per_group[g] wounds (the rest of its wounds at most: excess lost, §5 Step 5);
        otherwise nothing. An event moves a state forward by at most the current model's
        wounds, so the matrix is a band: `band[s, j]` = P(s → s + j). Built as one row per
        (group, remaining wounds), then gathered per state."""
        width = self.width
        table = []  # in plain floats: a few short rows, where each numpy pass costs more than its arithmetic
        for g, group in enumerate(self.groups):
            p = p_hit[g]
            weights = [x * p for x in per_group[g].tolist()]  # P(the event and e wounds)
            tails = [0.0] * (len(weights) + 1)  # P(the event and ≥ e wounds), summed from the top
            for e in range(len(weights) - 1, -1, -1):
                tails[e] = tails[e + 1] + weights[e]
            weights = weights[:width] + [0.0] * (width - len(weights))
            table.append([0.0] * width)  # remaining 0: no state has it
            for r in range(1, group.wounds + 1):  # remaining r: fewer than r wounds as rolled, r or more kill
                row = [*weights[:r], tails[r] if r < len(tails) else 0.0, *[0.0] * (width - r - 1)]
                row[0] += 1.0 - p
                table.append(row)
        table.append([1.0] + [0.0] * (width - 1))  # every model dead: nothing moves
        return Band(np.array(table), self)

    def attack_band(self, *, ap: int, damage: PMF) -> Band:
        """One wound with AP `ap` and damage `damage`, allocated to the current model (Steps 3–5)."""
        p_hit = [p_unsaved(save=g.save, invuln=g.invuln, ap=ap) for g in self.groups]
        per_group = [self._effective_damage(damage, g, reduce=True) for g in self.groups]
        return self._band(p_hit, per_group)

    @cached_property
    def mortal_wound_band(self) -> Band:
        """One mortal wound: 1 damage, no save, Feel No Pain only; carries over (it never exceeds)."""
        one = np.array([0.0, 1.0])
        per_group = [self._effective_damage(one, g, reduce=False) for g in self.groups]
        return self._band([1.0] * len(self.groups), per_group)

    def mortal_wounds(self, v: np.ndarray, amount: PMF) -> np.ndarray:
        """`amount` mortal wounds (a PMF) on the state distribution `v`, one after another."""
        total = np.zeros_like(v)
        for k, p in enumerate(amount):
            if p:
                total += p * v
            if k + 1 < len(amount):
                v = self.mortal_wound_band.apply(v)
        return total

    def kills(self, v: np.ndarray) -> np.ndarray:
        """P(k models dead) for k = 0 … models (`v` over the worked-on states)."""
        return np.bincount(self.dead, weights=v, minlength=self.models + 1)


class Band:
    """A row-stochastic matrix over the defender's worked-on states that only moves a state
    forward, by at most `width − 1`: its rows per (group, remaining wounds) and the states' keys."""

    def __init__(self, rows: np.ndarray, defender: Defender):
        self.rows = rows
        self.defender = defender

    @cached_property
    def band(self) -> np.ndarray:
        """`band[s, j]` = P(s → s + j)."""
        return self.rows[self.defender.key]

    def dense(self) -> np.ndarray:
        """M written out (states × states): `dense[s, s + j]` = `band[s, j]`."""
        return dense(self.band)

    def apply(self, v: np.ndarray) -> np.ndarray:
        """v·M, in O(states × width); `v` may be a stack of row vectors (…, states)."""
        band = self.band
        size, width = band.shape
        out = v * band[:, 0]
        for j in range(1, min(width, size)):
            out[..., j:] += v[..., : size - j] * band[: size - j, j]
        return out


def dense(band: np.ndarray) -> np.ndarray:
    """The states × states matrix of a band (`band[s, j]` = P(s → s + j)). The band goes into
    rows of length L + 1 (L = states + width) at their start; read back with rows of length L,
    row s starts s places earlier, so its entries land at columns s … s + width − 1 (and the
    other cells are zeros of the padding)."""
    n, width = band.shape
    length = n + width
    out = np.zeros(n * (length + 1))
    out.reshape(n, length + 1)[:, :width] = band
    return out[: n * length].reshape(n, length)[:, :n]


def apply_attacks(v: np.ndarray, per_attack: Callable[[np.ndarray], np.ndarray], attacks: PMF, *,
                  matrix: Callable[[], np.ndarray] | None = None, last_is_dead: bool = True) -> np.ndarray:
    """Σ_n P(N = n) · v·Mⁿ: `attacks` ~ N attacks, each the step `per_attack` (v ↦ v·M);
    `matrix()`, if given, is M itself (used when there are few states and several attacks).
    `last_is_dead`: v's last state is "every model dead" (not so on truncated states), so
    once all the mass is there the later attacks change nothing."""
    if matrix is not None and len(attacks) > 2 and len(v) <= DENSE_STATES:
        # Few states: the whole one-attack matrix once, then one dense product per attack
        # instead of the step's many band passes; a fixed number of attacks (Assault 10)
        # on very few states is v·M^N by repeated squaring (log N products of n³, cheaper
        # than N of n² only while n is small).
        one_attack = matrix()
        if len(v) <= SQUARING_STATES and not attacks[:-1].any():
            n, power = len(attacks) - 1, one_attack  # v·M^n: v times M^(2^i) for each bit i of n
            while True:
                if n & 1:
                    v = v @ power
                n >>= 1
                if not n:
                    return v
                power = power @ power
        per_attack = one_attack.__rmatmul__
    result = attacks[0] * v
    for n in range(1, len(attacks)):
        v = per_attack(v)
        p = attacks[n]
        if p:
            result += p * v
        if last_is_dead and 1.0 - v[-1] < 1e-17:  # every later attack finds the unit dead
            result += attacks[n + 1 :].sum() * v
            break
    return result
