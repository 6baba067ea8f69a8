"""Exact rational results from the `icepool` dice library, as the engine's PMF arrays."""

from __future__ import annotations

from fractions import Fraction

import icepool
import numpy as np

TOLERANCE = 1e-12


def die_from_faces(values_by_face: list[int]) -> icepool.Die:
    """The value read off one d6: values_by_face[f − 1] for face f."""
    return icepool.d6.map(lambda face: values_by_face[face - 1])


def as_pmf(die: icepool.Die, length: int | None = None, low: int = 0) -> np.ndarray:
    """P(value = low + i) for i = 0 … length − 1, from the exact probabilities of `die`."""
    probabilities: dict[int, Fraction] = dict(zip(die.outcomes(), die.probabilities(), strict=True))
    top = max(probabilities) if length is None else low + length - 1
    return np.array([float(probabilities.get(v, 0)) for v in range(low, top + 1)])


def assert_pmf_equal(actual: np.ndarray, expected: np.ndarray, tolerance: float = TOLERANCE) -> None:
    width = max(len(actual), len(expected))
    a = np.concatenate([actual, np.zeros(width - len(actual))])
    e = np.concatenate([expected, np.zeros(width - len(expected))])
    assert np.max(np.abs(a - e)) <= tolerance, f"max difference {np.max(np.abs(a - e)):.3g}\n{a}\n{e}"
