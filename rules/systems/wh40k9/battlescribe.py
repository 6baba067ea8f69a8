"""How BattleScribe's Warhammer 40,000 9th-edition data (BSData/wh40k-9e) maps onto this system.

Datasheets are "Unit" profiles (M WS BS S T W A Ld Save), weapons "Weapon" profiles (Range Type
S AP D Abilities); "Abilities" profiles stay text. Points are the "pts" cost type; " PL" is the
Power Rating, reported at the minimum size and at each size where it changes.
"""

from rules.battlescribe.mapping import BattleScribeMapping, UnitCost

MAPPING = BattleScribeMapping(
    model_profile_types=("Unit",),
    weapon_profile_types=("Weapon",),
    characteristics={
        "M": "m",
        "WS": "ws",
        "BS": "bs",
        "S": "s",
        "T": "t",
        "W": "w",
        "A": "a",
        "Ld": "ld",
        "Save": "sv",
        "Sv": "sv",
    },
    weapon_characteristics={
        "Range": "range",
        "Type": "type",
        "S": "s",
        "AP": "ap",
        "D": "d",
        "Abilities": "abilities",
    },
    points_cost_types=("pts", "points"),
    unit_costs=(
        UnitCost(
            names=("PL", "Power", "Power Level", "Power Rating"),
            field="power_rating",
            key="power",
            steps_field="power_rating_rules",
            steps_key="power",
        ),
    ),
    varying_tables=("Wound Track",),
    table_healthiest="highest",
    dash_values={"a": 0},
)
