"""The situation of a 40k attack (docs/rules/wh40k9.md §3, §4, §12.3 "Inputs"), as the JSON Schema the
product layer builds its form, API body and command options from (the estimates contract
in `rules.systems.registry`). Half range is derived from `range_inches` per weapon.

The modifiers players set on every query (re-rolls, ±1 to wound, Feel No Pain, cover) come
on top of the units' own abilities: `situation_abilities` turns them into the same structured
abilities a datasheet carries, so they combine by the same rules (the better re-roll, the
±1 cap, the better Feel No Pain). **Decision** on cover: the summary has no cover rules
(docs/rules/wh40k9.md §0); the field is the Core Book's light cover, +1 to armour saves (never to
invulnerable saves) against ranged attacks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.systems.messages import gettext_noop

_REROLL_LABELS = {"none": gettext_noop("none"), "ones": gettext_noop("1s"),
                  "failed": gettext_noop("all failed rolls")}

SITUATION_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Warhammer 40,000 situation",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "mode": {
            "type": "string", "enum": ["shooting", "melee"], "default": "shooting",
            "title": gettext_noop("Attack"),
            "x-enum-labels": {"shooting": gettext_noop("Shooting phase"),
                              "melee": gettext_noop("Fight phase")},
            "x-command-aliases": [{"flag": "--melee", "value": "melee"}],
        },
        "range_inches": {
            "type": "number", "minimum": 0, "maximum": 120, "default": 12.0,
            "title": gettext_noop("Range (inches)"),
            "description": gettext_noop("Distance to the target: which weapons reach it, and Rapid Fire "
                                        "within half range."),
            "x-command-aliases": [{"flag": "--range"}],
            "x-text": gettext_noop("at %(value)s″"), "x-text-joined": True,
            "x-text-when": {"mode": "shooting"},
        },
        "moved": {
            "type": "boolean", "default": False, "title": gettext_noop("The attacker moved this turn"),
            "description": gettext_noop("Heavy weapons of INFANTRY get −1 to hit."),
            "x-text": gettext_noop("the attacker moved"),
            "x-command-aliases": [{"flag": "--moved", "value": True}],
        },
        "advanced": {
            "type": "boolean", "default": False, "title": gettext_noop("The attacker Advanced this turn"),
            "description": gettext_noop("Only Assault weapons fire, at −1 to hit."),
            "x-text": gettext_noop("the attacker Advanced"),
            "x-command-aliases": [{"flag": "--advanced", "value": True}],
        },
        "charged": {
            "type": "boolean", "default": False, "title": gettext_noop("The attacker charged this turn"),
            "description": gettext_noop("Abilities that work on the charge (e.g. Devastating Charge)."),
            "x-text": gettext_noop("after a charge"),
            "x-command-aliases": [{"flag": "--charged", "value": True, "also": {"mode": "melee"}}],
        },
        "engaged": {
            "type": "boolean", "default": False,
            "title": gettext_noop("The attacker is within Engagement Range of an enemy"),
            "description": gettext_noop("Only Pistols fire (VEHICLE and MONSTER: all but Blast weapons)."),
            "x-text": gettext_noop("engaged"),
            "x-text-when": {"mode": "shooting"},
        },
        "weapon_profile": {
            "type": "string", "enum": ["first", "last"], "default": "first",
            "title": gettext_noop("Weapons with several profiles use"),
            "x-enum-labels": {"first": gettext_noop("the first profile (e.g. Standard)"),
                              "last": gettext_noop("the last profile (e.g. Supercharge)")},
            "x-text": gettext_noop("%(value)s"),
            "x-text-when": {"weapon_profile": "last"},
        },
        "throw_grenade": {
            "type": "boolean", "default": False, "title": gettext_noop("One model throws a grenade"),
            "description": gettext_noop("Instead of its other ranged weapons (one model per unit)."),
            "x-text": gettext_noop("a grenade thrown"),
            "x-command-aliases": [{"flag": "--grenade", "value": True}],
        },
        "hit_modifier": {
            "type": "integer", "minimum": -3, "maximum": 3, "default": 0,
            "title": gettext_noop("Other hit roll modifiers"),
            "description": gettext_noop("Auras, psychic powers, stratagems: all hit modifiers together "
                                        "are capped at ±1."),
        },
        "reroll_hits": {
            "type": "string", "enum": ["none", "ones", "failed"], "default": "none",
            "title": gettext_noop("Re-roll hit rolls"),
            "description": gettext_noop("From an aura, a stratagem or an order, on top of the units' own "
                                        "re-rolls (the better one counts; a die is re-rolled once, §6.4)."),
            "x-enum-labels": _REROLL_LABELS,
            "x-text": gettext_noop("re-roll hits: %(value)s"),
            "x-text-when": {"reroll_hits": ["ones", "failed"]},
        },
        "reroll_wounds": {
            "type": "string", "enum": ["none", "ones", "failed"], "default": "none",
            "title": gettext_noop("Re-roll wound rolls"),
            "description": gettext_noop("From an aura, a stratagem or an order, on top of the units' own "
                                        "re-rolls (the better one counts; a die is re-rolled once, §6.4)."),
            "x-enum-labels": _REROLL_LABELS,
            "x-text": gettext_noop("re-roll wounds: %(value)s"),
            "x-text-when": {"reroll_wounds": ["ones", "failed"]},
        },
        "wound_modifier": {
            "type": "integer", "minimum": -3, "maximum": 3, "default": 0,
            "title": gettext_noop("Other wound roll modifiers"),
            "description": gettext_noop("Added to the units' own wound modifiers; all together are capped "
                                        "at ±1 (§5 Step 2)."),
        },
        "defender_feel_no_pain": {
            "type": "integer", "minimum": 0, "maximum": 6, "default": 0,
            "title": gettext_noop("Defender's Feel No Pain (X+)"),
            "description": gettext_noop("0: none. Each wound the defender would lose is ignored on X+; a "
                                        "model with its own such rule uses the better one (§5 Ignoring "
                                        "wounds)."),
            "x-text": gettext_noop("defender's Feel No Pain %(value)s+"),
            "x-text-when": {"defender_feel_no_pain": [1, 2, 3, 4, 5, 6]},
        },
        "defender_below_half": {
            "type": "boolean", "default": False,
            "title": gettext_noop("The defender is already below Half-strength"),
            "description": gettext_noop("Fewer than half its starting models before this attack: its "
                                        "Combat Attrition tests flee on 1–2 (§8.7)."),
            "x-text": gettext_noop("the defender below Half-strength"),
        },
        "cover": {
            "type": "boolean", "default": False, "title": gettext_noop("The target is in cover"),
            "description": gettext_noop("Shooting: +1 to the target's armour saving throws, never to "
                                        "invulnerable saves (Core Book light cover)."),
            "x-text": gettext_noop("the target in cover"),
            "x-text-when": {"mode": "shooting"},
        },
    },
}


def situation_errors(situation: Mapping[str, Any]) -> dict[str, list[str]]:
    """Cross-field checks: a charge is a melee attack; Engagement Range and Advancing are
    about shooting here."""
    errors: dict[str, list[str]] = {}
    if situation.get("charged") and situation.get("mode") != "melee":
        errors["charged"] = [gettext_noop("A charge is a melee attack: choose the Fight phase.")]
    if situation.get("defender_feel_no_pain") == 1:
        errors["defender_feel_no_pain"] = [gettext_noop("Feel No Pain is 2+ to 6+, or 0 for none.")]
    if situation.get("cover") and situation.get("mode") == "melee":
        errors["cover"] = [gettext_noop("Light cover protects against shooting only: "
                                        "choose the Shooting phase.")]
    if situation.get("engaged") and situation.get("mode") != "shooting":
        errors["engaged"] = [gettext_noop("Engagement Range limits shooting only: "
                                          "choose the Shooting phase.")]
    return errors


_DEFAULTS = {name: spec["default"] for name, spec in SITUATION_SCHEMA["properties"].items()}


def complete(situation: Mapping[str, Any]) -> dict[str, Any]:
    """The situation with every missing field at its default (the engine's own callers)."""
    full = dict(_DEFAULTS)
    unknown = [name for name in situation if name not in full]
    if unknown:
        unknown.sort()
        raise ValueError(f"unknown situation fields: {', '.join(unknown)}")
    full.update(situation)
    full["range_inches"] = float(full["range_inches"])
    return full


def situation_abilities(situation: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The attacker's situational re-rolls and wound modifier as structured abilities
    (`abilities` module), to add to each weapon batch's own."""
    out: list[dict[str, Any]] = []
    for roll_name, key in (("hit", "reroll_hits"), ("wound", "reroll_wounds")):
        if situation.get(key, "none") != "none":
            out.append({"type": "reroll", "roll": roll_name, "which": situation[key]})
    if situation.get("wound_modifier"):
        out.append({"type": "modifier", "roll": "wound", "value": int(situation["wound_modifier"])})
    return out
