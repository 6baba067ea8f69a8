"""Count distributions of many dice (`rules.dice.counts`), against exact results from icepool."""

from __future__ import annotations

from math import comb

import icepool
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice.counts import (
    binomial,
    clamped_sum,
    compound,
    multiply,
    signed_compound,
    successes_per_die,
    sum_of_dice,
    thin,
)
from rules.dice.d6 import D6Test
from rules.dice.pmf import mean, total
from tests.rules.dice.icepool_oracle import as_pmf, assert_pmf_equal, die_from_faces

NATURAL = {"always_succeed": frozenset({6}), "always_fail": frozenset({1})}


def test_binomial_is_the_closed_form():
    pmf = binomial(10, 0.25)
    for k in range(11):
        assert abs(pmf[k] - comb(10, k) * 0.25**k * 0.75 ** (10 - k)) < 1e-15


def test_successes_per_die_adds_extra_successes_on_natural_faces():
    test = D6Test(4, **NATURAL)
    assert_pmf_equal(successes_per_die(test, {6: 2}), as_pmf(die_from_faces([0, 0, 0, 1, 1, 3])))
    assert_pmf_equal(successes_per_die(test), as_pmf(die_from_faces([0, 0, 0, 1, 1, 1])))


def test_extra_successes_need_the_die_to_pass():
    never_six = D6Test(7, always_fail=frozenset({6}))
    assert successes_per_die(never_six, {6: 1}).tolist() == [1.0]


def test_sum_of_dice_is_n_dice():
    per_die = successes_per_die(D6Test(3, **NATURAL), {6: 1})
    expected = 8 @ die_from_faces([0, 0, 1, 1, 1, 2])
    assert_pmf_equal(sum_of_dice(per_die, 8), as_pmf(expected))


def test_multiply_turns_each_success_into_several():
    hits = as_pmf(4 @ die_from_faces([0, 0, 0, 1, 1, 1]))
    assert_pmf_equal(multiply(hits, 3), as_pmf((4 @ die_from_faces([0, 0, 0, 1, 1, 1])).map(lambda x: 3 * x)))


def test_compound_rolls_a_random_number_of_dice():
    hits = 6 @ die_from_faces([0, 0, 0, 1, 1, 2])
    fails = die_from_faces([1, 1, 1, 0, 0, 0])
    assert_pmf_equal(compound(as_pmf(hits), as_pmf(fails)), as_pmf(hits @ fails))


def test_compound_with_a_limit_matches_the_clipped_total():
    hits = 6 @ die_from_faces([0, 0, 0, 1, 1, 2])
    fails = die_from_faces([1, 1, 1, 1, 0, 0])
    expected = as_pmf((hits @ fails).map(lambda x: min(x, 4)))
    assert_pmf_equal(compound(as_pmf(hits), as_pmf(fails), limit=4), expected)


def test_thin_keeps_each_item_with_its_chance():
    hits = 5 @ die_from_faces([0, 0, 1, 1, 1, 1])
    expected = hits @ die_from_faces([1, 1, 0, 0, 0, 0])
    assert_pmf_equal(thin(as_pmf(hits), 1 / 3), as_pmf(expected))


def test_signed_compound_allows_cancelling_items():
    hits = 3 @ die_from_faces([0, 0, 0, 1, 1, 2])
    item = die_from_faces([1, 1, 1, 0, 0, -1])
    pmf, low = signed_compound(as_pmf(hits), *_signed(item))
    expected = hits @ item
    assert low == min(expected.outcomes())
    assert_pmf_equal(pmf, as_pmf(expected, low=low, length=len(pmf)))


def _signed(die: icepool.Die) -> tuple[np.ndarray, int]:
    low = min(die.outcomes())
    return as_pmf(die, low=low), low


def test_clamped_sum_never_goes_below_zero():
    per_attack = 2 @ die_from_faces([1, 1, 1, 0, 0, -1])
    for n, limit in ((1, None), (4, None), (7, 5), (12, 3)):
        expected = (n @ per_attack).map(
            lambda x, limit=limit: max(0, x) if limit is None else min(max(0, x), limit)
        )
        assert_pmf_equal(clamped_sum(*_signed(per_attack), n, limit), as_pmf(expected))


def test_clamped_sum_of_non_negative_draws_is_the_plain_sum():
    per = die_from_faces([0, 0, 1, 1, 2, 2])
    assert_pmf_equal(clamped_sum(as_pmf(per), 0, 6), as_pmf(6 @ per))
    shifted = die_from_faces([1, 1, 2, 2, 3, 3])
    assert_pmf_equal(clamped_sum(as_pmf(shifted, low=1), 1, 3), as_pmf(3 @ shifted))
    assert clamped_sum(*_signed(die_from_faces([1, 0, 0, 0, 0, -1])), 0).tolist() == [1.0]


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 40), st.floats(0, 1), st.floats(0, 1))
def test_thinning_a_binomial_is_a_binomial(n, p, r):
    """Binomial(n, p) thinned by r is Binomial(n, p·r): the "hit, then fail defence" identity."""
    assert_pmf_equal(thin(binomial(n, p), r), binomial(n, p * r))
    assert abs(total(thin(binomial(n, p), r)) - 1) < 1e-9
    assert abs(mean(binomial(n, p)) - n * p) < 1e-9
