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

import numpy as np
import numpy.typing as npt

from rules.dice.pmf import PMF

State = tuple[tuple[int, ...], int, int]
IntArray = npt.NDArray[np.int64]


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
        if any(t < 1 for t in toughness) or any(c < 0 for c in counts):
            raise ValueError("toughness must be at least 1 and counts not negative")
        self.toughness = tuple(int(t) for t in toughness)
        self.counts = tuple(int(c) for c in counts)
        self.placements = tuple(dict.fromkeys(placements))
        groups = set(range(len(self.toughness)))
        for placement in self.placements:
            if sorted(placement.order) != sorted(groups) or placement.damage < 1:
                raise ValueError(f"{placement} must order every group once and do at least 1 damage")

        self.states: list[State] = [(self.counts, -1, 0)]
        self.index: dict[State, int] = {self.states[0]: 0}
        successors: dict[Placement, list[int]] = {p: [] for p in self.placements}
        queue = deque([0])
        while queue:
            current = queue.popleft()
            for placement in self.placements:
                following = self._step(self.states[current], placement)
                if following not in self.index:
                    self.index[following] = len(self.states)
                    self.states.append(following)
                    queue.append(self.index[following])
        for placement in self.placements:
            successors[placement] = [self.index[self._step(s, placement)] for s in self.states]
        self._successor = {p: np.array(s, dtype=np.int64) for p, s in successors.items()}
        self._paths: dict[Placement, IntArray] = {}
        self._targets: dict[tuple[int, ...], IntArray] = {}

        self.alive: IntArray = np.array([s[0] for s in self.states], dtype=np.int64)
        self.killed: IntArray = np.array(self.counts, dtype=np.int64) - self.alive
        self.models_alive: IntArray = self.alive.sum(axis=1)
        self.models_killed: IntArray = self.killed.sum(axis=1)
        self.wounds: IntArray = self.killed @ np.array(self.toughness, dtype=np.int64) + np.array(
            [s[2] for s in self.states], dtype=np.int64
        )
        self.destroyed = self.models_alive == 0
        self.total_models = sum(self.counts)
        self.total_wounds = sum(t * c for t, c in zip(self.toughness, self.counts, strict=True))

    def __len__(self) -> int:
        return len(self.states)

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
        dist = np.zeros(len(self.states))
        dist[0] = 1.0
        return dist

    def target(self, placement: Placement) -> IntArray:
        """Per state, the group whose model the next event of `placement` lands on (−1: none left)."""
        if placement.order not in self._targets:
            self._targets[placement.order] = np.array(
                [self._next_group(s, placement.order) for s in self.states], dtype=np.int64
            )
        return self._targets[placement.order]

    def max_events(self, damage: int) -> int:
        """Events of `damage` wounds that destroy the unit from any state: more change nothing."""
        return sum(c * -(-t // damage) for t, c in zip(self.toughness, self.counts, strict=True))

    def paths(self, placement: Placement) -> IntArray:
        """paths[s, k]: the state reached from s after k events (k = 0 … max_events)."""
        if placement not in self._paths:
            successor = self._successor[placement]
            steps = self.max_events(placement.damage)
            paths = np.empty((len(self.states), steps + 1), dtype=np.int64)
            paths[:, 0] = np.arange(len(self.states))
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
        return np.bincount(paths.ravel(), weights=weights.ravel(), minlength=len(self.states))

    def distribution(self, dist: PMF, values: IntArray, length: int) -> PMF:
        """The PMF of a per-state integer (kills, wounds) under the state distribution `dist`."""
        return np.bincount(values, weights=dist, minlength=length)
