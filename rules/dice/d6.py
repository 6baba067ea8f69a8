"""One six-sided die: a test against a target number, and values read off its faces.

Games differ in which natural faces win or lose whatever the modifiers (OPR: a natural 6
always succeeds and a natural 1 always fails; some rules take the automatic 6 away or add
an automatic 5), so a test names those faces instead of assuming them. Everything is
expressed as *which faces* do what, which keeps results exact (k/6) and makes the faces
a natural cache key.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from rules.dice.pmf import PMF

FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True, slots=True)
class D6Test:
    """Success when face + modifier ≥ target, unless the natural face decides on its own.

    `always_succeed` and `always_fail` are natural faces that ignore target and modifier
    (`always_fail` wins if a face is in both).
    """

    target: int
    modifier: int = 0
    always_succeed: frozenset[int] = frozenset()
    always_fail: frozenset[int] = frozenset()

    def succeeds(self, face: int) -> bool:
        if face in self.always_fail:
            return False
        if face in self.always_succeed:
            return True
        return face + self.modifier >= self.target

    @property
    def success_faces(self) -> frozenset[int]:
        return frozenset(f for f in FACES if self.succeeds(f))

    @property
    def failure_faces(self) -> frozenset[int]:
        return frozenset(FACES) - self.success_faces

    @property
    def p_success(self) -> float:
        return len(self.success_faces) / 6

    @property
    def p_failure(self) -> float:
        return 1.0 - self.p_success


def chance(faces: frozenset[int] | set[int]) -> float:
    """P(a d6 shows one of `faces`)."""
    return len(set(faces) & set(FACES)) / 6


def value_pmf(values_by_face: Sequence[int]) -> tuple[PMF, int]:
    """The distribution of a value read off one d6 (`values_by_face[f − 1]` for face f).

    Returned as (pmf, low): pmf[i] is P(value = low + i), so negative values (a die that
    cancels something) fit the same array form as counts.
    """
    if len(values_by_face) != 6:
        raise ValueError("a d6 has six faces")
    low = min(values_by_face)
    faces_per_value = np.bincount(np.asarray(values_by_face) - low)
    return faces_per_value / 6.0, low
