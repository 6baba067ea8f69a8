"""Age of Sigmar 1st edition attacks, exactly (`docs/rules/aos1.md` §2).

Hit → wound → save with Rend (§2.3), damage pooled over the whole attack and allocated with
spill-over (§2.4: a model keeps taking damage until slain, so models slain = ⌊pool / W⌋),
mortal wounds without rolls (§2.5), cover +1 save (§2.6), and battleshock as a distribution
of models fled (§2.10). The sheet has no natural-1 rule and no modifier cap (§2.1), so a
roll succeeds exactly when D6 + modifiers ≥ target.

Unit format (system "aos1"): models with `wounds`, `save` (X+, null for "-"), `bravery` (null
for "-": no battleshock test),
`count`, `points`, and `weapons` of `{"name", "type": "missile" | "melee", "range",
"attacks" (number or "D6"), "to_hit", "to_wound", "rend" (≤ 0), "damage" (number or "D3")}`.
The pool hit is the largest model group plus every other group with the same Wounds and
Save (a champion row); kills count pool models.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import cache, lru_cache, wraps
from typing import Any, ParamSpec

import numpy as np

from rules.dice.counts import compound
from rules.dice.pmf import PMF, at_least, convolve, fold, mean, point_mass, power
from rules.systems.fantasy_combat.units import dice_pmf


def _(message: str) -> str:
    """gettext_noop without Django: marks a label for makemessages."""
    return message


#: The engine's own limits, a backstop for callers without the cost model
#: (`compute_cost.estimate_cost`, which refuses first on the request path by predicted time
#: and memory): a target of 10,000 wounds took 1–4 ms and 6,000 attacks 0.13 s, so the old
#: 5,000 refused cheap matchups. Past the largest unit the format allows (1000 models × W50;
#: 1000 models × 50 attacks would pass the attacks limit only by a rule's extra attacks).
MAX_POOL_WOUNDS = 60_000
MAX_ATTACKS = 60_000

SITUATION_PROPERTIES: dict[str, dict[str, Any]] = {
    "mode": {
        "type": "string",
        "title": _("Attack"),
        "enum": ["shooting", "melee"],
        "default": "melee",
        "x-enum-labels": {"shooting": _("Shooting"), "melee": _("Combat")},
    },
    "range_inches": {
        "type": "integer",
        "title": _("Range (inches)"),
        "default": 12,
        "minimum": 0,
        "maximum": 60,
        "description": _("Shooting: missile weapons need the target within Range (§2.2)"),
    },
    "fighting_models": {
        "type": "integer",
        "title": _("Attacking models"),
        "default": 0,
        "minimum": 0,
        "maximum": 1000,
        "description": _("Models in range (0: every model attacks)"),
    },
    "cover": {
        "type": "boolean",
        "title": _("Target in cover"),
        "default": False,
        "description": _("+1 to save rolls (§2.6)"),
    },
    "defender_charged": {
        "type": "boolean",
        "title": _("Target charged this turn"),
        "default": False,
        "description": _("No cover in the combat phase for a unit that charged (§2.6)"),
    },
    "mortal_wounds": {
        "type": "string",
        "title": _("Extra mortal wounds"),
        "enum": ["0", "1", "D3", "D6"],
        "default": "0",
        "description": _("E.g. Arcane Bolt: D3 (§2.5)"),
    },
    "slain_earlier": {
        "type": "integer",
        "title": _("Models already slain this turn"),
        "default": 0,
        "minimum": 0,
        "maximum": 100,
        "description": _("Added to the battleshock roll (§2.10)"),
    },
    "bravery_modifier": {
        "type": "integer",
        "title": _("Bravery modifier"),
        "default": 0,
        "minimum": -3,
        "maximum": 3,
        "description": _("Inspiring terrain +1, Sinister −1 (§2.10)"),
    },
    "inspiring_presence": {
        "type": "boolean",
        "title": _("Target under Inspiring Presence"),
        "default": False,
        "description": _("No battleshock test (§2.10)"),
    },
}
SITUATION_PROPERTIES["range_inches"].update(
    {
        "x-text": _("at %(value)s″"),
        "x-text-joined": True,
        "x-text-when": {"mode": "shooting"},
        "x-command-aliases": [{"flag": "--range"}],
    }
)
SITUATION_PROPERTIES["mode"]["x-command-aliases"] = [{"flag": "--melee", "value": "melee"}]
SITUATION_PROPERTIES["defender_charged"]["x-text-when"] = {"mode": "melee"}
SITUATION_PROPERTIES["mortal_wounds"]["x-text"] = _("%(value)s extra mortal wounds")
SITUATION_PROPERTIES["slain_earlier"]["x-text"] = _("%(value)s already slain this turn")
SITUATION_SCHEMA = {"type": "object", "additionalProperties": False, "properties": SITUATION_PROPERTIES}


def situation_errors(situation: Mapping[str, Any]) -> dict[str, list[str]]:
    """Cross-field checks: cover is lost in the combat phase by a unit that charged."""
    errors: dict[str, list[str]] = {}
    if situation.get("defender_charged") and situation.get("mode", "melee") != "melee":
        errors["defender_charged"] = [_("a charge leads to the combat phase")]
    return errors


@dataclass(frozen=True)
class Situation:
    mode: str = "melee"
    range_inches: int = 12
    fighting_models: int = 0
    cover: bool = False
    defender_charged: bool = False
    mortal_wounds: str = "0"
    slain_earlier: int = 0
    bravery_modifier: int = 0
    inspiring_presence: bool = False

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Situation:
        data = dict(data or {})
        problems = [f"{k}: unknown field" for k in sorted(set(data) - set(SITUATION_PROPERTIES))]
        values = {}
        for key, prop in SITUATION_PROPERTIES.items():
            value = data.get(key, prop["default"])
            ok = (
                isinstance(value, bool)
                if prop["type"] == "boolean"
                else value in prop["enum"]
                if prop["type"] == "string"
                else isinstance(value, int)
                and not isinstance(value, bool)
                and prop["minimum"] <= value <= prop["maximum"]
            )
            if ok:
                values[key] = value
            else:
                problems.append(f"{key}: invalid value {value!r}")
        if not problems:
            problems += [f"{k}: {m}" for k, ms in situation_errors(values).items() for m in ms]
        if problems:
            raise ValueError("; ".join(problems))
        return cls(**values)

    def as_dict(self) -> dict[str, Any]:
        # The field names looked up once per class, not once per matchup (`fields` was 9% of
        # an AoS list job).
        return {name: getattr(self, name) for name in _situation_fields()}


@cache
def _situation_fields() -> tuple[str, ...]:
    return tuple(f.name for f in fields(Situation))


def prepare_situation(situation: Mapping[str, Any] | None) -> Situation:
    """The registry's `prepare_situation`: the job's situation read once (`attack` takes the
    `Situation` as it is)."""
    return Situation.from_dict(situation)


def roll_chance(target: int | None, modifier: int = 0) -> Fraction:
    """§2.1, §2.7: P(D6 + modifier ≥ target), no natural-1 rule; None (a "-" save) never passes."""
    if target is None:
        return Fraction(0)
    return Fraction(min(6, max(0, 7 - (target - modifier))), 6)


def save_chance(save: int | None, rend: int, cover: bool) -> Fraction:
    """§2.3 step 3, §2.6: D6 + Rend (+1 in cover) ≥ Save blocks the attack."""
    return roll_chance(save, rend + int(cover))


@dataclass(frozen=True)
class Roll:
    """What a model's abilities do to one kind of roll: a modifier and which re-roll."""

    modifier: int = 0
    reroll: str | None = None  # "ones" | "failed"


NO_ABILITY = Roll()


def rolled_chance(target: int | None, roll: Roll = NO_ABILITY) -> Fraction:
    """P(success) of one roll with its abilities: re-rolls come before modifiers (a natural 1
    is re-rolled for "re-roll rolls of 1"); "re-roll failed rolls" re-rolls a roll that fails
    once modified, and the second roll stands."""
    p = roll_chance(target, roll.modifier)
    if target is None or roll.reroll is None:
        return p
    if roll.reroll == "ones":
        one_passes = Fraction(int(1 + roll.modifier >= target))
        return p - one_passes / 6 + p / 6
    return p + (1 - p) * p


def warded(per: PMF, ward: int | None) -> PMF:
    """Damage after a ward (each wound or mortal wound negated on `ward`+, §2.5's "negated"):
    each point of damage is kept with probability 1 - P(D6 ≥ ward), independently."""
    if ward is None:
        return per
    keep = 1 - float(roll_chance(ward))
    out = np.zeros(len(per))
    for damage, p_damage in enumerate(per):
        if p_damage:
            k = np.arange(damage + 1)
            out[: damage + 1] += p_damage * np.array(
                [math.comb(damage, int(j)) * keep**j * (1 - keep) ** (damage - j) for j in k]
            )
    return out


P = ParamSpec("P")
#: The caches `_kept` made, which `clear_caches` empties.
_KEPT: list[Any] = []


def _kept(maxsize: int) -> Callable[[Callable[P, PMF]], Callable[P, PMF]]:
    """A function of numbers whose results are kept per distinct set of them (`functools.lru_cache`,
    `clear_caches` empties it; the function hands back read-only arrays, which every caller
    shares), and computed as they come when one cannot be a key (an unhashable value: refused
    there if it is bad). The function keeps its one parameter list."""

    def decorate(compute: Callable[P, PMF]) -> Callable[P, PMF]:
        cached = lru_cache(maxsize=maxsize)(compute)
        _KEPT.append(cached)

        @wraps(compute)
        def kept(*args: P.args, **kwargs: P.kwargs) -> PMF:
            try:
                return cached(*args, **kwargs)
            except TypeError:
                return compute(*args, **kwargs)

        return kept

    return decorate


@_kept(maxsize=4096)
def attack_damage(
    to_hit: int,
    to_wound: int,
    rend: int,
    damage: Any,
    save: int | None,
    cover: bool,
    *,
    hit: Roll = NO_ABILITY,
    wound: Roll = NO_ABILITY,
    saving: Roll = NO_ABILITY,
    ward: int | None = None,
) -> PMF:
    """Damage one attack inflicts (§2.3): Damage if it hits, wounds and is not saved, else 0;
    the attacker's abilities change its hit and wound rolls, the defender's its save and ward.

    Kept per distinct set of numbers (`_kept`): a job's weapons meet the same few saves and
    wards again and again, and the Fractions of one cost more than the rest of the weapon's
    work."""
    saved = rolled_chance(save, Roll(saving.modifier + rend + int(cover), saving.reroll))
    p = float(rolled_chance(to_hit, hit) * rolled_chance(to_wound, wound) * (1 - saved))
    per = np.array(dice_pmf(damage)) * p
    per[0] += 1 - p
    per = warded(per, ward)
    per.setflags(write=False)
    return per


@_kept(maxsize=1024)
def attacks_pmf(attacks: Any, models: int) -> PMF:
    """P(the weapon's `models` wielders make k attacks in all): its Attacks characteristic
    ("D6", 3) summed over the models, kept per characteristic and count (`_kept`: a job's
    attacker meets every defender with the same weapons)."""
    pmf = power(np.array(dice_pmf(attacks)), models)
    pmf.setflags(write=False)
    return pmf


@lru_cache(maxsize=1024)
def _chance(target: int, roll: Roll) -> float:
    return float(rolled_chance(target, roll))


def clear_caches() -> None:
    """The registry's `clear_caches`: the per-weapon numbers kept between matchups, emptied so
    a bench measures the engine cold."""
    for cached in _KEPT:
        cached.cache_clear()
    _chance.cache_clear()


def model_rolls(
    model: Mapping[str, Any], kind: str, weapon: str | None, used: list[str], of: tuple[str, ...]
) -> dict[str, Roll]:
    """{"hit"|"wound"|"save": Roll} for the rolls `of` from the model's structured `abilities`
    that apply to an attack of `kind` ("melee" or "missile") with `weapon` (None: any); names
    of those taken are added to `used`. Modifiers add up; a "failed" re-roll wins over "ones"."""
    mode = "melee" if kind == "melee" else "shooting"
    rolls: dict[str, Roll] = {}
    for ability in model.get("abilities") or ():
        if not isinstance(ability, Mapping) or ability.get("type") not in ("reroll", "modifier"):
            continue
        if ability.get("roll") not in of:
            continue
        if ability.get("when") not in (None, mode):
            continue
        named = ability.get("weapon")
        if named and (weapon is None or str(named).lower() != weapon.lower()):
            continue
        which = str(ability.get("roll"))
        now = rolls.get(which, NO_ABILITY)
        if ability["type"] == "modifier":
            now = Roll(now.modifier + int(ability.get("value", 1)), now.reroll)
        elif now.reroll != "failed":
            now = Roll(now.modifier, str(ability.get("which", "failed")))
        rolls[which] = now
        if ability.get("name") and ability["name"] not in used:
            used.append(str(ability["name"]))
    return rolls


def model_ward(model: Mapping[str, Any], used: list[str]) -> int | None:
    """The best ward among the model's abilities (None: none)."""
    wards = [a for a in model.get("abilities") or () if isinstance(a, Mapping) and a.get("type") == "ward"]
    if not wards:
        return None
    best = min(wards, key=lambda a: int(a.get("target", 7)))
    if best.get("name") and best["name"] not in used:
        used.append(str(best["name"]))
    return int(best.get("target", 7))


def mortal_wounds(expression: str) -> PMF:
    """§2.5: mortal wounds need no rolls; they join the damage pool."""
    return point_mass(0) if expression == "0" else np.array(dice_pmf(expression))


def models_slain(pool: PMF, models: int, wounds: int) -> PMF:
    """§2.4: damage spills over, so ⌊pool / W⌋ models are slain (at most all of them)."""
    slain = np.minimum(np.arange(len(pool)) // wounds, models)
    return np.bincount(slain, weights=pool, minlength=models + 1)


def _fled_rolls(k: int, models: int, bravery: int | None, situation: Situation) -> tuple[int, ...]:
    """§2.10 for a unit that lost `k` models now: the models fled on each battleshock roll of
    1 … 6 (each a chance of 1/6), or `(0,)` when it takes no test (nothing lost, nothing left,
    Inspiring Presence, no Bravery: "-", a war machine)."""
    left = models - k
    lost = k + situation.slain_earlier
    if left <= 0 or lost == 0 or situation.inspiring_presence or bravery is None:
        return (0,)
    threshold = bravery + left // 10 + situation.bravery_modifier
    return tuple(min(left, max(0, roll + lost - threshold)) for roll in range(1, 7))


def battleshock_fled(slain: PMF, models: int, bravery: int | None, situation: Situation) -> PMF:
    """§2.10: a unit that lost models rolls D6 + slain this turn; each point above its Bravery
    (+1 per 10 models left) is one model fled, at most the models left. A unit without a
    Bravery ("-", a war machine) takes no test."""
    fled = np.zeros(models + 1)
    if bravery is None:
        fled[0] = float(np.sum(slain))
        return fled
    for k, p_k in enumerate(slain):
        if not p_k:
            continue
        rolls = _fled_rolls(k, models, bravery, situation)
        if len(rolls) == 1:
            fled[rolls[0]] += p_k
            continue
        for f in rolls:
            fled[f] += p_k / 6
    return fled


def battleshock_holds(slain: PMF, models: int, bravery: int | None, situation: Situation) -> Fraction:
    """The chance that the attacked unit holds: P(at least one model is left after the attacks
    and no model flees in the battleshock test that follows), exact given `slain`.

    Decision (§2.10 says who tests and how many flee, not what "holding" is): a unit holds when
    it is still on the table and loses no model to battleshock. A unit that lost no model this
    turn takes no test and holds; one under Inspiring Presence takes none and holds while a
    model is left; a unit whose every model was slain does not hold (nothing is left to hold),
    though it "loses no model to battleshock". With k slain and n − k left, no model flees
    exactly when D6 + k + slain earlier ≤ Bravery + ⌊(n − k)/10⌋ + modifiers, so the chance is
    Σ_{k<n} P(k slain) · #{d ∈ 1..6 : d + lost ≤ threshold} / 6, summed in rationals (each
    P(k slain) taken exactly as the float it is)."""
    return Fraction(*_holds_ratio(slain, models, bravery, situation))


def _holds_ratio(slain: PMF, models: int, bravery: int | None, situation: Situation) -> tuple[int, int]:
    """`battleshock_holds` as (numerator, denominator) in integers, not reduced: each P(k
    slain) is m·2⁻ᵉ exactly (`float.as_integer_ratio`), so the sum is one integer over
    6·2^E — the same rational, with no Fraction built per term (those were a quarter of an AoS
    matchup)."""
    terms: list[tuple[int, int, int]] = []  # (calm rolls of 6, m, e)
    for k, p_k in enumerate(slain[:models].tolist()):
        if not p_k:
            continue
        lost = k + situation.slain_earlier
        if lost == 0 or situation.inspiring_presence or bravery is None:  # "-": takes no test
            calm = 6
        else:
            threshold = bravery + (models - k) // 10 + situation.bravery_modifier
            calm = min(6, max(0, threshold - lost))  # rolls 1 … 6 with roll + lost ≤ threshold
        if calm:
            numerator, denominator = p_k.as_integer_ratio()
            terms.append((calm, numerator, denominator.bit_length() - 1))
    if not terms:
        return 0, 1
    top = max(e for _, _, e in terms)
    return sum(calm * m << (top - e) for calm, m, e in terms), 6 << top


def holds_chance(slain: PMF, models: int, bravery: int | None, situation: Situation) -> float:
    """`float(battleshock_holds(...))`, the same float: an integer ratio divides correctly
    rounded, as `Fraction.__float__` does."""
    numerator, denominator = _holds_ratio(slain, models, bravery, situation)
    return numerator / denominator


def unit_wounds(unit: Mapping[str, Any]) -> int:
    """The damage that slays every model of a unit: Σ count × Wounds (§1.1; a model without a
    Wounds value has 1), for the gauntlet's per-wound figures."""
    models = [m for m in unit.get("models") or () if isinstance(m, Mapping)]
    return sum(int(m.get("count", 1)) * int(m.get("wounds") or 1) for m in models)


def _pool(models: list[Mapping[str, Any]]) -> tuple[int, int, int | None]:
    main = max(range(len(models)), key=lambda k: (int(models[k].get("count", 1)), -k))
    wounds, save = int(models[main].get("wounds") or 1), models[main].get("save")
    count = sum(
        int(m.get("count", 1))
        for m in models
        if int(m.get("wounds") or 1) == wounds and m.get("save") == save
    )
    return count, wounds, save


def _attack(
    attacker: Mapping[str, Any],
    defender: Mapping[str, Any],
    situation: Mapping[str, Any] | None,
    *,
    full: bool = True,
) -> dict[str, Any]:
    """The registry's `attack` for AoS 1st: one unit's shooting or combat attacks on another.
    `full=False`: only what a list job's matrix cell keeps (`matrix_attack`), the same numbers."""
    sit = situation if isinstance(situation, Situation) else Situation.from_dict(situation)
    a_models = [m for m in attacker.get("models") or () if isinstance(m, Mapping)]
    d_models = [m for m in defender.get("models") or () if isinstance(m, Mapping)]
    if not a_models or not d_models:
        raise ValueError("models: a unit needs at least one model")
    count, wounds, save = _pool(d_models)
    used: dict[str, list[str]] = {"attacker": [], "defender": []}
    pool_model = next(m for m in d_models if int(m.get("wounds") or 1) == wounds and m.get("save") == save)
    ward = model_ward(pool_model, used["defender"])
    limit = count * wounds
    if limit > MAX_POOL_WOUNDS:
        raise ValueError(
            f"models: at most {MAX_POOL_WOUNDS} wounds in the target's models for an exact estimate"
        )
    cover = sit.cover and not (sit.mode == "melee" and sit.defender_charged)
    kind = "missile" if sit.mode == "shooting" else "melee"
    slots = sit.fighting_models or sum(int(m.get("count", 1)) for m in a_models)
    pool = warded(mortal_wounds(sit.mortal_wounds), ward)
    saving = model_rolls(pool_model, kind, None, used["defender"], ("save",)).get("save", NO_ABILITY)
    weapons, total_attacks, total_hits, total_wounds = [], 0.0, 0.0, 0.0
    for model in a_models:
        n = min(slots, int(model.get("count", 1)))
        slots -= n
        for weapon in model.get("weapons") or ():
            if weapon.get("type", "melee") != kind or (
                kind == "missile" and int(weapon.get("range") or 0) < sit.range_inches
            ):
                continue
            attacks = attacks_pmf(weapon.get("attacks", 1), n)
            if len(attacks) - 1 > MAX_ATTACKS:
                raise ValueError(f"models: at most {MAX_ATTACKS} attacks per weapon for an exact estimate")
            name = str(weapon.get("name") or "")
            rolls = model_rolls(model, kind, name, used["attacker"], ("hit", "wound"))
            hit, wound = rolls.get("hit", NO_ABILITY), rolls.get("wound", NO_ABILITY)
            per = attack_damage(
                int(weapon.get("to_hit") or 7),
                int(weapon.get("to_wound") or 7),
                int(weapon.get("rend") or 0),
                weapon.get("damage", 1),
                save,
                cover,
                hit=hit,
                wound=wound,
                saving=saving,
                ward=ward,
            )
            damage = compound(attacks, per, limit)
            pool = convolve(pool, damage, limit)
            if not full:
                continue
            p_hit = _chance(int(weapon.get("to_hit") or 7), hit)
            p_wound = _chance(int(weapon.get("to_wound") or 7), wound)
            expected_attacks = mean(attacks)
            total_attacks += expected_attacks
            total_hits += expected_attacks * p_hit
            total_wounds += expected_attacks * p_hit * p_wound
            weapons.append(
                {
                    "name": weapon.get("name", "Weapon"),
                    "model": model.get("name", "Model"),
                    "models": n,
                    "melee": kind == "melee",
                    "expected": {
                        "attacks": expected_attacks,
                        "hits": expected_attacks * p_hit,
                        "wounds": expected_attacks * p_hit * p_wound,
                        "damage": mean(damage),
                    },
                }
            )
    pool = fold(pool, limit)
    slain = models_slain(pool, count, wounds)
    braveries = [int(m["bravery"]) for m in d_models if m.get("bravery") is not None]
    bravery = max(braveries) if braveries else None
    holds = holds_chance(slain, count, bravery, sit)
    points = [float(m.get("points") or 0) * int(m.get("count", 1)) for m in d_models]
    per_model = (sum(points) / max(1, sum(int(m.get("count", 1)) for m in d_models))) if sum(points) else 0.0
    attacker_points = sum(float(m.get("points") or 0) * int(m.get("count", 1)) for m in a_models)
    kills = mean(slain)
    epd = kills * per_model if per_model else None
    efficiency = 100 * epd / attacker_points if epd is not None and attacker_points > 0 else None
    if not full:
        return {
            "expected": {"kills": kills},
            "p_destroyed": float(slain[-1]),
            "expected_points_destroyed": epd,
            "points_efficiency": efficiency,
            "outcomes": [_holds_outcome(holds)],
        }
    fled = battleshock_fled(slain, count, bravery, sit)
    lost = _losses(slain, count, bravery, sit)
    return {
        "attacker": str(attacker.get("name", "Attacker")),
        "defender": str(defender.get("name", "Defender")),
        "situation": sit.as_dict(),
        "expected": {
            "attacks": total_attacks,
            "hits": total_hits,
            "wounds": total_wounds,
            "damage": mean(pool),
            "kills": kills,
        },
        "wounds_distribution": pool.tolist(),
        "kills_distribution": slain.tolist(),
        "kills_at_least": at_least(slain).tolist(),
        "p_destroyed": float(slain[-1]),
        "expected_points_destroyed": epd,
        "points_efficiency": efficiency,
        "attacker_points": attacker_points or None,
        "defender_points": sum(points) or None,
        "weapons": weapons,
        # the structured abilities this estimate applied, by side and name (the rest of a
        # unit's abilities are text the estimate did not use)
        "abilities_used": used,
        "outcomes": [
            {
                "key": "models_fled",
                "label": _("Models fled (battleshock)"),
                "kind": "distribution",
                "value": fled.tolist(),
                "expected": mean(fled),
            },
            {
                "key": "models_lost",
                "label": _("Models slain or fled"),
                "kind": "distribution",
                "value": lost.tolist(),
                "expected": mean(lost),
            },
            _holds_outcome(holds),
        ],
    }


def _holds_outcome(holds: float) -> dict[str, Any]:
    return {
        "key": "p_holds",
        "label": _("Target holds (models left, none fled in battleshock)"),
        "kind": "probability",
        "value": holds,
    }


def _losses(slain: PMF, models: int, bravery: int | None, situation: Situation) -> PMF:
    """P(slain + fled = n): the unit's total losses this turn. Per number slain, only its six
    battleshock rolls are visited (linear in the models, where a full table per number slain
    made a 1,000-model unit cost a billion steps)."""
    lost = np.zeros(models + 1)
    for k, p_k in enumerate(slain):
        if not p_k:
            continue
        rolls = _fled_rolls(k, models, bravery, situation)
        chances: dict[int, float] = {}
        for f in rolls:  # the same sums, in the same order, as the distribution of one k
            chances[f] = chances.get(f, 0.0) + (1.0 if len(rolls) == 1 else 1 / 6)
        for f, chance in chances.items():
            lost[k + f] += p_k * chance
    return lost


def attack(
    attacker: Mapping[str, Any], defender: Mapping[str, Any], situation: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The registry's `attack` for AoS 1st: one unit's shooting or combat attacks on another.

    ValueError names the bad field (a malformed value in a unit, an unknown situation field)."""
    try:
        return _attack(attacker, defender, situation)
    except (TypeError, KeyError) as exc:
        raise ValueError(f"models: {exc}") from None


def matrix_attack(
    attacker: Mapping[str, Any], defender: Mapping[str, Any], situation: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The registry's `matrix_attack`: what a list job keeps of `attack` (its matrix cell's
    figures), without the distributions it would throw away (battleshock's fled and lost
    distributions were a third of an AoS matchup)."""
    try:
        return _attack(attacker, defender, situation, full=False)
    except (TypeError, KeyError) as exc:
        raise ValueError(f"models: {exc}") from None
