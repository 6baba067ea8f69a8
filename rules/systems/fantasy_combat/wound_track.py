"""Wounds lost by a unit's pool of models, one attack die at a time, as an exact Markov chain.

The state of a pool of `models` identical models with `w` Wounds each is the number of
wounds it has lost, 0 … models·w: models slain = state // w, and the next model still
has w − state % w wounds left (§7.4: wounds accumulate across multi-wound rank and file).
One die moves the state forward by 0 … w − state % w: excess wounds on one model are lost
(§7.4, §8.1), a Killing Blow jumps to the next model (§8.2), a plain wound adds 1. So a die
is a banded transition with at most w + 1 diagonals, applied in O(states · w): sequential
dice are exact and cheap, and the state *is* the "wounds caused" of combat resolution
(§9.1: saved and regenerated wounds do not count).

Distributions are 2-D arrays (rows × states): in close combat the rows are the other
side's states, whose surviving models decide how many dice each row throws.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import accumulate, repeat
from math import comb
from operator import mul

import numpy as np
import numpy.typing as npt

from rules.dice.pmf import fold, power
from rules.systems.fantasy_combat.blows import Blow

Array = npt.NDArray[np.float64]
#: Up to this many states, independent dice move a table by one matrix product per dice count
#: (states²); past it, by one FFT convolution.
FFT_FROM_STATES = 160


class WoundTrack:
    """The states of one pool: `models` × `w` wounds lost, plus the untouched state 0."""

    def __init__(self, models: int, w: int):
        if models < 1 or w < 1:
            raise ValueError("a pool needs at least one model with at least one wound")
        self.models = models
        self.w = w
        self.size = models * w + 1
        lost = np.arange(self.size)
        self.slain = np.minimum(lost // w, models)
        self.alive = models - self.slain
        #: Wounds the current model has left, per state (0 once the pool is gone).
        self.remaining = np.where(self.alive > 0, w - lost % w, 0)

    def start_rows(self, rows: int) -> Array:
        """`rows` rows of the untouched pool (state 0 with certainty)."""
        dist = np.zeros((rows, self.size))
        dist[:, 0] = 1.0
        return dist

    @staticmethod
    @lru_cache(maxsize=256)
    def of(models: int, w: int) -> WoundTrack:
        """The track of `models` × `w` wounds, built once per shape (its arrays are never
        written to): a job meets the same unit sizes in every matchup."""
        track = WoundTrack(models, w)
        for array in (track.slain, track.alive, track.remaining):
            array.setflags(write=False)
        return track

    def transition(self, blow: Blow) -> Array:
        """C[s, j] = P(one die takes j more wounds | state s), j = 0 … w (read-only, kept)."""
        return die(blow, self.models, self.w)[0]

    def die(self, blow: Blow) -> tuple[Array, bool]:
        """`transition(blow)` and whether it is the same in every state the pool is not gone
        (`throw`'s independent dice), both kept per blow and track shape."""
        return die(blow, self.models, self.w)

    @staticmethod
    def one_die(dist: Array, transition: Array) -> Array:
        """Every row throws one die of `transition` (rows × states)."""
        out = dist * transition[:, 0]
        for j in range(1, transition.shape[1]):
            column = transition[:-j, j]
            if column.any():
                out[:, j:] += dist[:, :-j] * column
        return out

    def throw(
        self,
        dist: Array,
        dice_per_row: npt.NDArray[np.int64],
        transition: Array,
        independent: bool | None = None,
        untouched: bool | None = None,
        most: int | None = None,
        law: DieLaw | None = None,
    ) -> Array:
        """Row i throws dice_per_row[i] dice, one after another (rows × states).

        Only rows that hold probability and throw dice are touched, and only the states the
        dice can reach (a state only grows, by at most w per die). `independent`: what `die`
        says of `transition`; `untouched`: every row's mass is in state 0 (nothing struck the
        pool yet, as the caller knows); None: looked at here. `most` (the largest of
        `dice_per_row`) and `law` (`striking`'s of an independent die), when the caller keeps
        them: a striker's are the same in every matchup with the same enemy."""
        if independent is None:
            independent = bool((transition[:-1] == transition[0]).all())
        if independent:
            return self._throw_independent(dist, dice_per_row, transition[0], untouched, most, law)
        out = dist.copy()
        live = np.flatnonzero(dist.any(axis=1) & (dice_per_row > 0))
        if not len(live):
            return out
        # Most dice first: the rows still throwing at die k are then the block's first rows.
        live = live[np.argsort(-dice_per_row[live], kind="stable")]
        block = dist[live]
        dice = dice_per_row[live]
        throwing = np.searchsorted(-dice, -np.arange(1, int(dice[0]) + 1), side="right")
        reach = int(np.flatnonzero(block.any(axis=0)).max()) + 1
        for rows in throwing.tolist():
            reach = min(self.size, reach + self.w)
            block[:rows, :reach] = self.one_die(block[:rows, :reach], transition[:reach])
        out[live] = block
        return out

    def _throw_independent(
        self,
        dist: Array,
        dice_per_row: npt.NDArray[np.int64],
        per_die: Array,
        untouched: bool | None = None,
        most: int | None = None,
        law: DieLaw | None = None,
    ) -> Array:
        """The same, when a die does the same whatever the state (no Killing Blow or Multiple
        Wounds on multi-wound models): the wounds of n dice are the n-fold convolution of one
        die's, added to the state and folded into "all slain", which absorbs (exact). The
        n-fold convolutions are built one die at a time over the distinct n in order, and each
        is applied to its rows at once: on a short track as one matrix product (state to state,
        `_dice_matrix`), on a long one by FFT. Either is a handful of array operations per
        distinct number of dice, where stepping die by die was several per die."""
        last = self.size - 1
        per_die, die, bernoulli = independent_law(per_die) if law is None else law
        short = self.size <= FFT_FROM_STATES
        # The pool untouched in every row (a first strike; the return blows of a unit struck
        # by nobody yet): each row's product with a dice matrix is its first entry times the
        # matrix's first row — the other terms are exact zeros — so no matrix is built.
        untouched = short and (not dist[:, 1:].any() if untouched is None else untouched)
        if most is None:
            most = int(dice_per_row.max())
        if untouched and bernoulli and most <= BINOMIAL_MOST:
            # Every row at once: its mass in state 0 times the law of its number of dice (the
            # table up to the most any row throws: a unit's full strength, the same key in
            # every matchup of the same die on the same track).
            out = np.empty_like(dist)
            np.multiply(dist[:, :1], binomial_laws(die, table_rows(most), self.size)[dice_per_row], out=out)
            return out
        held = dist.any(axis=1).nonzero()[0]
        out = np.zeros_like(dist)  # the layout of `dist` (a transposed table's), as the sums after expect
        count, done = np.ones(1), 0
        if len(held) == 1 and bernoulli and short:  # one row: shooting, a first strike
            row = int(held[0])
            n = int(dice_per_row[row])
            if not n:
                out[row] = dist[row]
            elif untouched:
                out[row] = dist[row, 0] * binomial_law(die, n, self.size)
            else:
                out[row] = dist[row] @ _binomial_matrix(die, n, self.size)
            return out
        for n in sorted(set(dice_per_row[held].tolist())):  # `np.unique`, in order
            rows = dice_per_row == n
            if not n:
                out[rows] = dist[rows]
                continue
            if bernoulli and short:
                if untouched:
                    out[rows] = dist[rows, :1] * binomial_law(die, n, self.size)
                else:
                    out[rows] = dist[rows] @ _binomial_matrix(die, n, self.size)
                continue
            if bernoulli:
                count = power(per_die, n, last)
            else:
                for _ in range(n - done):
                    count = fold(np.convolve(count, per_die), last)
            done = n
            if untouched:  # `_dice_matrix`'s first row: the law, folded at the last state
                law = np.zeros(self.size)
                law[: len(count)] = count
                out[rows] = dist[rows, :1] * law
                continue
            block = dist[rows]
            if self.size <= FFT_FROM_STATES:
                out[rows] = block @ _dice_matrix(count, self.size)
            else:
                length = self.size + len(count) - 1
                width = 1 << (length - 1).bit_length()
                spread = np.fft.irfft(
                    np.fft.rfft(block, width, axis=1) * np.fft.rfft(count, width), width, axis=1
                )
                spread = np.maximum(spread[:, :length], 0.0)
                spread[:, last] += spread[:, last + 1 :].sum(axis=1)
                out[rows] = spread[:, : self.size]
        return out

    def throw_random(
        self, dist: Array, count: tuple[float, ...], throwing_rows: npt.NDArray[np.bool_], transition: Array
    ) -> Array:
        """Rows in `throwing_rows` throw a random number of dice, P(k) = count[k] (D6 impact
        hits, 2D6 breath): Σ_k P(k) · (k dice)."""
        part = dist[throwing_rows]
        result = np.zeros_like(part)
        for p_k in count:
            if p_k:
                result += p_k * part
            part = self.one_die(part, transition)
        out = dist.copy()
        out[throwing_rows] = result
        return out


#: An independent die as `WoundTrack._throw_independent` reads it (`independent_law`).
DieLaw = tuple[Array, bytes, bool]


def independent_law(per_die: Array) -> DieLaw:
    """One die's PMF of wounds as the independent throw reads it: the PMF (cut after its last
    outcome when it has two, no wound or m wounds: the binomial law, written out), its bytes
    (the key of the laws kept per die) and whether it has two outcomes. (`.nonzero()[0]` is
    `np.flatnonzero` on 1-D arrays, for less of numpy's Python around it.)"""
    outcomes = per_die.nonzero()[0]
    bernoulli = len(outcomes) == 2
    if bernoulli:
        per_die = per_die[: outcomes[-1] + 1]
    return per_die, per_die.tobytes(), bernoulli


@lru_cache(maxsize=2048)
def striking(blow: Blow, models: int, w: int) -> tuple[Array, bool, DieLaw | None]:
    """`die` and, for an independent die, its `independent_law`: what a close-combat striker
    keeps (`combat.melee_strikers`), so no matchup reads the die again for its throw."""
    transition, independent = die(blow, models, w)
    return transition, independent, _die_of(blow, w)[2]


@lru_cache(maxsize=2048)
def die(blow: Blow, models: int, w: int) -> tuple[Array, bool]:
    """`WoundTrack.transition` of a blow on a track of `models` × `w` (read-only) and whether
    every state before "all slain" has the same row (the dice are then independent of the
    state, `WoundTrack._throw_independent`): kept, as a job's strikers meet the same few
    blows on the same few tracks, and the throw and the size check both ask."""
    per_remaining, independent, _ = _die_of(blow, w)
    transition = per_remaining[WoundTrack.of(models, w).remaining]
    transition.setflags(write=False)
    return transition, independent


@lru_cache(maxsize=1024)
def _die_of(blow: Blow, w: int) -> tuple[Array, bool, DieLaw | None]:
    """`_per_remaining`, whether a die is independent of the state, and then its
    `independent_law`: all three the same on every track of W `w` (kept per blow and W, not
    per track). Every state but "all slain" has a model with 1 … w wounds left (state 0: w),
    so the rows of a track's transition are the same in all of them exactly when these rows
    of `_per_remaining` are."""
    per_remaining = _per_remaining(blow, w)
    independent = bool((per_remaining[1:] == per_remaining[w]).all())
    return per_remaining, independent, independent_law(per_remaining[w]) if independent else None


@lru_cache(maxsize=1024)
def _per_remaining(blow: Blow, w: int) -> Array:
    """P(one die takes j wounds | the current model has r left), r, j = 0 … w: one row per
    wounds left, shared by every state with that many (kept per blow and W, read-only)."""
    per_remaining = np.zeros((w + 1, w + 1))
    per_remaining[0, 0] = 1.0
    for r in range(1, w + 1):
        row = per_remaining[r]
        row[0] += 1.0 - blow.p_slay - blow.p_unsaved
        row[r] += blow.p_slay
        for x, p_x in enumerate(blow.damage):
            if not p_x:
                continue
            lost = min(x, r)
            q = blow.regeneration_fails
            if q >= 1.0:
                row[lost] += blow.p_unsaved * p_x
            else:  # §7.3: one regeneration roll per wound lost
                for j in range(lost + 1):
                    row[j] += blow.p_unsaved * p_x * comb(lost, j) * q**j * (1 - q) ** (lost - j)
    per_remaining.setflags(write=False)
    return per_remaining


def _offsets(size: int) -> npt.NDArray[np.int64]:
    """D[s, t] = t − s where t ≥ s, else `size` (an index that reads 0): the wounds that take
    state s to t, kept per track length."""
    known = _OFFSETS.get(size)
    if known is None:
        ahead = np.subtract.outer(np.arange(size), np.arange(size)).T
        known = _OFFSETS[size] = np.where(ahead >= 0, ahead, size)
        known.setflags(write=False)
    return known


_OFFSETS: dict[int, npt.NDArray[np.int64]] = {}


def _dice_matrix(count: Array, size: int) -> Array:
    """M[s, t] = P(state s goes to t) when the dice take k wounds with P(count[k]) (folded at
    the last state): count[t − s] below the last state, and at it every k that reaches it."""
    last = size - 1
    padded = np.zeros(size + 1)
    padded[: len(count)] = count
    matrix = padded[_offsets(size)]
    tail = np.cumsum(padded[size::-1])[::-1]  # tail[k] = P(at least k wounds)
    matrix[:, last] = tail[last - np.arange(size)]
    return matrix


@lru_cache(maxsize=512)
def _binomial_matrix(die: bytes, n: int, size: int) -> Array:
    """`_dice_matrix` of n dice that each take no wound or m (`die`: their PMF's bytes), kept
    (read-only) per die, n and track length: a job's strikers throw the same few numbers of the
    same few dice at the same few unit sizes (at most 160² cells each, 512 of them). Built on
    `binomial_laws`' row n, so a row scaled and a product with it give the same bits."""
    matrix = _dice_matrix(binomial_law(die, n, size), size)
    matrix.setflags(write=False)
    return matrix


@lru_cache(maxsize=512)
def binomial_law(die: bytes, n: int, size: int) -> Array:
    """The law of n dice that each take no wound or m (`die`: their PMF's bytes), folded at the
    last state, on `size` entries (read-only): row n of `binomial_laws` up to `BINOMIAL_MOST`
    dice (the same bits whichever way a throw reads it), `pmf.power`'s above (a table would
    grow with the square of the dice)."""
    if n <= BINOMIAL_MOST:
        return binomial_laws(die, table_rows(n), size)[n]
    law = power(np.frombuffer(die), n, size - 1)
    row = np.zeros(size)
    row[: len(law)] = law
    row.setflags(write=False)
    return row


@lru_cache(maxsize=512)
def binomial_laws(die: bytes, most: int, size: int) -> Array:
    """Row n: the law of n dice that each take no wound or m wounds (`die`: their PMF's bytes,
    P(0) … P(m)), n = 0 … `most`, folded at the last state and written on `size` entries
    (read-only, kept per die, most and track length).

    Every row at once (issue 42): the binomial terms C(n, k) pᵏ qⁿ⁻ᵏ as one product of three
    tables (the coefficients, the powers of p, the powers of q), a handful of array operations
    where a pass per number of dice was most of a job's throws (the return blows of a unit
    throw a different number of dice from every state of the unit that struck it). The
    coefficients are exact integers up to 56 dice and rounded once above; a power too small
    for a float is zero, and with at most `BINOMIAL_MOST` dice (C < 2⁶⁴) the term it belongs
    to is below 1e-288. A die of another shape is `pmf.power`'s, and so are rows past
    `BINOMIAL_MOST` dice (callers ask for no more: `binomial_law` powers them one at a time)."""
    base = np.frombuffer(die)
    last = size - 1
    m = len(base) - 1
    q, p = float(base[0]), float(base[-1])
    binomial = m >= 1 and q > 0.0 and p > 0.0 and not base[1:-1].any()
    if most > BINOMIAL_MOST or not binomial:
        laws = np.zeros((most + 1, size))
        first = 0
        if binomial:  # the rows up to `BINOMIAL_MOST` as any table has them
            first = BINOMIAL_MOST + 1
            laws[:first] = binomial_laws(die, BINOMIAL_MOST, size)
        for n in range(first, most + 1):
            law = power(base, n, last)
            laws[n, : len(law)] = law
        laws.setflags(write=False)
        return laws
    # Only the terms below the last state are written out (k·m < last, at most `below` + 1 of
    # them): the last state holds the rest, one minus their sum, so a table is no wider than
    # the track (a unit's many shots at one monster). The powers are running products and
    # the sum is taken in order, so a row's numbers do not depend on how many rows or terms
    # its table has (the matrices of `_binomial_matrix` are built on tables of their own),
    # nor on the track past its number of terms: the terms and their running sums are kept
    # per die and number of terms (`_binomial_terms`), for every track as long or longer.
    below = min(most, (last - 1) // m)
    terms, sums = _binomial_terms(die, most, below + 1)
    laws = np.zeros((most + 1, size))
    laws[:, : below * m + 1 : m] = terms
    reaching = _REACHING[m][: most + 1] >= last  # rows with dice enough to reach the last state
    laws[reaching, last] = np.maximum(1.0 - sums[reaching, below], 0.0)
    laws.setflags(write=False)
    return laws


@lru_cache(maxsize=256)
def _binomial_terms(die: bytes, most: int, columns: int) -> tuple[Array, Array]:
    """C(n, k) pᵏ qⁿ⁻ᵏ for n = 0 … `most` and k below `columns` (`die`: the PMF's bytes, P(0)
    … P(m)) and their running sums over k, in order (a sum up to k is the same bits as the
    sum of those terms alone): what `binomial_laws` writes on every track with room for
    these terms, built once (no more terms than a track holds: a table of many dice at a
    small target stays small)."""
    base = np.frombuffer(die)
    q, p = float(base[0]), float(base[-1])
    choose, gaps = _pascal(most)
    powers = np.array([list(accumulate(repeat(x, most), mul, initial=1.0)) for x in (p, q)])
    terms = choose[:, :columns] * powers[0, :columns] * powers[1][gaps[:, :columns]]
    return terms, np.cumsum(terms, axis=1)


#: k·m for k = 0 … `BINOMIAL_MOST` per step m of a die (`binomial_laws`' rows that reach the
#: last state), grown on demand.
class _Reaching(dict):
    def __missing__(self, m: int) -> npt.NDArray[np.int64]:
        self[m] = np.arange(BINOMIAL_MOST + 1) * m
        return self[m]


_REACHING = _Reaching()


#: `binomial_laws` writes its terms out up to this many dice (its coefficients are built at
#: import; a table grows with the square of the dice, so more are powered one law at a time).
BINOMIAL_MOST = 64
#: The throws ask `binomial_laws` for tables of a multiple of this many dice (`table_rows`).
TABLE_ROWS_STEP = 16


def table_rows(most: int) -> int:
    """The rows of the `binomial_laws` table a throw of at most `most` dice reads: `most`
    rounded up to a multiple of `TABLE_ROWS_STEP` (at most `BINOMIAL_MOST`). A row does not
    depend on its table's size, so one table per die and track serves the strikers of 5, 10
    and 15 dice alike: building the tables was a sixth of a list job's cell, most of them
    the same rows again for another number of dice (issue 42)."""
    if most > BINOMIAL_MOST:
        return most
    return min(BINOMIAL_MOST, -(-max(most, 1) // TABLE_ROWS_STEP) * TABLE_ROWS_STEP)


def _pascal(most: int) -> tuple[Array, npt.NDArray[np.int64]]:
    """C(n, k) for n, k = 0 … most (0 where k > n) and the table of n − k (0 where k > n):
    numbers of the dice alone, the same for every die and every job, so kept for the process
    (built at import up to 64 dice, grown for more on demand)."""
    if len(_PASCAL[0]) <= most:
        top = max(most, 2 * len(_PASCAL[0]))
        choose = np.zeros((top + 1, top + 1))
        for n in range(top + 1):
            choose[n, : n + 1] = [comb(n, k) for k in range(n + 1)]  # one rounding each above 2⁵³
        n = np.arange(top + 1)
        _PASCAL[:] = [choose, np.maximum(n[:, None] - n[None, :], 0)]
    choose, gaps = _PASCAL
    return choose[: most + 1, : most + 1], gaps[: most + 1, : most + 1]


_PASCAL: list = [np.zeros((0, 0)), np.zeros((0, 0), dtype=np.int64)]
_pascal(64)


def clear_caches() -> None:
    """Empty what this module keeps between matchups (the benches measure an engine cold)."""
    WoundTrack.of.cache_clear()
    _per_remaining.cache_clear()
    _binomial_matrix.cache_clear()
    binomial_laws.cache_clear()
    binomial_law.cache_clear()
    _binomial_terms.cache_clear()
    die.cache_clear()
    _die_of.cache_clear()
    striking.cache_clear()
    _OFFSETS.clear()
