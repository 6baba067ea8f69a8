"""Step 4, the saving throw (docs/rules/wh40k9.md §5 Step 4, "Invulnerable saves", §6.1).

The armour save is modified by AP (no cap, an unmodified 1 fails, no automatic 6); the
invulnerable save never is; the defender uses the better of the two.
"""

from __future__ import annotations


def p_armour_save(save: int | None, ap: int) -> float:
    """P(save) of Sv `save`+ against AP `ap` (≤ 0): needs max(2, Sv − AP) on the die."""
    if save is None:
        return 0.0
    target = max(2, save - ap)
    return max(0, 7 - target) / 6


def p_invulnerable_save(invuln: int | None) -> float:
    """P(save) of an invulnerable `invuln`+, never modified by AP."""
    if invuln is None:
        return 0.0
    return (7 - max(2, invuln)) / 6


def p_unsaved(*, save: int | None, invuln: int | None, ap: int) -> float:
    """P(the save fails): the defender takes the better save (§5, "Invulnerable saves")."""
    return 1.0 - max(p_armour_save(save, ap), p_invulnerable_save(invuln))
