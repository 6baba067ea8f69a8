"""Russian Warhammer Fantasy house rules (`shared/spec/systems/004_ru.md`, chapter 7 of a fan rulebook).

Mostly WFB 8th edition with house rules. The chapter holds special rules only: no profiles,
no points, no composition limits. Catalogue points, the Warhammer Fantasy profile, and
`points.ru_whfb` for the few army rules it names. No attack sequence yet (`attack=None`).
"""

from points.ru_whfb.composition import OPTION_KEYS, validate
from rules.systems.catalogue_system import register_catalogue_system
from rules.systems.fantasy_profile import fantasy_profile_schema

SYSTEM = register_catalogue_system(
    key="ru_whfb",
    name="Warhammer Fantasy house rules (Russian)",
    source_language="ru",
    description="Chapter 7 (\u201cAdditional rules\u201d) of a Russian fan-written Warhammer Fantasy "
    "rulebook: special rules that change damage, psychology and movement. No unit profiles or points.",
    profile_schema=fantasy_profile_schema(),
    validate=validate,
    structure_options=OPTION_KEYS,
)
