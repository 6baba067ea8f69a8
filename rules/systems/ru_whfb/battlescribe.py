"""How BattleScribe data maps onto this system: the community Warhammer Fantasy mapping
(`rules.systems.fantasy_battlescribe`), the profile being the shared Warhammer Fantasy one.
The house rules are "mostly WFB 8th edition": BattleScribe data of the 8th edition is taken,
a game system of another known edition refused (`rules.battlescribe.editions`).

BSData's 8th-edition game system states the chart's percentages as category limits too (Core at
least 25 %, but Lords and Heroes at most 50 %, where the chart the system checks has 25 %): the
system's chart (`points.ru_whfb.composition`, "percentages") is the one that speaks on a list
the roster engine builds, so a broken limit is reported once, by the house rules' figure."""

from dataclasses import replace

from rules.systems.fantasy_battlescribe import MAPPING as FANTASY

MAPPING = replace(FANTASY, editions=("whfb-8",), system_point_shares=True)

__all__ = ["MAPPING"]
