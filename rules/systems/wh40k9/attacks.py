"""Which weapons attack, and how many attacks each makes (docs/rules/wh40k9.md §3, §4, §5 "Melee-
specific facts", §6.3).

The attacker's models are grouped by profile; each group's weapons become *batches*: one
weapon profile fired (or swung) by `models` models, with the PMF of the total number of
attacks. Shooting: a weapon fires when the target is within its range (and beyond its
minimum range); Advancing leaves only Assault weapons; an engaged unit fires only Pistols
(VEHICLE and MONSTER everything but Blast, Big Guns Never Tire); a model with a Pistol and
another usable ranged weapon fires the other weapons (its choice, §3 Pistol — the engine
takes the other weapons); grenades are thrown only when the situation asks, by one model,
instead of its other ranged weapons (§3 Grenade). Rapid Fire doubles within half range;
Blast makes at least 3 attacks against 6–10 models and the maximum against 11 or more.
Melee: A per model (± `attacks_modifier`, never below 1, §1.4) with its first melee weapon
(or the close combat weapon: S User, AP 0, D 1), plus each weapon's `extra_attacks`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from rules.dice.pmf import PMF, power, scale
from rules.systems.wh40k9.abilities import keywords_of, of_type, structured
from rules.systems.wh40k9.dice_values import dice_pmf, maximum

_TYPE = re.compile(r"^\s*(Melee|Assault|Heavy|Rapid Fire|Grenade|Pistol)\s*(.*)$", re.IGNORECASE)
_KINDS = {k.lower(): k for k in ("Melee", "Assault", "Heavy", "Rapid Fire", "Grenade", "Pistol")}
CLOSE_COMBAT_WEAPON: dict[str, Any] = {"name": "Close combat weapon", "range": 0, "type": "Melee",
                                       "s": "User", "ap": 0, "d": 1}
#: A bound of sanity on one batch's attacks; what an attack costs is judged by the cost model
#: and `estimate.MAX_COST` (band passes: at least 10 an attack, so at most 12,000 attacks pass it
#: anyway). It was 1,200, which refused hordes that compute in a tenth of a second (issue 42:
#: 3,000 models × 4 attacks against 200 one-wound models, 0.1–0.3 s).
MAX_ATTACKS_PER_BATCH = 12_000


@dataclass(frozen=True)
class Batch:
    """One weapon profile used by `models` models of one attacker profile, each making
    `per_model` attacks (a PMF); `attacks` is the PMF of their total, computed when first
    read: the cost check before a job reads only `most_attacks`."""

    name: str
    model: str
    models: int
    melee: bool
    kind: str
    skill: int | None
    strength: int
    ap: int
    damage: PMF
    per_model: PMF
    abilities: tuple[Mapping[str, Any], ...]
    keywords: frozenset[str]
    half_range: bool = False
    blast: bool = False
    weapon_range: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def most_attacks(self) -> int:
        """The largest number of attacks the batch may make (`len(attacks) - 1`)."""
        return self.models * (len(self.per_model) - 1)

    @cached_property
    def attacks(self) -> PMF:
        """The PMF of the batch's total number of attacks."""
        if self.models == 1:
            return self.per_model
        return _total_attacks(self.per_model.tobytes(), self.models)


def weapon_kind(weapon: Mapping[str, Any]) -> tuple[str, str]:
    """("Heavy", "D6") from `type` "Heavy D6"; a weapon of range 0 is Melee."""
    match = _TYPE.match(str(weapon.get("type") or ""))
    if match:
        return _KINDS[match[1].lower()], match[2].strip() or "1"
    return ("Melee", "1") if not weapon.get("range") else ("Assault", "1")


def is_melee(weapon: Mapping[str, Any], kind: str | None = None) -> bool:
    """A melee weapon: of type Melee or range 0 (`kind`: its `weapon_kind`, if known)."""
    return (kind or weapon_kind(weapon)[0]) == "Melee" or not weapon.get("range")


def chosen_profile(weapon: Mapping[str, Any], which: str) -> Mapping[str, Any]:
    """A multi-profile weapon as the profile it uses: the one its `profile` names, else the
    situation's choice ("first" or "last"); the weapon's name stays, with the profile's."""
    profiles = weapon.get("profiles") or []
    if not profiles:
        return weapon
    named = [p for p in profiles if weapon.get("profile") and p.get("name") == weapon.get("profile")]
    profile = named[0] if named else profiles[-1] if which == "last" else profiles[0]
    merged = {k: v for k, v in weapon.items() if k not in ("profiles", "abilities")}
    merged.update({k: v for k, v in profile.items() if k != "name"})
    merged["name"] = f"{weapon.get('name', '')} ({profile.get('name', '')})".strip()
    return merged


def is_blast(weapon: Mapping[str, Any]) -> bool:
    """"Blast" in the weapon's rules, as an ability item, or in its abilities text (§3)."""
    abilities = weapon.get("abilities")
    if not weapon.get("rules") and not isinstance(abilities, str) and all(isinstance(a, (dict, Mapping))
                                                                          for a in abilities or ()):
        return False  # no text to read
    texts = [str(r) for r in weapon.get("rules") or ()]
    texts += [abilities] if isinstance(abilities, str) else [a for a in abilities or () if isinstance(a, str)]
    return any(re.search(r"\bblast\b", text, re.IGNORECASE) for text in texts)


def strength_of(weapon_strength: Any, user: int) -> int:
    """§1.1 item 7 and §1.4: a number, "User", "+N" or "xN" of the user's S; never below 1."""
    if isinstance(weapon_strength, int) and not isinstance(weapon_strength, bool):
        return max(1, weapon_strength)
    text = str(weapon_strength or "User").strip()
    if text.lower() == "user":
        return max(1, user)
    if text.startswith("+"):
        return max(1, user + int(text[1:]))
    if text.lower().startswith("x"):
        return max(1, user * int(text[1:]))
    return max(1, int(text))


def blast_shots(shots: PMF, defender_models: int) -> PMF:
    """§3 Blast: the maximum against 11+ models, at least 3 against 6–10."""
    if defender_models >= 11:
        top = maximum(shots)
        out = np.zeros(top + 1)
        out[top] = 1.0
        return out
    if defender_models >= 6 and len(shots) > 3:
        out = shots.copy()
        out[3] += out[:3].sum()
        out[:3] = 0.0
        return out
    return shots


@lru_cache(maxsize=1024)
def _total_attacks(per_model: bytes, models: int) -> PMF:
    """The PMF of `models` models' attacks together (each `per_model`, as float64 bytes):
    a list matrix asks it of the same squad once per enemy unit, so it is kept (read-only)."""
    total = power(np.frombuffer(per_model), models)
    total.setflags(write=False)
    return total


def _abilities(*holders: Any) -> tuple[Mapping[str, Any], ...]:
    return tuple(a for h in holders if h for a in structured(h))


def _batch(*, weapon: Mapping[str, Any], model: Mapping[str, Any], models: int, per_model: PMF,
           melee: bool, kind: str, unit_keywords: frozenset[str], half_range: bool = False,
           blast: bool = False) -> Batch:
    if models * (len(per_model) - 1) > MAX_ATTACKS_PER_BATCH:
        raise ValueError(f"{weapon.get('name')}: more than {MAX_ATTACKS_PER_BATCH} attacks")
    return Batch(
        name=str(weapon.get("name", "")), model=str(model.get("name", "")), models=models, melee=melee,
        kind=kind, skill=model.get("ws") if melee else model.get("bs"),
        strength=strength_of(weapon.get("s"), int(model.get("s") or model.get("t") or 1)),
        ap=int(weapon.get("ap") or 0), damage=dice_pmf(weapon.get("d"), default=1), per_model=per_model,
        abilities=_abilities(weapon.get("abilities"), model.get("abilities")),
        keywords=unit_keywords | keywords_of(model), half_range=half_range, blast=blast,
        weapon_range=int(weapon.get("range") or 0),
    )


def shooting_batches(*, unit: Mapping[str, Any], situation: Mapping[str, Any],
                     defender_models: int) -> list[Batch]:
    """Every ranged weapon that fires in `situation`, grouped per attacker profile."""
    distance = float(situation["range_inches"])
    advanced, engaged = bool(situation["advanced"]), bool(situation["engaged"])
    unit_keywords = keywords_of(unit)
    batches: list[Batch] = []
    grenade_thrown = not situation["throw_grenade"]
    for model in unit.get("models") or ():
        count = int(model.get("count") or 0)
        if count <= 0:
            continue
        big_gun = bool((unit_keywords | keywords_of(model)) & {"VEHICLE", "MONSTER"})
        usable: list[tuple[Mapping[str, Any], str, str]] = []
        grenades: list[tuple[Mapping[str, Any], str, str]] = []
        for raw in model.get("weapons") or ():
            weapon = chosen_profile(raw, situation["weapon_profile"])
            kind, shots = weapon_kind(weapon)
            if is_melee(weapon, kind):
                continue
            reach = int(weapon.get("range") or 0)
            if not int(weapon.get("min_range") or 0) <= distance <= reach:
                continue
            if advanced and kind != "Assault":
                continue
            if engaged and (is_blast(weapon) or (kind != "Pistol" and not big_gun)):
                continue
            (grenades if kind == "Grenade" else usable).append((weapon, kind, shots))
        others = [u for u in usable if u[1] != "Pistol"]
        firing = others or usable  # §3 Pistol: the pistol, or the other ranged weapons
        throwers = 0
        if not grenade_thrown and grenades:
            grenade_thrown, throwers = True, 1
            weapon, kind, shots = grenades[0]
            batches.append(_shots_batch(weapon, model, 1, kind, shots, distance, defender_models,
                                        unit_keywords))
        if count - throwers > 0:
            for weapon, kind, shots in firing:
                batches.append(_shots_batch(weapon, model, count - throwers, kind, shots, distance,
                                            defender_models, unit_keywords))
    return batches


def _shots_batch(weapon: Mapping[str, Any], model: Mapping[str, Any], models: int, kind: str, shots: str,
                 distance: float, defender_models: int, unit_keywords: frozenset[str]) -> Batch:
    per_weapon = dice_pmf(shots, default=1)
    blast = is_blast(weapon)
    if blast:
        per_weapon = blast_shots(per_weapon, defender_models)
    half = distance <= int(weapon.get("range") or 0) / 2
    if kind == "Rapid Fire" and half:
        per_weapon = scale(per_weapon, 2)
    return _batch(weapon=weapon, model=model, models=models, per_model=per_weapon, melee=False, kind=kind,
                  unit_keywords=unit_keywords, half_range=half, blast=blast)


def melee_batches(*, unit: Mapping[str, Any], situation: Mapping[str, Any],
                  context: Mapping[str, Any]) -> list[Batch]:
    """Every melee weapon swung, grouped per attacker profile (§5, "Melee-specific facts")."""
    unit_keywords = keywords_of(unit)
    batches: list[Batch] = []
    for model in unit.get("models") or ():
        count = int(model.get("count") or 0)
        if count <= 0 or model.get("ws") is None:
            continue
        weapons = [chosen_profile(w, situation["weapon_profile"]) for w in model.get("weapons") or ()]
        weapons = [w for w in weapons if is_melee(w)] or [CLOSE_COMBAT_WEAPON]
        model_abilities = structured(model.get("abilities"))
        bonus = sum(int(a["value"]) for a in of_type(model_abilities, "attacks_modifier", context=context))
        base = dice_pmf(model.get("a"), default=1)
        if bonus:
            base = _shifted_at_least_one(base, bonus)
        for i, weapon in enumerate(weapons):
            extra = of_type(structured(weapon.get("abilities")), "extra_attacks", context=context)
            extra += [a for a in of_type(model_abilities, "extra_attacks", context=context)
                      if a.get("weapon") == weapon.get("name") or (not a.get("weapon") and i == 0)]
            per_model = base if i == 0 else np.array([1.0])
            for ability in extra:
                per_model = np.convolve(per_model, dice_pmf(ability["value"]))
            if len(per_model) <= 1:
                continue
            batches.append(_batch(weapon=weapon, model=model, models=count, per_model=per_model, melee=True,
                                  kind="Melee", unit_keywords=unit_keywords))
    return batches


def _shifted_at_least_one(pmf: PMF, bonus: int) -> PMF:
    """A + bonus, never below 1 (§1.4)."""
    values = np.maximum(1, np.arange(len(pmf)) + bonus)
    out = np.zeros(int(values.max()) + 1)
    np.add.at(out, values, pmf)
    return out


def attacker_points(unit: Mapping[str, Any]) -> float:
    """The unit's points: each model's `points` times its count."""
    return float(sum(float(m.get("points") or 0) * int(m.get("count") or 0)
                     for m in unit.get("models") or ()))


def batches_for(*, unit: Mapping[str, Any], situation: Mapping[str, Any], defender_models: int,
                context: Mapping[str, Any]) -> Sequence[Batch]:
    if situation["mode"] == "melee":
        return melee_batches(unit=unit, situation=situation, context=context)
    return shooting_batches(unit=unit, situation=situation, defender_models=defender_models)
