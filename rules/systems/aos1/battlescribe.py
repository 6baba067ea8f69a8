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
(`sized_by_name`, `rules.battlescribe.to_units.UnitMapper.size_by_name`). A unit without such
a selection is one model (heroes, monsters, war machines).
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
    # Monsters' tables are typed "Damage Table", "<Name> Wound Table" or "<Name> Wounds";
    # war machines' "Crew Table" or 'Crew within 1"' (the war machine's Move by crew left).
    varying_tables=("Damage Table", "Wound Table", "Wounds", "Crew Table", "Crew within"),
    crew_tables=("Crew Table", "Crew within"),
    random_fields=("move",),
    sized_by_name=True,
)
