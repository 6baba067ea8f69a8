"""How BattleScribe's Age of Sigmar data of the 1st-edition era (BSData, tag v1.50.9) maps
onto this system's warscrolls.

Warscrolls are "Unit" profiles (Move, Wounds, Save, Bravery), weapons "Weapon" profiles (Type,
Range, Attacks, To Hit, To Wound, Rend, Damage). A monster's Move written "*" ("see the damage
table") reads the first row of its "Damage Table"/"Wound Table" profiles (no wounds suffered);
a random Move ("2D6\"") is its average, the written value kept as text. Points are "pts"
(the General's Handbook's, 0 where the data has none).
"""

from rules.battlescribe.mapping import BattleScribeMapping

MAPPING = BattleScribeMapping(
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
    varying_tables=("Damage Table", "Wound Table"),
    random_fields=("move",),
)
