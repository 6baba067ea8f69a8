"""OPR's second stage (`docs/rules/opr-combat.md`, "Outputs"): the defender strikes back in
melee, then both units take the seed's regroup ("Przegrupowanie") test.

From seed 002 (`docs/rules/opr-combat.md`):
- Charge: "then the defenders may move up to 3" towards the charger and counter-attack, but
  they are then exhausted" (`counter_attack`): the defender's surviving models fight back with
  their melee weapons, and a defender that counter-attacked is exhausted
  (`p_defender_counter_exhausted`, reported among the outcomes).
- Regroup: "at the end of the activation in which a unit took wounds it takes a quality
  test. If it has half or fewer of its starting models (of its toughness, for a unit of one
  model) it takes one more test. If it fought in melee, one more. A unit that won the
  melee, i.e. dealt at least as many wounds as its opponent, takes no test at all. For each
  failed test it becomes exhausted, pinned or destroyed" (`regroup_tests`).
- Fearless ("Nieustraszony"): one regroup test fewer.
- Fear(X) ("Strach"): "this model counts as having dealt +X wounds when checking who won
  the melee" (`fear_bonus`): in melee only, it adds to the wounds each side compares, and so
  decides both who won and who takes the regroup tests; it adds no wounds to anything else.

Decisions (the seed is terse; each is one named constant or function):
- `REGROUP_STATES`: k failed tests put the unit in the k-th state of the seed's list — one
  failure exhausted (shaken), two pinned, three destroyed (routed); the states do not stack.
- The defender always counter-attacks when it has a melee weapon and a model left (it is
  what the question "who wins this combat?" asks); it does so after the charger's attacks,
  not charging, against a charger that has activated (Spearhead does not apply).
- Reckless ("Straceńcy") replaces a failed test's consequence by a terrain test the seed does
  not define: a Reckless unit's failures are reported, and it is never exhausted, pinned or
  destroyed by them (`RECKLESS_IGNORES_REGROUP_STATES`).
- Counter ("Kontra", striking before the charger) is not modelled: the charger strikes first.
- An exhausted defender ("Wyczerpana: ... Nie może atakować", `Situation.defender_exhausted`)
  does not counter-attack: the charger takes no wounds back, and the melee is won on the
  charger's wounds (and Fear) alone; the regroup tests are taken as ever.
- "Wounds dealt" are the wounds the opponent took (Deadly's lost excess does not count).
- Fear(X) counts X for each model with it that fought: every model of the charger (it
  strikes first, so all its models fought) and every defender model that survived the charge
  (the ones that strike back). A model destroyed before it struck counts nothing. See the
  repository's `docs/rules/opr.md`.

Everything is exact: the first stage's distribution over the defender's states is split by
the surviving models, each survivor group strikes back exactly (`resolve_attack`), and the
binomial regroup tests are summed over the joint distribution of wounds both ways.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache, partial
from math import comb
from typing import Any, NamedTuple

import numpy as np

from points.opr.unit import Unit
from rules.dice.pmf import PMF, mean
from rules.dice.shared_results import HashOnce, shared
from rules.systems.opr.combat import AttackOutcome, resolve_attack
from rules.systems.opr.situation import Situation


def gettext_noop(message: str) -> str:
    """Marks a label for makemessages (which finds the calls by this name); labels are
    translated where they are shown. Django's own is this identity, but reading it needs
    Django's settings, which the engine does without (`LABELS` are marked at import)."""
    return message

#: Decision: the unit's state after k failed regroup tests (index k); see the module docstring.
REGROUP_STATES = ("steady", "exhausted", "pinned", "destroyed")
#: Decision: a Reckless unit is not exhausted, pinned or destroyed by failed tests.
RECKLESS_IGNORES_REGROUP_STATES = True
#: Seed: regroup tests are quality tests — a natural 6 passes and a natural 1 fails.
NATURAL_SIX_PASSES = True


class SecondStage(NamedTuple):
    """The joint result of both stages: who won the melee and each unit's regroup outcome (a
    named tuple: built once a matchup, cheaper than a frozen dataclass's `__init__`)."""

    p_attacker_wins: float
    p_defender_wins: float
    counter_wounds: PMF
    counter_kills: PMF
    defender_failed: PMF
    attacker_failed: PMF
    defender_reckless: bool
    attacker_reckless: bool
    #: Seed, "Szarża": P(the defender counter-attacked, so it is exhausted afterwards).
    p_defender_counter_exhausted: float = 0.0


def shaken_and_routed(failed: PMF, *, reckless: bool) -> tuple[float, float]:
    """(P(exhausted or pinned), P(destroyed)) from the failed-test distribution (`REGROUP_STATES`)."""
    if reckless and RECKLESS_IGNORES_REGROUP_STATES:
        return 0.0, 0.0
    _, exhausted, pinned, destroyed = failed.tolist()
    return exhausted + pinned, destroyed


def quality_pass(quality: int) -> float:
    """P(pass) of one quality test (seed, "Testy"): d6 ≥ Q, a 6 always passes, a 1 always fails."""
    return min(5, max(1, 7 - quality)) / 6


def regroup_tests(*, took_wounds: bool, won_melee: bool, half_strength: bool, melee: bool,
                  fearless: bool) -> int:
    """How many regroup tests a unit takes (seed, "Przegrupowanie"; Fearless one fewer)."""
    if not took_wounds or won_melee:
        return 0
    return max(0, 1 + int(half_strength) + int(melee) - int(fearless))


@lru_cache(maxsize=256)
def failed_tests(tests: int, p_pass: float) -> PMF:
    """P(k of `tests` regroup tests fail), k = 0 … 3 (a binomial, padded to four states);
    read-only, as it is kept (a few tests and six qualities: every second stage asks again)."""
    fail = 1 - p_pass
    out = np.zeros(len(REGROUP_STATES))
    for k in range(tests + 1):
        out[k] = comb(tests, k) * fail**k * p_pass ** (tests - k)
    out.setflags(write=False)
    return out


def _unit_rule(unit: Unit, rule: str) -> bool:
    """A morale rule counts when every model has it (as the combat engine reads unit rules)."""
    for model in unit.models:  # noqa: SIM110 - a loop, not all(): asked four times a matchup, all() is slower
        if not model.has(rule):
            return False
    return True


def fear_bonus(unit: Unit, alive: Sequence[int] | None = None) -> int:
    """Seed, "Strach(X)": the wounds a unit counts as having dealt on top of its real ones when
    checking who won the melee — X for each of its models with Fear(X) that fought (`alive`:
    the models left per profile; None: all of them). Decision in the module docstring."""
    counts = [model.count for model in unit.models] if alive is None else list(alive)
    return sum(int(n) * (model.value_of("Fear") or 0)
               for model, n in zip(unit.models, counts, strict=True) if model.has("Fear"))


def morale_quality(unit: Unit) -> int:
    """Decision: a unit of mixed models tests on its best (lowest) Quality, its leaders'."""
    return min(model.quality for model in unit.models)


def half_strength(unit: Unit, alive: np.ndarray, wounds: np.ndarray) -> np.ndarray:
    """Per state: at half or fewer of its starting models, or of its toughness for one model."""
    starting = sum(model.count for model in unit.models)
    if starting == 1:
        toughness = next(model.toughness for model in unit.models if model.count)
        return (toughness - wounds) * 2 <= toughness
    return alive.sum(axis=1) * 2 <= starting


def survivors(defender: Unit, alive: Sequence[int]) -> Unit:
    """The defender with only the models still alive (they are the ones who strike back)."""
    pairs = zip(defender.models, alive, strict=True)
    models = tuple(replace(model, count=int(count)) for model, count in pairs if count > 0)
    return replace(defender, models=models)


def counter_situation(situation: Situation) -> Situation:
    """Decision: the counter-attack is melee, not a charge, against a unit that has activated."""
    return Situation(mode="melee", charging=False, attacker_moved=False, defender_in_cover=False,
                     range_inches=0.0, defender_activated=True, enemies_within_12=False)


def counter_attack(striking: Unit, attacker: Unit, situation: Situation,
                   attacker_costs: Sequence[float]) -> tuple[np.ndarray, ...]:
    """The surviving defenders' counter-attack on the charger, as the second stage reads it:
    the charger's state probabilities, wounds, half strength and destruction per state, and
    its models killed. A function of its arguments only, so a batch of matchups shares it
    (`rules.dice.shared_results`): look-alike defender units leave the same survivors."""
    back = resolve_attack(striking, attacker, situation, attacker_costs)
    space = back.dist
    return counter_summary(space.probs, space.wounds, half_strength(attacker, space.alive, space.wounds),
                           space.destroyed, back.kills)


def counter_summary(states: np.ndarray, wounds: np.ndarray, half: np.ndarray, destroyed: np.ndarray,
                    kills: PMF) -> tuple[PMF, np.ndarray, PMF, tuple[np.ndarray, np.ndarray]]:
    """What the second stage reads of a counter-attack, whatever defender state it followed:
    P(w wounds on the charger), P(at most w), P(k models killed), and per half strength
    (False, True) P(more than w wounds, standing at that strength). Each is computed once per
    counter-attack, not once per group of survivors that meets it."""
    wounds_pmf = np.bincount(wounds, weights=states)
    at_most = np.cumsum(wounds_pmf)                      # P(D_B ≤ k)
    more_than = []
    for at_half in (False, True):
        weights = states * ((half == at_half) & ~destroyed)
        above = np.bincount(wounds, weights=weights, minlength=len(wounds_pmf))
        more_than.append(np.concatenate([np.cumsum(above[::-1])[::-1][1:], [0.0]]))  # P(D_B > k, ...)
    return wounds_pmf, at_most, kills, (more_than[0], more_than[1])


def shooting_classes(kills: PMF, wounds: PMF, starting_toughness: int) -> tuple[float, float, float, float]:
    """The defender after shooting in the four classes its regroup test tells apart: (destroyed,
    unhurt, hurt, hurt at half strength), read off the first stage's distributions of models
    killed and wounds taken rather than state by state (issue 42: fewer steps per matchup).

    `kills[k]` is P(k models killed) up to every model, `wounds[w]` P(w wounds taken);
    `starting_toughness` is the toughness of a unit of one model (unused for larger units). The
    classes follow from the states' facts: the only state without wounds is the untouched unit,
    the destroyed unit is the only one with every model killed, and half strength is
    `half_strength`'s — at most half the models alive, or for a unit of one model at most half
    its toughness left (wounds from ⌈t/2⌉ up to t − 1 while it stands)."""
    kills_ = kills.tolist()
    starting = len(kills_) - 1
    destroyed = kills_[-1]
    if starting == 0:  # nothing to shoot at: destroyed from the start
        return destroyed, 0.0, 0.0, 0.0
    unhurt = float(wounds[0])
    if starting == 1:
        wounds_ = wounds.tolist()
        first_half = max(1, starting_toughness - starting_toughness // 2)
        hurt_at_half = sum(wounds_[first_half:starting_toughness])
        hurt = sum(wounds_[1:first_half])
        return destroyed, unhurt, hurt, hurt_at_half
    first_half = starting - starting // 2  # killed from here on: at most half the models alive
    hurt_at_half = sum(kills_[first_half:starting])
    # no model killed but wounded (a damaged model), or some killed yet above half strength
    hurt = max(0.0, sum(kills_[:first_half]) - unhurt)
    return destroyed, unhurt, hurt, hurt_at_half


def _shooting_stage(classes: tuple[float, float, float, float], *, fearless: bool, p_pass: float,
                    attacker: Unit, defender: Unit) -> SecondStage:
    """The second stage after shooting: no counter-attack, so the charger is untouched (no
    wounds, no test, it "won") and the defender tests as it took wounds; a destroyed defender
    takes no test. The melee path's sums with a counter-attack of nothing, its terms that are
    exactly zero left out. A standing defender takes no test without wounds, else 1 (+1 at half
    strength, −1 Fearless): `classes` are the probabilities of the four classes (destroyed,
    unhurt, hurt, hurt at half; `shooting_classes`), added up in plain floats (four numbers:
    numpy's calls would cost more than the sums)."""
    destroyed, unhurt, hurt, hurt_at_half = classes
    mass = destroyed + unhurt + hurt + hurt_at_half
    by_tests = {0: unhurt}
    tests = max(1 - int(fearless), 0)
    by_tests[tests] = by_tests.get(tests, 0.0) + hurt
    tests = max(2 - int(fearless), 0)
    by_tests[tests] = by_tests.get(tests, 0.0) + hurt_at_half
    steady = exhausted = pinned = routed = 0.0  # failed tests: 0, 1, 2, 3 (`REGROUP_STATES`)
    for n, share in by_tests.items():
        if share:
            p0, p1, p2, p3 = failed_tests(n, p_pass).tolist()
            steady, exhausted, pinned, routed = (steady + share * p0, exhausted + share * p1,
                                                 pinned + share * p2, routed + share * p3)
    failed = [steady + destroyed, exhausted, pinned, routed]
    models = wounds = 0
    for model in attacker.models:
        models += model.count
        wounds += model.count * model.toughness
    counter_wounds = np.zeros(wounds + 1)
    counter_kills = np.zeros(models + 1)
    counter_wounds[0] = counter_kills[0] = mass
    attacker_failed = np.zeros(len(REGROUP_STATES))
    attacker_failed[0] = mass
    return SecondStage(
        p_attacker_wins=mass, p_defender_wins=0.0, counter_wounds=counter_wounds, counter_kills=counter_kills,
        defender_failed=np.array(failed), attacker_failed=attacker_failed,
        defender_reckless=_unit_rule(defender, "Reckless"),
        attacker_reckless=_unit_rule(attacker, "Reckless"), p_defender_counter_exhausted=0.0)


def second_stage(
    first: AttackOutcome,
    *,
    attacker: Unit,
    defender: Unit,
    situation: Situation,
    attacker_costs: Sequence[float],
) -> SecondStage:
    """Counter-attack (melee only) and both regroup tests, from the first stage's states."""
    defender_fearless = _unit_rule(defender, "Fearless")
    defender_pass = quality_pass(morale_quality(defender))
    if not situation.melee:
        toughness = next((model.toughness for model in defender.models if model.count), 1)
        return _shooting_stage(shooting_classes(first.kills, first.wounds, toughness),
                               fearless=defender_fearless, p_pass=defender_pass, attacker=attacker,
                               defender=defender)
    space = first.dist  # the defender's states after the first stage: alive, wounds, destroyed
    states = space.probs
    attacker_models = sum(model.count for model in attacker.models)

    defender_failed = np.zeros(len(REGROUP_STATES))
    attacker_failed = np.zeros(len(REGROUP_STATES))
    counter_wounds = np.zeros(sum(model.count * model.toughness for model in attacker.models) + 1)
    counter_kills = np.zeros(attacker_models + 1)
    p_attacker_wins = p_defender_wins = p_countered = 0.0

    dealt_by_attacker = space.wounds
    defender_half = half_strength(defender, space.alive, space.wounds)
    attacker_fearless = _unit_rule(attacker, "Fearless")
    attacker_pass = quality_pass(morale_quality(attacker))
    attacker_fear = fear_bonus(attacker)  # the charger's models all struck (it strikes first)
    groups: dict[tuple[int, ...], list[int]] = {}
    for index in np.nonzero(states > 0)[0].tolist():
        groups.setdefault(tuple(space.alive[index].tolist()), []).append(index)

    counter = counter_situation(situation)
    costs = tuple(attacker_costs)
    attacker_key = HashOnce(attacker)  # hashed once, not once per group of survivors
    untouched = np.zeros(attacker_models + 1)  # no counter-attack: no model of the charger killed
    untouched[0] = 1.0
    no_counter = counter_summary(np.ones(1), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=bool),
                                 np.zeros(1, dtype=bool), untouched)
    for alive, indices in groups.items():
        idx = np.array(indices)
        p = states[idx]
        striking = survivors(defender, alive)  # in melee: the models that strike back
        strikes_back = any(alive) and not situation.defender_exhausted
        if strikes_back and any(m.is_melee for model in striking.models for m in model.weapons):
            p_countered += float(p.sum())  # it fought back, so it is exhausted (seed, "Szarża")
        if strikes_back:
            wounds_pmf, at_most, kills_pmf, more_than_by_half = shared(
                ("opr.counter_attack", HashOnce(striking), attacker_key, counter, costs),
                partial(counter_attack, striking, attacker, counter, costs))
        else:
            wounds_pmf, at_most, kills_pmf, more_than_by_half = no_counter
        mass = float(p.sum())
        if len(wounds_pmf) > len(counter_wounds):
            counter_wounds = np.pad(counter_wounds, (0, len(wounds_pmf) - len(counter_wounds)))
        counter_wounds[: len(wounds_pmf)] += mass * wounds_pmf
        counter_kills[: len(kills_pmf)] += mass * kills_pmf

        dealt = dealt_by_attacker[idx].astype(np.int64)
        # Who won compares the wounds dealt plus each side's Fear: the attacker won when the
        # counter dealt at most `score` wounds, the defender when it dealt at least `score`.
        score = dealt + (attacker_fear - (fear_bonus(defender, alive) if strikes_back else 0))
        # Σ over the counter's states as cumulative sums by wounds, looked up per first-stage state.
        p_attacker_won = np.where(score >= 0, at_most[np.clip(score, 0, len(at_most) - 1)], 0.0)
        p_defender_won = 1 - np.where(score > 0, at_most[np.clip(score - 1, 0, len(at_most) - 1)], 0.0)
        p_attacker_wins += float(p @ p_attacker_won)
        p_defender_wins += float(p @ p_defender_won)
        if any(alive):  # a destroyed defender takes no regroup test
            tests = np.where(dealt > 0, 1 + defender_half[idx].astype(np.int64) + 1  # it fought in melee
                             - int(defender_fearless), 0).clip(min=0)
            p_lost = 1 - p_defender_won
            for n in np.unique(tests).tolist():
                chosen = tests == n
                defender_failed += float(p[chosen] @ p_lost[chosen]) * failed_tests(n, defender_pass)
            defender_failed[0] += float(p @ (1 - p_lost))
        else:
            defender_failed[0] += mass
        # The charger: tests only when it took wounds, lost the melee (the counter's wounds above
        # `score`) and still stands.
        testing = 0.0
        for half, more_than in zip((False, True), more_than_by_half, strict=True):
            share = float(p @ more_than[np.clip(score, 0, len(more_than) - 1)])
            if share:
                n = regroup_tests(took_wounds=True, won_melee=False, half_strength=half, melee=True,
                                  fearless=attacker_fearless)
                attacker_failed += share * failed_tests(n, attacker_pass)
                testing += share
        attacker_failed[0] += mass - testing
    return SecondStage(
        p_attacker_wins=p_attacker_wins,
        p_defender_wins=p_defender_wins,
        counter_wounds=counter_wounds,
        counter_kills=counter_kills,
        defender_failed=defender_failed,
        attacker_failed=attacker_failed,
        defender_reckless=_unit_rule(defender, "Reckless"),
        attacker_reckless=_unit_rule(attacker, "Reckless"),
        p_defender_counter_exhausted=p_countered,
    )


def _probability(key: str, label: str, value: float) -> dict[str, Any]:
    return {"key": key, "label": label, "kind": "probability", "value": float(value)}


def _distribution(key: str, label: str, pmf: PMF) -> dict[str, Any]:
    return {"key": key, "label": label, "kind": "distribution", "value": pmf.tolist(),
            "expected": mean(pmf)}


#: The outcomes' labels by key, marked for translation once (translated where they are shown).
LABELS: dict[str, str] = {
    "p_defender_shaken": gettext_noop("Defender exhausted or pinned (failed regroup)"),
    "p_defender_routed": gettext_noop("Defender destroyed by regroup tests"),
    "p_defender_gone": gettext_noop("Defender destroyed in all (combat or regroup)"),
    "defender_failed_regroup": gettext_noop("Defender's failed regroup tests"),
    "p_attacker_wins_melee": gettext_noop("Attacker wins the melee"),
    "p_defender_wins_melee": gettext_noop("Defender wins the melee"),
    "counter_wounds": gettext_noop("Wounds the defender strikes back"),
    "counter_kills": gettext_noop("Attacker's models killed by the counter-attack"),
    "p_defender_counter_exhausted": gettext_noop("Defender counter-attacked, so it is exhausted"),
    "p_attacker_shaken": gettext_noop("Attacker exhausted or pinned (failed regroup)"),
    "p_attacker_routed": gettext_noop("Attacker destroyed by regroup tests"),
}


def outcomes(stage: SecondStage, *, melee: bool, p_defender_destroyed: float) -> list[dict[str, Any]]:
    """The second stage as the estimate's `outcomes` (see the estimates contract)."""
    d_shaken, d_routed = shaken_and_routed(stage.defender_failed, reckless=stage.defender_reckless)
    defender = [
        _probability("p_defender_shaken", LABELS["p_defender_shaken"],
                     d_shaken),
        _probability("p_defender_routed", LABELS["p_defender_routed"], d_routed),
        _probability("p_defender_gone", LABELS["p_defender_gone"],
                     p_defender_destroyed + d_routed),
        _distribution("defender_failed_regroup", LABELS["defender_failed_regroup"],
                      stage.defender_failed),
    ]
    if not melee:
        return defender
    a_shaken, a_routed = shaken_and_routed(stage.attacker_failed, reckless=stage.attacker_reckless)
    return [
        _probability("p_attacker_wins_melee", LABELS["p_attacker_wins_melee"], stage.p_attacker_wins),
        _probability("p_defender_wins_melee", LABELS["p_defender_wins_melee"], stage.p_defender_wins),
        _distribution("counter_wounds", LABELS["counter_wounds"],
                      stage.counter_wounds),
        _distribution("counter_kills", LABELS["counter_kills"],
                      stage.counter_kills),
        _probability("p_defender_counter_exhausted",
                     LABELS["p_defender_counter_exhausted"],
                     stage.p_defender_counter_exhausted),
        *defender,
        _probability("p_attacker_shaken", LABELS["p_attacker_shaken"],
                     a_shaken),
        _probability("p_attacker_routed", LABELS["p_attacker_routed"], a_routed),
    ]
