"""The PMF operations of `rules.dice.pmf`, against exact results from icepool."""

from __future__ import annotations

import icepool
import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

from rules.dice.pmf import (
    at_least,
    bernoulli,
    convolve,
    fold,
    mean,
    mixture,
    pad,
    point_mass,
    power,
    scale,
    total,
)
from tests.rules.dice.icepool_oracle import as_pmf, assert_pmf_equal, die_from_faces

D6_MINUS_ONE = die_from_faces([0, 1, 2, 3, 4, 5])
HIT_OR_TWO = die_from_faces([0, 0, 0, 1, 1, 2])  # Q4 with one extra hit on a 6


def test_point_mass_is_certain():
    assert point_mass(3).tolist() == [0, 0, 0, 1]
    assert bernoulli(0.25).tolist() == [0.75, 0.25]


def test_fold_puts_everything_above_the_limit_on_the_limit():
    pmf = as_pmf(3 @ D6_MINUS_ONE)
    folded = fold(pmf, 4)
    assert len(folded) == 5
    assert folded[:4].tolist() == pmf[:4].tolist()
    assert abs(folded[4] - pmf[4:].sum()) < 1e-15
    assert fold(pmf, None) is pmf


def test_convolve_is_the_sum_of_two_independent_dice():
    assert_pmf_equal(convolve(as_pmf(D6_MINUS_ONE), as_pmf(HIT_OR_TWO)), as_pmf(D6_MINUS_ONE + HIT_OR_TWO))


def test_convolve_with_a_limit_matches_the_clipped_sum():
    expected = as_pmf((D6_MINUS_ONE + HIT_OR_TWO).map(lambda x: min(x, 3)))
    assert_pmf_equal(convolve(as_pmf(D6_MINUS_ONE), as_pmf(HIT_OR_TWO), limit=3), expected)


def test_power_is_the_sum_of_n_dice():
    for n in (0, 1, 2, 7, 12):
        assert_pmf_equal(power(as_pmf(HIT_OR_TWO), n), as_pmf(n @ HIT_OR_TWO))


def test_power_with_a_limit_matches_the_clipped_sum():
    for n, limit in ((9, 4), (13, 10), (5, 0)):
        expected = as_pmf((n @ HIT_OR_TWO).map(lambda x, limit=limit: min(x, limit)), length=limit + 1)
        assert_pmf_equal(power(as_pmf(HIT_OR_TWO), n, limit), expected)


def test_scale_multiplies_every_count():
    assert_pmf_equal(scale(as_pmf(HIT_OR_TWO), 3), as_pmf(HIT_OR_TWO.map(lambda x: 3 * x)))
    assert scale(as_pmf(HIT_OR_TWO), 0).tolist() == [1.0]


def test_mixture_weights_its_components():
    mixed = mixture(np.array([0.25, 0.75]), [point_mass(0), as_pmf(HIT_OR_TWO)])
    expected = as_pmf(icepool.Die([icepool.Die([0]), HIT_OR_TWO, HIT_OR_TWO, HIT_OR_TWO]))
    assert_pmf_equal(mixed, expected)


def test_at_least_is_the_survival_curve():
    pmf = as_pmf(2 @ HIT_OR_TWO)
    curve = at_least(pmf)
    assert abs(curve[0] - 1) < 1e-15
    for k in range(len(pmf)):
        assert abs(curve[k] - pmf[k:].sum()) < 1e-15


def test_pad_keeps_the_distribution():
    assert pad(bernoulli(0.5), 4).tolist() == [0.5, 0.5, 0, 0]


@given(
    st.lists(st.floats(0.01, 1), min_size=1, max_size=6),
    st.integers(0, 30),
    st.one_of(st.none(), st.integers(0, 40)),
)
def test_power_keeps_total_one_and_multiplies_the_mean(weights, n, limit):
    pmf = np.array(weights) / sum(weights)
    result = power(pmf, n, limit)
    assert abs(total(result) - 1) < 1e-9
    if limit is None:
        assert abs(mean(result) - n * mean(pmf)) < 1e-9 * max(1, n)
    else:
        assert len(result) <= limit + 1


def _binomial_by_numpy(q: float, p: float, n: int, m: int, limit: int | None) -> np.ndarray:
    """The binomial law of `power` as numpy array passes (the formula before the plain-Python
    pass for short laws): the bits the Python pass must reproduce."""
    k = np.arange(1, n + 1, dtype=np.float64)
    terms = np.empty(n + 1)
    terms[0] = q**n
    terms[1:] = (n - k + 1) / k * (p / q)
    law = np.cumprod(terms)
    spread = np.zeros(n * m + 1)
    spread[::m] = law
    return fold(spread, limit)


@given(
    st.floats(0.001, 0.999),
    st.integers(2, 200),
    st.integers(1, 4),
    st.one_of(st.none(), st.integers(0, 300)),
)
def test_power_of_a_zero_or_m_draw_is_bit_for_bit_the_numpy_binomial(p, n, m, limit):
    assume(limit is None or limit >= m)  # else the draw is folded into another shape first
    assume(min((1 - p) ** n, p**n) >= 1e-280)  # else powered by convolutions (unchanged)
    base = np.zeros(m + 1)
    base[0], base[m] = 1 - p, p
    expected = _binomial_by_numpy(1 - p, p, n, m, limit)
    found = power(base, n, limit)
    assert found.shape == expected.shape
    assert found.tobytes() == expected.tobytes()


@given(st.lists(st.floats(0, 1), min_size=1, max_size=1500))
def test_mean_is_bit_for_bit_the_integer_counts_product(weights):
    pmf = np.array(weights)
    assert np.float64(mean(pmf)).tobytes() == np.float64(np.arange(len(pmf)) @ pmf).tobytes()
