"""Warhammer Fantasy Battle, 6th edition (`docs/rules/whfb6.md`, Czech digest).

Catalogue points (the digest prints points only for the ten common magic items), the
Warhammer Fantasy profile, the army rules the digest contains (`points.whfb6`), and the
exact attack sequence of `rules.systems.fantasy_combat` with every Russian switch off.

Decisions where the spec leaves a case open (who fights, bases, a Stubborn unit using its
General's Ld, …) are listed in the `rules.systems.fantasy_combat` package docstring.
"""

from functools import partial

from points.catalogue.fantasy_army import magic_item_summary
from points.catalogue.i18n import gettext_noop
from points.whfb6.composition import MAGIC_ITEM_ALLOWANCE, OPTION_KEYS, validate
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
from rules.systems.fantasy_combat.variants import WHFB6
from rules.systems.fantasy_profile import fantasy_profile_schema
from rules.systems.whfb6.battlescribe import MAPPING as BATTLESCRIBE

SYSTEM = register_catalogue_system(
    key="whfb6",
    order=20,
    name=gettext_noop("Warhammer Fantasy Battle, 6th edition"),
    source_language="cs",
    description=gettext_noop(
        "Rules digest in Czech: profiles, tables, psychology, magic and the common magic items. "
        "It contains no army lists and no unit points."
    ),
    profile_schema=fantasy_profile_schema(),
    validate=validate,
    structure_options=OPTION_KEYS,
    unit_summary=partial(magic_item_summary, MAGIC_ITEM_ALLOWANCE),
    attack=partial(attack, variants=WHFB6),
    matrix_attack=partial(matrix_attack, variants=WHFB6),
    matrix_row=partial(matrix_row, variants=WHFB6),
    prepare_unit=prepare_unit,
    prepare_situation=partial(prepare_situation, variants=WHFB6),
    estimate_cost=partial(estimate_cost, variants=WHFB6),
    estimate_cell_cost=partial(estimate_cell_cost, variants=WHFB6),
    clear_caches=clear_caches,
    situation_schema=situation_schema(WHFB6),
    situation_errors=situation_errors,
    reference_targets=reference_targets("whfb6"),
    battlescribe=BATTLESCRIBE,
    play=FANTASY_PLAY,
    combat_chances=COMBAT_CHANCES,
    # The slot chart (points.whfb6.composition) allows a Lord from 2,000 pts: the usual game.
    default_points_limit=2000,
)
