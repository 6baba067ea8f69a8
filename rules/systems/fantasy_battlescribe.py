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
)
