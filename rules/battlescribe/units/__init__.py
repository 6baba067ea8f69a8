"""BattleScribe entries turned into units of our format, through a system's profile schema and
its BattleScribe mapping. `mapper.map_documents` is the entry point; each module holds one part
of a unit: `profiles` (model and weapon characteristics), `abilities`, `sizes` (models and unit
sizes), `options`, `costs` (whole points and the system's other unit costs), `values`
(characteristic values and slugs), `limits` (the bounds of one unit's mapping)."""

from rules.battlescribe.units.mapper import Mapped, UnitMapper, map_documents
from rules.battlescribe.units.values import convert, field_names, slug

__all__ = ["Mapped", "UnitMapper", "convert", "field_names", "map_documents", "slug"]
