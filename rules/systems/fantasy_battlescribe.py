"""How community Warhammer Fantasy BattleScribe data maps onto the Warhammer Fantasy profile
(`fantasy_profile`), shared by the systems that use that profile (`whfb6`, `ru_whfb`).

The community files spell the profile three ways: Ergofarg's 6th edition "Profile" (Mv WS BS S
T W I A Ld), BSData/whfb's 7th-edition game system "Profile" (Movement, Weapon Skill, ...) and
older files "Model" (M ...). Their weapon profiles (Range, Strength, Special Rules) become
weapons; armour profiles stay text. Points are "pts"; the casting and dispel dice that
Ergofarg's files count as cost types are not costs of this system and are reported as such.
A unit's primary category ("Lords", "Heroes", "Core Units", ...) is its army slot; mundane
selections without a weapon profile (shields, light armour) are the model's items.
"""

import re
from typing import Any

from rules.battlescribe.mapping import BattleScribeMapping

MAPPING = BattleScribeMapping(
    model_profile_types=("Profile", "Model", "Unit", "Characteristics"),
    weapon_profile_types=("Weapon",),
    characteristics={
        "M": "m",
        "Mv": "m",
        "Move": "m",
        "Movement": "m",
        "WS": "ws",
        "Weapon Skill": "ws",
        "BS": "bs",
        "Ballistic Skill": "bs",
        "S": "s",
        "Strength": "s",
        "T": "t",
        "Toughness": "t",
        "W": "w",
        "Wounds": "w",
        "I": "i",
        "Initiative": "i",
        "A": "a",
        "Attacks": "a",
        "Ld": "ld",
        "Leadership": "ld",
    },
    weapon_characteristics={"Range": "range", "Strength": "strength", "S": "strength"},
    points_cost_types=("pts", "points", "pkt", "body"),
    slot_field="slot",
    ability_reader=lambda name, text: read_ability(name, text),
)

_WARD = re.compile(r"\b([2-6])\+\s*ward save\b|\bward save\s*\(([2-6])\+\)", re.IGNORECASE)
_REGENERATION = re.compile(r"^\s*regenerat(?:ion|e)\b(?:\s*\(([2-6])\+\))?", re.IGNORECASE)
_HATRED = re.compile(
    r"re-roll (?:all )?(?:failed|missed) (?:rolls )?to hit[^.]*first (?:round|turn) of (?:close )?combat",
    re.IGNORECASE,
)
#: Words that make a save or rule depend on what the estimate cannot know (who attacks, with
#: what, where): such text is not read and stays text.
_CONDITIONAL = re.compile(
    r"\bagainst\b|\bwithin\b|\bif\b|\bwhile\b|\bunless\b|\benemy\b|\bspells?\b|\bcannot\b|"
    r"\bno\b|\bre-roll successful\b|\bfirst wound\b|\bunit\b|\bfriends\b",
    re.IGNORECASE,
)


def read_ability(name: str, text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Model fields an item's or rule's text gives its bearer, in the wordings of the community
    WHFB data: "gives the wearer a 4+ ward save" / "Ward save (5+)" (`ward`), a rule named
    "Regeneration" ("Regeneration (4+)"; 4+ when the text gives none: `regeneration`) and
    "re-roll all failed to hit rolls in the first round of close combat" (the rule Hatred,
    which the combat engine applies). Text with a condition the estimate cannot know ("against
    shooting", "within 6\"", a unit-wide gift) is not read and stays text."""
    fields: dict[str, Any] = {}
    regeneration = _REGENERATION.match(name) or _REGENERATION.match(text)
    if regeneration and not _CONDITIONAL.search(text):
        fields["regeneration"] = int(regeneration.group(1) or 4)
    if _CONDITIONAL.search(text):
        return fields, []
    ward = _WARD.search(text)
    if ward:
        fields["ward"] = int(ward.group(1) or ward.group(2))
    if _HATRED.search(text):
        fields["rules"] = ["Hatred"]
    return fields, []
