"""The rule switches that tell Warhammer Fantasy 6th edition from the Russian house rules.

One engine (`rules.systems.fantasy_combat`) runs both systems; every place the Russian
chapter (`docs/rules/ru_whfb.md`) changes the maths is a switch here, named after its rule and off
for WHFB 6th (`docs/rules/whfb6.md`). Tables the Russian chapter does not print are WHFB's
(`tables.RU_TABLES_IN_SOURCE`).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.systems.fantasy_combat.hashed import hashed_once, state_without_hash


@dataclass(frozen=True)
class Variants:
    """Switches, each citing the rule it implements (RU row numbers of docs/rules/ru_whfb.md §4)."""

    key: str
    #: RU #18: a poisoned natural-6 hit wounds with no armour save (WHFB §8.3: saves apply).
    poison_ignores_armour: bool = False
    #: RU #20: Killing Blow slays any model, "even a dragon" (WHFB §8.2: man-sized only).
    killing_blow_any_target: bool = False
    #: RU #20: only the ward ("magic") save stops a Killing Blow (WHFB §8.2: nothing does).
    killing_blow_ward_save: bool = False
    #: RU #11: Flaming Attacks allow no armour save (WHFB §8.4: saves apply).
    flaming_ignores_armour: bool = False
    #: RU §1.2: regeneration is a third save, one roll per unsaved attack; WHFB §7.3 rolls
    #: once per wound lost. Both: no regeneration against Flaming Attacks (RU #11, WHFB §7.3).
    regeneration_per_attack: bool = False
    #: RU #2, #3: Always Strikes First / Last count only from this round (WHFB: from round 1).
    strike_order_rules_from_round: int = 1
    #: RU #2: ASF with a higher Initiative than the enemy re-rolls missed hits.
    asf_rerolls_with_higher_initiative: bool = False
    #: RU #5: Devastating Charge gives +1 S in the round it charges (not in WHFB 6th).
    devastating_charge: bool = False
    #: RU #1: a breath weapon may be used in close combat, 2D6 automatic hits (WHFB §8.5: not).
    breath_in_combat: bool = False
    #: RU #16: Magic Resistance (1)–(4) negates an undispelled spell on a D20 roll of
    #: 1–5 / 1–10 / 1–15 / always (WHFB 6th has no such roll).
    magic_resistance_d20: bool = False
    #: RU #3 with §2.5: great weapons are "Always Strikes Last" (so from round 2 only);
    #: WHFB §6.2: great weapons strike last except in the turn the model charges.
    great_weapon_is_asl: bool = False
    #: RU #6: Ethereal models take no harm from non-magical attacks (flaming, ethereal, spells and
    #: magic weapons are magical, RU #11), and an ethereal attacker allows no armour save.
    ethereal: bool = False
    #: RU #8: a failed fear test sets the unit's WS to 1 for the whole combat (both hitting and
    #: being hit); WHFB §10.3: it hits only on 6s in the first round.
    fear_sets_ws_one: bool = False
    #: WHFB §9.2, §10.3: a unit beaten by a fear-causing unit with greater US breaks
    #: automatically; RU #8 says only "WS becomes 1", so no auto-break there.
    fear_auto_break: bool = True
    #: RU #39, §2.6: a Swarm takes no break test; it suffers extra wounds equal to the
    #: combat result difference (WHFB 6th has no such rule).
    swarm_wounds_instead_of_break: bool = False
    #: RU §2.6, #44: the Army Battle Standard's +1 stacks with a unit standard (+2);
    #: WHFB §9.1, §11.5: one standard bonus per side, of any kind (+1 at most).
    army_standard_stacks: bool = False

    # hashed once: the engine's caches key on the variants in every blow it resolves
    __hash__ = hashed_once
    __getstate__ = state_without_hash


WHFB6 = Variants(key="whfb6")
RU_WHFB = Variants(
    key="ru_whfb",
    poison_ignores_armour=True,
    killing_blow_any_target=True,
    killing_blow_ward_save=True,
    flaming_ignores_armour=True,
    regeneration_per_attack=True,
    strike_order_rules_from_round=2,
    asf_rerolls_with_higher_initiative=True,
    devastating_charge=True,
    breath_in_combat=True,
    magic_resistance_d20=True,
    great_weapon_is_asl=True,
    ethereal=True,
    fear_sets_ws_one=True,
    fear_auto_break=False,
    swarm_wounds_instead_of_break=True,
    army_standard_stacks=True,
)
