"""How BattleScribe data maps onto this system: the community Warhammer Fantasy mapping
(`rules.systems.fantasy_battlescribe`), the profile being the shared Warhammer Fantasy one.
The house rules are "mostly WFB 8th edition": BattleScribe data of the 8th edition is taken,
a game system of another known edition refused (`rules.battlescribe.editions`)."""

from dataclasses import replace

from rules.systems.fantasy_battlescribe import MAPPING as FANTASY

MAPPING = replace(FANTASY, editions=("whfb-8",))

__all__ = ["MAPPING"]
