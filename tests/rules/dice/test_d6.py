"""One d6 test: target, modifiers, and natural faces that decide on their own."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice.d6 import D6Test, chance, value_pmf

NATURAL = {"always_succeed": frozenset({6}), "always_fail": frozenset({1})}


def test_success_when_face_plus_modifier_reaches_the_target():
    assert D6Test(4).success_faces == {4, 5, 6}
    assert D6Test(4, modifier=1).success_faces == {3, 4, 5, 6}
    assert D6Test(4, modifier=-2).success_faces == {6}
    assert D6Test(4).p_success == 0.5


@given(st.integers(2, 6), st.integers(-6, 6))
def test_natural_six_succeeds_and_natural_one_fails_whatever_the_modifiers(target, modifier):
    """Seed: "Niezależnie od modyfikatorów, 6 wyrzucone na kostce zawsze jest sukcesem, a 1 porażką"."""
    test = D6Test(target, modifier, **NATURAL)
    assert 6 in test.success_faces
    assert 1 in test.failure_faces
    assert test.success_faces | test.failure_faces == {1, 2, 3, 4, 5, 6}


def test_always_fail_wins_over_always_succeed():
    assert not D6Test(2, always_succeed=frozenset({1}), always_fail=frozenset({1})).succeeds(1)


def test_chance_counts_faces():
    assert chance({5, 6}) == pytest.approx(1 / 3)
    assert chance({0, 7}) == 0


def test_value_pmf_reads_values_off_the_faces_including_negative_ones():
    pmf, low = value_pmf([1, 1, 0, 0, 0, -1])
    assert low == -1
    assert pmf.tolist() == pytest.approx([1 / 6, 3 / 6, 2 / 6])
    with pytest.raises(ValueError):
        value_pmf([1, 2])
