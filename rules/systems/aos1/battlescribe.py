"""How BattleScribe's Age of Sigmar data of the 1st-edition era (BSData, tag v1.50.9) maps
onto this system's warscrolls.

Warscrolls are "Unit" profiles (Move, Wounds, Save, Bravery), weapons "Weapon" profiles (Type,
Range, Attacks, To Hit, To Wound, Rend, Damage). A monster's Move written "*" ("see the damage
table") reads the first row of its "Damage Table"/"Wound Table"/"<Name> Wounds" profiles (no
wounds suffered), a war machine's the row of its "Crew Table" with the most crew;
a random Move ("2D6\"") is its average, the written value kept as text. Points are "pts"
(the General's Handbook's, 0 where the data has none).

Unit sizes: the data has few model entries. A unit's models are counted in the name of the
selection that sizes it ("Bestigors" takes 1 to 3 of the upgrade "10 Bestigors"; "Gutter
Runners" 1 to 4 of the model "5 Gutter Runners"): N models per selection, the smallest unit
N x its minimum selections, growing N at a time up to N x its maximum
(`sized_by_name`, `rules.battlescribe.units.sizes.SizeReading.size_by_name`). A unit without such
a selection is one model (heroes, monsters, war machines). Every size costs what BattleScribe
charges for it: where the data makes the largest unit cheaper (Bestigors: 140 a selection, 60
off at 3, so 30 are 360; Plague Monks: 10 off each of 4 selections) the unit's add-models option
carries the price of each size (`payload.costs`). `bench/check_battlescribe_sizes.py` compares
every size of every such unit of a corpus with BattleScribe's price.
"""

import re
from typing import Any

from rules.battlescribe.mapping import BattleScribeMapping

MAPPING = BattleScribeMapping(
    editions=("aos-1",),
    model_profile_types=("Unit",),
    weapon_profile_types=("Weapon",),
    characteristics={"Move": "move", "Wounds": "wounds", "Save": "save", "Bravery": "bravery"},
    weapon_characteristics={
        "Type": "type",
        "Range": "range",
        "Attacks": "attacks",
        "To Hit": "to_hit",
        "To Wound": "to_wound",
        "Rend": "rend",
        "Damage": "damage",
    },
    points_cost_types=("pts", "points"),
    # Monsters' tables are typed "Damage Table", "<Name> Wound Table" or "<Name> Wounds";
    # war machines' "Crew Table" or 'Crew within 1"' (the war machine's Move by crew left).
    varying_tables=("Damage Table", "Wound Table", "Wounds", "Crew Table", "Crew within"),
    crew_tables=("Crew Table", "Crew within"),
    random_fields=("move",),
    sized_by_name=True,
    ability_reader=lambda name, text: read_ability(name, text),
)


#: Words that make an ability depend on what the estimate cannot know (a charge, a phase, other
#: units, a spell, a choice): such an ability is not read and stays text.
_CONDITIONAL = re.compile(
    r"\bif\b|\bwhile\b|\bwhen\b|\bwithin\b|\bfriendly\b|\benemy\b|\bspells?\b|\buntil\b|\bcharge|"
    r"\bphase\b|\bturn\b|\bgeneral\b|\bpick\b|\bselect|\binstead\b|\bunless\b|\bonce per\b|\bhero\b|"
    r"\bmonster\b|\bbattle\b|\btarget(?:s|ed|ing)?\b|\bmortal wounds? (?:on|to)\b",
    re.IGNORECASE,
)
_REROLL = re.compile(r"re-roll (failed )?(hit|wound|save) rolls( of 1)?", re.IGNORECASE)
_PLUS_ONE = re.compile(r"add 1 to (?:all |the |any )?(hit|wound|save) rolls", re.IGNORECASE)
_WARD = re.compile(
    r"(?:allocate|suffers?) (?:a|any|each) (?:unsaved )?wounds? or (?:a )?mortal wounds?[^.]*[.;,]\s*"
    r"on a (?:roll of )?([2-6])(?:\+| or (?:a )?6| or more| or higher)?[^.]*\b(?:negated|ignored)",
    re.IGNORECASE,
)
_WARD_CONDITIONS = re.compile(r"\bif\b|\bwithin\b|\bfriendly\b|\bspells?\b|\bphase\b|\buntil\b|\bgeneral\b",
                              re.IGNORECASE)


def read_ability(name: str, text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Structured abilities a warscroll ability's text gives the unit's own models, in the
    common wordings of BSData's AoS data (v1.50.9): "you can re-roll hit rolls of 1 for this
    unit" (`reroll`, `which` "ones"; "re-roll failed wound rolls": "failed"), "add 1 to hit
    rolls" (`modifier`; hit, wound and save rolls alike), and "roll a dice each time you
    allocate a wound or mortal wound to this model; on a 5+ the wound is negated" (`ward`,
    each wound or mortal wound ignored on 5+). An ability with a condition the estimate cannot
    know (a charge, a phase, other units, spells, a choice: `_CONDITIONAL`) is not read and
    stays text; the estimate then lists it as not used. Abilities that change this unit's
    attacks on one of its weapons name it: the importer then limits them to that weapon."""
    found: list[dict[str, Any]] = []
    ward = _WARD.search(text)
    if ward and not _WARD_CONDITIONS.search(text):
        found.append({"type": "ward", "target": int(ward.group(1)), "name": name})
    if not _CONDITIONAL.search(text):
        for match in _REROLL.finditer(text):
            which = "ones" if match.group(3) else "failed"
            found.append({"type": "reroll", "roll": match.group(2).lower(), "which": which, "name": name})
        for match in _PLUS_ONE.finditer(text):
            found.append({"type": "modifier", "roll": match.group(1).lower(), "value": 1, "name": name})
    return {}, found
