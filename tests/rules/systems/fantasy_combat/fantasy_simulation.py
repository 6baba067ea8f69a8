"""A Monte-Carlo simulation of WHFB 6th shooting and one close-combat round with combat
resolution and the break test: the test oracle for `rules.systems.fantasy_combat`.

Written from `docs/rules/whfb6.md` (and the RU switches of `docs/rules/ru_whfb.md`)
independently of the engine: it imports nothing from it and rolls every die. It handles
the subset of the unit format the Monte-Carlo tests use: one model group per unit, an
optional mount, `save` as a number, `ward`, `regeneration`, the rules Hatred, Killing
Blow, Poisoned Attacks, Always Strikes First, Stubborn, Unbreakable, Fear, and the weapon
kinds great_weapon, lance, halberd, spear (named "Spear" or given as the kind; §12.1: on foot
two ranks, on cavalry +1 S in the first round when charging).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

US = {"infantry": 1, "cavalry": 2, "monstrous": 3}
BONUS = {"great_weapon": 2, "halberd": 1}


@dataclass
class Trial:
    attacker_lost: int  # wounds
    defender_lost: int
    defender_killed: int
    difference: int
    defender_breaks: bool
    attacker_breaks: bool
    attacker_fighting: int = 0
    defender_fighting: int = 0
    defender_swarm_wounds: int = 0  # RU #39: extra wounds a losing Swarm suffers


def _model(unit):
    return unit["models"][0]


def _rules(model):
    return {r.lower() for r in model.get("rules", [])}


class Dice:
    """D6 rolls drawn in blocks (a Python call per die would make the oracle too slow)."""

    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.block = self.rng.integers(1, 7, size=1 << 20).tolist()
        self.next = 0

    def integers(self, low, high):
        if low != 1 or high != 7:
            return int(self.rng.integers(low, high))
        if self.next >= len(self.block):
            self.block = self.rng.integers(1, 7, size=1 << 20).tolist()
            self.next = 0
        self.next += 1
        return self.block[self.next - 1]


BASES = {"infantry": (20, 20), "cavalry": (25, 50), "monstrous": (40, 40)}


def _rectangles(count, width, base, facing_down):
    """Every model of a unit as an (x0, x1, y0, y1) rectangle: rank 0 at the front edge y = 0,
    further ranks behind (away from the enemy); full ranks span [-W/2, W/2], an incomplete rear
    rank is centred. `facing_down`: the front faces −y (ranks stacked upwards) or +y."""
    bw, bd = base
    front = min(width, count)
    out = []
    for r in range(-(-count // front)):
        in_rank = min(front, count - r * front)
        x0 = -in_rank * bw / 2
        for f in range(in_rank):
            y0, y1 = (r * bd, (r + 1) * bd) if facing_down else (-(r + 1) * bd, -r * bd)
            out.append((x0 + f * bw, x0 + (f + 1) * bw, y0, y1, r))
    return out


def contact(attacker, defender, a_width, d_width, facing):
    """§6.2 who fights, by plane geometry: both units laid out model by model, the attacker's
    front facing the defender's front, rear, or side of its full ranks; a model fights when
    its base touches an enemy base (a corner is enough). The charge brings as many models into
    contact as possible (§5, the repository's docs/rules/fantasy.md): the attacker is slid along
    that face to every place where one of its base edges meets a defender's base edge, and the
    place with the most models of both sides in contact, then the most attackers, is kept.
    Returns (attackers, defenders)."""
    am, dm = _model(attacker), _model(defender)
    a_base = BASES[am.get("troop_type", "infantry")]
    d_base = BASES[dm.get("troop_type", "infantry")]
    d = _rectangles(dm["count"], d_width, d_base, facing_down=False)  # front edge at y = 0, body below
    a = _rectangles(am["count"], a_width, a_base, facing_down=True)  # front at y = 0, body above
    axis = 0  # the attacker slides along x (front, rear) or y (flank)
    if facing == "rear":
        bottom = min(r[2] for r in d)
        a = [(x0, x1, bottom - y1, bottom - y0, r) for x0, x1, y0, y1, r in a]  # mirrored below
    elif facing == "flank":
        front = min(d_width, dm["count"])
        full = dm["count"] // front
        right = max(r[1] for r in d)
        middle = -full * d_base[1] / 2
        # the attacker's front (x along its rank) turned to face −x, centred on the full ranks' side
        a = [(right + y0, right + y1, middle + x0, middle + x1, r) for x0, x1, y0, y1, r in a]
        axis = 2
    a_arr = np.array([r[:4] for r in a], dtype=float)
    d_arr = np.array([r[:4] for r in d], dtype=float)
    shifts = np.unique(d_arr[:, axis : axis + 2].reshape(-1, 1) - a_arr[:, axis : axis + 2].reshape(1, -1))
    moved = np.repeat(a_arr[None, :, :], len(shifts), axis=0)
    moved[:, :, axis] += shifts[:, None]
    moved[:, :, axis + 1] += shifts[:, None]
    m, e = moved[:, :, None, :], d_arr[None, None, :, :]
    touch = (m[..., 0] <= e[..., 1]) & (e[..., 0] <= m[..., 1])  # x overlaps or touches
    touch &= (m[..., 2] <= e[..., 3]) & (e[..., 2] <= m[..., 3])  # and so does y
    attackers, defenders = touch.any(axis=2).sum(axis=1), touch.any(axis=1).sum(axis=1)
    best = max(range(len(shifts)), key=lambda k: (attackers[k] + defenders[k], attackers[k]))
    return int(attackers[best]), int(defenders[best])


def _roll(rng):
    return rng.integers(1, 7)


def _hit_need_melee(ws, enemy_ws):
    if ws > enemy_ws:
        return 3
    return 4 if enemy_ws <= 2 * ws else 5


def _wound_need(s, t):
    diff = t - s
    if diff <= -2:
        return 2
    return {-1: 3, 0: 4, 1: 5, 2: 6, 3: 6}.get(diff, 7)


class Fighter:
    """One side's state during a trial."""

    def __init__(self, unit, fighting, width, charging, ru):
        self.model = _model(unit)
        self.count = self.model["count"]
        self.w = self.model.get("w", 1)
        self.lost = 0
        self.fighting = fighting
        self.width = width
        self.charging = charging
        self.ru = ru

    @property
    def alive(self):
        return self.count - min(self.count, self.lost // self.w)

    def take(self, wounds_on_model):
        """Wounds on the current model, excess lost (§7.4)."""
        if self.alive == 0:
            return
        left = self.w - self.lost % self.w
        self.lost += min(left, wounds_on_model)

    def slay(self):
        if self.alive:
            self.lost = (self.lost // self.w + 1) * self.w


def _strike(rng, striker, attacks_each, profile, weapon_kind, target, first_round, in_ranks):
    """All dice of one striker against `target` (§6.3, §6.5, §7, §8)."""
    rules = _rules(profile)
    front = striker.fighting or striker.alive
    n = min(front, striker.alive)
    if in_ranks and striker.fighting and not striker.charging:
        n = min(2 * front, striker.alive)
    s = profile["s"] + BONUS.get(weapon_kind, 0)
    if weapon_kind == "lance" and first_round and striker.charging:
        s += 2
    if weapon_kind == "cavalry_spear" and first_round and striker.charging:
        s += 1
    if striker.ru and "devastating charge" in rules and first_round and striker.charging:
        s += 1
    tm = target.model
    need = _hit_need_melee(profile["ws"], tm["ws"])
    wneed = _wound_need(s, tm["t"])
    save = tm.get("save")
    for _ in range(n * attacks_each):
        roll = _roll(rng)
        if roll < need and "hatred" in rules and first_round:
            roll = _roll(rng)
        if roll < need:
            continue
        poisoned = "poisoned attacks" in rules and roll == 6
        armour_allowed = not (poisoned and striker.ru)
        if not poisoned:
            wound = _roll(rng)
            if wound < wneed or wneed > 6:
                continue
            man_sized = tm.get("troop_type", "infantry") in ("infantry", "cavalry", "character")
            if wound == 6 and "killing blow" in rules and (man_sized or striker.ru):
                if striker.ru and tm.get("ward") and _roll(rng) >= tm["ward"]:
                    continue
                target.slay()
                continue
        if save is not None and armour_allowed:
            need_save = max(2, save + max(0, s - 3))
            if need_save <= 6 and _roll(rng) >= need_save:
                continue
        if tm.get("ward") and _roll(rng) >= tm["ward"]:
            continue
        if tm.get("regeneration") and _roll(rng) >= tm["regeneration"]:
            continue
        target.take(1)


def _ranks(alive, width, rules):
    if width < 4 or "skirmishers" in rules:
        return 0
    ranks = alive // width + (1 if alive % width >= 4 else 0)
    return max(0, min(3, ranks - 1))


def _break(rng, ld, diff, rules, reroll, ru=False):
    if "unbreakable" in rules or (ru and "swarm" in rules):  # RU #39: a Swarm takes no test
        return False
    target = ld if "stubborn" in rules else ld - diff
    return all(_roll(rng) + _roll(rng) > target for _ in range(2 if reroll else 1))


def melee_round(attacker, defender, situation, rng, ru=False) -> Trial:
    """§6.2 strike order (chargers first in round 1, ASF first, great weapons last, then I;
    equal steps across sides: roll-off), §9.1 combat result, §9.2 break tests."""
    first_round = situation.get("round", 1) == 1
    facing = situation.get("flank", "front")
    a_contact, d_contact = contact(
        attacker, defender, situation.get("attacker_width", 5), situation.get("defender_width", 5), facing
    )
    a = Fighter(
        attacker,
        situation.get("fighting_models", 0) or a_contact,
        situation.get("attacker_width", 5),
        situation.get("charging", False),
        ru,
    )
    d = Fighter(
        defender,
        situation.get("defender_fighting_models", 0) or d_contact,
        situation.get("defender_width", 5),
        situation.get("defender_charged", False),
        ru,
    )
    strikers = []
    for side, fighter, enemy in ((0, a, d), (1, d, a)):
        model = fighter.model
        kind = next(
            (w.get("kind") or ("spear" if "spear" in w.get("name", "").lower() else "hand_weapon")
             for w in model.get("weapons", []) if w.get("range", 0) == 0),
            "hand_weapon",
        )
        if kind == "spear" and (model.get("troop_type") == "cavalry" or model.get("mount")):
            kind = "cavalry_spear"  # §12.1 "Kopí (jízda …)": +1 S charging, one rank
        profiles = [(model, kind)] + ([(model["mount"], "hand_weapon")] if model.get("mount") else [])
        for profile, weapon_kind in profiles:
            rules = _rules(profile)
            order_rules = first_round is False or not ru
            if (fighter.charging and first_round) or ("always strikes first" in rules and order_rules):
                tier = 0
            elif weapon_kind == "great_weapon" and (not ru or not first_round):
                tier = 2
            else:
                tier = 1
            strikers.append((tier, -profile.get("i", 0), side, fighter, enemy, profile, weapon_kind))
    steps = sorted({(s[0], s[1]) for s in strikers})
    for step in steps:
        group = [s for s in strikers if (s[0], s[1]) == step]
        first_side = int(rng.integers(0, 2))  # §6.2: equal Initiative, roll off
        group.sort(key=lambda s: s[2] != first_side)
        for _tier, _i, _side, fighter, enemy, profile, kind in group:
            in_ranks = kind == "spear" and (fighter is a or facing == "front")  # §12.3: front only
            _strike(rng, fighter, profile.get("a", 1), profile, kind, enemy, first_round, in_ranks)
    am, dm = a.model, d.model
    us_a, us_d = (
        a.alive * US[am.get("troop_type", "infantry")],
        d.alive * US[dm.get("troop_type", "infantry")],
    )
    flank = {"front": 0, "flank": 1, "rear": 2}[facing] if us_a >= 5 else 0
    cancels = flank and "skirmishers" not in _rules(am)  # §3.5: skirmishers keep the enemy's ranks

    def standards(side):  # §9.1 one standard bonus per side; RU §2.6 the army standard adds +1
        unit_std = situation.get(f"{side}_standard", False)
        army = situation.get(f"{side}_army_standard", False)
        return int(unit_std) + int(army) if ru else int(unit_std or army)

    cr_a = d.lost + _ranks(a.alive, a.width, _rules(am)) + (us_a > us_d) + standards("attacker")
    cr_a += flank + (situation.get("high_ground") == "attacker")
    cr_d = a.lost + (0 if cancels else _ranks(d.alive, d.width, _rules(dm))) + (us_d > us_a)
    cr_d += standards("defender") + (situation.get("high_ground") == "defender")
    diff = cr_a - cr_d
    if diff == 0 and situation.get("attacker_musician", False) != situation.get("defender_musician", False):
        diff = 1 if situation.get("attacker_musician") else -1
    d_breaks = d.alive == 0 or (
        diff > 0 and _loser_breaks(rng, dm, am, diff, us_d, us_a, situation, "defender", ru)
    )
    a_breaks = a.alive == 0 or (
        diff < 0 and _loser_breaks(rng, am, dm, -diff, us_a, us_d, situation, "attacker", ru)
    )
    swarm = 0
    if ru and "swarm" in _rules(dm) and diff > 0:
        swarm = min(diff, d.count * d.w - d.lost)
        d_breaks = d_breaks or swarm == d.count * d.w - d.lost  # the extra wounds destroy it
    return Trial(a.lost, d.lost, d.count - d.alive, diff, d_breaks, a_breaks, a.fighting, d.fighting, swarm)


def _loser_breaks(rng, loser, winner, diff, loser_us, winner_us, situation, side, ru=False):
    """§9.2: fear auto-break (§10.3; not in RU, whose Fear only sets WS 1, #8), else 2D6 against
    the better of its Ld and the general's."""
    fearless = {"fear", "terror", "unbreakable", "immune to psychology"} & _rules(loser)
    if not ru and {"fear", "terror"} & _rules(winner) and winner_us > loser_us and not fearless:
        return True
    ld = max(loser["ld"], situation.get(f"{side}_general_ld", 0))
    # §9.2 / RU #44: units within 12" of the battle standard re-roll — its bearer's unit too.
    reroll = situation.get(f"{side}_battle_standard", False) or situation.get(f"{side}_army_standard", False)
    return _break(rng, ld, diff, _rules(loser), reroll, ru)


def shooting(attacker, defender, situation, rng) -> int:
    """§5.3, §5.4: models slain by one volley (1-wound targets, first missile weapon)."""
    model, target = _model(attacker), _model(defender)
    weapon = next(w for w in model["weapons"] if w.get("range", 0) > 0)
    mods = (
        -int(situation.get("moved", False))
        - {"none": 0, "soft": 1, "hard": 2}[situation.get("cover", "none")]
    )
    mods -= int(situation.get("range_inches", 12) > weapon["range"] / 2)
    mods -= int(situation.get("stand_and_shoot", False))
    need = 7 - (model["bs"] + mods)
    shooters = situation.get("fighting_models", 0) or model["count"]
    slain = 0
    for _ in range(shooters):
        roll = _roll(rng)
        if need <= 6:
            if roll < max(2, need):
                continue
        elif need <= 9:
            if roll != 6 or _roll(rng) < need - 3:
                continue
        else:
            continue
        if _roll(rng) < _wound_need(weapon["strength"], target["t"]):
            continue
        save = target.get("save")
        if (
            save is not None
            and save + max(0, weapon["strength"] - 3) <= 6
            and _roll(rng) >= max(2, save + max(0, weapon["strength"] - 3))
        ):
            continue
        slain += 1
    return min(slain, target["count"])


def run(n, fn, seed=1):
    rng = Dice(seed)
    return [fn(rng) for _ in range(n)]
