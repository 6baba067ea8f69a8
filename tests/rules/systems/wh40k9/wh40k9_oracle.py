"""Two independent resolvers of a 40k attack for the engine's tests, written the literal way
(one die after another, docs/rules/wh40k9.md §5), from a small scenario description:

- `exact_kills`: enumerates every die with `icepool`'s exact fractions (small cases);
- `simulate`: rolls real random dice (Monte-Carlo, any size).

A scenario: `attacks` (an icepool die of the attack count), `skill`, `hit_mod`, `hit_reroll`,
`explode_on`/`explode_hits`, `strength`, `toughness`, `wound_mod`, `wound_reroll`, `ap`,
`damage` (icepool die), `six_on` with `six_ap` (extra AP) or `six_mortal` (icepool die) and
`six_ends`, and `models`: a list of (W, Sv, Inv, FNP, reduction) in allocation order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

import icepool


@dataclass(frozen=True)
class Scenario:
    attacks: icepool.Die
    skill: int
    strength: int
    toughness: int
    ap: int
    damage: icepool.Die
    models: tuple[tuple[int, int | None, int | None, int | None, int], ...]
    hit_mod: int = 0
    hit_reroll: str | None = None
    explode_on: int = 7
    explode_hits: int = 1
    wound_mod: int = 0
    wound_reroll: str | None = None
    six_on: int = 7
    six_ap: int = 0
    six_mortal: icepool.Die | None = None
    six_ends: bool = False
    extra: dict = field(default_factory=dict, hash=False, compare=False)


def wound_target(s: int, t: int) -> int:
    return 2 if s >= 2 * t else 3 if s > t else 4 if s == t else 6 if 2 * s <= t else 5


def _ok(face: int, target: int, mod: int) -> bool:
    mod = max(-1, min(1, mod))
    return face != 1 and (face == 6 or face + mod >= target)


def rolled_die(target: int, mod: int, reroll: str | None) -> icepool.Die:
    """The face that stays after re-rolls (icepool), §6.4."""
    if reroll == "ones":
        return icepool.d6.reroll([1], depth=1)
    if reroll == "failed":
        return icepool.d6.reroll([f for f in range(1, 7) if not _ok(f, target, mod)], depth=1)
    return icepool.d6


def _items(die: icepool.Die) -> list[tuple[int, Fraction]]:
    return list(zip(die.outcomes(), die.probabilities(), strict=True))


def p_save(sv: int | None, inv: int | None, ap: int) -> Fraction:
    faces = _items(icepool.d6)
    arm = sum((p for f, p in faces if sv is not None and f != 1 and f + ap >= sv), Fraction(0))
    invuln = sum((p for f, p in faces if inv is not None and f != 1 and f >= inv), Fraction(0))
    return max(arm, invuln)


def exact_kills(sc: Scenario) -> list[Fraction]:
    """P(k models dead), enumerating every die (exact fractions)."""
    wounds = [m[0] for m in sc.models]
    n = len(wounds)
    hit_die = _items(rolled_die(sc.skill, sc.hit_mod, sc.hit_reroll))
    wt = wound_target(sc.strength, sc.toughness)
    wound_die = _items(rolled_die(wt, sc.wound_mod, sc.wound_reroll))

    def point(state: tuple[int, int], mortal: bool) -> list[tuple[tuple[int, int], Fraction]]:
        """One point of damage on the current model (FNP rolled for it)."""
        dead, dmg = state
        fnp = sc.models[dead][3]
        p_ignore = Fraction(sum(1 for f in range(1, 7) if fnp is not None and f >= fnp), 6)
        hit = (dead + 1, 0) if dmg + 1 >= wounds[dead] else (dead, dmg + 1)
        return [(state, p_ignore), (hit, 1 - p_ignore)]

    def normal(state, ap: int) -> dict:
        """One wound allocated to the current model: save, damage, FNP per point, excess lost."""
        out: dict = {}
        if state[0] >= n:
            return {state: Fraction(1)}
        sv, inv, _fnp, red = sc.models[state[0]][1:]
        saved = p_save(sv, inv, ap)
        out[state] = out.get(state, 0) + saved
        for d, pd in _items(sc.damage):
            d = max(1, d - red) if d > 0 else 0
            frontier = {state: pd * (1 - saved)}
            for _ in range(d):  # point by point until the model dies: the rest is lost
                nxt: dict = {}
                for st, p in frontier.items():
                    if st[0] != state[0]:
                        nxt[st] = nxt.get(st, 0) + p
                        continue
                    for st2, p2 in point(st, False):
                        nxt[st2] = nxt.get(st2, 0) + p * p2
                frontier = nxt
            for st, p in frontier.items():
                out[st] = out.get(st, 0) + p
        return out

    def mortal(dist: dict, die: icepool.Die) -> dict:
        out: dict = {}
        for k, pk in _items(die):
            frontier = dict(dist)
            for _ in range(k):
                nxt: dict = {}
                for st, p in frontier.items():
                    if st[0] >= n:
                        nxt[st] = nxt.get(st, 0) + p
                        continue
                    for st2, p2 in point(st, True):
                        nxt[st2] = nxt.get(st2, 0) + p * p2
                frontier = nxt
            for st, p in frontier.items():
                out[st] = out.get(st, 0) + p * pk
        return out

    def spread(dist: dict, step) -> dict:
        out: dict = {}
        for st, p in dist.items():
            for st2, p2 in step(st).items():
                out[st2] = out.get(st2, 0) + p * p2
        return out

    def one_hit(state) -> dict:
        out: dict = {}
        for face, pf in wound_die:
            if not _ok(face, wt, sc.wound_mod):
                res = {state: Fraction(1)}
            elif face >= sc.six_on:
                res = {state: Fraction(1)} if sc.six_ends else normal(state, sc.ap + sc.six_ap)
                if sc.six_mortal is not None:
                    res = mortal(res, sc.six_mortal)
            else:
                res = normal(state, sc.ap)
            for st, p in res.items():
                out[st] = out.get(st, 0) + pf * p
        return out

    @cache
    def one_attack(state) -> tuple:
        out: dict = {}
        for face, pf in hit_die:
            exploded = sc.explode_hits if face >= sc.explode_on else 0
            hits = 1 + exploded if _ok(face, sc.skill, sc.hit_mod) else 0
            dist = {state: Fraction(1)}
            for _ in range(hits):
                dist = spread(dist, one_hit)
            for st, p in dist.items():
                out[st] = out.get(st, 0) + pf * p
        return tuple(out.items())

    final: dict = {}
    for count, pc in _items(sc.attacks):
        dist = {(0, 0): Fraction(1)}
        for _ in range(count):
            dist = spread(dist, lambda st: dict(one_attack(st)))
        for st, p in dist.items():
            final[st] = final.get(st, 0) + p * pc
    kills = [Fraction(0)] * (n + 1)
    for (dead, _dmg), p in final.items():
        kills[dead] += p
    return kills


def _roll(rng: random.Random, die: icepool.Die) -> int:
    outcomes, weights = zip(*_items(die), strict=True)
    return rng.choices(outcomes, weights=[float(w) for w in weights])[0]


class _Game:
    """One literal game: the defender's state and the dice."""

    def __init__(self, sc: Scenario, rng: random.Random):
        self.sc, self.rng, self.dead, self.dmg = sc, rng, 0, 0

    def d6(self) -> int:
        return self.rng.randint(1, 6)

    def kept(self, target: int, mod: int, reroll: str | None) -> int:
        face = self.d6()
        if (reroll == "ones" and face == 1) or (reroll == "failed" and not _ok(face, target, mod)):
            face = self.d6()
        return face

    def lose(self, points: int, *, spill: bool) -> None:
        """Points of damage one at a time (FNP each); normal damage stops at the model's death."""
        for _ in range(points):
            if self.dead >= len(self.sc.models):
                return
            fnp = self.sc.models[self.dead][3]
            if fnp is not None and self.d6() >= fnp:
                continue
            self.dmg += 1
            if self.dmg >= self.sc.models[self.dead][0]:
                self.dead, self.dmg = self.dead + 1, 0
                if not spill:
                    return  # the rest of this attack's damage is lost

    def allocate(self, ap: int) -> None:
        if self.dead >= len(self.sc.models):
            return
        _w, sv, inv, _fnp, red = self.sc.models[self.dead]
        face = self.d6()
        use_inv = inv is not None and p_save(None, inv, ap) > p_save(sv, None, ap)
        saved = (face != 1 and face >= inv) if use_inv else (sv is not None and face != 1 and face + ap >= sv)
        if saved:
            return
        damage = _roll(self.rng, self.sc.damage)
        self.lose(max(1, damage - red) if damage > 0 else 0, spill=False)

    def play(self) -> int:
        sc = self.sc
        wt = wound_target(sc.strength, sc.toughness)
        for _attack in range(_roll(self.rng, sc.attacks)):
            face = self.kept(sc.skill, sc.hit_mod, sc.hit_reroll)
            if not _ok(face, sc.skill, sc.hit_mod):
                continue
            for _hit in range(1 + (sc.explode_hits if face >= sc.explode_on else 0)):
                wound = self.kept(wt, sc.wound_mod, sc.wound_reroll)
                if not _ok(wound, wt, sc.wound_mod):
                    continue
                if wound >= sc.six_on:
                    if not sc.six_ends:
                        self.allocate(sc.ap + sc.six_ap)
                    if sc.six_mortal is not None:
                        self.lose(_roll(self.rng, sc.six_mortal), spill=True)
                else:
                    self.allocate(sc.ap)
        return self.dead


def simulate(sc: Scenario, trials: int, seed: int = 1) -> list[float]:
    """The kills distribution estimated from `trials` literal games with random dice."""
    rng = random.Random(seed)
    counts = [0] * (len(sc.models) + 1)
    for _ in range(trials):
        counts[_Game(sc, rng).play()] += 1
    return [c / trials for c in counts]
