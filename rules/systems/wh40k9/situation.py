"""The situation of a 40k attack (001_40k.md §3, §4, §12.3 "Inputs"), as the JSON Schema the
product layer builds its form, API body and command options from (the estimates contract
in `rules.systems.registry`). Half range is derived from `range_inches` per weapon.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.systems.messages import gettext_noop

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
    },
}


def situation_errors(situation: Mapping[str, Any]) -> dict[str, list[str]]:
    """Cross-field checks: a charge is a melee attack; Engagement Range and Advancing are
    about shooting here."""
    errors: dict[str, list[str]] = {}
    if situation.get("charged") and situation.get("mode") != "melee":
        errors["charged"] = [gettext_noop("A charge is a melee attack: choose the Fight phase.")]
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
