"""Warhammer Fantasy Battle, 6th edition (`shared/spec/systems/000_whfb6.md`, Czech digest).

Catalogue points (the digest prints points only for the ten common magic items), the
Warhammer Fantasy profile, and the army rules the digest contains (`points.whfb6`).
No attack sequence yet (`attack=None`).
"""

from points.whfb6.composition import OPTION_KEYS, validate
from rules.systems.catalogue_system import register_catalogue_system
from rules.systems.fantasy_profile import fantasy_profile_schema

SYSTEM = register_catalogue_system(
    key="whfb6",
    name="Warhammer Fantasy Battle, 6th edition",
    source_language="cs",
    description="Rules digest in Czech: profiles, tables, psychology, magic and the common magic items. "
    "It contains no army lists and no unit points.",
    profile_schema=fantasy_profile_schema(),
    validate=validate,
    structure_options=OPTION_KEYS,
)
