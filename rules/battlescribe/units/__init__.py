"""BattleScribe entries turned into units of our format, through a system's profile schema and
its BattleScribe mapping. The entries are the roster engine's (`engine.model.Option`, the one
model of BattleScribe data); `data.ImportData` answers what the import asks of them beyond the
engine (names, ids, paths, profiles and rules, a catalogue's root entries). `mapper.map_documents`
is the entry point; each module holds one part of a unit: `profiles` (model and weapon
characteristics), `abilities`, `sizes` (models and unit sizes), `options`, `costs` (whole points
and the system's other unit costs), `smallest` (the unit's smallest selection in the engine's
roster), `values` (characteristic values and slugs), `limits` (the bounds of one unit's
mapping)."""

from rules.battlescribe.units.mapper import Mapped, UnitMapper, map_documents
from rules.battlescribe.units.values import convert, field_names, slug

__all__ = ["Mapped", "UnitMapper", "convert", "field_names", "map_documents", "slug"]
