"""How BattleScribe's Warhammer 40,000 9th-edition data (BSData/wh40k-9e) maps onto this system.

Datasheets are "Unit" profiles (M WS BS S T W A Ld Save), weapons "Weapon" profiles (Range Type
S AP D Abilities); "Abilities" profiles stay text. Points are the "pts" cost type; " PL" is the
Power Rating, reported at the minimum size and at each size where it changes. Ability texts in
the common wordings are read into the model's `invuln` and structured `abilities`
(`read_ability`); the rest stays text.
"""

import re
from typing import Any

from rules.battlescribe.mapping import BattleScribeMapping, UnitCost

MAPPING = BattleScribeMapping(
    editions=("wh40k-9",),
    model_profile_types=("Unit",),
    weapon_profile_types=("Weapon",),
    characteristics={
        "M": "m",
        "WS": "ws",
        "BS": "bs",
        "S": "s",
        "T": "t",
        "W": "w",
        "A": "a",
        "Ld": "ld",
        "Save": "sv",
        "Sv": "sv",
    },
    weapon_characteristics={
        "Range": "range",
        "Type": "type",
        "S": "s",
        "AP": "ap",
        "D": "d",
        "Abilities": "abilities",
    },
    points_cost_types=("pts", "points"),
    unit_costs=(
        UnitCost(
            names=("PL", "Power", "Power Level", "Power Rating"),
            field="power_rating",
            key="power",
            steps_field="power_rating_rules",
            steps_key="power",
            steps_models_key="min_models",
        ),
    ),
    varying_tables=("Wound Track",),
    # The "Warlord" upgrade of BSData/wh40k-9e (and its category "Warlord") makes its model the
    # army's Warlord, the rule the army check counts (`points.wh40k9.battle_size`).
    rule_selections=("Warlord",),
    # The roster's "Battle Size" configuration ("3. Strike Force (101-200 Total PL / …)") is the
    # list's battle size (`points.wh40k9.battle_size`): one setting, decided by the roster.
    roster_settings={
        "battle_size": {
            "combat patrol": "combat_patrol",
            "incursion": "incursion",
            "strike force": "strike_force",
            "onslaught": "onslaught",
        }
    },
    table_healthiest="highest",
    dash_values={"a": 0},
    ability_reader=lambda name, text: read_ability(name, text),
)


_INVULN = re.compile(r"\b([2-6])\+\s*invulnerable save\b", re.IGNORECASE)
_FNP = re.compile(
    r"each time (?:this model|a model (?:in|from) this unit) would lose a wound, roll (?:a|one) D6[:;,]?"
    r"\s*on an? ([2-6])\+,? that wound is not lost",
    re.IGNORECASE,
)
_OWN_ATTACK = re.compile(
    r"each time (?:this model|a model in this unit) makes an? (?:(melee|ranged) )?attack", re.I
)
_REROLL = re.compile(r"re-roll (?:a|the) (hit|wound) roll(?: of 1| of one)?", re.IGNORECASE)
_PLUS_ONE = re.compile(r"add 1 to (?:that attack's|the|its) (hit|wound) roll", re.IGNORECASE)
_OTHERS = re.compile(r"\bwithin\b|\bfriendly\b|\benemy unit\b|\baura\b|mortal wound", re.IGNORECASE)


def read_ability(name: str, text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(model fields, structured abilities) a datasheet ability's text says about the model
    itself, in the common wordings of BSData/wh40k-9e (docs/rules/wh40k9.md §12.1): "a 4+ invulnerable
    save" (`invuln`), "each time this model would lose a wound, roll one D6: on a 5+ that
    wound is not lost" (`feel_no_pain`), "each time this model makes an attack, re-roll a hit
    roll of 1" (`reroll`) or "add 1 to that attack's hit roll" (`modifier`). An ability that
    names other units ("friendly units within 6\""), mortal wounds only or conditions the
    estimate cannot know is not read: it stays text."""
    fields: dict[str, Any] = {}
    found: list[dict[str, Any]] = []
    invuln = _INVULN.search(text)
    if invuln and not re.search(r"\bwithin\b|\bfriendly\b", text, re.IGNORECASE):
        fields["invuln"] = int(invuln.group(1))
    fnp = _FNP.search(text)
    if fnp:
        found.append({"type": "feel_no_pain", "target": int(fnp.group(1)), "name": name})
    if (
        _OWN_ATTACK.search(text)
        and not _OTHERS.search(text)
        and not re.search(r"\bif\b|\bwhile\b", text, re.I)
    ):
        kind = _OWN_ATTACK.search(text).group(1)
        when = {"melee": "melee", "ranged": "shooting"}.get((kind or "").lower())
        for match in _REROLL.finditer(text):
            which = "ones" if re.search(r"of (?:1|one)", match.group(0), re.I) else "failed"
            found.append({"type": "reroll", "roll": match.group(1).lower(), "which": which, "name": name})
        for match in _PLUS_ONE.finditer(text):
            found.append({"type": "modifier", "roll": match.group(1).lower(), "value": 1, "name": name})
        if when:
            for ability in found:
                if ability["type"] in ("reroll", "modifier"):
                    ability["when"] = when
    return fields, found
