"""The situation of a Warhammer Fantasy attack: what the dice cannot know (estimates contract).

`situation_schema(variants)` is the JSON Schema the product layer shows as a form and fills
defaults from; `situation_errors` are the cross-field checks; `Situation` is the complete,
typed situation the engine reads. Combat-result fields are the ones that cannot be derived
from the units (formation width, command models present, flank, high ground); everything
else (ranks after casualties, Unit Strength, fear, Ld) is derived from the units.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from rules.systems.fantasy_combat.variants import Variants


def _(message: str) -> str:
    """gettext_noop without Django (the dice maths stays pure Python): marks a label for
    makemessages; the product layer translates it on display."""
    return message


def _bool(title: str, description: str = "") -> dict[str, Any]:
    return {
        "type": "boolean",
        "title": title,
        "default": False,
        **({"description": description} if description else {}),
    }


def _int(title: str, default: int, minimum: int, maximum: int, description: str = "") -> dict[str, Any]:
    prop = {"type": "integer", "title": title, "default": default, "minimum": minimum, "maximum": maximum}
    return {**prop, **({"description": description} if description else {})}


def _enum(title: str, values: dict[str, str], default: str, description: str = "") -> dict[str, Any]:
    prop = {
        "type": "string",
        "title": title,
        "enum": list(values),
        "default": default,
        "x-enum-labels": values,
    }
    return {**prop, **({"description": description} if description else {})}


PROPERTIES: dict[str, dict[str, Any]] = {
    "mode": _enum(_("Attack"), {"shooting": _("Shooting"), "melee": _("Close combat")}, "melee"),
    "range_inches": _int(_("Range (inches)"), 12, 0, 120, _("Shooting: distance to the target (§5.1)")),
    "moved": _bool(_("Shooter moved"), _("−1 to hit; move-or-fire weapons cannot shoot (§5.4)")),
    "stand_and_shoot": _bool(_("Stand and shoot"), _("Shooting at a charging enemy: −1 to hit (§5.4)")),
    "cover": _enum(
        _("Target's cover"), {"none": _("None"), "soft": _("Soft (−1)"), "hard": _("Hard (−2)")}, "none"
    ),
    "charging": _bool(_("Attacker charged"), _("This turn: strikes first, charge bonuses (§6.2, §12.1)")),
    "defender_charged": _bool(_("Defender charged"), _("The defender charged the attacker this turn")),
    "round": _int(_("Combat round"), 1, 1, 10, _("First-round bonuses and Hatred apply in round 1")),
    "fighting_models": _int(
        _("Attacking models"),
        0,
        0,
        1000,
        _(
            "Close combat: the attacker's models in base contact (0: from the frontages, ranks and "
            "bases, §6.2); shooting: the models that shoot (0: all)"
        ),
    ),
    "defender_fighting_models": _int(
        _("Defending models"),
        0,
        0,
        1000,
        _("Defender's models in base contact (0: from the frontages, ranks and bases, §6.2)"),
    ),
    "attacker_width": _int(
        _("Attacker's rank width"), 5, 1, 50, _("Models per rank, for the rank bonus (§9.1)")
    ),
    "defender_width": _int(
        _("Defender's rank width"), 5, 1, 50, _("Models per rank, for the rank bonus (§9.1)")
    ),
    "attacker_standard": _bool(_("Attacker has a standard"), _("+1 combat result (§9.1)")),
    "defender_standard": _bool(_("Defender has a standard"), _("+1 combat result (§9.1)")),
    "attacker_army_standard": _bool(
        _("Attacker carries the army battle standard"),
        _(
            "+1 combat result, and its unit re-rolls a failed break test (§9.2); WHFB: one standard "
            "bonus per side (§9.1, §11.5); RU: +2 with a unit standard"
        ),
    ),
    "defender_army_standard": _bool(
        _("Defender carries the army battle standard"),
        _(
            "+1 combat result, and its unit re-rolls a failed break test (§9.2); WHFB: one standard "
            "bonus per side (§9.1, §11.5); RU: +2 with a unit standard"
        ),
    ),
    "attacker_musician": _bool(_("Attacker has a musician"), _("Wins a drawn combat by 1 (§9.1)")),
    "defender_musician": _bool(_("Defender has a musician"), _("Wins a drawn combat by 1 (§9.1)")),
    "flank": _enum(
        _("Attacker fights in the"),
        {"front": _("Front"), "flank": _("Flank (+1)"), "rear": _("Rear (+2)")},
        "front",
        _("Flank +1, rear +2 with Unit Strength 5+; the defender loses its rank bonus (§9.1)"),
    ),
    "high_ground": _enum(
        _("High ground"),
        {"none": _("Neither"), "attacker": _("Attacker"), "defender": _("Defender")},
        "none",
        _("+1 combat result (§9.1)"),
    ),
    "attacker_general_ld": _int(
        _("General's Ld for the attacker"), 0, 0, 10, _('0: no general within 12" (§9.2)')
    ),
    "defender_general_ld": _int(
        _("General's Ld for the defender"), 0, 0, 10, _('0: no general within 12" (§9.2)')
    ),
    "attacker_failed_fear": _bool(
        _("Attacker failed a fear test"),
        _("Against a fear-causing enemy: 6s to hit in round 1 (WHFB §10.3); WS 1 (RU)"),
    ),
    "defender_failed_fear": _bool(
        _("Defender failed a fear test"),
        _("Against a fear-causing enemy: 6s to hit in round 1 (WHFB §10.3); WS 1 (RU)"),
    ),
    "attacker_battle_standard": _bool(
        _("Attacker near the battle standard"), _("Re-roll a failed break test (§9.2)")
    ),
    "defender_battle_standard": _bool(
        _("Defender near the battle standard"), _("Re-roll a failed break test (§9.2)")
    ),
}

SHOOTING, MELEE = {"mode": "shooting"}, {"mode": "melee"}
#: How the product layer says each field in the situation sentence (`x-text`, `x-text-when`,
#: `x-text-joined`) and its short command-line flags (`x-command-aliases`).
WORDS: dict[str, dict[str, Any]] = {
    "mode": {
        "x-command-aliases": [
            {"flag": "--melee", "value": "melee"},
            {"flag": "--shooting", "value": "shooting"},
        ]
    },
    "range_inches": {
        "x-text": _("at %(value)s″"),
        "x-text-joined": True,
        "x-text-when": SHOOTING,
        "x-command-aliases": [{"flag": "--range"}],
    },
    "moved": {
        "x-text": _("the shooter moved"),
        "x-text-when": SHOOTING,
        "x-command-aliases": [{"flag": "--moved", "value": True}],
    },
    "stand_and_shoot": {"x-text": _("standing and shooting"), "x-text-when": SHOOTING},
    "cover": {"x-text": _("target's cover: %(value)s"), "x-text-when": SHOOTING},
    "charging": {
        "x-text": _("charging"),
        "x-text-when": MELEE,
        "x-command-aliases": [{"flag": "--charging", "value": True, "also": {"mode": "melee"}}],
    },
    "defender_charged": {"x-text": _("the defender charged"), "x-text-when": MELEE},
    "round": {"x-text": _("round %(value)s"), "x-text-when": MELEE},
    "fighting_models": {"x-text": _("attacking models: %(value)s (0: by formation)")},
    "defender_fighting_models": {
        "x-text": _("defending models: %(value)s (0: by formation)"),
        "x-text-when": MELEE,
    },
    "attacker_width": {"x-text": _("attacker %(value)s wide"), "x-text-when": MELEE},
    "defender_width": {"x-text": _("defender %(value)s wide"), "x-text-when": MELEE},
    "flank": {"x-text": _("attacker fights in the %(value)s"), "x-text-when": MELEE},
    "high_ground": {"x-text": _("high ground: %(value)s"), "x-text-when": MELEE},
    "attacker_general_ld": {"x-text": _("attacker's general Ld %(value)s"), "x-text-when": MELEE},
    "defender_general_ld": {"x-text": _("defender's general Ld %(value)s"), "x-text-when": MELEE},
    **{
        key: {"x-text-when": MELEE}
        for key in (
            "attacker_standard",
            "defender_standard",
            "attacker_army_standard",
            "defender_army_standard",
            "attacker_musician",
            "defender_musician",
            "attacker_battle_standard",
            "defender_battle_standard",
            "breath_weapon",
            "fear_auto_break",
            "attacker_failed_fear",
            "defender_failed_fear",
        )
    },
}

#: RU only (docs/rules/ru_whfb.md §4 #1): a monster may breathe in close combat, 2D6 automatic hits.
BREATH_PROPERTY = {
    "breath_weapon": _bool(_("Use the breath weapon"), _("Close combat: 2D6 automatic hits (RU #1)"))
}

#: The most combined wound states (attacker × defender) and die steps one estimate may take
#: (`combat.check_size`'s coarse bound: about 5·10⁹ a second): above this the exact chain would
#: not fit the 2 s budget, and the input is refused. A backstop for callers without the cost
#: model; on the request path the cost model's finer prediction refuses first.
MAX_WORK = 20_000_000_000
#: The engine's own limits for a caller without the cost model (which refuses first on the
#: request path): wounds of one unit's rank and file, and cells of the joint table of both
#: units' wound states (3000 × 3000 W1 models: 9 million cells, ~460 MB and ~2 s; the table
#: and the resolution's tables over it are what grows). A unit of 3000 wounds shot at, or
#: fought by a small unit, costs milliseconds: the table, not the wounds, is the limit.
MAX_POOL_WOUNDS = 20_000
MAX_TABLE_CELLS = 6_000_000


#: RU only (docs/rules/ru_whfb.md #8: Fear only sets WS 1): a table that plays the 6th-edition auto-break.
FEAR_BREAK_PROPERTY = {
    "fear_auto_break": _bool(
        _("Fear breaks outnumbered losers"),
        _("House option: beaten by a fear-causing unit with greater US breaks automatically (WHFB §10.3)"),
    )
}


def situation_schema(variants: Variants) -> dict[str, Any]:
    """The JSON Schema object of the situation for this system's variants."""
    properties = dict(PROPERTIES)
    if variants.breath_in_combat:
        properties.update(BREATH_PROPERTY)
    if not variants.fear_auto_break:
        properties.update(FEAR_BREAK_PROPERTY)
    properties = {key: {**prop, **WORDS.get(key, {})} for key, prop in properties.items()}
    return {
        "type": "object",
        "additionalProperties": False,
        "description": _(
            "Limits for an exact estimate: at most 1000 wounds in each unit's rank and file, and "
            "Killing Blow or Multiple Wounds against multi-wound models only while the exact chain "
            "stays small (the estimate names the field when it refuses)."
        ),
        "properties": properties,
    }


def situation_errors(situation: Mapping[str, Any]) -> dict[str, list[str]]:
    """Cross-field checks the schema cannot express (keys are field names)."""
    errors: dict[str, list[str]] = {}
    melee = situation.get("mode", "melee") == "melee"

    def add(key: str, message: str) -> None:
        errors.setdefault(key, []).append(message)

    if situation.get("charging") and not melee:
        add("charging", _("a charge is a close-combat attack"))
    if situation.get("defender_charged") and not melee:
        add("defender_charged", _("a charge is a close-combat attack"))
    if situation.get("charging") and situation.get("defender_charged"):
        add("defender_charged", _("only one side charged this turn"))
    if (situation.get("charging") or situation.get("defender_charged")) and int(
        situation.get("round", 1)
    ) != 1:
        add("round", _("a charge is fought in the first round of a combat"))
    if situation.get("stand_and_shoot") and melee:
        add("stand_and_shoot", _("stand and shoot is shooting"))
    if situation.get("cover", "none") != "none" and melee:
        add("cover", _("cover modifies shooting only"))
    if situation.get("breath_weapon") and not melee:
        add("breath_weapon", _("the 2D6 breath hits are the close-combat use of the breath weapon"))
    return errors


@dataclass(frozen=True)
class Situation:
    """The complete situation (defaults filled in); see `PROPERTIES` for each field."""

    mode: str = "melee"
    range_inches: int = 12
    moved: bool = False
    stand_and_shoot: bool = False
    cover: str = "none"
    charging: bool = False
    defender_charged: bool = False
    round: int = 1
    fighting_models: int = 0
    defender_fighting_models: int = 0
    attacker_width: int = 5
    defender_width: int = 5
    attacker_standard: bool = False
    defender_standard: bool = False
    attacker_army_standard: bool = False
    defender_army_standard: bool = False
    attacker_musician: bool = False
    defender_musician: bool = False
    flank: str = "front"
    high_ground: str = "none"
    attacker_general_ld: int = 0
    defender_general_ld: int = 0
    attacker_failed_fear: bool = False
    defender_failed_fear: bool = False
    attacker_battle_standard: bool = False
    defender_battle_standard: bool = False
    breath_weapon: bool = False
    fear_auto_break: bool = False

    @property
    def melee(self) -> bool:
        return self.mode == "melee"

    def as_dict(self) -> dict[str, Any]:
        """Every field by name (a copy: a job's matchups each put one in their result)."""
        return dict(_as_dict(self))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None, variants: Variants) -> Situation:
        """Validate against the schema's ranges and the cross-field checks; ValueError names
        every bad field."""
        data = dict(data or {})
        properties = situation_schema(variants)["properties"]
        problems: list[str] = [f"{key}: unknown field" for key in sorted(set(data) - set(properties))]
        values: dict[str, Any] = {}
        for key, prop in properties.items():
            value = data.get(key, prop["default"])
            if prop["type"] == "boolean" and not isinstance(value, bool):
                problems.append(f"{key}: must be true or false")
            elif prop["type"] == "integer" and (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or int(value) != value
                or not prop["minimum"] <= value <= prop["maximum"]
            ):
                problems.append(f"{key}: must be a whole number from {prop['minimum']} to {prop['maximum']}")
            elif prop["type"] == "string" and value not in prop["enum"]:
                problems.append(f"{key}: must be one of {', '.join(prop['enum'])}")
            else:
                values[key] = int(value) if prop["type"] == "integer" else value
        if not problems:
            problems += [
                f"{key}: {message}"
                for key, messages in situation_errors(values).items()
                for message in messages
            ]
        if problems:
            raise ValueError("; ".join(problems))
        return cls(**values)


@cache
def _as_dict(situation: Situation) -> dict[str, Any]:
    """`Situation.as_dict`, built once per situation (a job has one; every matchup reports it)."""
    return {f.name: getattr(situation, f.name) for f in fields(situation)}
