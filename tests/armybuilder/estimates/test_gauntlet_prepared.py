"""The gauntlet reads each unit and situation once (`GameSystem.prepare_unit`) and its figures
stay exactly those of `attack` on the unit-format dicts."""

from __future__ import annotations

from armybuilder.estimates.gauntlet import GauntletUnit, Opponent, matchup_figures, measure
from rules.systems.opr.reference_targets import REFERENCE_TARGETS
from rules.systems.registry import get_system


def test_gauntlet_matchups_are_exactly_the_figures_of_attack_on_the_dicts():
    system = get_system("opr")
    units = [GauntletUnit(name, unit, float(system.price(unit)["points"]))
             for name, unit in REFERENCE_TARGETS.items()]
    situations = {"shooting": {"mode": "shooting"}, "melee": {"mode": "melee", "charging": True}}
    report = measure(system, units[:2], [Opponent("them", units[1:])], situations)
    assert len(report.matchups) == 2 * 2 * (len(units) - 1) * 2
    by_name = {unit.name: unit.data for unit in units}
    for matchup in report.matchups:
        expected = matchup_figures(system, by_name[matchup["attacker"]], by_name[matchup["defender"]],
                                   matchup["situation"])
        assert {key: matchup[key] for key in expected} == expected
