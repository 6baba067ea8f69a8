"""Russian Warhammer Fantasy house rules (`docs/rules/ru_whfb.md`, chapter 7 of a fan rulebook).

Mostly WFB 8th edition with house rules. The chapter holds special rules only: no profiles,
no points, no composition limits. Catalogue points, the Warhammer Fantasy profile,
`points.ru_whfb` for the few army rules it names, and the attack sequence of
`rules.systems.fantasy_combat` with the Russian switches on (`variants.RU_WHFB`); the core
tables the chapter does not print are WHFB's (`tables.RU_TABLES_IN_SOURCE`).

Decisions where the spec leaves a case open (who fights, bases, a Stubborn unit using its
General's Ld, …) are listed in the `rules.systems.fantasy_combat` package docstring.
"""

from functools import partial

from points.catalogue.fantasy_army import magic_item_summary
from points.catalogue.i18n import gettext_noop
from points.ru_whfb.composition import MAGIC_ITEM_ALLOWANCE, OPTION_KEYS, validate
from rules.systems.catalogue_system import register_catalogue_system
from rules.systems.fantasy_combat.estimate import (
    COMBAT_CHANCES,
    attack,
    clear_caches,
    estimate_cell_cost,
    estimate_cost,
    matrix_attack,
    prepare_situation,
    prepare_unit,
)
from rules.systems.fantasy_combat.play import FANTASY_PLAY
from rules.systems.fantasy_combat.reference_targets import reference_targets
from rules.systems.fantasy_combat.row import matrix_row
from rules.systems.fantasy_combat.situation import situation_errors, situation_schema
from rules.systems.fantasy_combat.variants import RU_WHFB
from rules.systems.fantasy_profile import fantasy_profile_schema
from rules.systems.ru_whfb.battlescribe import MAPPING as BATTLESCRIBE

SYSTEM = register_catalogue_system(
    key="ru_whfb",
    order=50,
    name=gettext_noop("Warhammer Fantasy house rules (Russian)"),
    source_language="ru",
    description=gettext_noop(
        "Chapter 7 (“Additional rules”) of a Russian fan-written Warhammer Fantasy "
        "rulebook: special rules that change damage, psychology and movement. No unit profiles or points."
    ),
    profile_schema=fantasy_profile_schema(),
    validate=validate,
    structure_options=OPTION_KEYS,
    unit_summary=partial(magic_item_summary, MAGIC_ITEM_ALLOWANCE),
    attack=partial(attack, variants=RU_WHFB),
    matrix_attack=partial(matrix_attack, variants=RU_WHFB),
    matrix_row=partial(matrix_row, variants=RU_WHFB),
    prepare_unit=prepare_unit,
    prepare_situation=partial(prepare_situation, variants=RU_WHFB),
    estimate_cost=partial(estimate_cost, variants=RU_WHFB),
    estimate_cell_cost=partial(estimate_cell_cost, variants=RU_WHFB),
    clear_caches=clear_caches,
    situation_schema=situation_schema(RU_WHFB),
    situation_errors=situation_errors,
    reference_targets=reference_targets("ru_whfb"),
    battlescribe=BATTLESCRIBE,
    play=FANTASY_PLAY,
    combat_chances=COMBAT_CHANCES,
)
