"""Wounds placed on a unit's models one model at a time, as a Markov state machine.

A unit is a list of *groups* of interchangeable models (same toughness, same value to
their owner), each with a count. Damage arrives in *events*: one event puts `damage`
wounds on a single model, and what exceeds that model's remaining toughness is lost
(so an ordinary wound is an event of damage 1, and a multi-wound hit that may not carry
over is an event of damage X). A damaged model takes the next events until it dies;
a fresh model is chosen by a priority `order` of groups, which is how "the defender
picks" or "the attacker picks" is expressed without the core knowing either.

The state is (models alive per group, the group of the damaged model or −1, its damage),
which is "models left × wounds on the current model" extended to mixed units. Only the
states reachable with the placements the caller announces are built, so a unit allocated
in one fixed order has exactly (total wounds + 1) states. An attack is then a matrix
step: each state carries a PMF of event counts, and each count leads deterministically
to one state, so sequential weapons are repeated applications of `resolve` on the same
distribution over states.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import mul
from typing import Any

import numpy as np
import numpy.typing as npt

from rules.dice.pmf import PMF

State = tuple[tuple[int, ...], int, int]
IntArray = npt.NDArray[np.int64]


#: Chains of up to this many states are listed in Python, longer ones with numpy's arrays.
_PYTHON_CHAIN = 256


@dataclass(frozen=True, slots=True)
class Placement:
    """How one batch of events is placed: group priority for a fresh model, wounds per event."""

    order: tuple[int, ...]
    damage: int = 1


class AllocationSpace:
    """Every reachable state of one unit under the announced placements, with per-state facts.

    Arrays indexed by state: `alive` (S × groups), `models_alive`, `models_killed`,
    `killed` (S × groups), `wounds` (wounds taken, lost excess not counted), `destroyed`.
    """

    def __init__(self, toughness: Sequence[int], counts: Sequence[int], placements: Iterable[Placement]):
        if len(toughness) != len(counts) or not toughness:
            raise ValueError("one toughness and one count per group, at least one group")
        if min(toughness) < 1 or min(counts) < 0:
            raise ValueError("toughness must be at least 1 and counts not negative")
        self.toughness = tuple(map(int, toughness))
        self.counts = tuple(map(int, counts))
        self.placements = tuple(dict.fromkeys(placements))
        groups = list(range(len(self.toughness)))
        for placement in self.placements:
            if sorted(placement.order) != groups or placement.damage < 1:
                raise ValueError(f"{placement} must order every group once and do at least 1 damage")

        self._paths: dict[Placement, IntArray] = {}
        self._targets: dict[tuple[int, ...], IntArray] = {}
        #: Per (allocation order, cap): `target_codes`, the distinct (target, models alive) pairs.
        self._codes: dict[tuple[tuple[int, ...], int], tuple[IntArray, IntArray]] = {}
        self._max_events: dict[int, int] = {}
        self.total_models = sum(self.counts)
        self.total_wounds = sum(map(mul, self.toughness, self.counts))
        self._chain: Placement | None = None
        if len(self.toughness) == 1 and len(self.placements) == 1:
            self._build_chain(self.placements[0])  # sets the per-state facts as well
            return
        self._build_reachable()
        self.alive: IntArray = np.array([s[0] for s in self.states], dtype=np.int64)
        self.current: IntArray = np.array([s[1] for s in self.states], dtype=np.int64)
        self.damage: IntArray = np.array([s[2] for s in self.states], dtype=np.int64)
        self.killed: IntArray = np.array(self.counts, dtype=np.int64) - self.alive
        self.models_alive: IntArray = self.alive.sum(axis=1)
        self.models_killed: IntArray = self.killed.sum(axis=1)
        self.wounds: IntArray = self.killed @ np.array(self.toughness, dtype=np.int64) + self.damage
        self.destroyed = self.models_alive == 0

    def _build_reachable(self) -> None:
        """Every state reachable from the untouched unit, breadth first, and each one's successor
        under each placement."""
        states: list[State] = [(self.counts, -1, 0)]
        index: dict[State, int] = {states[0]: 0}
        queue = deque([0])
        while queue:
            current = queue.popleft()
            for placement in self.placements:
                following = self._step(states[current], placement)
                if following not in index:
                    index[following] = len(states)
                    states.append(following)
                    queue.append(index[following])
        self.states, self.index = states, index
        self._successor = {p: np.array([index[self._step(s, p)] for s in states], dtype=np.int64)
                           for p in self.placements}

    def _build_chain(self, placement: Placement) -> None:
        """`_build_reachable` for one group of models and one placement (most units, one weapon's
        damage): the states form one chain — each model fresh, then damaged by `damage` at a
        time until it dies — so they are listed in the order the breadth-first walk finds them,
        each one's successor the next (the destroyed unit its own). Built as arrays, only the
        facts an attack reads (issue 42: a few small arrays, each numpy call costs about a
        microsecond): the damaged model and its damage (`current`, `damage`), the successors,
        the list of state tuples and their index (`states`, `index`) only when asked for."""
        (toughness,), (count,) = self.toughness, self.counts
        per_model = len(range(placement.damage, toughness, placement.damage)) + 1  # fresh, then damaged
        size = count * per_model + 1
        self._chain = placement
        self._chain_shape = (per_model, size)
        # the last state: every model dead, none damaged
        if per_model == 1:  # every event kills a model: the position is the models killed
            killed = np.arange(size, dtype=np.int64)
            self.wounds = killed if toughness == 1 else np.arange(0, size * toughness, toughness,
                                                                  dtype=np.int64)
        elif size <= _PYTHON_CHAIN:  # in Python, one numpy call each (no cold ufuncs: `_LAZY_CHAIN_FACTS`)
            killed = np.array([i // per_model for i in range(size)], dtype=np.int64)
            self.wounds = np.array([i // per_model * toughness + i % per_model * placement.damage
                                    for i in range(size)], dtype=np.int64)
        else:
            killed, step = np.divmod(np.arange(size, dtype=np.int64), per_model)
            self.wounds = killed * toughness + (step * placement.damage if placement.damage != 1 else step)
        # the per-state facts of `__init__`, read off the chain (one group: no sums over groups);
        # the ones the first weapon's step does not read are made on first use (`__getattr__`)
        self.models_killed = killed

    #: A chain's facts made on first use (`__getattr__`): each numpy call is a microsecond, and
    #: ten times that when the machine's caches are cold, as in a job's first matchup (issue 42).
    _LAZY_CHAIN_FACTS = frozenset({"alive", "killed", "models_alive", "destroyed", "current", "damage",
                                   "_successor"})

    def __getattr__(self, name: str) -> Any:
        """A chain's per-state facts the attack has not read yet, made now (`_build_chain`)."""
        chain = self.__dict__.get("_chain")
        if chain is None or name not in self._LAZY_CHAIN_FACTS:
            raise AttributeError(name)
        per_model, size = self.__dict__["_chain_shape"]
        killed = self.models_killed
        if name == "killed":
            value: Any = killed[:, None]
        elif name == "models_alive":
            value = self.counts[0] - killed
        elif name == "alive":
            value = self.models_alive[:, None]
        elif name == "destroyed":
            value = np.zeros(size, dtype=bool)
            value[-1] = True  # the last state, alone: every model killed (all of none, for no models)
        else:
            position = np.arange(size, dtype=np.int64)
            step = position % per_model
            if name == "current":
                value = np.where(step > 0, 0, -1)
            elif name == "damage":
                value = step * chain.damage
            else:
                successor = position + 1
                successor[-1] = size - 1
                value = {chain: successor}
        self.__dict__[name] = value
        return value

    @property
    def states(self) -> list[State]:
        """Every state as (models alive per group, the damaged model's group or −1, its damage)."""
        if "_states" not in self.__dict__:
            self.__dict__["_states"] = [((*alive,), current, damage) for alive, current, damage in zip(
                self.alive.tolist(), self.current.tolist(), self.damage.tolist(), strict=True)]
        return self.__dict__["_states"]

    @states.setter
    def states(self, value: list[State]) -> None:
        self.__dict__["_states"] = value

    @property
    def index(self) -> dict[State, int]:
        """State → its position in `states`."""
        if "_index" not in self.__dict__:
            self.__dict__["_index"] = {state: i for i, state in enumerate(self.states)}
        return self.__dict__["_index"]

    @index.setter
    def index(self, value: dict[State, int]) -> None:
        self.__dict__["_index"] = value

    def __len__(self) -> int:
        return len(self.models_killed)

    def _next_group(self, state: State, order: tuple[int, ...]) -> int:
        alive, current, _ = state
        if current >= 0:
            return current
        return next((g for g in order if alive[g] > 0), -1)

    def _step(self, state: State, placement: Placement) -> State:
        """One event: `placement.damage` wounds on the damaged model, or on a fresh one."""
        group = self._next_group(state, placement.order)
        if group < 0:
            return state
        alive, _, damage = state
        toughness = self.toughness[group]
        damage += min(placement.damage, toughness - damage)
        if damage < toughness:
            return alive, group, damage
        return (*alive[:group], alive[group] - 1, *alive[group + 1 :]), -1, 0

    def start(self) -> PMF:
        """The unit untouched, with certainty."""
        dist = np.zeros(len(self))
        dist[0] = 1.0
        return dist

    def target(self, placement: Placement) -> IntArray:
        """Per state, the group whose model the next event of `placement` lands on (−1: none left)."""
        if placement.order not in self._targets:
            if self._chain is not None:  # one group: its model while any is alive
                self._targets[placement.order] = np.where(self.destroyed, -1, 0)
                return self._targets[placement.order]
            self._targets[placement.order] = _next_group(self.alive, self.current,
                                                         np.asarray(placement.order, dtype=np.int64))
        return self._targets[placement.order]

    def untouched_target(self, placement: Placement) -> int:
        """`target(placement)` of the untouched unit alone: the first group of the order with a
        model (−1: none), without the per-state arrays (the first weapon of an attack needs no more)."""
        for group in placement.order:
            if self.counts[group] > 0:
                return group
        return -1

    def target_codes(self, placement: Placement, cap: int) -> tuple[IntArray, IntArray]:
        """The distinct (target group, models alive up to `cap`) pairs of the states, coded
        `group × (total models + 1) + alive` (−1: destroyed), sorted, and each state's index
        among them: what decides a weapon's odds in a state (the model it meets, and Blast's
        count), computed once per machine."""
        key = (placement.order, cap)
        if key not in self._codes and self._chain is not None and self.total_models > 0:
            # one group, every count of models alive on the chain: the codes are −1 (destroyed)
            # and min(alive, cap) for 1 … min(models, cap) (0 without a cap), in that order
            top = min(self.total_models, cap)
            if top == 0:
                self._codes[key] = np.array([-1, 0], dtype=np.int64), (~self.destroyed).astype(np.int64)
            else:
                self._codes[key] = (np.array([-1, *range(1, top + 1)], dtype=np.int64),
                                    np.minimum(self.models_alive, cap))
        if key not in self._codes:
            self._codes[key] = _target_codes(self.target(placement), self.models_alive, self.total_models,
                                             cap)
        return self._codes[key]

    def max_events(self, damage: int) -> int:
        """Events of `damage` wounds that destroy the unit from any state: more change nothing
        (kept per damage: an attack asks for each weapon, and the space caches its own size)."""
        found = self._max_events.get(damage)
        if found is None:
            found = self._max_events[damage] = sum(
                c * -(-t // damage) for t, c in zip(self.toughness, self.counts, strict=True))
        return found

    def paths(self, placement: Placement) -> IntArray:
        """paths[s, k]: the state reached from s after k events (k = 0 … max_events)."""
        if placement not in self._paths:
            steps = self.max_events(placement.damage)
            if self._chain == placement:  # a chain: k steps on, the destroyed unit last
                last = len(self) - 1
                paths = np.minimum(np.arange(len(self))[:, None] + np.arange(steps + 1)[None, :], last)
            else:
                successor = self._successor[placement]
                paths = np.empty((len(self), steps + 1), dtype=np.int64)
                paths[:, 0] = np.arange(len(self))
                for k in range(1, steps + 1):
                    paths[:, k] = successor[paths[:, k - 1]]
            self._paths[placement] = paths
        return self._paths[placement]

    def resolve(self, dist: PMF, events: npt.NDArray[np.float64], placement: Placement) -> PMF:
        """The distribution over states after one batch of events.

        `events[s, k]` is P(k events | the batch starts in state s), for k up to
        `max_events(placement.damage)` (the last column meaning "that many or more").
        """
        paths = self.paths(placement)
        if events.shape != paths.shape:
            raise ValueError(f"events must have shape {paths.shape}, not {events.shape}")
        weights = dist[:, None] * events
        return np.bincount(paths.ravel(), weights=weights.ravel(), minlength=len(self))

    def distribution(self, dist: PMF, values: IntArray, length: int) -> PMF:
        """The PMF of a per-state integer (kills, wounds) under the state distribution `dist`."""
        return np.bincount(values, weights=dist, minlength=length)


class StateDistribution:
    """A distribution over allocation states that holds only the states with probability.

    `AllocationSpace` builds every state reachable under *any* number of events, which for a
    unit with two model profiles and two allocation orders is every (alive₁, alive₂, damage)
    combination: 150 + 150 models of toughness 3 and 4 are ~90,000 states, and its
    `paths` table (states × the events that destroy the unit) took gigabytes. An attack never
    reaches most of them: a weapon can only cause as many events as its wound PMF has
    non-zero columns. Here each weapon walks only the states the distribution holds, only
    as many steps as that weapon's events can take, and states that coincide are merged
    (summing their probability), so the work of one weapon is
    `support × (events it can cause + 1) × (groups + 2)`, which `work` reports and
    `rules.systems.opr.combat.estimate_cost` predicts.

    The placement rule is exactly `AllocationSpace._step` (same states, same order), so
    results equal the dense machine's to rounding (checked in `tests/rules/dice/test_allocation.py`).
    Rows: `alive` (n × groups), `current` (group of the damaged model, −1 none), `damage`
    (wounds on it), `probs` (their probabilities).
    """

    def __init__(self, toughness: Sequence[int], counts: Sequence[int], alive: IntArray, current: IntArray,
                 damage: IntArray, probs: npt.NDArray[np.float64]):
        self.toughness = np.asarray(toughness, dtype=np.int64)
        self.counts = np.asarray(counts, dtype=np.int64)
        self.alive = alive
        self.current = current
        self.damage = damage
        self.probs = probs
        #: Rows walked so far (support × steps, summed over weapons): the measured cost.
        self.work = 0

    @classmethod
    def untouched(cls, toughness: Sequence[int], counts: Sequence[int]) -> StateDistribution:
        """The unit with no wounds, with certainty."""
        if len(toughness) != len(counts) or not len(toughness):
            raise ValueError("one toughness and one count per group, at least one group")
        if min(toughness) < 1 or min(counts) < 0:
            raise ValueError("toughness must be at least 1 and counts not negative")
        return cls(toughness, counts, np.array([counts], dtype=np.int64), np.array([-1], dtype=np.int64),
                   np.array([0], dtype=np.int64), np.array([1.0]))

    def __len__(self) -> int:
        return len(self.probs)

    @property
    def total_models(self) -> int:
        return int(self.counts.sum())

    @property
    def total_wounds(self) -> int:
        return int(self.counts @ self.toughness)

    @property
    def models_alive(self) -> IntArray:
        return self.alive.sum(axis=1)

    @property
    def killed(self) -> IntArray:
        return self.counts - self.alive

    @property
    def models_killed(self) -> IntArray:
        return self.killed.sum(axis=1)

    @property
    def wounds(self) -> IntArray:
        """Wounds taken per state (lost excess of a multi-wound event not counted)."""
        return self.killed @ self.toughness + self.damage

    @property
    def destroyed(self) -> npt.NDArray[np.bool_]:
        return self.models_alive == 0

    def max_events(self, damage: int) -> int:
        """Events of `damage` wounds that destroy the unit from any state: more change nothing."""
        return int(sum(c * -(-int(t) // damage) for t, c in zip(self.toughness, self.counts, strict=True)))

    def target(self, placement: Placement) -> IntArray:
        """Per state, the group whose model the next event of `placement` lands on (−1: none left)."""
        return _next_group(self.alive, self.current, np.asarray(placement.order, dtype=np.int64))

    def target_codes(self, placement: Placement, cap: int) -> tuple[IntArray, IntArray]:
        """As `AllocationSpace.target_codes`, over the rows held."""
        return _target_codes(self.target(placement), self.models_alive, self.total_models, cap)

    def distribution(self, values: IntArray, length: int) -> npt.NDArray[np.float64]:
        """The PMF of a per-state integer (kills, wounds) under this distribution."""
        return np.bincount(values, weights=self.probs, minlength=length)

    def resolve(self, events: npt.NDArray[np.float64], placement: Placement) -> StateDistribution:
        """The distribution after one batch of events: `events[s, k]` is P(k events | row s),
        the last column meaning "that many or more" once it reaches `max_events`."""
        if events.ndim != 2 or events.shape[0] != len(self):
            raise ValueError(f"events must have one row per state ({len(self)}), not {events.shape}")
        nonzero = np.flatnonzero(events.any(axis=0))
        steps = int(nonzero[-1]) if len(nonzero) else 0
        order = np.asarray(placement.order, dtype=np.int64)
        alive, current, damage = self.alive, self.current, self.damage
        parts: list[tuple[IntArray, IntArray, IntArray, npt.NDArray[np.float64]]] = []
        work = 0
        for k in range(steps + 1):
            weight = self.probs * (events[:, k:].sum(axis=1) if k == steps else events[:, k])
            keep = weight > 0
            parts.append((alive[keep], current[keep], damage[keep], weight[keep]))
            work += len(weight)
            if k < steps:
                alive, current, damage = _step(alive, current, damage, self.toughness, order,
                                               placement.damage)
        merged = _merge(self.toughness, self.counts, parts)
        merged.work = self.work + work
        return merged


def _target_codes(target: IntArray, models_alive: IntArray, total_models: int,
                  cap: int) -> tuple[IntArray, IntArray]:
    """`AllocationSpace.target_codes` of any rows: (sorted distinct codes, each row's index)."""
    code = np.where(target >= 0, target * (total_models + 1) + np.minimum(models_alive, cap), -1) + 1
    present = np.bincount(code) > 0  # the codes are small integers: counted, not sorted
    return np.flatnonzero(present) - 1, (np.cumsum(present) - 1)[code]


def _next_group(alive: IntArray, current: IntArray, order: IntArray) -> IntArray:
    """`AllocationSpace._next_group` on many rows: the damaged model's group, else the first
    group in `order` with a model alive, else −1."""
    available = alive[:, order] > 0
    first = np.where(available.any(axis=1), order[available.argmax(axis=1)], -1)
    return np.where(current >= 0, current, first)


def _step(alive: IntArray, current: IntArray, damage: IntArray, toughness: IntArray, order: IntArray,
          event_damage: int) -> tuple[IntArray, IntArray, IntArray]:
    """`AllocationSpace._step` on many rows: one event on each."""
    group = _next_group(alive, current, order)
    active = group >= 0
    safe = np.where(active, group, 0)
    t = toughness[safe]
    dealt = damage + np.minimum(event_damage, t - damage)
    dies = active & (dealt >= t)
    alive = alive.copy()
    rows = np.flatnonzero(dies)
    alive[rows, safe[rows]] -= 1
    hurt = active & ~dies
    return alive, np.where(hurt, group, np.where(active, -1, current)), np.where(hurt, dealt,
                                                                                np.where(active, 0, damage))


def _merge(toughness: IntArray, counts: IntArray,
           parts: list[tuple[IntArray, IntArray, IntArray, npt.NDArray[np.float64]]]) -> StateDistribution:
    """One row per distinct state, probabilities summed."""
    alive = np.concatenate([p[0] for p in parts])
    current = np.concatenate([p[1] for p in parts])
    damage = np.concatenate([p[2] for p in parts])
    probs = np.concatenate([p[3] for p in parts])
    groups = len(counts)
    depth = int(toughness.max())
    radix = [int(c) + 1 for c in counts]
    size = groups + 1
    for r in radix:
        size *= r
    if size * depth < 2**62:  # one integer per state
        key = np.zeros(len(probs), dtype=np.int64)
        for g, r in enumerate(radix):
            key = key * r + alive[:, g]
        key = (key * (groups + 1) + current + 1) * depth + damage
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    else:  # too many groups for one exact integer: hash the rows, then prove no two collided
        rows = np.column_stack([alive, current, damage])
        salt = np.random.default_rng(len(counts)).integers(1, 2**62, rows.shape[1], dtype=np.int64)
        _, first, inverse = np.unique(rows @ salt, return_index=True, return_inverse=True)
        if not np.array_equal(rows[first][inverse.ravel()], rows):
            _, first, inverse = np.unique(rows, axis=0, return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    summed = np.bincount(inverse, weights=probs, minlength=len(first))
    return StateDistribution(toughness, counts, alive[first], current[first], damage[first], summed)


#: Largest dense machine (`AllocationSpace`) worth building: states × (events + 1) × orders.
#: Below it the dense machine is fastest (its paths are reused by every weapon and, cached,
#: by every attacker of the same defender); above it `StateDistribution` walks only what an
#: attack reaches (150 + 150 mixed models would be ~10⁸ cells, gigabytes).
DENSE_CELLS_LIMIT = 200_000


def dense_cells(toughness: Sequence[int], counts: Sequence[int], placements: Sequence[Placement]) -> int:
    """An upper bound of the cells of `AllocationSpace(toughness, counts, placements)`'s paths.

    One allocation order (or one group) gives a chain of total wounds + 1 states; several
    orders at most every (alive per group) × (damaged model) combination."""
    if len(toughness) == 1 and len(placements) == 1:  # a chain: toughness × models + 1 states
        (t,), (c,), (placement,) = toughness, counts, placements
        return (t * c + 1) * (c * -(-t // placement.damage) + 1)
    distinct = list(dict.fromkeys(placements))
    orders = {p.order for p in distinct}
    if len(orders) <= 1 or sum(1 for c in counts if c > 0) <= 1:
        states = sum(t * c for t, c in zip(toughness, counts, strict=True)) + 1
    else:
        states = 1 + sum(t - 1 for t in toughness)
        for c in counts:
            states *= c + 1
    events = max((sum(c * -(-t // p.damage) for t, c in zip(toughness, counts, strict=True))
                  for p in distinct), default=0)
    return states * (events + 1) * max(1, len(distinct))


class DenseDistribution:
    """A probability vector over a whole `AllocationSpace`, with `StateDistribution`'s interface
    (so the attack sequence runs on either; `rules.systems.opr.combat` picks by `dense_cells`)."""

    def __init__(self, space: AllocationSpace, probs: npt.NDArray[np.float64], *, untouched: bool = False):
        self.space = space
        self.probs = probs
        #: Rows walked (states × event columns, summed over weapons): comparable to `StateDistribution.work`.
        self.work = 0
        #: The untouched unit with certainty (`start`): only its first state has probability.
        self.untouched = untouched

    @classmethod
    def start(cls, space: AllocationSpace) -> DenseDistribution:
        """The untouched unit on `space`, with certainty."""
        return cls(space, space.start(), untouched=True)

    def resolve_untouched(self, events: npt.NDArray[np.float64], placement: Placement) -> DenseDistribution:
        """`resolve` of the untouched unit: `events` is the untouched state's row alone (the other
        states have no probability, so their rows add exactly nothing). The first weapon of an
        attack starts here; on a chain its k events lead to the k-th state, so no paths are built."""
        if not self.untouched:
            raise ValueError("the distribution is not the untouched unit")
        space = self.space
        width = space.max_events(placement.damage) + 1
        if events.ndim != 1 or len(events) > width:
            raise ValueError(f"events must be one row of at most {width} entries")
        if space._chain == placement:
            probs = np.zeros(len(space))
            probs[: len(events)] = events
        else:
            first_paths = space.paths(placement)[0, : len(events)]
            probs = np.bincount(first_paths, weights=events, minlength=len(space))
        after = DenseDistribution(space, probs)
        after.work = self.work + len(space) * width
        return after

    def __len__(self) -> int:
        return len(self.space)

    total_models = property(lambda self: self.space.total_models)
    total_wounds = property(lambda self: self.space.total_wounds)
    models_alive = property(lambda self: self.space.models_alive)
    alive = property(lambda self: self.space.alive)
    killed = property(lambda self: self.space.killed)
    models_killed = property(lambda self: self.space.models_killed)
    wounds = property(lambda self: self.space.wounds)
    destroyed = property(lambda self: self.space.destroyed)

    def max_events(self, damage: int) -> int:
        return self.space.max_events(damage)

    def target(self, placement: Placement) -> IntArray:
        return self.space.target(placement)

    def target_codes(self, placement: Placement, cap: int) -> tuple[IntArray, IntArray]:
        return self.space.target_codes(placement, cap)

    def distribution(self, values: IntArray, length: int) -> npt.NDArray[np.float64]:
        return self.space.distribution(self.probs, values, length)

    def resolve(self, events: npt.NDArray[np.float64], placement: Placement) -> DenseDistribution:
        """As `StateDistribution.resolve`: rows shorter than max_events + 1 are padded with zeros."""
        width = self.space.max_events(placement.damage) + 1
        if events.shape[1] < width:
            padded = np.zeros((events.shape[0], width))
            padded[:, : events.shape[1]] = events
            events = padded
        after = DenseDistribution(self.space, self.space.resolve(self.probs, events, placement))
        after.work = self.work + events.size
        return after
