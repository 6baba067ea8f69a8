"""The registry's `attack(attacker, defender, situation)` for WHFB 6th and the RU house rules.

Turns the exact distributions of `combat` and `resolution` into the estimates contract's
result (`docs/estimates.md`): expectations, the kills distribution of the
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
    shoot,
)
from rules.systems.fantasy_combat.frontage import contact
from rules.systems.fantasy_combat.resolution import CombatResult, resolve
from rules.systems.fantasy_combat.situation import Situation, _
from rules.systems.fantasy_combat.tables import two_d6_at_most
from rules.systems.fantasy_combat.units import Unit, read_unit
from rules.systems.fantasy_combat.variants import Variants
from rules.systems.fantasy_combat.work_plan import planned
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
        sentence=_(
            "In combat with the gauntlet's units, %(unit)s breaks or is destroyed %(percent)s of the time."
        ),
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


def _melee_details(result: CombatResult, dist: np.ndarray, sides: tuple[Side, Side]) -> list[dict[str, Any]]:
    """A full close-combat result's figures beyond a matrix cell's: the combat result's and the
    attacker's losses' distributions, the models in contact, the Ld each break test used."""
    ta = sides[ATTACKER].track
    lost = np.bincount(ta.slain, weights=dist.sum(axis=1), minlength=ta.models + 1)
    return [
        _distribution(
            "combat_result", _("Combat result (attacker − defender)"), result.difference, result.offset
        ),
        _distribution("attacker_losses", _("Attacker's models slain by the return blows"), lost),
        _number("attacker_fighting", _("Attacker's models in base contact"), sides[ATTACKER].fighting_models),
        _number("defender_fighting", _("Defender's models in base contact"), sides[DEFENDER].fighting_models),
        *_break_test_outcomes(result),
    ]


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


#: CPU seconds per unit of each kind of work (`matchup_work`), fitted on the development machine
#: against 900 accepted inputs of both variants (`tests.factories.cost_inputs.random_samples`
#: on seeds 101, 202 and 303, not the bench's; CPU seconds, best of three, at load ~2 on two
#: cores), least squares on the ratio with no price below zero. Four prices were measured
#: alone and held fixed, where the sweep cannot tell them apart from others (it has few
#: multi-wound targets, and its convolutions come with their batches), so inputs made of
#: them are not priced at nothing: a one-die convolution (3 µs), a pass of `one_die` per
#: wound step a die can take (8 µs), a pass over the joint table and a looped cell. Fitted
#: ratios 0.46–1.48, then `SAFE_SIDE`. The kinds:
#: - melee / shooting: what every estimate of the mode costs (reading both units, the result;
#:   close combat: its strikers set up, the resolution and the break tests);
#: - model_groups: reading one model group of either unit;
#: - the kinds `work_plan.planned` counts (strikers, their throws' steps and cells, the
#:   convolved throw's batches and convolutions of the rows holding probability, its
#:   transforms, the fighters per state);
#: - states: the defender's wound states (its track, the result's lists); defender_models: the
#:   points of each number of its models lost (one Python call each);
#: - melee_states: both tracks' states in close combat (one break-test chance per combat
#:   result the table holds, in Python);
#: - pairs / melee_pairs: cells of the joint table (allocated, summed; close combat: the
#:   resolution's tables over it).
SECONDS_PER: dict[str, float] = {
    "melee": 7.8e-4,
    "shooting": 2.4e-4,
    "model_groups": 2.4e-5,
    "strikers": 1.3e-4,
    "table_cells": 1e-9,
    "steps": 9.4e-6,
    "diagonal_steps": 8e-6,
    "cells": 2e-9,
    "diagonal_cells": 6.2e-9,
    "held_batches": 5e-5,
    "held_convolutions": 3e-6,
    "spectrum_cells": 2.3e-8,
    "fighting_cells": 9e-8,
    "states": 4.7e-8,
    "melee_states": 2.5e-6,
    "defender_models": 6.5e-7,
    "pairs": 1.4e-9,
    "melee_pairs": 1e-7,
}
#: Bytes of the `tracemalloc` peak per unit of each kind, fitted the same way on the same
#: inputs (ratios 0.57–1.44): the joint table and the resolution's tables over it, one batch's
#: spectra (`work_plan`'s `spectra`), the tracks and result lists, the fighters per state.
#: `melee_pairs` measured again after the resolution was rebuilt from per-state vectors (issue
#: 42: fewer whole-table temporaries): 48–56 B of peak per cell in all on joint tables of 1–4.5
#: million cells (68 had predicted 120 B, and refused 4-million-cell combats of 184 MB).
#: `steps`: a random number of dice (a spell's D6 hits from 300 casters) holds its count's PMF
#: as Python floats while it steps through it, ~40 B a step (measured: 88 KB for 1801 steps);
#: priced since shooting's table became one row and no longer hid it.
BYTES_PER: dict[str, float] = {
    "fixed": 8400,
    "pairs": 8.8,
    "melee_pairs": 30,
    "spectra": 12.2,
    "states": 53,
    "melee_states": 77,
    "table_cells": 3.1,
    "strikers": 2400,
    "defender_models": 16,
    "fighting_cells": 21,
    "steps": 40,
}
#: The same prices for a list job's cell (`matrix_attack`: no per-weapon tallies, no
#: distributions as lists, no close-combat details), refitted on 600 cells of both variants
#: (`bench/bench_cost_models.py --cells`'s inputs on seeds 11, 12 and 13, not the bench's; CPU
#: seconds, best of three, units prepared outside the clock, load ~7 on two cores) with the
#: prices that follow the joint table, the throws and the convolutions held at the values
#: above: a cell does that work as `attack` does (measured: 1–1.1 million-cell combats cost
#: the same in both, 35–47 ms reference), only the fixed parts and the per-state Python differ.
#: `melee_states` fell to nothing in the fit (the resolution's break tests are now integers
#: kept per unit) and is held at a floor. Fitted ratios 0.33–2.0 before `SAFE_SIDE`.
#: Issue 42 made a cell's fixed and per-striker work cheaper (kept blows, one binomial table
#: per die, the resolution binned once): `CELL_SPEEDUP` scales these prices, from the cells
#: bench of whfb6 and ru_whfb (seed 1, 60 cells each, interleaved before and after at load
#: ~3): predicted/measured had risen to 0.69–3.56 (jobs 2.8–3.2), 0.55–2.85 (jobs 2.3–2.6) after.
#: Then a job's cells shared more (blows of units alike, one law table per die for 5 to 16
#: dice, the round's first strike written out): its jobs ran 5–17% faster, its single cold
#: cells as before (seeds 1 and 2, 60 cells each, interleaved at load ~7: cells 0.54–2.79,
#: jobs 2.2–4.0 at 0.8), so 0.8 became 0.7 (cells about 0.47–2.44, jobs 1.9–3.5).
CELL_SPEEDUP = 0.7
CELL_SECONDS_PER: dict[str, float] = {
    kind: CELL_SPEEDUP * price
    for kind, price in {
        **SECONDS_PER,
        "melee": 7.6e-4,
        "shooting": 1.9e-4,
        "model_groups": 1e-5,
        "strikers": 1.6e-4,
        "states": 2.8e-8,
        "melee_states": 3e-7,
        "defender_models": 1.1e-7,
    }.items()
}
#: Bytes of a cell's `tracemalloc` peak, fitted the same way with the table's, the spectra's,
#: the throws' and the fighters' prices held (the arrays a cell builds as `attack` does):
#: fitted ratios 0.43–1.8 before `SAFE_SIDE`.
CELL_BYTES_PER: dict[str, float] = {
    **BYTES_PER,
    "fixed": 3400,
    "states": 35,
    "melee_states": 26,
    "strikers": 3800,
    "defender_models": 25,
}
#: Predictions are this much above the fit, so a job is rather refused than let through
#: (the bound refuses what is predicted over it: an under-prediction lets costly jobs by).
SAFE_SIDE = 1.3
#: The prices above are seconds of the machine they were fitted on, which ran the engines this
#: many times slower than the reference machine every cost model predicts for (the other
#: systems' models were fitted there; `armybuilder.estimates.machine_speed` scales the
#: reference's seconds to the machine a server runs on, and names the same figure).
FIT_MACHINE_SLOWER = 3.61


def matchup_work(
    attacker: Mapping[str, Any], defender: Mapping[str, Any], sit: Situation, variants: Variants
) -> dict[str, int]:
    """The work of `attack` by kind (the keys of `SECONDS_PER` and `BYTES_PER`), counted from
    the strikers the engine would build (`work_plan.planned`), before any dice are rolled;
    ValueError names the engine's limit passed."""
    units, tracks, sides = _sides(attacker, defender, sit)
    _, work = planned(sides, sit, variants)
    pairs = (tracks[ATTACKER].size if sit.melee else 1) * tracks[DEFENDER].size  # shooting: one row
    return {
        **work,
        "melee": int(sit.melee),
        "shooting": int(not sit.melee),
        "model_groups": len(units[ATTACKER].models) + len(units[DEFENDER].models),
        # shooting: the attacker's track is built too (its table row is one; `melee_states` in combat)
        "states": tracks[DEFENDER].size + (0 if sit.melee else tracks[ATTACKER].size),
        "melee_states": tracks[ATTACKER].size + tracks[DEFENDER].size if sit.melee else 0,
        "defender_models": tracks[DEFENDER].models,
        "melee_pairs": pairs if sit.melee else 0,
        "pairs": pairs,
        "fixed": 1,
    }


def estimate_cost(
    attacker: Mapping[str, Any],
    defender: Mapping[str, Any],
    situation: Mapping[str, Any] | None,
    *,
    variants: Variants,
) -> tuple[float, int]:
    """The registry's `estimate_cost`: predicted (seconds, bytes) of `attack`, from the work
    the engine would do (`matchup_work`); ValueError names the limit passed."""
    return _priced(_work(attacker, defender, situation, variants), SECONDS_PER, BYTES_PER)


def estimate_cell_cost(
    attacker: Mapping[str, Any],
    defender: Mapping[str, Any],
    situation: Mapping[str, Any] | None,
    *,
    variants: Variants,
) -> tuple[float, int]:
    """The registry's `estimate_cell_cost`: predicted (seconds, bytes) of `matrix_attack`, a
    list job's cell, from the same work (`matchup_work`) at a cell's prices, and never above
    `attack`'s (a cell does no more); ValueError names the limit passed."""
    work = _work(attacker, defender, situation, variants)
    cell, full = _priced(work, CELL_SECONDS_PER, CELL_BYTES_PER), _priced(work, SECONDS_PER, BYTES_PER)
    return min(cell[0], full[0]), min(cell[1], full[1])


def _work(
    attacker: Mapping[str, Any],
    defender: Mapping[str, Any],
    situation: Mapping[str, Any] | None,
    variants: Variants,
) -> dict[str, int]:
    sit = situation if isinstance(situation, Situation) else Situation.from_dict(situation, variants)
    return matchup_work(attacker, defender, sit, variants)


def _priced(
    work: Mapping[str, int],
    seconds_per: Mapping[str, float],
    bytes_per: Mapping[str, float],
) -> tuple[float, int]:
    seconds = SAFE_SIDE * sum(price * work[kind] for kind, price in seconds_per.items()) / FIT_MACHINE_SLOWER
    size = SAFE_SIDE * sum(price * work[kind] for kind, price in bytes_per.items())
    return seconds, int(size)


def fighting_models(units: tuple[Unit, Unit], sit: Situation) -> tuple[int, int, bool]:
    """Models in base contact on each side (§6.2): the situation's numbers where given, else
    derived from the formations (`frontage.contact`); shooting: 0, every model shoots. The
    third value: the defender faces the attacker with its front (§12.3)."""
    if not sit.melee:
        return sit.fighting_models, sit.defender_fighting_models, True
    if sit.fighting_models and sit.defender_fighting_models:  # both given: no line-up to derive
        return sit.fighting_models, sit.defender_fighting_models, sit.flank == "front"
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


def clear_caches() -> None:
    """The registry's `clear_caches`: what the engine keeps between matchups (a blow's odds,
    wound tracks, dice matrices, line-ups), emptied so a bench measures it cold."""
    from rules.systems.fantasy_combat import blows, combat, frontage, wound_track

    for cached in (blows.resolve_blow, blows.melee_hit, blows.sixes_only, blows.reroll_misses):
        cached.cache_clear()
    combat._BLOWS.clear()
    frontage._contact.cache_clear()
    wound_track.clear_caches()


def prepare_unit(unit: Mapping[str, Any]) -> Unit:
    """The registry's `prepare_unit`: a unit-format dict read once per job (`attack` takes the
    `Unit` as it is)."""
    return read_unit(unit)


def prepare_situation(situation: Mapping[str, Any] | None, *, variants: Variants) -> Situation:
    """The registry's `prepare_situation`: the job's situation read once."""
    return Situation.from_dict(situation, variants)


def _sides(attacker: Mapping[str, Any] | Unit, defender: Mapping[str, Any] | Unit, sit: Situation) -> tuple:
    units = (
        attacker if isinstance(attacker, Unit) else read_unit(attacker),
        defender if isinstance(defender, Unit) else read_unit(defender),
    )
    tracks = (_track(units[ATTACKER]), _track(units[DEFENDER]))
    fighting_a, fighting_d, defender_front = fighting_models(units, sit)
    sides = (
        _placed(units[ATTACKER], tracks[ATTACKER], sit.melee and sit.charging, fighting_a, True),
        _placed(
            units[DEFENDER], tracks[DEFENDER], sit.melee and sit.defender_charged, fighting_d, defender_front
        ),
    )
    return units, tracks, sides


def _placed(unit: Unit, track: WoundTrack, charging: bool, fighting: int, front: bool) -> Side:
    """The unit's `Side` so placed, kept with it: a job's unit fights most of its matchups the
    same way, and a side's fighters per state are kept with it (`Side.fighting`)."""
    key = ("side", charging, fighting, front)
    side = unit._memo.get(key)
    if side is None:
        side = unit._memo[key] = Side(unit, track, charging, fighting, front_facing=front)
    return side


def _track(unit: Unit) -> WoundTrack:
    """The unit's wound track, kept with it (every matchup of a job asks)."""
    track = unit._memo.get("track")
    if track is None:
        track = unit._memo["track"] = WoundTrack.of(unit.pool_models, unit.wounds_per_model)
    return track


def attack(
    attacker: Mapping[str, Any] | Unit,
    defender: Mapping[str, Any] | Unit,
    situation: Mapping[str, Any] | None,
    *,
    variants: Variants,
) -> dict[str, Any]:
    """What `attacker` does to `defender` (unit-format dicts, or units read by `prepare_unit`)
    in `situation`, exactly.

    Shooting: the attacker's shots. Close combat: one round, both sides striking in order,
    then combat resolution and break tests. ValueError names a bad field."""
    return _attack(attacker, defender, situation, variants=variants, full=True)


def matrix_attack(
    attacker: Mapping[str, Any] | Unit,
    defender: Mapping[str, Any] | Unit,
    situation: Mapping[str, Any] | None,
    *,
    variants: Variants,
) -> dict[str, Any]:
    """The registry's `matrix_attack`: what a list job keeps of `attack` (its matrix cell's
    figures: expected kills, destroyed, points, the one-figure outcomes), the same numbers,
    without the per-weapon tallies and distributions a cell throws away."""
    return _attack(attacker, defender, situation, variants=variants, full=False)


def _attack(
    attacker: Mapping[str, Any] | Unit,
    defender: Mapping[str, Any] | Unit,
    situation: Mapping[str, Any] | None,
    *,
    variants: Variants,
    full: bool,
) -> dict[str, Any]:
    sit = situation if isinstance(situation, Situation) else Situation.from_dict(situation, variants)
    units, tracks, sides = _sides(attacker, defender, sit)
    outcomes: list[dict[str, Any]] = []
    returning: list[Striker] = []
    if sit.melee:
        dist, strikers, returning = fight_round(sides, sit, variants, tally=full)
    else:
        dist, strikers = shoot(sides, sit, variants, tally=full)
    td, ta = tracks[DEFENDER], tracks[ATTACKER]
    wounds = np.add.reduce(dist, axis=0)  # `dist.sum(axis=0)` without its Python wrapper
    # models slain per wounds lost (one wound each: the same numbers, as `np.bincount` adds each
    # weight to 0.0)
    kills = wounds if td.w == 1 else np.bincount(td.slain, weights=wounds, minlength=td.models + 1)
    if sit.melee:
        result = resolve(dist, units[ATTACKER], units[DEFENDER], (ta, td), sit, variants)
        outcomes += [
            _probability("p_win_combat", _("Attacker wins the combat"), result.p_attacker_wins),
            _probability("p_draw", _("Combat is a draw"), result.p_draw),
            _probability("p_lose_combat", _("Attacker loses the combat"), result.p_defender_wins),
            _probability("p_defender_breaks", _("Defender breaks or is destroyed"), result.p_defender_breaks),
            _probability("p_attacker_breaks", _("Attacker breaks or is destroyed"), result.p_attacker_breaks),
        ]
        if full:
            outcomes += _melee_details(result, dist, sides)
    else:
        outcomes += _panic_outcomes(kills, units[DEFENDER], sit)

    points_destroyed = float(kills @ units[DEFENDER].loss_points())
    attacker_points = units[ATTACKER].points
    defender_points = units[DEFENDER].points
    efficiency = (
        EFFICIENCY_PER_POINTS * points_destroyed / attacker_points
        if attacker_points > 0 and defender_points > 0
        else None
    )
    if not full:
        return {
            "expected": {"kills": mean(kills)},
            "p_destroyed": float(kills[-1]),
            "expected_points_destroyed": points_destroyed if defender_points > 0 else None,
            "points_efficiency": efficiency,
            "outcomes": outcomes,
        }
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
        "points_efficiency": efficiency,
        "attacker_points": attacker_points if attacker_points > 0 else None,
        "defender_points": defender_points if defender_points > 0 else None,
        "weapons": _weapon_entries(strikers, units[ATTACKER]),
        "defender_weapons": _weapon_entries(returning, units[DEFENDER]),
        "outcomes": outcomes,
    }
