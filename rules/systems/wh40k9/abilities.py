"""Abilities as data: the structured rules the attack sequence reads (docs/rules/wh40k9.md §12.1,
"Effects / modifiers model").

A model profile and a weapon (or one of its profiles) may carry `abilities`: a list whose
items are either free text (kept for people, ignored by the maths) or an object with a
`type`. A weapon's `abilities` may also still be one string (the datasheet's text). A
model profile also has `keywords` (INFANTRY, VEHICLE, MONSTER, ...). The objects:

- `reroll` {`roll`: hit/wound, `which`: ones/failed}: re-roll hit (wound) rolls of 1, or
  every failed one (§6.4); a die is re-rolled at most once.
- `modifier` {`roll`: hit/wound, `value`: −1/+1}: to the roll; all modifiers of a roll
  together are capped at ±1 (§5 Steps 1–2).
- `extra_hits` {`on`: 6, `hits`: 1}: an unmodified hit roll of `on`+ that hits scores
  `hits` additional hits ("exploding 6s").
- `mortal_wounds` {`roll`: hit/wound, `on`: 6, `amount`: 1 or "D3", `ends_attack`}: an
  unmodified roll of `on`+ that succeeds also inflicts `amount` mortal wounds; with
  `ends_attack` they replace the attack's normal damage (Devastating-style triggers).
- `extra_ap` {`on`: 6, `ap`: −1…−6}: an unmodified wound roll of `on`+ adds `ap` to AP.
- `auto_hit`: the weapon hits automatically (no hit roll, so no 6s to hit).
- `extra_attacks` {`value`: 1 or "D3", `weapon`}: on a weapon, the bearer makes `value`
  more attacks with it (the Astartes chainsword); on a model, with the named weapon (or its
  first melee weapon).
- `attacks_modifier` {`value`}: on a model, its A changes (*Devastating Charge*: +2 with
  `when`: charged).
- `feel_no_pain` {`target`: 5}: on a defending model, each wound it would lose is ignored on
  `target`+ (one such rule per wound: the best).
- `damage_reduction` {`value`: 1}: on a defending model, each attack's damage is reduced by
  `value`, to no less than 1 (mortal wounds are not).
- `self_destruct` {`on`: 1}: on a weapon, an unmodified hit roll of `on` or less (after
  re-rolls) destroys the bearer after it attacks (Supercharge).

In YAML, quote the key `"on"` (YAML 1.1 reads a bare `on` as true).

Every object may have `when`: one of `charged`, `stationary` (the unit did not move),
`half_range` (the target is within half the weapon's range), `melee`, `shooting`, or
`{"target_keyword": "VEHICLE"}`; the ability then works only in that situation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

_WHEN: dict[str, Any] = {
    "oneOf": [
        {"type": "string", "enum": ["charged", "stationary", "half_range", "melee", "shooting"]},
        {"type": "object", "required": ["target_keyword"], "additionalProperties": False,
         "properties": {"target_keyword": {"type": "string", "minLength": 1}}},
    ]
}
_DICE_OR_INT = {"oneOf": [{"type": "integer", "minimum": 0, "maximum": 20},
                          {"type": "string", "pattern": r"^[0-9]*[Dd](3|6)([+][0-9]+)?$"}]}
_ON = {"type": "integer", "minimum": 2, "maximum": 6, "default": 6}
_ROLL = {"type": "string", "enum": ["hit", "wound"]}


def _kind(name: str, required: list[str], **properties: Any) -> dict[str, Any]:
    return {"type": "object", "required": ["type", *required], "additionalProperties": False,
            "properties": {"type": {"const": name}, "when": _WHEN, "name": {"type": "string"}, **properties}}


#: One structured ability (see the table above).
ABILITY: dict[str, Any] = {
    "oneOf": [
        {"type": "string", "minLength": 1},
        _kind("reroll", ["roll", "which"], roll=_ROLL, which={"type": "string", "enum": ["ones", "failed"]}),
        _kind("modifier", ["roll", "value"], roll=_ROLL,
              value={"type": "integer", "minimum": -3, "maximum": 3}),
        _kind("extra_hits", [], on=_ON, hits={"type": "integer", "minimum": 1, "maximum": 3}),
        _kind("mortal_wounds", ["roll"], roll=_ROLL, on=_ON, amount=_DICE_OR_INT,
              ends_attack={"type": "boolean"}),
        _kind("extra_ap", ["ap"], on=_ON, ap={"type": "integer", "minimum": -6, "maximum": -1}),
        _kind("auto_hit", []),
        _kind("extra_attacks", ["value"], value=_DICE_OR_INT, weapon={"type": "string"}),
        _kind("attacks_modifier", ["value"], value={"type": "integer", "minimum": -5, "maximum": 10}),
        _kind("feel_no_pain", ["target"], target={"type": "integer", "minimum": 2, "maximum": 6}),
        _kind("damage_reduction", ["value"], value={"type": "integer", "minimum": 1, "maximum": 3}),
        _kind("self_destruct", [], on={"type": "integer", "minimum": 1, "maximum": 2}),
    ]
}
ABILITIES: dict[str, Any] = {
    "title": "Abilities",
    "description": "Rules as data (objects with a `type`: rules/systems/wh40k9/abilities.py) or free text",
    "type": ["array", "null"],
    "items": ABILITY,
}
#: A weapon's abilities: the datasheet's text as one string, or the list above.
WEAPON_ABILITIES: dict[str, Any] = {
    "title": "Abilities",
    "description": "Free text, or a list of rules as data and text",
    "oneOf": [{"type": "string"}, {**ABILITIES, "type": "array"}],
}
KEYWORDS: dict[str, Any] = {
    "title": "Keywords",
    "description": "INFANTRY, VEHICLE, MONSTER, CHARACTER, ...",
    "type": ["array", "null"],
    "items": {"type": "string", "minLength": 1, "maxLength": 60},
}


def structured(abilities: Any) -> list[Mapping[str, Any]]:
    """The objects among `abilities` (text is for people only)."""
    if not abilities or not isinstance(abilities, list):
        return []
    # `dict` first: the JSON a request carries, and a far cheaper check than the ABC's
    return [a for a in abilities if isinstance(a, (dict, Mapping)) and "type" in a]


def keywords_of(*holders: Mapping[str, Any] | None) -> frozenset[str]:
    """Upper-cased keywords of the given unit/model dicts together."""
    words: set[str] = set()
    for holder in holders:
        if holder:
            keywords = holder.get("keywords")
            if keywords:  # most models and units have none
                words.update([str(k).upper() for k in keywords])
    return frozenset(words)


def applies(ability: Mapping[str, Any], *, context: Mapping[str, Any]) -> bool:
    """Whether `ability`'s `when` holds in `context` (charged, moved, half_range, melee,
    target_keywords)."""
    when = ability.get("when")
    if when is None:
        return True
    if isinstance(when, Mapping):
        return str(when.get("target_keyword", "")).upper() in context["target_keywords"]
    if when == "charged":
        return bool(context["charged"])
    if when == "stationary":
        return not context["moved"]
    if when == "half_range":
        return bool(context["half_range"])
    if when == "melee":
        return bool(context["melee"])
    if when == "shooting":
        return not context["melee"]
    return False


def of_type(abilities: Iterable[Mapping[str, Any]], kind: str, *, context: Mapping[str, Any] | None = None
            ) -> list[Mapping[str, Any]]:
    """The abilities of one `type` that apply in `context` (all of them without a context)."""
    return [a for a in abilities
            if a.get("type") == kind and (context is None or applies(a, context=context))]
