"""The Warhammer Fantasy attack sequence: shooting (§5) and one round of close combat (§6).

Shooting is one side's dice on the target's wound track. Close combat is both sides'
blows in strike order (§6.2) on the joint distribution of (attacker's wounds lost,
defender's wounds lost): every striker's number of dice depends on how many of its own
models are still alive when it strikes (casualties come off the rear, so the models in
contact keep fighting until the unit is smaller than its front, §6.6), so a defender that
strikes second has its casualties removed before it strikes back (§6.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import groupby

import numpy as np
import numpy.typing as npt

from rules.systems.fantasy_combat.blows import (
    Blow,
    Hit,
    _Target,
    automatic_hit,
    melee_hit,
    reroll_misses,
    resolve_blow,
    shooting_hit,
    sixes_only,
    target_numbers,
)
from rules.systems.fantasy_combat.situation import MAX_POOL_WOUNDS, MAX_TABLE_CELLS, MAX_WORK, Situation
from rules.systems.fantasy_combat.units import Model, Unit, Weapon, dice_pmf
from rules.systems.fantasy_combat.variants import Variants
from rules.systems.fantasy_combat.wound_track import (
    BINOMIAL_MOST,
    FFT_FROM_STATES,
    Array,
    DieLaw,
    WoundTrack,
    _binomial_matrix,
    binomial_laws,
    striking,
    table_rows,
)

ATTACKER, DEFENDER = 0, 1
#: Strike tiers (§6.2): impact hits, first (chargers, ASF), by Initiative, last (great weapons, ASL).
IMPACT, FIRST, NORMAL, LAST = -1, 0, 1, 2


@dataclass(slots=True)
class Striker:
    """One batch of identical attack dice: a model group's weapon, its mount, impact hits or breath.
    (Slotted: built per striker per matchup.)"""

    side: int
    name: str
    model: str
    group: int
    per_model: int  # dice per fighting model (0 with `random_count`)
    tier: int
    initiative: int
    blow: Blow
    melee: bool = True
    random_count: tuple[float, ...] | None = None  # per model: P(k dice)
    negated: float = 0.0  # RU #16: chance the whole spell is negated
    in_ranks: bool = False  # also fights from the second rank (§12.3)
    expected_dice: float = 0.0
    expected_kills: float = 0.0
    transition: Array = field(default_factory=lambda: np.zeros((1, 1)))
    #: `transition` is the same in every state (`WoundTrack.die`); None: not known yet.
    independent: bool | None = None
    #: Close combat: the dice each state of its own track throws (`Side.fighting` times
    #: `per_model`, kept with the unit), their largest number, and the independent die's
    #: `wound_track.independent_law`; None: worked out by the throw.
    dice: npt.NDArray[np.int64] | None = None
    most: int | None = None
    law: DieLaw | None = None

    @property
    def order(self) -> tuple[int, int]:
        return (self.tier, -self.initiative)


@dataclass(slots=True)
class Side:
    """A unit in the fight, its wound track and the models that fight per track state.
    (Slotted: two per matchup.)"""

    unit: Unit
    track: WoundTrack
    charging: bool
    fighting_models: int
    #: Faces the enemy with its front: spears add a rank only then (§12.3).
    front_facing: bool = True
    _fighting: dict[bool, dict[int, npt.NDArray[np.int64]]] = field(default_factory=dict)

    def fighting(self, in_ranks: bool) -> dict[int, npt.NDArray[np.int64]]:
        """`_count_fighting`, kept with the unit (a job's unit fights with the same front in
        many matchups) and with this side."""
        if in_ranks not in self._fighting:
            key = ("fighting", self.track.size, self.fighting_models, in_ranks)
            known = self.unit._memo.get(key)
            if known is None:
                known = self.unit._memo[key] = self._count_fighting(in_ranks)
            self._fighting[in_ranks] = known
        return self._fighting[in_ranks]

    def _count_fighting(self, in_ranks: bool) -> dict[int, npt.NDArray[np.int64]]:
        """Per model group, how many of its models fight in each track state: the models in
        contact (`fighting_models`, 0 meaning all), plus the next rank as many again when the
        group fights in ranks. Characters stand in front (§9.8), then command, then rank and
        file; casualties come off the rear (§6.6). Computed for every state at once (the cost
        model asks for it too, before any job is queued)."""
        unit, track = self.unit, self.track
        order = [k for k in range(len(unit.models)) if k not in unit.pool] + list(reversed(unit.pool))
        alive = {k: np.full(track.size, m.count, dtype=np.int64) for k, m in enumerate(unit.models)}
        lost = unit.pool_models - track.alive  # pool models lost: the first pool group (the rear) first
        for g in unit.pool:
            taken = np.minimum(lost, unit.models[g].count)
            alive[g] = unit.models[g].count - taken
            lost = lost - taken
        front = np.full(track.size, self.fighting_models) if self.fighting_models else sum(alive.values())
        slots = front + (front if in_ranks and self.fighting_models else 0)
        out = {}
        for k in order:
            out[k] = np.minimum(slots, alive[k]).astype(np.int64)
            slots = slots - out[k]
        return out


def _strength(
    model: Model, weapon: Weapon, *, situation: Situation, charging: bool, variants: Variants
) -> tuple[int, int]:
    """Close-combat S and armour piercing (§6.5, §12.1): the user's S plus the weapon's bonus,
    the first-round and charge-only bonuses, RU Devastating Charge (+1 S), Sword of Might."""
    first = situation.round == 1
    traits = weapon.traits
    strength = weapon.strength if weapon.strength is not None else (model.s or 0) + weapon.strength_bonus
    ap = weapon.armour_piercing + model.item_effects.get("armour_piercing", 0)
    if first:
        strength += traits.get("first_round", 0)
        if charging:
            strength += traits.get("charge", 0)
        if "first_round_strength" in traits:
            strength = max(strength, traits["first_round_strength"])
            ap += traits.get("first_round_ap", 0)
        if charging and variants.devastating_charge and model.has("devastating charge"):
            strength += 1
    strength += model.item_effects.get("strength", 0)
    return min(10, strength), ap


#: The hand weapon every model has (§12.4), built once.
HAND_WEAPON = Weapon(
    "Hand weapon", 0, "hand_weapon", None, 0, 0, (0.0, 1.0), 1, False, False, False, False, False
)


def _melee_weapon(model: Model) -> Weapon:
    """The close-combat weapon a model uses: its first one, else a hand weapon (§12.4)."""
    return next((w for w in model.weapons if w.melee), HAND_WEAPON)


def _attacks(model: Model) -> int:
    """A, +1 Frenzy (§10.6), +1 two hand weapons on foot (§12.4), RU Extra Attack, Sword of Battle."""
    hand_weapons = sum(1 for w in model.weapons if w.melee and w.kind == "hand_weapon")
    extra = int(model.has("frenzy")) + int(model.has("extra attack")) + model.item_effects.get("attacks", 0)
    if model.on_foot and (
        hand_weapons >= 2 or model.has("two hand weapons") or model.has("additional hand weapon")
    ):
        extra += 1
    return (model.a or 0) + extra


def _hand_weapon_and_shield(target: Model) -> bool:
    """§7.1, §12.4: a foot model with a shield and a hand weapon saves +1 in close combat."""
    return target.on_foot and target.shield and _melee_weapon(target).kind == "hand_weapon"


def _tier(
    model: Model, weapon: Weapon | None, *, situation: Situation, charging: bool, variants: Variants
) -> int:
    """§6.2: chargers strike first in the turn they charge; Always Strikes First; great weapons
    and Always Strikes Last strike last (WHFB: a charging great weapon strikes first). RU #2,
    #3: ASF/ASL only from round 2, great weapons are ASL."""
    rules_on = situation.round >= variants.strike_order_rules_from_round
    great = weapon is not None and weapon.traits.get("strikes_last", False)
    if charging and situation.round == 1:
        return FIRST
    if rules_on and model.has("always strikes first"):
        return FIRST
    if rules_on and (model.has("always strikes last") or (great and variants.great_weapon_is_asl)):
        return LAST
    if great and not variants.great_weapon_is_asl:
        return LAST
    return NORMAL


def _blow_against(
    hit: Hit,
    target: Model,
    *,
    strength: int,
    ap: int,
    weapon: Weapon | None,
    model: Model,
    melee: bool,
    variants: Variants,
) -> Blow:
    flags = weapon or _melee_weapon(model)
    return resolve_blow(
        hit,
        target=target_numbers(target),
        strength=strength,
        armour_piercing=ap,
        damage=flags.multiple_wounds,
        melee=melee,
        hand_weapon_and_shield=melee and _hand_weapon_and_shield(target),
        no_armour_save=flags.no_armour_save,
        flaming=flags.flaming or model.has("flaming attacks"),
        poisoned=flags.poisoned or model.has("poisoned attacks"),
        killing_blow=flags.killing_blow or model.has("killing blow"),
        variants=variants,
        magical=flags.magic,
        ethereal_attacker=model.has("ethereal"),
    )


@dataclass(frozen=True)
class _Fighter:
    """What of one close-combat striker depends on its own unit only (`_fighters_of`): all but
    its hit chance and its blow, which depend on the enemy too."""

    group: int
    name: str
    model: str
    ws: int
    to_hit_bonus: int
    initiative: int
    per_model: int
    tier: int
    in_ranks: bool
    hatred: bool  # §10.7, round 1
    asf_reroll: bool  # RU #2: re-rolls misses against a lower Initiative
    strength: int
    ap: int
    damage: tuple[float, ...]
    no_armour_save: bool
    flaming: bool
    poisoned: bool
    killing_blow: bool
    magic: bool
    ethereal: bool


#: One model group's strikers against one kind of enemy (`melee_strikers`): each `_Fighter`
#: with its blow.
_Struck = list[tuple[_Fighter, Blow]]
#: What a side's fighters do to one kind of enemy (`_blows`): per model group each fighter's
#: blow, and per shape of the enemy's wound track their dice on it (`wound_track.striking`).
_Blows = tuple[list[list[Blow]], dict[tuple[int, int], list]]
_Against = dict[tuple, _Blows]


def _blow_numbers(f: _Fighter) -> tuple:
    """What of a fighter its blow reads (`_strike`): fighters alike in these strike alike."""
    return (
        f.ws,
        f.to_hit_bonus,
        f.initiative,
        f.hatred,
        f.asf_reroll,
        f.strength,
        f.ap,
        f.damage,
        f.no_armour_save,
        f.flaming,
        f.poisoned,
        f.killing_blow,
        f.magic,
        f.ethereal,
    )


#: The blows of every side plan met, per plan's blow numbers and kind of enemy (`_blows`: the
#: units of a job's lists share a few profiles, a quarter as many as the unit-enemy pairs).
#: Blows only (small; their dice on a track stay with the plan, for the job): emptied by
#: `clear_caches`, and when it holds `_BLOWS_KEPT` entries.
_BLOWS: dict[tuple, list[list[Blow]]] = {}
_BLOWS_KEPT = 20_000


def _blows(
    plan: _Plan, key: tuple, numbers: _Target, shielded: bool, target_ws: int, target_i: int, afraid: bool,
    variants: Variants, situation: Situation,
) -> _Blows:
    """What the plan's fighters do to the enemy of `key` (`melee_strikers`): the blows shared by
    the plans whose fighters read the same numbers (`_blow_numbers`), and an empty store of
    their dice per track."""
    shared = (plan.numbers, key, situation.round, variants)
    blows = _BLOWS.get(shared)
    if blows is None:
        if len(_BLOWS) >= _BLOWS_KEPT:
            _BLOWS.clear()
        struck = _strike(plan.fighters, numbers, shielded, target_ws, target_i, afraid, variants, situation)
        blows = _BLOWS[shared] = [[blow for _, blow in group] for group in struck]
    return blows, {}


class _Plan:
    """A side's fighters for a job's situation and rules (`_fighters_of`) and what is kept with
    them: the blows per kind of enemy (`against`), whether any re-rolls against a lower
    Initiative (`asf`), the model groups with impact hits or a breath weapon (`special`), and
    the dice per state (`dice`, per track size and models in contact, `_dice`)."""

    __slots__ = ("against", "asf", "dice", "fighters", "numbers", "situation", "special", "variants")

    def __init__(self, own: Side, situation: Situation, variants: Variants) -> None:
        self.situation, self.variants = situation, variants
        self.fighters, self.against = _fighters_of(own, situation, variants)
        self.numbers = tuple(tuple(_blow_numbers(f) for f in fighters) for fighters in self.fighters)
        self.asf = any(f.asf_reroll for fighters in self.fighters for f in fighters)
        self.special = frozenset(
            k
            for k, model in enumerate(own.unit.models)
            if "impact hits" in model.rules or "breath weapon" in model.rules
        )
        self.dice: dict[tuple[int, int], list[list[tuple[npt.NDArray[np.int64], int]]]] = {}


def _plan(own: Side, situation: Situation, variants: Variants) -> _Plan:
    """The side's `_Plan`, kept with its unit for the job's situation and rules."""
    key = ("fighters", own.charging, own.front_facing)
    known = own.unit._memo.get(key)
    if known is None or known.situation is not situation or known.variants is not variants:
        known = own.unit._memo[key] = _Plan(own, situation, variants)
    return known


def _fighters_of(
    own: Side, situation: Situation, variants: Variants
) -> tuple[list[list[_Fighter]], _Against]:
    """Per model group, its strikers' own numbers (`_Fighter`): a unit meets every enemy of a
    job with the same weapons, Strength, strike tier and ranks (the flags and characteristics
    read per enemy were a fifth of a matchup); and an empty store of what they do to each kind
    of enemy met (`melee_strikers`' blows and dice, keyed by the numbers of the enemy they
    read). Kept with the unit (`_plan`)."""
    charging = own.charging
    plan: list[list[_Fighter]] = []
    for k, model in enumerate(own.unit.models):
        entries = []
        fighters = [(model, _melee_weapon(model))] + ([(model.mount, None)] if model.mount else [])
        for striker_model, weapon in fighters:
            if striker_model.ws is None or not _attacks(striker_model):
                continue
            w = weapon or _melee_weapon(striker_model)
            strength, ap = _strength(
                striker_model, w, situation=situation, charging=charging, variants=variants
            )
            entries.append(
                _Fighter(
                    group=k,
                    name=w.name if weapon else f"{striker_model.name} (mount)",
                    model=model.name,
                    ws=striker_model.ws or 0,
                    to_hit_bonus=striker_model.item_effects.get("to_hit", 0),
                    initiative=striker_model.i or 0,
                    per_model=_attacks(striker_model),
                    tier=_tier(
                        striker_model, weapon, situation=situation, charging=charging, variants=variants
                    ),
                    in_ranks=(w.kind == "spear" or striker_model.has("fight in extra rank"))
                    and not charging
                    and own.front_facing,
                    hatred=situation.round == 1 and striker_model.has("hatred"),
                    asf_reroll=variants.asf_rerolls_with_higher_initiative
                    and situation.round >= variants.strike_order_rules_from_round
                    and striker_model.has("always strikes first"),
                    strength=strength,
                    ap=ap,
                    damage=w.multiple_wounds,
                    no_armour_save=w.no_armour_save,
                    flaming=w.flaming or striker_model.has("flaming attacks"),
                    poisoned=w.poisoned or striker_model.has("poisoned attacks"),
                    killing_blow=w.killing_blow or striker_model.has("killing blow"),
                    magic=w.magic,
                    ethereal=striker_model.has("ethereal"),
                )
            )
        plan.append(entries)
    return plan, {}


def _target(unit: Unit) -> tuple[_Target, bool]:
    """The numbers a blow reads of the unit it lands on, and whether its hand weapon and
    shield save +1 in combat: kept with the unit (every enemy of a job strikes it)."""
    known = unit._memo.get("blow_target")
    if known is None:
        target = unit.target
        known = unit._memo["blow_target"] = (target_numbers(target), _hand_weapon_and_shield(target))
    return known


def failed_fear(unit: Unit, enemy: Unit, situation: Situation, side: int) -> bool:
    """The situation says this side failed a fear test, and the enemy does cause fear (§10.3,
    RU #8); fear-causers and units immune to psychology are never afraid."""
    failed = situation.attacker_failed_fear if side == ATTACKER else situation.defender_failed_fear
    if not failed:
        return False
    causes = enemy.has("fear") or enemy.has("causes fear") or enemy.has("terror")
    immune = (
        unit.has("fear") or unit.has("terror") or unit.has("immune to psychology") or unit.has("unbreakable")
    )
    return failed and causes and not immune


def defending_ws(unit: Unit) -> int:
    """The WS blows are rolled against (§6.3): the target's; a chariot's is its crew's highest
    (§8.7); a model without WS (a war machine, §8.6) is hit automatically (WS 0)."""
    if unit.target.ws is not None:
        return unit.target.ws
    if unit.target.troop_type != "chariot":
        return 0
    return max((m.ws for m in unit.models if m.ws is not None), default=0)


def _as_enemy(unit: Unit) -> tuple[Model, int, _Target, bool, int]:
    """What the strikers of an enemy read of the unit they strike (its target model, the WS
    blows are rolled against, `_target`'s numbers and shield, its Initiative), kept with it."""
    known = unit._memo.get("as_enemy")
    if known is None:
        target = unit.target
        numbers, shielded = _target(unit)
        known = unit._memo["as_enemy"] = (target, defending_ws(unit), numbers, shielded, target.i or 0)
    return known


def _dice(own: Side, plan: _Plan) -> list[list[tuple[npt.NDArray[np.int64], int]]]:
    """Per model group and fighter of `plan`, the dice each state of the side's track throws
    (`Side.fighting` times its attacks) and their largest number: the same against every enemy
    met with the same front, so kept with the plan."""
    key = (own.track.size, own.fighting_models)
    known = plan.dice.get(key)
    if known is None:
        known = plan.dice[key] = []
        for k, fighters in enumerate(plan.fighters):
            group = []
            for f in fighters:
                dice = own.fighting(f.in_ranks)[k] * f.per_model
                group.append((dice, int(dice.max()) if len(dice) else 0))
            known.append(group)
    return known


def melee_strikers(
    side: int, own: Side, enemy: Side, situation: Situation, variants: Variants
) -> list[Striker]:
    """Every batch of close-combat dice a side throws this round."""
    plan, struck, dice, dies, target = kept_dice(side, own, enemy, situation, variants)
    strikers: list[Striker] = []
    for k, group in enumerate(struck):
        for f, blow, (throws, most), kept in zip(plan.fighters[k], group, dice[k], dies[k], strict=True):
            transition, independent, law = kept
            strikers.append(
                Striker(
                    side,
                    f.name,
                    f.model,
                    k,
                    f.per_model,
                    f.tier,
                    f.initiative,
                    blow,
                    True,
                    None,
                    0.0,
                    f.in_ranks,
                    0.0,
                    0.0,
                    transition,
                    independent,
                    throws,
                    most,
                    law,
                )
            )
        if k in plan.special:
            strikers += _special_hits(side, k, own.unit.models[k], own, target, situation, variants)
    return strikers


def kept_dice(
    side: int, own: Side, enemy: Side, situation: Situation, variants: Variants
) -> tuple[_Plan, list[list[Blow]], list[list[tuple[npt.NDArray[np.int64], int]]], list[list[tuple]], Model]:
    """What `melee_strikers` builds a side's strikers from, all kept: the side's plan (its
    fighters per model group, `plan.special` the groups with impact hits or a breath weapon),
    their blows on this enemy, their dice per state of their own track and their largest
    number (`_dice`), each blow's die on the enemy's track (`wound_track.striking`), and the
    enemy's target model. (A list job's row reads them without building strikers, `row`.)"""
    target, target_ws, numbers, shielded, target_i = _as_enemy(enemy.unit)
    own_afraid = enemy_afraid = False
    if situation.attacker_failed_fear or situation.defender_failed_fear:
        own_afraid = failed_fear(own.unit, enemy.unit, situation, side)
        enemy_afraid = failed_fear(enemy.unit, own.unit, situation, 1 - side)
    if enemy_afraid and variants.fear_sets_ws_one:
        target_ws = 1
    plan = _plan(own, situation, variants)
    # What the fighters do depends on these numbers of the enemy alone (and the plan's
    # situation and rules): a job's many enemies share a few of them, so kept per value (the
    # enemy's Initiative only where a fighter re-rolls against a lower one, RU #2).
    key = (numbers, shielded, target_ws, target_i if plan.asf else None, own_afraid)
    known = plan.against.get(key)
    if known is None:
        known = plan.against[key] = _blows(
            plan, key, numbers, shielded, target_ws, target_i, own_afraid, variants, situation
        )
    struck, on_tracks = known
    dice = _dice(own, plan)
    track = enemy.track.models, enemy.track.w
    # each blow's die on the enemy's track (`wound_track.striking`), kept per track shape
    dies = on_tracks.get(track)
    if dies is None:
        dies = on_tracks[track] = [[striking(blow, *track) for blow in group] for group in struck]
    return plan, struck, dice, dies, target


def _strike(
    plan: list[list[_Fighter]],
    numbers: _Target,
    shielded: bool,
    target_ws: int,
    target_i: int,
    afraid: bool,
    variants: Variants,
    situation: Situation,
) -> list[_Struck]:
    """Each fighter's blow on the enemy (§6.3 to hit, `blows` the rest), per model group."""
    afraid_ws_one = afraid and variants.fear_sets_ws_one
    sixes = afraid and not variants.fear_sets_ws_one and situation.round == 1
    out: list[_Struck] = []
    for fighters in plan:
        group: _Struck = []
        for f in fighters:
            hit = melee_hit(1 if afraid_ws_one else f.ws, target_ws, f.to_hit_bonus)
            if sixes:
                hit = sixes_only(hit)
            if f.hatred or (f.asf_reroll and f.initiative > target_i):
                hit = reroll_misses(hit)
            blow = resolve_blow(
                hit,
                numbers,
                f.strength,
                f.ap,
                f.damage,
                True,
                shielded,
                f.no_armour_save,
                f.flaming,
                f.poisoned,
                f.killing_blow,
                variants,
                f.magic,
                f.ethereal,
            )
            group.append((f, blow))
        out.append(group)
    return out


def _special_hits(
    side: int, k: int, model: Model, own: Side, target: Model, situation: Situation, variants: Variants
) -> list[Striker]:
    """Impact hits of a charging chariot (§8.7: D6 at its S, +1 with scythed wheels; RU #24)
    and, RU only, a breath weapon in close combat (RU #1: 2D6 automatic hits at its S)."""
    out: list[Striker] = []
    impact = model.rules.get("impact hits")
    if impact is not None and own.charging and situation.round == 1:
        count = list(dice_pmf(impact or "D6"))
        if model.has("scythed wheels"):
            count = [0.0, *count]
        blow = _blow_against(
            automatic_hit(),
            target,
            strength=min(10, model.s or 0),
            ap=0,
            weapon=None,
            model=model,
            melee=True,
            variants=variants,
        )
        out.append(
            Striker(
                side=side,
                name="Impact hits",
                model=model.name,
                group=k,
                per_model=0,
                tier=IMPACT,
                initiative=0,
                blow=blow,
                random_count=tuple(count),
            )
        )
    breath = model.rules.get("breath weapon")
    if breath is not None and variants.breath_in_combat and situation.breath_weapon and side == ATTACKER:
        strength = int(breath) if breath.isdigit() else (model.s or 0)
        blow = _blow_against(
            automatic_hit(),
            target,
            strength=strength,
            ap=0,
            weapon=None,
            model=model,
            melee=True,
            variants=variants,
        )
        tier = _tier(model, None, situation=situation, charging=own.charging, variants=variants)
        out.append(
            Striker(
                side=side,
                name="Breath weapon",
                model=model.name,
                group=k,
                per_model=0,
                tier=tier,
                initiative=model.i or 0,
                blow=blow,
                random_count=dice_pmf("2D6"),
            )
        )
    return out


def _bs_modifier(model: Model, weapon: Weapon, defender: Unit, situation: Situation) -> int:
    """§5.4, cumulative: +1 large target; −1 moved (not thrown; RU Quick to Fire / Light
    Cavalry ignore it), −1 stand and shoot, −1 long range (not thrown), −1 skirmishers or a lone
    foot character (RU Sniper ignores it), −1 soft / −2 hard cover, −1 multiple shots."""
    thrown = weapon.kind == "thrown"
    mod = int(defender.has("large target"))
    if situation.moved and not thrown and not (model.has("quick to fire") or model.has("light cavalry")):
        mod -= 1
    mod -= int(situation.stand_and_shoot)
    if situation.range_inches * 2 > weapon.range and not thrown:
        mod -= 1
    lone = (
        sum(m.count for m in defender.models) == 1 and defender.target.character and defender.target.on_foot
    )
    if (defender.has("skirmishers") or lone) and not model.has("sniper"):
        mod -= 1
    mod -= {"none": 0, "soft": 1, "hard": 2}[situation.cover]
    mod -= int(weapon.shots > 1)
    return mod


def _missile_weapon(model: Model, situation: Situation) -> Weapon | None:
    """The first missile weapon in range that may fire (§5.1; move-or-fire not after moving, §12.3)."""
    for weapon in model.weapons:
        if weapon.melee or weapon.range < situation.range_inches:
            continue
        if situation.moved and weapon.kind == "move_or_fire":
            continue
        return weapon
    return None


def shooting_strikers(own: Side, enemy: Side, situation: Situation, variants: Variants) -> list[Striker]:
    """Every batch of shots a unit fires (§5): one missile weapon per model (§5.1)."""
    target = enemy.unit.target
    out: list[Striker] = []
    for k, model in enumerate(own.unit.models):
        weapon = _missile_weapon(model, situation)
        if weapon is None:
            continue
        strength = weapon.strength if weapon.strength is not None else (model.s or 0) + weapon.strength_bonus
        strength = min(10, strength + model.item_effects.get("strength", 0))
        if weapon.kind == "spell":
            hit, count = automatic_hit(), dice_pmf(weapon.hits)
        else:
            if not model.bs:
                continue
            hit, count = shooting_hit(model.bs + _bs_modifier(model, weapon, enemy.unit, situation)), None
        blow = _blow_against(
            hit,
            target,
            strength=strength,
            ap=weapon.armour_piercing,
            weapon=weapon,
            model=model,
            melee=False,
            variants=variants,
        )
        level = enemy.unit.target.rules.get("magic resistance", "")
        negated = (
            min(1.0, int(level) / 4)
            if weapon.kind == "spell" and variants.magic_resistance_d20 and level.isdigit()
            else 0.0
        )
        out.append(
            Striker(
                side=ATTACKER,
                name=weapon.name,
                model=model.name,
                group=k,
                per_model=weapon.shots,
                tier=NORMAL,
                initiative=0,
                blow=blow,
                melee=False,
                random_count=count,
                negated=negated,
            )
        )
    return out


def _apply(
    dist: Array | None,
    striker: Striker,
    sides: Sequence[Side],
    tally: bool = True,
    untouched: bool | None = None,
    start: bool = False,
    alone: bool = False,
) -> Array:
    """One striker's dice on the joint distribution (rows: attacker states, columns: defender's).
    `tally`: also count the striker's expected dice and kills (the per-weapon figures of a full
    result; a list job's matrix cell has no use for them, and the table is the same without).
    `start`: `dist` is the round's first table (certain in its first cell), nothing thrown yet;
    None: that table, still to be made (a first strike on an untouched pool writes its own).
    `alone`: the striker's own pool is untouched (its side not struck yet: one row holds mass)."""
    own, enemy = sides[striker.side], sides[1 - striker.side]
    fast = striker.dice is not None and not tally  # close combat, kept (`melee_strikers`)
    if fast:
        law, track, most = striker.law, enemy.track, striker.most
        short = track.size <= FFT_FROM_STATES
        if untouched and law is not None and law[2] and short and most <= BINOMIAL_MOST:
            # `WoundTrack.throw`'s first case written out (an independent two-outcome die on a
            # pool nothing has struck yet): each row's mass in state 0 times its dice's law
            laws = binomial_laws(law[1], table_rows(most), track.size)
            if start:  # the first row's law (times 1), the other rows' mass is 0: zeros
                order = "C" if striker.side == ATTACKER else "F"  # the layout of `dist` oriented
                hit = np.zeros((own.track.size, track.size), order=order)
                hit[0] = laws[striker.dice[0]]
                return hit if striker.side == ATTACKER else hit.T
            oriented = dist if striker.side == ATTACKER else dist.T
            hit = np.empty_like(oriented)
            np.multiply(oriented[:, :1], laws[striker.dice], out=hit)
            return hit if striker.side == ATTACKER else hit.T
    if dist is None:  # the round's first table, not made yet (`fight_round`)
        dist = np.zeros((sides[ATTACKER].track.size, sides[DEFENDER].track.size))
        dist[0, 0] = 1.0
    oriented = dist if striker.side == ATTACKER else dist.T
    if fast and alone and striker.law is not None and striker.law[2] and short:
        # `WoundTrack.throw`'s one-row case written out: the first row's dice on a pool struck
        # before (by this side), through their matrix
        n = int(striker.dice[0])
        hit = np.zeros_like(oriented)
        hit[0] = oriented[0] @ _binomial_matrix(striker.law[1], n, enemy.track.size) if n else oriented[0]
        return hit if striker.side == ATTACKER else hit.T
    if fast:
        hit = enemy.track.throw(
            oriented, striker.dice, striker.transition, striker.independent, untouched,
            striker.most, striker.law,
        )
        return hit if striker.side == ATTACKER else hit.T
    fighting = own.fighting(striker.in_ranks)[striker.group][: oriented.shape[0]]  # shooting: one row
    if tally:
        own_marginal = oriented.sum(axis=1)
        before = float(enemy.track.slain @ oriented.sum(axis=0))
    if striker.random_count is None:
        dice = fighting * striker.per_model
        if tally:
            striker.expected_dice += float(own_marginal @ dice)
        hit = enemy.track.throw(oriented, dice, striker.transition, striker.independent, untouched)
    else:
        hit = oriented.copy()
        for n in np.unique(fighting):
            if n <= 0:
                continue
            count = np.array([1.0])
            for _ in range(int(n)):
                count = np.convolve(count, striker.random_count)
            rows = fighting == n
            if tally:
                striker.expected_dice += float(own_marginal[rows].sum() * (np.arange(len(count)) @ count))
            hit = enemy.track.throw_random(hit, tuple(count), rows, striker.transition)
    if striker.negated:
        hit = striker.negated * oriented + (1 - striker.negated) * hit
        striker.expected_dice *= 1 - striker.negated
    if tally:
        striker.expected_kills += float(enemy.track.slain @ hit.sum(axis=0)) - before
    return hit if striker.side == ATTACKER else hit.T


def _run(
    dist: Array | None,
    buckets: list[list[Striker]],
    sides: Sequence[Side],
    weight: float,
    tally: bool = True,
    struck: frozenset[int] = frozenset(),
) -> Array:
    """Strike bucket by bucket; a bucket holding both sides at the same step is a roll-off
    (§6.2: equal Initiative, no previous round known): both orders, half each. `struck`: the
    sides that have thrown dice so far (the other side's pool is untouched until its enemy
    strikes, which spares the throw looking)."""
    for index, bucket in enumerate(buckets):
        sides_in = {s.side for s in bucket}
        if len(sides_in) == 2:
            first = [s for s in bucket if s.side == ATTACKER]
            second = [s for s in bucket if s.side == DEFENDER]
            rest = buckets[index + 1 :]
            one = _run(dist, [first, second, *rest], sides, weight / 2, tally, struck)
            other = _run(dist, [second, first, *rest], sides, weight / 2, tally, struck)
            return 0.5 * (one + other)
        for striker in bucket:
            kills_before, dice_before = striker.expected_kills, striker.expected_dice
            untouched, alone = striker.side not in struck, 1 - striker.side not in struck
            dist = _apply(dist, striker, sides, tally, untouched, not struck, alone)
            struck |= {striker.side}
            if tally:  # (a list job's cell counts nothing: the tallies stay 0)
                striker.expected_kills = kills_before + weight * (striker.expected_kills - kills_before)
                striker.expected_dice = dice_before + weight * (striker.expected_dice - dice_before)
    return dist


def _buckets(strikers: list[Striker]) -> list[list[Striker]]:
    """The strikers grouped by strike order (§6.2), in order; each group in the given order."""
    if len(strikers) == 2:  # most combats: one batch a side (the sort and grouping written out)
        first, second = strikers
        one, other = first.order, second.order
        if one == other:
            return [[first, second]]
        return [[first], [second]] if one < other else [[second], [first]]
    return [list(group) for _, group in groupby(sorted(strikers, key=_order), key=_order)]


def _order(striker: Striker) -> tuple[int, int]:
    return striker.order


def check_size(sides: Sequence[Side], strikers: Sequence[Striker], *, melee: bool = True) -> int:
    """Refuse inputs whose exact chain would not fit the time budget (estimates contract);
    the work it bounds otherwise: a coarse upper bound (the most dice a striker throws in any
    state, every row), kept as the engine's own limit. The cost model counts the work itself
    (`work_plan.planned`).

    A die whose effect depends on the state (Killing Blow or Multiple Wounds on multi-wound
    models) costs (W + 1) × states per die; any other batch is one convolution per distinct
    number of dice (cheap). `MAX_WORK` bounds the first kind's total. The dice are those of
    the models that fight (`Side.fighting`), not the unit's: a deep unit throws the dice of
    its front, so counting every model refused matchups that cost milliseconds."""
    for name, side in zip(("attacker", "defender"), sides, strict=True):
        if side.track.size - 1 > MAX_POOL_WOUNDS:
            raise ValueError(
                f"{name}: at most {MAX_POOL_WOUNDS} wounds in the unit's rank and file for an exact estimate"
            )
    # shooting: the attacker loses nothing, so its table is one row
    cells = (sides[ATTACKER].track.size if melee else 1) * sides[DEFENDER].track.size
    if cells > MAX_TABLE_CELLS:
        raise ValueError(
            "models: these units are too large for an exact estimate "
            f"({cells:.0e} combinations of both units' wounds; the limit is {MAX_TABLE_CELLS:.0e})"
        )
    work = 0
    # each side's first strike: a striker has been struck before it strikes when the other
    # side's first comes no later than it
    first: list[tuple[int, int] | None] = [None, None]
    for o in strikers:
        order = o.order
        if first[o.side] is None or order < first[o.side]:
            first[o.side] = order
    for s in strikers:
        own, enemy = sides[s.side], sides[1 - s.side]
        independent = (
            s.independent if s.independent is not None else bool((s.transition[:-1] == s.transition[0]).all())
        )
        dependent = s.random_count is not None or not independent
        other_first = first[1 - s.side]
        struck_before = other_first is not None and other_first <= s.order
        rows = own.track.size if struck_before else 1
        if dependent:  # only these count their dice
            fighting = own.fighting(s.in_ranks)[s.group]
            dice = (int(fighting.max()) if len(fighting) else 0) * (s.per_model or len(s.random_count or ()))
            work += dice * (enemy.track.w + 1) * rows * enemy.track.size
        else:
            work += rows * enemy.track.size * 64
    if work > MAX_WORK:
        raise ValueError(
            "models: these units are too large for an exact estimate "
            f"(about {work:.0e} steps; the limit is {MAX_WORK:.0e})"
        )
    return work


def prepare(strikers: list[Striker], sides: Sequence[Side]) -> None:
    """Each striker's die on the enemy's track (`WoundTrack.die`), where not known yet."""
    for s in strikers:
        if s.independent is None:
            s.transition, s.independent = sides[1 - s.side].track.die(s.blow)


def shoot(
    sides: Sequence[Side], situation: Situation, variants: Variants, tally: bool = True
) -> tuple[Array, list[Striker]]:
    """§5: the attacker's shots on the defender; the attacker loses nothing (one row).
    `tally`: count each striker's expected dice and kills too (`_apply`)."""
    strikers = shooting_strikers(sides[ATTACKER], sides[DEFENDER], situation, variants)
    prepare(strikers, sides)
    check_size(sides, strikers, melee=False)
    dist = np.zeros((1, sides[DEFENDER].track.size))  # the table's one row: the attacker untouched
    dist[0, 0] = 1.0
    for index, striker in enumerate(strikers):
        dist = _apply(dist, striker, sides, tally, untouched=index == 0)  # untouched until the first
    return dist, strikers


def fight_round(
    sides: Sequence[Side], situation: Situation, variants: Variants, tally: bool = True
) -> tuple[Array, list[Striker], list[Striker]]:
    """§6: one round of close combat, both sides striking in order; the joint distribution of
    wounds lost (attacker rows, defender columns) and each side's strikers (`tally`: with
    their expected dice and kills, `_apply`)."""
    mine = melee_strikers(ATTACKER, sides[ATTACKER], sides[DEFENDER], situation, variants)
    theirs = melee_strikers(DEFENDER, sides[DEFENDER], sides[ATTACKER], situation, variants)
    strikers = mine + theirs
    prepare(strikers, sides)
    check_size(sides, strikers)
    dist = _run(None, _buckets(strikers), sides, 1.0, tally)
    if dist is None:  # nobody struck
        dist = np.zeros((sides[ATTACKER].track.size, sides[DEFENDER].track.size))
        dist[0, 0] = 1.0
    return dist, mine, theirs
