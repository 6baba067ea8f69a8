"""How BattleScribe data maps onto this system: the community Warhammer Fantasy mapping
(`rules.systems.fantasy_battlescribe`), the profile being the shared Warhammer Fantasy one.

The game system's data (Ergofarg's WHFB 6th) sets the Lords, Core, Special and Rare limits by
the army's points limit itself, so the product's own slot chart is off on a list the roster
engine builds (it would report the same limit a second time). Its rules are 6th edition's: a
BattleScribe game system of another known edition (BSData/whfb's 7th, 8th) is refused."""

from dataclasses import replace

from rules.systems.fantasy_battlescribe import MAPPING as FANTASY

MAPPING = replace(FANTASY, data_rules=("slot_chart",), editions=("whfb-6",))

__all__ = ["MAPPING"]
