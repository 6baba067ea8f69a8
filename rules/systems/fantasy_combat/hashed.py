"""A frozen dataclass's hash, computed once per object.

The engine's caches (`functools.lru_cache` on a blow's odds, a die's transitions) key on small
frozen dataclasses (a hit's chances as Fractions, the target's numbers, the rules' variants);
the generated `__hash__` hashes every field again at every lookup, several times per matchup
(a Fraction's hash is a modular inverse). Equality stays the generated, field-wise one.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

_HASH = "_hash_once"


def hashed_once(self: Any) -> int:
    """`__hash__` for a frozen dataclass (assign it in the class body, where `dataclass` keeps
    an explicit `__hash__`): the fields' tuple hashed on first use, kept in the instance."""
    try:
        return self.__dict__[_HASH]
    except KeyError:
        known = self.__dict__[_HASH] = hash(tuple(getattr(self, f.name) for f in fields(self)))
        return known  # (frozen blocks setattr, not the instance's own dict)


def state_without_hash(self: Any) -> dict[str, Any]:
    """`__getstate__`: a pickled copy rehashes (string hashes differ between processes)."""
    state = dict(self.__dict__)
    state.pop(_HASH, None)
    return state
