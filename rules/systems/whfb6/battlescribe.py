"""How BattleScribe data maps onto this system: the community Warhammer Fantasy mapping
(`rules.systems.fantasy_battlescribe`), the profile being the shared Warhammer Fantasy one."""

from rules.systems.fantasy_battlescribe import MAPPING

__all__ = ["MAPPING"]
