"""The catalogue import's former module name, kept for the list side's imports (`slug`) until the
one list interface rewrites them (issue 39): the import itself is `rules.battlescribe.units`."""

from rules.battlescribe.units import Mapped, UnitMapper, convert, field_names, map_documents, slug

__all__ = ["Mapped", "UnitMapper", "convert", "field_names", "map_documents", "slug"]
