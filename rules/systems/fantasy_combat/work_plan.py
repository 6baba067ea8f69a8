"""What `combat.shoot` / `combat.fight_round` will do for a matchup, counted without doing it:
the work the cost model (`estimate.estimate_cost`) prices, before a job is queued.

The engine's time goes into its wound tracks' throws (`WoundTrack.throw`, `throw_random`), one
striker after another on the joint table of (attacker's wounds lost, defender's wounds lost).
How much a throw does depends on what the engine really rolls, not on how many models the
units hold:

- a striker's dice per row are its models *fighting* in that row's state
  (`Side.fighting`: the models in contact, and a second rank for spears) times its attacks,
  so 200 spearmen five wide throw 10 × A dice, not 200 × A;
- a die-by-die throw (`looped`) steps only over the rows that hold probability and throw, and
  only over the states the dice so far can reach: a side that has not been struck yet holds
  one row, so the first blows of a combat are cheap whatever the enemy's size, and the return
  blows pay for every row the first blows reached;
- an independent die (`convolved`) moves every row of the table at once, one batch per
  distinct number of dice among them (a matrix product on a short track, an FFT on a long one);
- a random number of dice (impact hits, breath) steps through every count it may take, over
  the rows that throw it, across the whole track;
- a strike-order roll-off (§6.2) runs the rest of the round twice, once per order.

`planned` walks the strikers in the engine's order (`combat._buckets`, the roll-off's two
branches) and keeps, per side, how many of its track's states may hold probability so far
(a prefix: wounds only grow), so the counts below follow the engine step by step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from rules.systems.fantasy_combat.combat import (
    ATTACKER,
    DEFENDER,
    Side,
    Striker,
    _buckets,
    check_size,
    melee_strikers,
    prepare,
    shooting_strikers,
)
from rules.systems.fantasy_combat.situation import Situation
from rules.systems.fantasy_combat.variants import Variants
from rules.systems.fantasy_combat.wound_track import FFT_FROM_STATES

#: The kinds of work `planned` counts (the cost model has a price for each):
#: - strikers: strikers applied (a roll-off's rest counted once per order);
#: - table_cells: cells of the whole joint table each applied striker sums and copies;
#: - steps / diagonal_steps: one-die steps of the looped throws (`WoundTrack.one_die`), and
#:   those times the die's non-zero diagonals (one numpy pass each);
#: - cells / diagonal_cells: (rows × reachable states) those steps touch, and times diagonals;
#: - batches / convolutions / spectrum_cells: the convolved throw's transforms (one per
#:   distinct number of dice), its one-die convolutions, and (rows × transform width) summed;
#: - held_batches / held_convolutions: the same batches and convolutions of the rows that may
#:   hold probability, the ones the throw really builds (what the cost model prices);
#: - spectra: the largest (rows × transform width) of one batch (its memory);
#: - fighting_cells: (states × model groups) of the fighters per state (`Side.fighting`) of
#:   each side that strikes, once per way of counting them (with a second rank or not).
KINDS = ("strikers", "table_cells", "steps", "diagonal_steps", "cells", "diagonal_cells",
         "batches", "convolutions", "held_batches", "held_convolutions", "spectrum_cells", "spectra",
         "fighting_cells")


def _diagonals(striker: Striker) -> tuple[int, int]:
    """(how many wound steps j ≥ 1 a die of this striker can take: `one_die`'s passes; the
    largest of them: how far one die moves the states that hold probability)."""
    steps = np.flatnonzero(striker.transition[:, 1:].any(axis=0))
    return len(steps), int(steps[-1]) + 1 if len(steps) else 0


def _looped(
    dice: np.ndarray, reach: int, size: int, w: int, diagonals: tuple[int, int], work: Counter
) -> int:
    """`WoundTrack.throw`'s die-by-die loop over the rows that throw `dice` (> 0); returns the
    states holding probability after it. Die k steps the rows throwing ≥ k dice over the states
    the loop allows by then (`w` more per die), while the probability itself moves by at most
    the die's largest step."""
    passes, jump = diagonals
    top = int(dice.max())
    k = np.arange(1, top + 1)
    rows = len(dice) - np.searchsorted(np.sort(dice), k, side="left")
    cells = int(rows @ np.minimum(size, reach + k * w))
    work["steps"] += top
    work["diagonal_steps"] += top * passes
    work["cells"] += cells
    work["diagonal_cells"] += cells * passes
    return min(size, reach + top * jump)


def _apply(striker: Striker, sides: Sequence[Side], reach: list[int], work: Counter) -> None:
    """`combat._apply` counted: the striker's throw on the rows of its side that hold
    probability (`reach[own]` states) and the enemy states reachable so far (`reach[enemy]`)."""
    own, enemy = sides[striker.side], sides[1 - striker.side]
    other = 1 - striker.side
    size, w = enemy.track.size, enemy.track.w
    rows_in_table = own.track.size if striker.melee else 1  # shooting: the attacker's one row
    fighting = own.fighting(striker.in_ranks)[striker.group][:rows_in_table]
    diagonals = _diagonals(striker)
    passes, jump = diagonals
    work["strikers"] += 1
    work["table_cells"] += rows_in_table * size
    if striker.random_count is not None:  # `throw_random` per distinct number of throwers
        values, rows = np.unique(fighting[fighting > 0], return_counts=True)
        faces = len(striker.random_count) - 1
        for n, r in zip(values.tolist(), rows.tolist(), strict=True):
            steps = n * faces + 1
            work["convolutions"] += n
            work["steps"] += steps
            work["diagonal_steps"] += steps * passes
            work["cells"] += r * size * steps
            work["diagonal_cells"] += r * size * steps * passes
        if len(values):
            reach[other] = min(size, reach[other] + int(values[-1]) * faces * jump)
        return
    dice = fighting * striker.per_model
    independent = bool((striker.transition[:-1] == striker.transition[0]).all())
    if independent:  # `WoundTrack._throw_independent`: every row is handed to it
        values, rows = np.unique(dice, return_counts=True)
        top = int(values[-1])
        # It builds and applies only the numbers of dice of rows that may hold probability (the
        # first `reach` states of its side: one row when shooting, or before being struck).
        held = np.unique(dice[: reach[striker.side]])
        work["held_batches"] += int(np.count_nonzero(held))
        work["held_convolutions"] += int(held[-1]) if len(held) else 0
        # a matrix product (states × states) on a short track, an FFT of this width on a long one
        width = size if size <= FFT_FROM_STATES else 1 << (size + min(top * w, size - 1) - 1).bit_length()
        work["batches"] += len(values)
        work["convolutions"] += top
        work["spectrum_cells"] += rows_in_table * width
        # `wound_track._dice_matrix`, unless the enemy is not struck yet: dice on an untouched
        # pool take the law's row and build no matrix (issue 42)
        matrix = size * size if size <= FFT_FROM_STATES and reach[other] > 1 else 0
        work["spectra"] = max(work["spectra"], int(rows.max()) * width, matrix)  # one batch at a time
        reach[other] = size  # the transform's round-off leaves no state exactly empty
        return
    live = dice[: reach[striker.side]]
    live = live[live > 0]
    if len(live):
        reach[other] = _looped(live, reach[other], size, w, diagonals, work)


def _run(buckets: list[list[Striker]], sides: Sequence[Side], reach: list[int], work: Counter) -> None:
    """`combat._run` counted: a bucket holding both sides is a roll-off, the rest run twice."""
    for index, bucket in enumerate(buckets):
        if len({s.side for s in bucket}) == 2:
            first = [s for s in bucket if s.side == ATTACKER]
            second = [s for s in bucket if s.side == DEFENDER]
            rest = buckets[index + 1 :]
            _run([first, second, *rest], sides, list(reach), work)
            _run([second, first, *rest], sides, list(reach), work)
            work["table_cells"] += sides[ATTACKER].track.size * sides[DEFENDER].track.size
            return
        for striker in bucket:
            _apply(striker, sides, reach, work)


def planned(sides: Sequence[Side], situation: Situation, variants: Variants) -> tuple[int, dict[str, int]]:
    """(`combat.check_size`'s work, the counts of `KINDS`): the strikers and their transitions
    are built (cheap) and walked in the engine's order; no dice are rolled. ValueError past a
    limit of the engine, as the engine itself would raise."""
    if situation.melee:
        strikers = (melee_strikers(ATTACKER, sides[ATTACKER], sides[DEFENDER], situation, variants)
                    + melee_strikers(DEFENDER, sides[DEFENDER], sides[ATTACKER], situation, variants))
        buckets = _buckets(strikers)
    else:
        strikers = shooting_strikers(sides[ATTACKER], sides[DEFENDER], situation, variants)
        buckets = [[s] for s in strikers]  # `combat.shoot`: one after another
    prepare(strikers, sides)
    size_check = check_size(sides, strikers, melee=situation.melee)
    work: Counter = Counter({kind: 0 for kind in KINDS})
    _run(buckets, sides, [1, 1], work)
    work["fighting_cells"] = sum(sides[side].track.size * len(sides[side].unit.models)
                                 for side, _ in {(s.side, s.in_ranks) for s in strikers})
    return size_check, dict(work)
