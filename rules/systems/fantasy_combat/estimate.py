"""The registry's `attack(attacker, defender, situation)` for WHFB 6th and the RU house rules.

Turns the exact distributions of `combat` and `resolution` into the estimates contract's
result (HELPERS.md, "The estimates contract"): expectations, the kills distribution of the
defender's rank and file, and the system's extra `outcomes` (combat result, win/draw,
break chances; panic after shooting).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from rules.dice.pmf import at_least, mean
from rules.systems.fantasy_combat.combat import (
    ATTACKER,
    DEFENDER,
    Side,
    Striker,
    fight_round,
    planned,
    shoot,
)
from rules.systems.fantasy_combat.frontage import contact
from rules.systems.fantasy_combat.resolution import CombatResult, resolve
from rules.systems.fantasy_combat.situation import Situation, _
from rules.systems.fantasy_combat.tables import two_d6_at_most
from rules.systems.fantasy_combat.units import Unit, read_unit
from rules.systems.fantasy_combat.variants import Variants
from rules.systems.fantasy_combat.wound_track import WoundTrack
from rules.systems.registry import CombatChance

#: What the gauntlet reports of a unit's fights (`GameSystem.combat_chances`): its combat result
#: against each gauntlet unit, which counts both sides' blows (§9), so from its own attacks.
COMBAT_CHANCES = (
    CombatChance(
        key="p_win_combat",
        side="attacking",
        label=_("Wins the combat"),
        sentence=_("In combat with the gauntlet's units, %(unit)s wins the combat %(percent)s of the time."),
    ),
    CombatChance(
        key="p_attacker_breaks",
        side="attacking",
        label=_("Breaks"),
        sentence=_("In combat with the gauntlet's units, %(unit)s breaks or is destroyed "
                   "%(percent)s of the time."),
    ),
)

#: Points efficiency is "expected points destroyed per this many points of the attacker".
EFFICIENCY_PER_POINTS = 100


def _weapon_entries(strikers: list[Striker], unit: Unit) -> list[dict[str, Any]]:
    counts = {m.name: m.count for m in unit.models}
    return [
        {
            "name": s.name,
            "model": s.model,
            "models": counts.get(s.model, 0),
            "melee": s.melee,
            "expected": {
                "attacks": s.expected_dice,
                "hits": s.expected_dice * s.blow.p_hit,
                "wounds": s.expected_dice * s.blow.p_wounding,
                "kills": s.expected_kills,
            },
        }
        for s in strikers
    ]


def _probability(key: str, label: str, value: float) -> dict[str, Any]:
    return {"key": key, "label": label, "kind": "probability", "value": value}


def _distribution(key: str, label: str, pmf: np.ndarray, offset: int = 0) -> dict[str, Any]:
    out = {
        "key": key,
        "label": label,
        "kind": "distribution",
        "value": pmf.tolist(),
        "expected": float(np.arange(offset, offset + len(pmf)) @ pmf),
    }
    if offset:
        out["offset"] = offset
    return out


def _number(key: str, label: str, value: float) -> dict[str, Any]:
    """A figure that explains this matchup (not a heat-map figure: `"matrix": false`)."""
    return {"key": key, "label": label, "kind": "number", "value": value, "matrix": False}


#: Which Ld a break test used and how it was modified (§9.2, §10.8; the Decision in `resolution`).
BREAK_TEST_LABELS = {
    ("attacker", False, True): _("Attacker's break test: its own Ld, minus the combat result"),
    ("attacker", True, True): _("Attacker's break test: the General's Ld, minus the combat result"),
    ("attacker", False, False): _("Attacker's break test: its own Ld, unmodified (Stubborn)"),
    ("attacker", True, False): _("Attacker's break test: the General's Ld, unmodified (Stubborn)"),
    ("defender", False, True): _("Defender's break test: its own Ld, minus the combat result"),
    ("defender", True, True): _("Defender's break test: the General's Ld, minus the combat result"),
    ("defender", False, False): _("Defender's break test: its own Ld, unmodified (Stubborn)"),
    ("defender", True, False): _("Defender's break test: the General's Ld, unmodified (Stubborn)"),
}
SWARM_LABELS = {
    "attacker": _("Attacker is a Swarm: no break test, extra wounds equal to the difference"),
    "defender": _("Defender is a Swarm: no break test, extra wounds equal to the difference"),
}


def _break_test_outcomes(result: CombatResult) -> list[dict[str, Any]]:
    """The Ld each side's break test used (a number), or a Swarm's extra wounds (RU #39)."""
    out: list[dict[str, Any]] = []
    for side, test, swarm in (
        ("attacker", result.attacker_test, result.attacker_swarm_wounds),
        ("defender", result.defender_test, result.defender_swarm_wounds),
    ):
        if test.kind == "test":
            label = BREAK_TEST_LABELS[(side, test.general, test.modified)]
            # one key per wording, so a key always has the same label
            whose = "general" if test.general else "own"
            how = "modified" if test.modified else "unmodified"
            out.append(_number(f"{side}_break_ld_{whose}_{how}", label, test.leadership))
        elif swarm is not None:
            out.append(_distribution(f"{side}_swarm_wounds", SWARM_LABELS[side], swarm))
    return out


def _panic_outcomes(kills: np.ndarray, defender: Unit, situation: Situation) -> list[dict[str, Any]]:
    """§5.6, §10.2 (5): 25 % casualties in one shooting phase force a panic test (2D6 ≤ Ld)."""
    starting = sum(m.count for m in defender.models)
    needed = -(-starting // 4)
    p_test = float(kills[needed:].sum())
    immune = defender.has("unbreakable") or defender.has("immune to psychology") or defender.has("frenzy")
    ld = max(defender.leadership, situation.defender_general_ld)
    p_fail = 0.0 if immune else p_test * float(1 - two_d6_at_most(ld))
    return [
        # xgettext:no-python-format
        _probability("p_panic_test", _("Target takes a panic test (25% casualties)"), p_test),
        _probability("p_panics", _("Target panics and flees"), p_fail),
    ]


#: CPU seconds and bytes per kind of work, fitted on a sweep of accepted inputs of both
#: variants (`bench/bench_cost_models.py`: CPU seconds, best of three; `tracemalloc` peak) and
#: rounded up by a quarter. Keyed by close combat (True) or shooting (False) where the two differ:
#: - fixed: reading both units, the result (close combat: resolution and break tests);
#: - per striker: its transition and throw set up;
#: - per die: `WoundTrack.throw` steps once per die (`looped`: state-dependent dice, small
#:   tracks) or convolves once per die (`convolved`); in close
#:   combat a side's dice are bounded by its models in contact, so fewer are thrown than the
#:   side's models hold;
#: - per (attacker × defender) wound state: close combat resolves the round over the joint
#:   table (combat result, break tests), shooting only zeroes and sums it;
#: - per work unit of the size check (`combat.check_size`: state-dependent dice over the states).
SECONDS_FIXED = {True: 5.5e-4, False: 1.5e-4}
SECONDS_PER_STRIKER = 1e-4
SECONDS_PER_DIE = {"looped": {True: 2.5e-6, False: 8e-6}, "convolved": {True: 2e-6, False: 2e-6}}
SECONDS_PER_STATE_PAIR = {True: 1.3e-7, False: 2e-9}
#: Per wound state of the unit struck (both, in close combat): its track and the result's lists
#: (kills per model, panic): one shooter at a 290-model unit pays for the unit's states.
SECONDS_PER_STATE = 1e-6
#: Per batch of rows the convolved throw transforms (one per distinct number of dice): 281
#: archers at a 57-model unit make 282 batches, ~20 ms, where their dice alone say 0.6 ms.
SECONDS_PER_BATCH = 6e-5
SECONDS_PER_WORK = 1e-9
BYTES_FIXED = 12 * 1024
BYTES_PER_STATE_PAIR = {True: 140, False: 14}
#: The convolved throw's spectra and sums over the whole joint table (`combat.planned`'s `spectra`).
BYTES_PER_SPECTRUM_CELL = 24


def estimate_cost(
    attacker: Mapping[str, Any],
    defender: Mapping[str, Any],
    situation: Mapping[str, Any] | None,
    *,
    variants: Variants,
) -> tuple[float, int]:
    """The registry's `estimate_cost`: predicted (seconds, bytes) of `attack`, from the same size
    check the engine makes, before any dice are rolled; ValueError names the limit passed."""
    sit = situation if isinstance(situation, Situation) else Situation.from_dict(situation, variants)
    _, tracks, sides = _sides(attacker, defender, sit)
    work, rolled = planned(sides, sit, variants)
    pairs = tracks[ATTACKER].size * tracks[DEFENDER].size
    seconds = (SECONDS_FIXED[sit.melee] + SECONDS_PER_STRIKER * rolled["strikers"] + SECONDS_PER_WORK * work
               + sum(SECONDS_PER_DIE[kind][sit.melee] * rolled[kind] for kind in SECONDS_PER_DIE)
               + SECONDS_PER_STATE_PAIR[sit.melee] * pairs
               + SECONDS_PER_BATCH * rolled["batches"]
               + SECONDS_PER_STATE * (tracks[DEFENDER].size + (tracks[ATTACKER].size if sit.melee else 0)))
    return seconds, (BYTES_FIXED + BYTES_PER_STATE_PAIR[sit.melee] * pairs
                     + BYTES_PER_SPECTRUM_CELL * rolled["spectra"])


def fighting_models(units: tuple[Unit, Unit], sit: Situation) -> tuple[int, int, bool]:
    """Models in base contact on each side (§6.2): the situation's numbers where given, else
    derived from the formations (`frontage.contact`); shooting: 0, every model shoots. The
    third value: the defender faces the attacker with its front (§12.3)."""
    if not sit.melee:
        return sit.fighting_models, sit.defender_fighting_models, True
    derived = contact(
        units[ATTACKER],
        units[DEFENDER],
        attacker_width=sit.attacker_width,
        defender_width=sit.defender_width,
        facing=sit.flank,
    )
    return (
        sit.fighting_models or derived.attacker,
        sit.defender_fighting_models or derived.defender,
        derived.defender_front,
    )


def _sides(attacker: Mapping[str, Any], defender: Mapping[str, Any], sit: Situation) -> tuple:
    units = (read_unit(attacker), read_unit(defender))
    tracks = tuple(WoundTrack(u.pool_models, u.wounds_per_model) for u in units)
    fighting_a, fighting_d, defender_front = fighting_models(units, sit)
    sides = (
        Side(units[ATTACKER], tracks[ATTACKER], sit.melee and sit.charging, fighting_a),
        Side(
            units[DEFENDER],
            tracks[DEFENDER],
            sit.melee and sit.defender_charged,
            fighting_d,
            front_facing=defender_front,
        ),
    )
    return units, tracks, sides


def attack(
    attacker: Mapping[str, Any],
    defender: Mapping[str, Any],
    situation: Mapping[str, Any] | None,
    *,
    variants: Variants,
) -> dict[str, Any]:
    """What `attacker` does to `defender` (unit-format dicts) in `situation`, exactly.

    Shooting: the attacker's shots. Close combat: one round, both sides striking in order,
    then combat resolution and break tests. ValueError names a bad field."""
    sit = situation if isinstance(situation, Situation) else Situation.from_dict(situation, variants)
    units, tracks, sides = _sides(attacker, defender, sit)
    outcomes: list[dict[str, Any]] = []
    returning: list[Striker] = []
    if sit.melee:
        dist, strikers, returning = fight_round(sides, sit, variants)
    else:
        dist, strikers = shoot(sides, sit, variants)
    td, ta = tracks[DEFENDER], tracks[ATTACKER]
    wounds = dist.sum(axis=0)
    kills = np.bincount(td.slain, weights=wounds, minlength=td.models + 1)
    if sit.melee:
        lost = np.bincount(ta.slain, weights=dist.sum(axis=1), minlength=ta.models + 1)
        result = resolve(dist, units[ATTACKER], units[DEFENDER], (ta, td), sit, variants)
        outcomes += [
            _probability("p_win_combat", _("Attacker wins the combat"), result.p_attacker_wins),
            _probability("p_draw", _("Combat is a draw"), result.p_draw),
            _probability("p_lose_combat", _("Attacker loses the combat"), result.p_defender_wins),
            _probability("p_defender_breaks", _("Defender breaks or is destroyed"), result.p_defender_breaks),
            _probability("p_attacker_breaks", _("Attacker breaks or is destroyed"), result.p_attacker_breaks),
            _distribution(
                "combat_result", _("Combat result (attacker − defender)"), result.difference, result.offset
            ),
            _distribution("attacker_losses", _("Attacker's models slain by the return blows"), lost),
            _number(
                "attacker_fighting", _("Attacker's models in base contact"), sides[ATTACKER].fighting_models
            ),
            _number(
                "defender_fighting", _("Defender's models in base contact"), sides[DEFENDER].fighting_models
            ),
            *_break_test_outcomes(result),
        ]
    else:
        outcomes += _panic_outcomes(kills, units[DEFENDER], sit)

    points_destroyed = float(sum(p * units[DEFENDER].points_of_losses(k) for k, p in enumerate(kills)))
    attacker_points = units[ATTACKER].points
    defender_points = units[DEFENDER].points
    return {
        "attacker": units[ATTACKER].name,
        "defender": units[DEFENDER].name,
        "situation": sit.as_dict(),
        "expected": {
            "attacks": float(sum(s.expected_dice for s in strikers)),
            "hits": float(sum(s.expected_dice * s.blow.p_hit for s in strikers)),
            "wounds": float(sum(s.expected_dice * s.blow.p_wounding for s in strikers)),
            "damage": mean(wounds),
            "kills": mean(kills),
        },
        "wounds_distribution": wounds.tolist(),
        "kills_distribution": kills.tolist(),
        "kills_at_least": at_least(kills).tolist(),
        "p_destroyed": float(kills[-1]),
        "expected_points_destroyed": points_destroyed if defender_points > 0 else None,
        "points_efficiency": EFFICIENCY_PER_POINTS * points_destroyed / attacker_points
        if attacker_points > 0 and defender_points > 0
        else None,
        "attacker_points": attacker_points if attacker_points > 0 else None,
        "defender_points": defender_points if defender_points > 0 else None,
        "weapons": _weapon_entries(strikers, units[ATTACKER]),
        "defender_weapons": _weapon_entries(returning, units[DEFENDER]),
        "outcomes": outcomes,
    }
