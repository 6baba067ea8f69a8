"""The fate of one attack die: hit, wound, saves, and the wounds it takes off one model.

An attack (a shot, a blow, an impact or breath hit) ends in one of three ways: nothing, a
Killing Blow that slays the model it lands on (`p_slay`), or an unsaved wound that takes
`damage` wounds (Multiple Wounds, doubled against Flammable) off the model, each of
which regeneration may still undo (`regeneration_fails`, WHFB §7.3). Each function below is
one rule and cites its section of `docs/rules/whfb6.md` (WHFB) or `docs/rules/ru_whfb.md` (RU).

Known simplification: §7.3 says a model that loses any wound to a flaming attack cannot
regenerate for the rest of the battle, "not even normal wounds"; here only the flaming
attacks themselves ignore regeneration (the other attacks of the same estimate still allow
it), which matters only when flaming and non-flaming attacks hit a regenerating unit at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from rules.systems.fantasy_combat.hashed import hashed_once, state_without_hash
from rules.systems.fantasy_combat.tables import (
    d6_at_least,
    fixed_save_chance,
    melee_need,
    save_chance,
    shooting_hit_chance,
    shooting_hit_on_natural_six,
    strength_save_modifier,
    to_wound_need,
)
from rules.systems.fantasy_combat.units import Model
from rules.systems.fantasy_combat.variants import Variants

SIXTH = Fraction(1, 6)


@dataclass(frozen=True)
class Hit:
    """P(hit) and P(a hit whose die is a natural 6) for one attack die."""

    p: Fraction
    p_six: Fraction

    __hash__ = hashed_once  # a key of `resolve_blow`: its Fractions hashed once
    __getstate__ = state_without_hash


@dataclass(frozen=True)
class Blow:
    """What one attack die does to the model it lands on."""

    p_hit: float
    p_slay: float
    p_unsaved: float
    damage: tuple[float, ...]
    regeneration_fails: float

    __hash__ = hashed_once  # a key of the tracks' caches (`wound_track.die`)
    __getstate__ = state_without_hash

    @property
    def p_wounding(self) -> float:
        return self.p_slay + self.p_unsaved


def shooting_hit(effective_bs: int) -> Hit:
    """§5.3: the BS table, with 6-then-X for 7+ to 9+ (`tables.shooting_hit_chance`)."""
    return Hit(shooting_hit_chance(effective_bs), shooting_hit_on_natural_six(effective_bs))


@lru_cache(maxsize=1024)
def melee_hit(attacker_ws: int, defender_ws: int, to_hit_bonus: int = 0) -> Hit:
    """§6.3: WS against WS; a 6 always hits, a 1 always misses (a +1 to hit still fails on a 1,
    §14 Sword of Striking); WS 0 is hit automatically (no die, so no natural 6)."""
    need = melee_need(attacker_ws, defender_ws)
    if need <= 1:
        return Hit(Fraction(1), Fraction(0))
    need = min(6, max(2, need - to_hit_bonus))
    return Hit(d6_at_least(need), SIXTH)


def automatic_hit() -> Hit:
    """Impact hits (§8.7) and breath hits in combat (RU #1) hit without a roll."""
    return Hit(Fraction(1), Fraction(0))


@lru_cache(maxsize=256)
def sixes_only(hit: Hit) -> Hit:
    """§10.3: a unit that failed a fear test (and outnumbers the fear-causer) hits only on 6s
    in the first round."""
    return Hit(min(hit.p, SIXTH), min(hit.p_six, SIXTH)) if hit.p_six else hit


@lru_cache(maxsize=256)
def reroll_misses(hit: Hit) -> Hit:
    """Hatred (§10.7) and RU ASF with higher Initiative (RU #2): re-roll failed to-hit rolls,
    once: p + (1 − p)·p."""
    miss = 1 - hit.p
    return Hit(hit.p + miss * hit.p, hit.p_six + miss * hit.p_six)


def wound_chance(strength: int, toughness: int) -> Fraction:
    """§6.5: the to-wound table; 0 where S cannot wound T."""
    need = to_wound_need(strength, toughness)
    return Fraction(0) if need is None else d6_at_least(need)


@dataclass(frozen=True)
class _Target:
    """What of the model a blow lands on `resolve_blow` reads (hashable, unlike `Model`)."""

    t: int
    save: int | None
    save_given: bool
    ward: int | None
    regeneration: int | None
    troop_type: str
    man_sized: bool
    ethereal: bool
    flammable: bool

    __hash__ = hashed_once  # a key of `resolve_blow`, built once per target unit (`target_of`)
    __getstate__ = state_without_hash


def armour_save(
    target: Model | _Target, *, strength: int, armour_piercing: int, melee: bool, hand_weapon_and_shield: bool
) -> Fraction:
    """§7.1: the save from kit (or as given), +1 for hand weapon and shield on foot in close
    combat (only when the save is built from kit), worsened by S above 3 and by armour
    piercing; a 1 always fails."""
    base = target.save
    if base is not None and melee and hand_weapon_and_shield and not target.save_given:
        base -= 1
    return save_chance(base, strength_save_modifier(strength) + armour_piercing)


def killing_blow_applies(target: Model | _Target, variants: Variants) -> bool:
    """§8.2: only against man-sized models (foot or mounted); RU #20: against anything."""
    return variants.killing_blow_any_target or target.man_sized


def poison_applies(target: Model | _Target) -> bool:
    """§8.3: no effect on inanimate targets (war machines)."""
    return target.troop_type != "war_machine"


def flammable_damage(damage: tuple[float, ...]) -> tuple[float, ...]:
    """§8.4 / RU #12: a Flammable model takes double wounds from flaming attacks (after saves)."""
    doubled = [0.0] * (2 * (len(damage) - 1) + 1)
    for k, p in enumerate(damage):
        doubled[2 * k] += p
    return tuple(doubled)


def target_numbers(target: Model) -> _Target:
    """What of `target` a blow reads (`resolve_blow`'s key; a job builds it once per unit)."""
    return _Target(
        t=target.t or 0,
        save=target.save,
        save_given=target.save_given,
        ward=target.ward,
        regeneration=target.regeneration,
        troop_type=target.troop_type,
        man_sized=target.man_sized,
        ethereal=target.has("ethereal"),
        flammable=target.has("flammable"),
    )


@lru_cache(maxsize=4096)
def resolve_blow(
    hit: Hit,
    target: _Target,
    strength: int,
    armour_piercing: int,
    damage: tuple[float, ...],
    melee: bool,
    hand_weapon_and_shield: bool,
    no_armour_save: bool,
    flaming: bool,
    poisoned: bool,
    killing_blow: bool,
    variants: Variants,
    magical: bool = False,
    ethereal_attacker: bool = False,
) -> Blow:
    """One attack die from hit to unsaved wounds (§6.5, §7, §8), with the RU switches, on the
    numbers of the model it lands on (`target_numbers`), exactly (Fractions), as floats.

    Kept per distinct set of the numbers it reads: a job's units meet the same few targets (T,
    saves, ward) with the same few blows again and again, and the exact Fraction arithmetic of
    one blow costs more than the whole matchup's table work. (Its hot caller passes them by
    position, which keys the cache fastest.)"""
    if variants.ethereal and target.ethereal and not (magical or flaming or ethereal_attacker):
        return Blow(p_hit=float(hit.p), p_slay=0.0, p_unsaved=0.0, damage=damage, regeneration_fails=1.0)
    no_armour_save = no_armour_save or (variants.ethereal and ethereal_attacker)
    # The same exact arithmetic as on `Fraction`s, on (numerator, denominator) pairs of ints
    # left unreduced (a product's or a sum's terms, `_Exact`): each chance is the same rational,
    # and `n / d` of two ints is its correctly rounded float, as `float(Fraction)` is. The
    # Fractions' reductions at every step were most of a blow's cost (issue 42).
    p_wound = _exact(wound_chance(strength, target.t))
    poison = poisoned and poison_applies(target)
    p, p_six = _exact(hit.p), _exact(hit.p_six)
    auto_wounds = p_six if poison else _ZERO
    rolled_hits = _sub(p, auto_wounds)
    kills_outright = (
        _mul(rolled_hits, _SIXTH)
        if killing_blow and p_wound[0] > 0 and killing_blow_applies(target, variants)
        else _ZERO
    )
    normal_wounds = _sub(_mul(rolled_hits, p_wound), kills_outright)

    armour = (
        _ZERO
        if no_armour_save or (flaming and variants.flaming_ignores_armour)
        else _exact(
            armour_save(
                target,
                strength=strength,
                armour_piercing=armour_piercing,
                melee=melee,
                hand_weapon_and_shield=hand_weapon_and_shield,
            )
        )
    )
    poison_armour = _ZERO if variants.poison_ignores_armour else armour
    ward_fails = _fails(_exact(fixed_save_chance(target.ward)))
    regeneration = _ZERO if flaming else _exact(fixed_save_chance(target.regeneration))

    unsaved = _mul(
        _add(_mul(auto_wounds, _fails(poison_armour)), _mul(normal_wounds, _fails(armour))), ward_fails
    )
    slay = _mul(kills_outright, ward_fails) if variants.killing_blow_ward_save else kills_outright
    if variants.regeneration_per_attack:
        unsaved = _mul(unsaved, _fails(regeneration))
        regeneration_fails = _ONE
    else:
        regeneration_fails = _fails(regeneration)
    if flaming and target.flammable:
        damage = flammable_damage(damage)
    return Blow(
        p_hit=float(hit.p),
        p_slay=_float(slay),
        p_unsaved=_float(unsaved),
        damage=damage,
        regeneration_fails=_float(regeneration_fails),
    )


#: An exact chance as (numerator, denominator), ints, not reduced (`resolve_blow`).
_Exact = tuple[int, int]
_ZERO: _Exact = (0, 1)
_ONE: _Exact = (1, 1)
_SIXTH: _Exact = (1, 6)


def _exact(value: Fraction) -> _Exact:
    return value.numerator, value.denominator


def _mul(a: _Exact, b: _Exact) -> _Exact:
    return a[0] * b[0], a[1] * b[1]


def _add(a: _Exact, b: _Exact) -> _Exact:
    return a[0] * b[1] + b[0] * a[1], a[1] * b[1]


def _sub(a: _Exact, b: _Exact) -> _Exact:
    return a[0] * b[1] - b[0] * a[1], a[1] * b[1]


def _fails(a: _Exact) -> _Exact:
    """1 − a."""
    return a[1] - a[0], a[1]


def _float(a: _Exact) -> float:
    """The correctly rounded float of a/b (Python's int division rounds correctly, as
    `float(Fraction)` does), 0.0 for a zero chance as `float(Fraction(0))` gives."""
    return a[0] / a[1]
