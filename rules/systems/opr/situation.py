"""The situation of an OPR attack: the flags of `docs/rules/opr-combat.md`, "Inputs"."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, Literal

from rules.systems.messages import gettext_noop

Mode = Literal["shooting", "melee"]

#: Range assumed when a shooting request names none: inside every common weapon's reach
#: and close enough that Stealth (> 6") applies but Cautious (nobody within 12") cannot.
DEFAULT_RANGE_INCHES = 12.0


@dataclass(frozen=True, slots=True)
class Situation:
    """What the dice cannot know: how and from where the attacker strikes.

    - `mode`: "shooting" (ranged weapons in range) or "melee" (melee and Assault weapons);
    - `charging`: the attacker charged this activation (melee only);
    - `attacker_moved`: the attacker moved this activation (Relentless needs it not to);
    - `defender_in_cover`: the defender counts as in cover;
    - `range_inches`: distance to the defender, for weapon ranges, Stealth, Aircraft, Cautious;
    - `defender_activated`: the defender has already activated this round (Spearhead);
    - `enemies_within_12`: some *other* enemy is within 12" of the attacker (Cautious; the
      defender itself counts through `range_inches` and melee).
    - `second_stage`: also work out the defender's counter-attack (melee) and both units'
      regroup tests (`rules.systems.opr.aftermath`).
    - `defender_exhausted`: the defender is exhausted (shaken) from a failed regroup test or an
      earlier counter-attack: seed 002, "Wyczerpana": it "cannot attack", so it does not
      counter-attack a charge (the regroup tests are taken as ever).
    """

    mode: Mode = "shooting"
    charging: bool = False
    attacker_moved: bool = False
    defender_in_cover: bool = False
    range_inches: float = DEFAULT_RANGE_INCHES
    defender_activated: bool = False
    enemies_within_12: bool = False
    second_stage: bool = True
    defender_exhausted: bool = False

    def __post_init__(self) -> None:
        if self.mode not in ("shooting", "melee"):
            raise ValueError(f"mode must be 'shooting' or 'melee', not {self.mode!r}")
        if self.charging and self.mode != "melee":
            raise ValueError("a charge is a melee attack")
        if self.range_inches < 0:
            raise ValueError("range_inches must not be negative")

    @property
    def shooting(self) -> bool:
        return self.mode == "shooting"

    @property
    def melee(self) -> bool:
        return self.mode == "melee"

    @property
    def no_enemy_within_12(self) -> bool:
        """Cautious's condition: the defender is farther than 12" and nobody else is closer."""
        return self.shooting and self.range_inches > 12 and not self.enemies_within_12

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _field_names()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Situation:
        """Build from JSON; unknown keys are an error (a typo must not silently change nothing)."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown situation fields: {', '.join(unknown)}")
        values = dict(data)
        if "range_inches" in values:
            values["range_inches"] = float(values["range_inches"])
        for flag in known - {"mode", "range_inches"}:
            if flag in values and not isinstance(values[flag], bool):
                raise ValueError(f"{flag} must be true or false")
        return cls(**values)



@lru_cache(maxsize=1)
def _field_names() -> tuple[str, ...]:
    """`Situation`'s field names, read once (`dataclasses.fields` walks the class each call)."""
    return tuple(f.name for f in fields(Situation))


#: The situation as JSON Schema (the estimates contract in `rules.systems.registry`): the
#: product layer builds the form, the API body and the command options from it.
SITUATION_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "OPR situation",
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "mode": {
            "type": "string", "enum": ["shooting", "melee"], "default": "shooting",
            "title": gettext_noop("Attack"),
            "x-enum-labels": {"shooting": gettext_noop("Shooting"), "melee": gettext_noop("Melee")},
            "x-command-aliases": [{"flag": "--melee", "value": "melee"}],
        },
        "range_inches": {
            "type": "number", "minimum": 0, "maximum": 120, "default": DEFAULT_RANGE_INCHES,
            "title": gettext_noop("Range (inches)"),
            "description": gettext_noop("Distance to the target: decides which weapons reach it and "
                                        "range-dependent rules."),
            "x-command-aliases": [{"flag": "--range"}],
            "x-text": gettext_noop("at %(value)s″"), "x-text-joined": True,
            "x-text-when": {"mode": "shooting"},
        },
        "charging": {
            "type": "boolean", "default": False, "title": gettext_noop("The attacker charged (melee only)"),
            "x-text": gettext_noop("charging"),
            "x-command-aliases": [{"flag": "--charging", "value": True, "also": {"mode": "melee"}}],
        },
        "attacker_moved": {
            "type": "boolean", "default": False, "title": gettext_noop("The attacker moved this activation"),
            "x-text": gettext_noop("the attacker moved"),
            "x-command-aliases": [{"flag": "--moved", "value": True}],
        },
        "defender_in_cover": {
            "type": "boolean", "default": False, "title": gettext_noop("The defender is in cover"),
            "x-text": gettext_noop("the defender is in cover"),
            "x-command-aliases": [{"flag": "--cover", "value": True}],
        },
        "defender_activated": {
            "type": "boolean", "default": False,
            "title": gettext_noop("The defender has already activated this round"),
            "x-text": gettext_noop("the defender has activated"),
            "x-command-aliases": [{"flag": "--defender-activated", "value": True}],
        },
        "enemies_within_12": {
            "type": "boolean", "default": False,
            "title": gettext_noop("Another enemy is within 12″ of the attacker"),
            "x-text": gettext_noop("other enemies within 12″"),
            "x-command-aliases": [{"flag": "--enemies-within-12", "value": True}],
        },
        "second_stage": {
            "type": "boolean", "default": True,
            "title": gettext_noop("Counter-attack and regroup tests (second stage)"),
            "description": gettext_noop("In melee the defender strikes back; then both units take "
                                        "the regroup test: who wins the melee, who is shaken or routed."),
            "x-text": gettext_noop("with counter-attack and regroup"),
        },
        "defender_exhausted": {
            "type": "boolean", "default": False,
            "title": gettext_noop("The defender is exhausted (shaken)"),
            "description": gettext_noop("An exhausted unit cannot attack: it does not counter-attack "
                                        "a charge."),
            "x-text": gettext_noop("the defender is exhausted"),
            "x-command-aliases": [{"flag": "--defender-exhausted", "value": True}],
        },
    },
}


def situation_errors(situation: Mapping[str, Any]) -> dict[str, list[str]]:
    """Cross-field checks after the schema: a charge is a melee attack (`docs/rules/opr-combat.md`,
    Inputs)."""
    if situation.get("charging") and situation.get("mode") != "melee":
        return {"charging": [gettext_noop("A charge is a melee attack: choose melee.")]}
    return {}
