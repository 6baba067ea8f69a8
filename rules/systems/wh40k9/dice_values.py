"""Numbers that may be dice: a weapon's shots ("Heavy D6"), A, D ("D3", "2D6", "D6+1").

docs/rules/wh40k9.md §1.4: random characteristics are rolled when they are needed, so each use is
an independent roll; §13 item 25: damage is rolled per attack. Every value here is a PMF
on the dice core (`rules.dice.pmf`), exact.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from rules.dice.pmf import PMF, point_mass, power

_DICE = re.compile(r"^\s*([0-9]*)\s*[Dd]\s*(3|6)\s*(?:\+\s*([0-9]+))?\s*$")
_NUMBER = re.compile(r"^\s*([0-9]+)\s*$")
#: Largest dice count accepted in an expression ("12D6" is no weapon of the game).
MAX_DICE = 10


class DiceError(ValueError):
    """A value that is neither a whole number nor a dice expression NdX(+M)."""


@lru_cache(maxsize=256)
def _dice(count: int, sides: int, plus: int) -> PMF:
    one = np.zeros(sides + 1)
    one[1:] = 1.0 / sides
    pmf = one if count == 1 else power(one, count)  # one die: itself (a D6 is most dice)
    if plus:
        pmf = np.concatenate([np.zeros(plus), pmf])
    pmf.setflags(write=False)
    return pmf


def dice_pmf(value: int | str | None, *, default: int = 0) -> PMF:
    """The distribution of a number or dice expression: 3, "3", "D3", "2D6", "D6+1"."""
    if value is None:
        return point_mass(default)
    if isinstance(value, bool):
        raise DiceError(f"not a number or dice: {value!r}")
    if isinstance(value, int):
        if value < 0:
            raise DiceError(f"negative value {value}")
        return point_mass(value)
    text = str(value)
    if text.isascii() and text.isdigit():  # "2" of "Assault 2": most values, without the regexes
        return point_mass(int(text))
    number = _NUMBER.match(text)
    if number:
        return point_mass(int(number[1]))
    dice = _DICE.match(text)
    if not dice:
        raise DiceError(f"not a number or dice: {value!r}")
    count = int(dice[1] or 1)
    if not 1 <= count <= MAX_DICE:
        raise DiceError(f"{value!r}: at most {MAX_DICE} dice")
    return _dice(count, int(dice[2]), int(dice[3] or 0))


def maximum(pmf: PMF) -> int:
    """The largest value with a positive probability."""
    nonzero = np.nonzero(pmf)[0]
    return int(nonzero[-1]) if len(nonzero) else 0
