"""Hypothesis strategies for valid OPR units (points.opr.unit dataclasses)."""

from __future__ import annotations

from hypothesis import strategies as st

from points.opr import tables
from points.opr.rule_names import AURA_GRANTABLE, ORDER_GRANTABLE
from points.opr.unit import Aura, Model, Rule, Unit, Weapon

#: Model rules whose price can be negative (§6: Slow, Immobile, Clumsy, Instinct per toughness).
NEGATIVE_COST_RULES = frozenset({"Slow", "Immobile", "Clumsy", "Instinct"})

PLAIN_MODEL_RULES = (
    "Fearless",
    "Reckless",
    "Delicate",
    "Resistant",
    "Regeneration",
    "Spearhead",
    "Furious",
    "Relentless",
    "Cautious",
    "Vengeance",
    "Ambush",
    "Scout",
    "Fast",
    "Skirmisher",
    "Agile",
    "Flying",
    "Aircraft",
    "Counter",
    "Stealth",
    "Entrenched",
    "Shield",
    "Guardian",
    "Hero",
    "Relay",
    "Mending",
    "Radio",
    "Good Shot",
    "Slow",
    "Immobile",
    "Clumsy",
    "Instinct",
)
VALUE_MODEL_RULES = {"Transport": (1, 20), "Fear": (1, 5), "Caster": (1, 6)}
PLAIN_WEAPON_RULES = (
    "Rending",
    "Lance",
    "Lock-On",
    "Reliable",
    "No Cover",
    "Corrosive",
    "Indirect",
    "Limited",
    "Overcharge",
    "Precise",
    "Assault",
    "Brutal",
)
VALUE_WEAPON_RULES = {"Blast": (1, 9), "Deadly": (1, 9)}


def _rule_set(plain: tuple[str, ...], valued: dict[str, tuple[int, int]], exclude: frozenset[str]):
    names = st.lists(st.sampled_from([n for n in plain if n not in exclude]), unique=True, max_size=4)
    values = st.dictionaries(st.sampled_from(sorted(valued)), st.integers(1, 9), max_size=len(valued)).map(
        lambda d: {k: max(valued[k][0], min(v, valued[k][1])) for k, v in d.items()}
    )
    return st.tuples(names, values).map(
        lambda nv: tuple(Rule(n) for n in nv[0]) + tuple(Rule(k, v) for k, v in sorted(nv[1].items()))
    )


@st.composite
def weapons(draw, melee: bool | None = None) -> Weapon:
    is_melee = draw(st.booleans()) if melee is None else melee
    rng = 0 if is_melee else draw(st.integers(1, 60))
    rule_list = draw(
        _rule_set(PLAIN_WEAPON_RULES, VALUE_WEAPON_RULES, frozenset({"Assault"} if is_melee else ()))
    )
    return Weapon(
        name=draw(st.sampled_from(["Rifle", "Axe", "Gun", "Claw"])),
        range=rng,
        attacks=draw(st.integers(0, 6)),
        ap=draw(st.integers(*tables.AP_RANGE)),
        rules=rule_list,
    )


@st.composite
def models(draw, allow_negative: bool = True, weapon_strategy=None) -> Model:
    exclude = frozenset() if allow_negative else NEGATIVE_COST_RULES
    rule_list = draw(_rule_set(PLAIN_MODEL_RULES, VALUE_MODEL_RULES, exclude))
    auras = draw(
        st.lists(
            st.builds(
                Aura,
                st.sampled_from(AURA_GRANTABLE),
                st.sampled_from(["friends", "enemies"]),
                st.sampled_from(["grant", "negate"]),
                st.sampled_from(tables.AURA_RANGES),
            ),
            max_size=1,
        )
    )
    orders = draw(
        st.lists(
            st.builds(
                Aura,
                st.sampled_from(ORDER_GRANTABLE),
                st.sampled_from(["friends", "enemies"]),
                st.sampled_from(["grant", "negate"]),
                st.just(tables.ORDER_RANGE),
            ),
            max_size=1,
        )
    )
    return Model(
        name=draw(st.sampled_from(["Soldier", "Sergeant", "Heavy"])),
        count=draw(st.integers(1, 12)),
        quality=draw(st.integers(*tables.QUALITY_RANGE)),
        defence=draw(st.integers(*tables.DEFENCE_RANGE)),
        toughness=draw(st.integers(1, 18)),
        rules=rule_list,
        weapons=tuple(
            draw(st.lists(weapon_strategy if weapon_strategy is not None else weapons(), max_size=4))
        ),
        auras=tuple(auras),
        orders=tuple(orders),
    )


def units(allow_negative: bool = True, max_models: int = 3, weapon_strategy=None):
    return st.builds(
        Unit,
        st.sampled_from(["Squad", "Tank", "Hero"]),
        st.lists(models(allow_negative, weapon_strategy), min_size=1, max_size=max_models).map(tuple),
    )
