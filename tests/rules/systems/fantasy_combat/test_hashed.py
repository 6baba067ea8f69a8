"""`hashed.hashed_once`: the cached hash of the engine's cache keys behaves as the generated one."""

from __future__ import annotations

import dataclasses
import pickle
from fractions import Fraction

from rules.systems.fantasy_combat.blows import Blow, Hit, melee_hit
from rules.systems.fantasy_combat.variants import RU_WHFB, WHFB6


def test_equal_keys_hash_equal_and_a_changed_one_is_another_key():
    assert hash(Hit(Fraction(1, 2), Fraction(1, 6))) == hash(Hit(Fraction(1, 2), Fraction(1, 6)))
    assert {melee_hit(3, 3): 1}[Hit(Fraction(1, 2), Fraction(1, 6))] == 1
    changed = dataclasses.replace(WHFB6, fear_auto_break=False)
    assert changed != WHFB6 and WHFB6 != RU_WHFB
    assert {WHFB6: "w", changed: "c"}[dataclasses.replace(WHFB6)] == "w"


def test_a_pickled_key_is_rehashed_and_still_finds_its_entry():
    blow = Blow(p_hit=0.5, p_slay=0.0, p_unsaved=0.25, damage=(0.0, 1.0), regeneration_fails=1.0)
    for key in (WHFB6, RU_WHFB, blow, Hit(Fraction(2, 3), Fraction(1, 6))):
        hash(key)  # cached in the instance
        copy = pickle.loads(pickle.dumps(key))
        assert "_hash_once" not in copy.__dict__
        assert copy == key and hash(copy) == hash(key)
        assert {key: 1}[copy] == 1
