"""A list job's row: one attacker against many defenders (the registry's `matrix_row`, issue 42).

A matchup's close-combat resolution is a dozen numpy calls on a table of a few hundred cells,
so a list job's cell paid more for the calls than for the arithmetic. Here each defender's
round is fought as `estimate.matrix_attack` fights it — one batch of two-outcome dice a side,
the common round, as one product (`_one_each`), else `combat.fight_round` — to the same
table, bit for bit; then the resolution of the common combat (`resolution._plain`: a front
combat without a musician's tie-break or a Swarm) is done for a batch of defenders at once:
their tables side by side (the attacker's states are the rows of every one), binned by
defender and combat result in one `np.bincount`, so each step is one call for the batch.
Each bin sums the same cells in the same order as the matchup's own; the chances read from
the bins are the matchup's within 1e-15 (sums in another order), the kills and points to the
bit. Every other case goes through `estimate.matrix_attack`.

Memory: a batch holds at most `ROW_CELLS` cells of tables (a few of its arrays that size), a
defender whose table is larger than `ALONE_CELLS` is computed alone, as a cell would be.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from rules.dice.pmf import mean
from rules.systems.fantasy_combat.combat import ATTACKER, DEFENDER, Side, fight_round, kept_dice
from rules.systems.fantasy_combat.estimate import EFFICIENCY_PER_POINTS, _attack, _probability, _sides
from rules.systems.fantasy_combat.resolution import _REACH, _Side, _side, resolve
from rules.systems.fantasy_combat.situation import Situation, _
from rules.systems.fantasy_combat.units import Unit
from rules.systems.fantasy_combat.variants import Variants
from rules.systems.fantasy_combat.wound_track import (
    BINOMIAL_MOST,
    FFT_FROM_STATES,
    Array,
    DieLaw,
    WoundTrack,
    _binomial_matrix,
    binomial_laws,
    table_rows,
)

#: Cells of the tables one batch holds side by side (its arrays are this size: 256 KB each).
ROW_CELLS = 1 << 15
#: A defender whose table is larger is computed alone (`estimate.matrix_attack`): per-call
#: overhead is what a batch saves, and a large table's arithmetic outweighs it.
ALONE_CELLS = 4096

#: One defender of a batch: its index in the row, both units, both tracks, the round's table.
_Fought = tuple[int, tuple[Unit, Unit], tuple[WoundTrack, WoundTrack], Array]


def matrix_row(
    attacker: Mapping[str, Any] | Unit,
    defenders: Sequence[Mapping[str, Any] | Unit],
    situation: Mapping[str, Any] | None,
    *,
    variants: Variants,
) -> list[dict[str, Any]]:
    """The registry's `matrix_row`: `matrix_attack(attacker, d, situation)` for each defender
    `d`, in order, the same numbers (within 1e-12); ValueError as the first failing matchup's."""
    sit = situation if isinstance(situation, Situation) else Situation.from_dict(situation, variants)
    if not (sit.melee and sit.flank == "front" and sit.attacker_musician == sit.defender_musician):
        return [_attack(attacker, d, sit, variants=variants, full=False) for d in defenders]
    out: list[dict[str, Any] | None] = [None] * len(defenders)
    batch: list[_Fought] = []
    cells = 0
    for index, defender in enumerate(defenders):
        units, tracks, sides = _sides(attacker, defender, sit)
        size = tracks[ATTACKER].size * tracks[DEFENDER].size
        swarm = (
            _side(units[ATTACKER], tracks[ATTACKER], sit, variants, True).test.kind == "swarm"
            or _side(units[DEFENDER], tracks[DEFENDER], sit, variants, False).test.kind == "swarm"
        )
        if swarm or size > ALONE_CELLS:
            out[index] = _attack(units[ATTACKER], units[DEFENDER], sit, variants=variants, full=False)
            continue
        dist = _one_each(sides, sit, variants)
        if dist is None:
            dist = fight_round(sides, sit, variants, tally=False)[0]
        if cells + size > ROW_CELLS:
            _resolve_batch(batch, sit, variants, out)
            batch, cells = [], 0
        batch.append((index, units, tracks, dist))
        cells += size
    _resolve_batch(batch, sit, variants, out)
    return out  # type: ignore[return-value]  # every index written


def _one_each(sides: tuple[Side, Side], sit: Situation, variants: Variants) -> Array | None:
    """`combat.fight_round`'s table where one side's strikes all come before the other's, its
    batches of two-outcome dice (`combat._apply`'s first case, a strike on a pool nothing has
    struck yet, and its one-row case, a side's next batch before it is struck): the first
    side's row (or column) 0, times the return blows' law per state it left (one product), the
    other side's next batches thrown as `_apply` throws them (`_returned`), the same products
    as `_apply`'s, to the bit; one batch each at the same step, a roll-off (§6.2), both orders,
    half each, as `combat._run`. None: another round (strikes interleaved, other dice), for
    `fight_round`. (No size check: a table of at most `ALONE_CELLS` is far inside
    `combat.check_size`.)"""
    mine = _batches(ATTACKER, sides, sit, variants)
    if not mine:
        return None
    theirs = _batches(DEFENDER, sides, sit, variants)
    if not theirs:
        return None
    track_a, track_d = sides[ATTACKER].track, sides[DEFENDER].track
    if len(mine) == 1 and len(theirs) == 1 and mine[0].order == theirs[0].order:
        a, d = mine[0], theirs[0]
        laws_a, laws_d = _laws(a, track_d), _laws(d, track_a)
        if laws_a is None or laws_d is None:
            return None
        first = np.multiply(laws_a[a.dice[0]], laws_d[d.dice].T, order="C")
        first += laws_d[d.dice[0]][:, None] * laws_a[a.dice]
        first *= 0.5
        return first
    # (laid out as `fight_round`'s, rows outer: a sum over its rows adds them in the same order)
    if max(b.order for b in mine) < min(b.order for b in theirs):
        row = _first_row(mine, track_d, track_a.size, contiguous=True)
        return None if row is None else _returned(row, sorted(theirs, key=_order), track_a, attacking=False)
    if max(b.order for b in theirs) < min(b.order for b in mine):
        column = _first_row(theirs, track_a, track_d.size, contiguous=False)
        if column is None:
            return None
        return _returned(column, sorted(mine, key=_order), track_d, attacking=True)
    return None


def _returned(struck: Array, batches: list[_Batch], track: WoundTrack, *, attacking: bool) -> Array | None:
    """The other side's batches after the first side's strikes (`struck`: the first side's row
    or column 0), in strike order, as `combat._apply` throws them: the first on a pool nothing
    has struck yet (its law per state the first side left, one product), the next ones by
    `WoundTrack.throw` on the table so far, oriented and laid out as `_apply`'s. None: a first
    batch that is not of two-outcome dice (`fight_round`)."""
    laws = _laws(batches[0], track)
    if laws is None:
        return None
    first = laws[batches[0].dice]  # per state of the side's own track, its law on the enemy's
    if attacking:
        table = np.multiply(struck[:, None], first, order="C")
    else:
        table = np.multiply(struck, first.T, order="C")
    for batch in batches[1:]:
        oriented = table if attacking else table.T
        hit = track.throw(
            oriented, batch.dice, batch.transition, batch.independent, False, batch.most, batch.law
        )
        table = hit if attacking else hit.T
    return table


def _first_row(batches: list[_Batch], track: WoundTrack, own: int, *, contiguous: bool) -> Array | None:
    """The first side's strikes, in strike order, on the enemy's `track` while its own pool is
    untouched: the law of its first batch's dice, then each next batch's matrix applied, as
    `combat._apply` does to its table's row 0 (`contiguous`: the attacker's, a row of its table;
    the defender's is a column of the table, a row of its transpose: strided by its `own`
    states, as `_apply` reads it, so each product is `_apply`'s to the bit). None: not those
    cases."""
    batches = sorted(batches, key=_order)  # (stable: `combat._buckets`' order)
    laws = _laws(batches[0], track)
    if laws is None:
        return None
    row = laws[batches[0].dice[0]]
    for batch in batches[1:]:
        law = batch.law
        if law is None or not law[2] or track.size > FFT_FROM_STATES:
            return None
        n = int(batch.dice[0])
        if n:
            if not contiguous:
                strided = np.zeros((track.size, own))[:, 0]
                strided[:] = row
                row = strided
            row = row @ _binomial_matrix(law[1], n, track.size)
    return row


def _order(batch: _Batch) -> tuple[int, int]:
    return batch.order


class _Batch(NamedTuple):
    """A side's batch of dice (`_batches`): its strike order (`combat.Striker.order`), the
    dice each state of its track throws, their largest number and their die's law."""

    order: tuple[int, int]
    dice: npt.NDArray[np.int64]
    most: int
    law: DieLaw | None
    transition: Array
    independent: bool


def _batches(side: int, sides: tuple[Side, Side], sit: Situation, variants: Variants) -> list[_Batch] | None:
    """The side's batches of dice in its strikers' order (`combat.kept_dice`, what its
    strikers would hold); None: impact hits or a breath weapon may add some."""
    plan, _struck, dice, dies, _target = kept_dice(side, sides[side], sides[1 - side], sit, variants)
    if plan.special:
        return None
    return [
        _Batch((f.tier, -f.initiative), throws, most, kept[2], kept[0], kept[1])
        for fighters, group, kepts in zip(plan.fighters, dice, dies, strict=True)
        for f, (throws, most), kept in zip(fighters, group, kepts, strict=True)
    ]


def _laws(batch: _Batch, track: WoundTrack) -> Array | None:
    """The laws of 0 … n of the batch's dice on the enemy's `track`, as `combat._apply`'s
    first case reads them; None: not that case."""
    law, most = batch.law, batch.most
    if law is None or not law[2] or track.size > FFT_FROM_STATES or most > BINOMIAL_MOST:
        return None
    return binomial_laws(law[1], table_rows(most), track.size)


def _resolve_batch(
    batch: list[_Fought], sit: Situation, variants: Variants, out: list[dict[str, Any] | None]
) -> None:
    """Each fought defender's cell into `out`: the resolution for the batch at once
    (`_binned`), or, where a combat result is past `resolution._REACH`, one at a time
    (`resolve`)."""
    if not batch:
        return
    attacker, track_a = batch[0][1][ATTACKER], batch[0][2][ATTACKER]
    a = _side(attacker, track_a, sit, variants, True)
    ds = [_side(units[DEFENDER], tracks[DEFENDER], sit, variants, False) for _, units, tracks, _ in batch]
    table = np.concatenate([dist for *_, dist in batch], axis=1) if len(batch) > 1 else batch[0][3]
    widths = [tracks[DEFENDER].size for _, _, tracks, _ in batch]
    binned = _binned(table, a, ds, widths, sit, variants)
    if binned is None:  # a combat result past the reach (rare): the batch's defenders one by one
        for item in batch:
            _cell(item, _alone(item, sit, variants), out)
        return
    for item, figures in zip(batch, binned, strict=True):
        _cell(item, figures, out)


def _alone(item: _Fought, sit: Situation, variants: Variants) -> tuple[float, ...]:
    _, units, tracks, dist = item
    r = resolve(dist, units[ATTACKER], units[DEFENDER], tracks, sit, variants)
    return r.p_attacker_wins, r.p_draw, r.p_defender_wins, r.p_defender_breaks, r.p_attacker_breaks


def _binned(
    table: Array, a: _Side, ds: list[_Side], widths: list[int], sit: Situation, variants: Variants
) -> list[tuple[float, ...]] | None:
    """`resolution._plain`'s five chances (win, draw, loss, each side's break) for every
    defender of the batch (`table`: their tables side by side), from one binning: the key is
    `_plain`'s, shifted per defender past the bins of the ones before. None: a combat result
    past `_REACH` (`_plain` would go the general way)."""
    starts = np.cumsum([0, *widths[:-1]])
    key = np.add.outer(a.key, np.concatenate([d.key for d in ds]))
    sign = np.sign(np.subtract.outer(a.us, np.concatenate([d.us for d in ds])))
    sign *= 16
    key += sign
    lows = np.minimum.reduceat(np.minimum.reduce(key, axis=0), starts) // 12
    highs = np.maximum.reduceat(np.maximum.reduce(key, axis=0), starts) // 12
    offset, top = int(lows.min()), int(highs.max())
    if offset < -_REACH or top > _REACH:
        return None
    rows, count = top - offset + 1, len(ds)
    key += np.repeat(np.arange(count) * (12 * rows) - 12 * offset, widths)
    binned = np.bincount(key.ravel(), weights=table.ravel(), minlength=count * 12 * rows)
    binned = binned.reshape(count, rows, 3, 4)
    zero = -offset
    won, lost = slice(max(zero + 1, 0), None), slice(None, max(zero, 0))
    difference = np.add.reduce(binned, axis=(2, 3))
    gone_d = np.add.reduce(binned[:, :, :, 1::2], axis=(1, 2, 3))
    gone_a = np.add.reduce(binned[:, :, :, 2:], axis=(1, 2, 3))
    standing_d = binned[:, :, :, 0] + binned[:, :, :, 2]  # (defender, result, US sign)
    standing_a = binned[:, :, :, 0] + binned[:, :, :, 1]
    # beaten by a fear-causer of greater US, a side that tests breaks whatever its test
    fear = variants.fear_auto_break or sit.fear_auto_break
    fear_d = np.array([fear and d.test.kind == "test" and a.causes_fear and not d.fearless for d in ds])
    fear_a = np.array([fear and a.test.kind == "test" and d.causes_fear and not a.fearless for d in ds])
    forced_d = np.zeros(count)
    forced_a = np.zeros(count)
    if fear_d.any():  # the defender lost (result > 0) to a greater US
        forced_d[fear_d] = np.add.reduce(standing_d[fear_d][:, won, 2], axis=1)
        standing_d[fear_d[:, None] & (np.arange(rows) >= won.start)[None, :], 2] = 0.0
    if fear_a.any():  # the attacker lost (result < 0) to a greater US
        forced_a[fear_a] = np.add.reduce(standing_a[fear_a][:, lost, 0], axis=1)
        standing_a[fear_a[:, None] & (np.arange(rows) < lost.stop)[None, :], 0] = 0.0
    standing_d, standing_a = np.add.reduce(standing_d, axis=2), np.add.reduce(standing_a, axis=2)
    reach = slice(_REACH + offset, _REACH + offset + rows)
    breaks_d = np.stack([d.breaks[reach] for d in ds])
    p_break_d = np.add.reduce(standing_d * breaks_d, axis=1) + forced_d + gone_d
    p_break_a = standing_a @ a.breaks[reach] + forced_a + gone_a
    p_win = np.add.reduce(difference[:, won], axis=1)
    p_lose = np.add.reduce(difference[:, lost], axis=1)
    p_draw = difference[:, zero] if 0 <= zero < rows else np.zeros(count)
    columns = (p_win, p_draw, p_lose, p_break_d, p_break_a)
    return list(zip(*(column.tolist() for column in columns), strict=True))


def _cell(
    item: _Fought, figures: tuple[float, ...], out: list[dict[str, Any] | None], wounds: Array | None = None
) -> None:
    """`estimate.matrix_attack`'s result from the round's table and its resolution's chances."""
    index, units, tracks, dist = item
    td = tracks[DEFENDER]
    if wounds is None:
        wounds = np.add.reduce(dist, axis=0)
    kills = wounds if td.w == 1 else np.bincount(td.slain, weights=wounds, minlength=td.models + 1)
    p_win, p_draw, p_lose, p_break_d, p_break_a = figures
    points_destroyed = float(kills @ units[DEFENDER].loss_points())
    attacker_points, defender_points = units[ATTACKER].points, units[DEFENDER].points
    out[index] = {
        "expected": {"kills": mean(kills)},
        "p_destroyed": float(kills[-1]),
        "expected_points_destroyed": points_destroyed if defender_points > 0 else None,
        "points_efficiency": EFFICIENCY_PER_POINTS * points_destroyed / attacker_points
        if attacker_points > 0 and defender_points > 0
        else None,
        "outcomes": [
            _probability("p_win_combat", _("Attacker wins the combat"), p_win),
            _probability("p_draw", _("Combat is a draw"), p_draw),
            _probability("p_lose_combat", _("Attacker loses the combat"), p_lose),
            _probability("p_defender_breaks", _("Defender breaks or is destroyed"), p_break_d),
            _probability("p_attacker_breaks", _("Attacker breaks or is destroyed"), p_break_a),
        ],
    }
