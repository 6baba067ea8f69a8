"""Reading Warhammer Fantasy units (unit-format dicts) into what the dice need.

The fields are documented in the package docstring (`rules.systems.fantasy_combat`). Units
are plain dicts as the list's JSON export holds them; nothing here validates the schema
again (the product layer does) but every value is read defensively, so a missing field
means "the model lacks it" (the books' "-"), never a crash.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rules.systems.fantasy_combat.rule_names import english
from rules.systems.fantasy_combat.tables import BASES, UNIT_STRENGTH, armour_save_target

#: Close-combat weapon kinds of §12.1 and what they do to Strength:
#: (always, first round only, first round only when charging), plus two-handed and strikes-last.
MELEE_KINDS: dict[str, dict[str, Any]] = {
    "hand_weapon": {},
    "great_weapon": {"always": 2, "two_handed": True, "strikes_last": True},
    "flail": {"first_round": 2, "two_handed": True},
    "morning_star": {"first_round": 1},
    "halberd": {"always": 1, "two_handed": True},
    "spear": {"fight_in_ranks": 1},
    "cavalry_spear": {"charge": 1},
    "lance": {"charge": 2},
    "pistol": {"first_round_strength": 4, "first_round_ap": 1},
}
MISSILE_KINDS = ("missile", "thrown", "move_or_fire", "spell")
WEAPON_KINDS = (*MELEE_KINDS, *MISSILE_KINDS)

_NAME_KINDS = {
    "great weapon": "great_weapon",
    "two-handed": "great_weapon",
    "flail": "flail",
    "morning star": "morning_star",
    "halberd": "halberd",
    "lance": "lance",
    "cavalry spear": "cavalry_spear",
    "spear": "spear",
    "pistol": "pistol",
}
#: §12.1: a spear's kind depends on who carries it — "Spear (infantry)" fights in two ranks,
#: "Spear (cavalry, chariots, monster riders)" gives +1 S in the first round when charging.
#: The troop types that carry a spear as the latter (a model with a mount does too).
MOUNTED_SPEAR_TROOP_TYPES = frozenset({"cavalry", "chariot", "ridden_monster"})
_RULE = re.compile(r"^\s*(?P<name>[^()]+?)\s*(?:\((?P<value>[^)]*)\))?\s*$")


def rule_map(rules: Sequence[str] | None) -> dict[str, str]:
    """Rule strings ("Regeneration(5)", "Hatred", "Ненависть") as {English lower-case name: value or ""}."""
    parsed: dict[str, str] = {}
    for text in rules or ():
        match = _RULE.match(str(text))
        if match:
            parsed[english(match["name"])] = (match["value"] or "").strip()
    return parsed


def dice_pmf(value: Any) -> tuple[float, ...]:
    """A number or "D3", "D6", "2D6", "D6+1" as P(value = k) for k = 0, 1, … (exact k/6^n)."""
    if value is None or value == "":
        return (0.0, 1.0)
    if isinstance(value, int | float):
        pmf = [0.0] * (int(value) + 1)
        pmf[int(value)] = 1.0
        return tuple(pmf)
    match = re.fullmatch(r"\s*(\d*)\s*[Dd]\s*(3|6)\s*(?:\+\s*(\d+))?\s*", str(value))
    if not match:
        return dice_pmf(int(value))
    dice, sides, plus = int(match[1] or 1), int(match[2]), int(match[3] or 0)
    face = [0.0] + [1.0 / sides] * sides
    pmf = [1.0]
    for _ in range(dice):
        out = [0.0] * (len(pmf) + sides)
        for i, p in enumerate(pmf):
            for j, q in enumerate(face):
                out[i + j] += p * q
        pmf = out
    return tuple([0.0] * plus + pmf)


@dataclass(frozen=True)
class Weapon:
    """One weapon as the attack sequence reads it (§12)."""

    name: str
    range: int
    kind: str
    strength: int | None  # a fixed Strength (missiles), or None: the user's S
    strength_bonus: int  # a static "+N"
    armour_piercing: int
    multiple_wounds: tuple[float, ...]  # P(wounds per unsaved hit = k)
    shots: int
    no_armour_save: bool
    flaming: bool
    poisoned: bool
    killing_blow: bool
    magic: bool
    hits: str | int | None = None  # a spell's automatic hits ("D6")

    @property
    def melee(self) -> bool:
        return self.range == 0

    @property
    def traits(self) -> dict[str, Any]:
        return MELEE_KINDS.get(self.kind, {})


@dataclass(frozen=True)
class Model:
    """One model group of a unit: its characteristics, kit, rules and weapons."""

    name: str
    count: int
    points: float
    ws: int | None
    bs: int | None
    s: int | None
    t: int | None
    w: int | None
    i: int | None
    a: int | None
    ld: int | None
    save: int | None  # the armour save from kit, or as given
    save_given: bool
    shield: bool
    ward: int | None
    regeneration: int | None
    troop_type: str
    character: bool
    rules: dict[str, str]
    weapons: tuple[Weapon, ...]
    mount: Model | None = None
    unit_strength: int = 1
    item_effects: dict[str, int] = field(default_factory=dict)
    base: tuple[int, int] = (20, 20)  # (frontage, depth) in mm, §6.2 who fights

    def has(self, rule: str) -> bool:
        return rule.lower() in self.rules

    @property
    def body(self) -> bool:
        """Can be hit and slain: has Toughness and Wounds (a chariot's crew row has neither)."""
        return self.t is not None and self.w is not None and self.w > 0

    @property
    def on_foot(self) -> bool:
        return self.troop_type in ("infantry", "character", "swarm", "monstrous") and self.mount is None

    @property
    def man_sized(self) -> bool:
        """Killing Blow's targets (§8.2): man-sized enemies on foot or mounted."""
        return self.troop_type in ("infantry", "character", "cavalry")


#: Magic items (docs/rules/whfb6.md §14) the engine understands by name: name -> effects.
ITEM_EFFECTS: dict[str, dict[str, int]] = {
    "sword of striking": {"to_hit": 1},
    "sword of battle": {"attacks": 1},
    "sword of might": {"strength": 1},
    "biting blade": {"armour_piercing": 1},
    "talisman of protection": {"ward": 6},
    "war banner": {"combat_result": 1},
}


def _int(value: Any) -> int | None:
    return None if value is None or value == "-" else int(value)


def _weapon(data: Mapping[str, Any], rules: dict[str, str], *, mounted: bool = False) -> Weapon:
    """One weapon; its kind is given (`kind`) or read from its name, and a spear's kind is then
    the carrier's (§12.1): a spear of a mounted model is a cavalry spear, whatever its name."""
    name = str(data.get("name", "Weapon"))
    weapon_range = int(data.get("range") or 0)
    kind = data.get("kind")
    if kind is None:
        lowered = name.lower()
        kind = next((k for word, k in _NAME_KINDS.items() if word in lowered), None)
        if kind is None or (weapon_range > 0 and kind in MELEE_KINDS and kind != "pistol"):
            kind = "hand_weapon" if weapon_range == 0 else "missile"
    own = rule_map(data.get("rules"))
    if "fight in ranks" in own and kind == "hand_weapon":
        kind = "spear"
    if kind == "spear" and mounted:
        kind = "cavalry_spear"
    strength = data.get("strength", "user")
    fixed, bonus = None, 0
    if isinstance(strength, int | float):
        fixed = int(strength)
    elif isinstance(strength, str) and strength.startswith("+"):
        bonus = int(strength[1:])
    elif kind in MELEE_KINDS:
        bonus = MELEE_KINDS[kind].get("always", 0)
    both = {**rules, **own}
    mw = data.get("multiple_wounds", own.get("multiple wounds") or None)
    return Weapon(
        name=name,
        range=weapon_range,
        kind=str(kind),
        strength=fixed,
        strength_bonus=bonus,
        armour_piercing=int(data.get("armour_piercing", 1 if "armour piercing" in both else 0)),
        multiple_wounds=dice_pmf(mw) if mw else (0.0, 1.0),
        shots=int(data.get("shots", own.get("multiple shots") or 1)),
        no_armour_save=bool(data.get("no_armour_save", "no armour save" in own)),
        flaming=bool(data.get("flaming", "flaming attacks" in both)),
        poisoned=bool(data.get("poisoned", "poisoned attacks" in both)),
        killing_blow=bool(data.get("killing_blow", "killing blow" in both)),
        magic=bool(data.get("magic", False)) or kind == "spell",
        hits=data.get("hits"),
    )


def _unit_strength(data: Mapping[str, Any], troop_type: str, wounds: int | None, mounted: bool) -> int:
    """§3.1: by troop type; monsters their starting W; ridden monsters 1 + W; a mounted
    character counts as cavalry."""
    if data.get("unit_strength") is not None:
        return int(data["unit_strength"])
    per_type = UNIT_STRENGTH.get(troop_type, 1)
    if per_type is None:
        return (wounds or 1) + (1 if troop_type == "ridden_monster" else 0)
    if troop_type == "character" and mounted:
        return 2
    return per_type


def _base(data: Mapping[str, Any], troop_type: str, mounted: bool) -> tuple[int, int]:
    """`base`: "25x50", [25, 50] or a number (square), in mm; else by troop type (`tables.BASES`)."""
    given = data.get("base")
    if given is None:
        return BASES["cavalry"] if mounted and troop_type in ("character", "infantry") else BASES.get(
            troop_type, BASES["infantry"]
        )
    if isinstance(given, int | float) and not isinstance(given, bool):
        values = [given, given]
    elif isinstance(given, str):
        values = re.split(r"\s*[x×*]\s*", given.strip().lower().removesuffix("mm").strip())
    else:
        values = list(given) if isinstance(given, list | tuple) else []
    if len(values) != 2:
        raise ValueError(f"base: {given!r} is not a base size such as 25x50 (mm)")
    width, depth = int(values[0]), int(values[1])
    if not (1 <= width <= 500 and 1 <= depth <= 500):
        raise ValueError(f"base: {given!r} must be 1 to 500 mm each way")
    return width, depth


def read_model(data: Mapping[str, Any], *, rides: bool = False) -> Model:
    """A unit-format model dict as a `Model` (kit turned into the armour save of §7.1).
    `rides`: the model rides in a chariot or on a monster of its unit (its crew), so its
    spears are cavalry spears (§12.1)."""
    rules = rule_map(data.get("rules"))
    troop_type = str(data.get("troop_type") or "infantry")
    effects: dict[str, int] = {}
    names = {
        str(item.get("name", "")).lower() for item in data.get("items") or () if isinstance(item, Mapping)
    }
    for item in names:
        for key, value in ITEM_EFFECTS.get(item, {}).items():
            effects[key] = effects.get(key, 0) + value
    armour = data.get("armour") or (
        "heavy" if "heavy armour" in names else "light" if "light armour" in names else "none"
    )
    enchanted = "enchanted shield" in names
    shield = bool(data.get("shield", "shield" in names)) or enchanted
    mount_data = data.get("mount")
    mounted = bool(data.get("mounted", troop_type == "cavalry" or bool(mount_data)))
    barding = bool(data.get("barding", "barding" in names))
    scaly = _int(data.get("scaly_skin", rules.get("scaly skin") or None))
    given = data.get("save")
    save = (
        int(given)
        if given is not None
        else armour_save_target(
            armour=armour,
            shield=shield,
            mounted=mounted,
            barding=barding,
            enchanted_shield=enchanted,
            scaly_skin=scaly,
        )
    )
    ward = _int(data.get("ward"))
    if ward is None and "ward save" in rules:
        ward = _int(rules["ward save"].rstrip("+"))
    if "ward" in effects:
        ward = min(ward or 7, effects["ward"])
    regeneration = _int(data.get("regeneration"))
    if regeneration is None and "regeneration" in rules:
        regeneration = _int(rules["regeneration"].rstrip("+") or 4)
    wounds = _int(data.get("w"))
    mount = None
    if isinstance(mount_data, Mapping):
        mount = read_model(
            {
                "name": mount_data.get("name", "Mount"),
                "count": data.get("count", 1),
                "troop_type": "infantry",
                **mount_data,
                "save": None,
            }
        )
    return Model(
        name=str(data.get("name", "Model")),
        count=int(data.get("count", 1)),
        points=float(data.get("points") or 0),
        ws=_int(data.get("ws")),
        bs=_int(data.get("bs")),
        s=_int(data.get("s")),
        t=_int(data.get("t")),
        w=wounds,
        i=_int(data.get("i")),
        a=_int(data.get("a")),
        ld=_int(data.get("ld")),
        save=save,
        save_given=given is not None,
        shield=shield,
        ward=ward,
        regeneration=regeneration,
        troop_type=troop_type,
        character=bool(data.get("character", False)),
        rules=rules,
        weapons=tuple(
            _weapon(w, rules, mounted=rides or mounted or troop_type in MOUNTED_SPEAR_TROOP_TYPES)
            for w in data.get("weapons") or ()
            if isinstance(w, Mapping)
        ),
        mount=mount,
        unit_strength=_unit_strength(data, troop_type, wounds, mounted),
        item_effects=effects,
        base=_base(data, troop_type, mounted),
    )


@dataclass(frozen=True)
class Unit:
    """A unit: its name, its model groups, and the *pool* of models that attacks hit.

    The pool is the non-character model group with the most models (the rank and file)
    plus every other non-character group with the same defensive profile (T, W, saves):
    the champion, standard bearer and musician rows of a regiment. Hits land on the pool;
    characters and models of another profile in the unit are not hit (§11.3: characters in
    a unit of 5+ cannot be shot; in combat the attacker chooses, and this estimate assumes
    the rank and file). Casualties come off the largest group first (from the rear, §5.6),
    so command models die last.
    """

    name: str
    models: tuple[Model, ...]
    pool: tuple[int, ...]  # indices into models, largest group first
    #: What the engine derives from the unit and asks again in every matchup of a job (its
    #: rules, the points of its losses, its fighters per wound state), kept with it.
    _memo: dict[Any, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def target(self) -> Model:
        return self.models[self.pool[0]]

    @property
    def pool_models(self) -> int:
        return sum(self.models[g].count for g in self.pool)

    @property
    def wounds_per_model(self) -> int:
        return int(self.target.w or 1)

    @property
    def pool_wounds(self) -> int:
        return self.pool_models * self.wounds_per_model

    def has(self, rule: str) -> bool:
        rules = self._memo.get("rules")
        if rules is None:
            rules = self._memo["rules"] = frozenset(r for m in self.models for r in m.rules)
        return rule.lower() in rules

    @property
    def leadership(self) -> int:
        return max((m.ld for m in self.models if m.ld is not None), default=0)

    def unit_strength(self, pool_alive: int) -> int:
        others = sum(m.count * m.unit_strength for k, m in enumerate(self.models) if k not in self.pool)
        return others + pool_alive * self.target.unit_strength

    def points_of_losses(self, killed: int) -> float:
        """Points of the first `killed` pool models removed (rank and file first)."""
        total, left = 0.0, killed
        for g in self.pool:
            take = min(left, self.models[g].count)
            total += take * self.models[g].points
            left -= take
        return total

    def loss_points(self) -> np.ndarray:
        """`points_of_losses(k)` for k = 0 … the pool's models, read-only (kept)."""
        known = self._memo.get("loss_points")
        if known is None:
            per_model = [self.models[g].points for g in self.pool for _ in range(self.models[g].count)]
            known = self._memo["loss_points"] = np.concatenate([[0.0], np.cumsum(per_model)])
            known.setflags(write=False)
        return known

    @property
    def points(self) -> float:
        known = self._memo.get("points")
        if known is None:  # (kept: a job asks in every matchup)
            known = self._memo["points"] = sum(m.count * m.points for m in self.models)
        return known


def _defence_key(model: Model) -> tuple:
    return (model.t, model.w, model.save, model.ward, model.regeneration, model.troop_type, model.ws)


def read_unit(data: Mapping[str, Any]) -> Unit:
    """A unit-format unit dict as a `Unit`; ValueError names the problem if nothing can be hit."""
    models_data = [m for m in data.get("models") or () if isinstance(m, Mapping)]
    # §12.1: a chariot's or a ridden monster's crew carry spears as riders do.
    rides = any(str(m.get("troop_type") or "") in ("chariot", "ridden_monster") for m in models_data)
    read = []
    for index, model in enumerate(models_data):
        try:
            read.append(read_model(model, rides=rides))
        except (TypeError, ValueError, KeyError) as exc:
            raise ValueError(f"models[{index}]: {exc}") from None
    models = tuple(read)
    if any(m.count < 1 for m in models):
        raise ValueError("models: every model row needs a count of at least 1")
    if not models:
        raise ValueError("models: a unit needs at least one model")
    bodies = [k for k, m in enumerate(models) if m.body and not m.character] or [
        k for k, m in enumerate(models) if m.body
    ]
    if not bodies:
        raise ValueError("models: no model has Toughness and Wounds, so nothing can be hit")
    main = max(bodies, key=lambda k: (models[k].count, -k))
    key = _defence_key(models[main])
    pool = [main] + [k for k in bodies if k != main and _defence_key(models[k]) == key]
    pool.sort(key=lambda k: (-models[k].count, k))
    return Unit(name=str(data.get("name", "Unit")), models=models, pool=tuple(pool))
