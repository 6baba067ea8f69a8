"""What a unit-vs-unit job computes beyond the system's attack: the abilities it did not use."""

from __future__ import annotations

import pytest

from armybuilder.estimates.compute import abilities_not_used, unit_vs_unit


def warscroll(name: str, *, abilities: list[dict], model_abilities: list[dict]) -> dict:
    return {"format": 1, "system": "aos1", "name": name, "abilities": abilities, "models": [{
        "name": name, "count": 5, "move": 6, "wounds": 1, "save": 4, "bravery": 6,
        "abilities": model_abilities,
        "weapons": [{"name": "Axe", "type": "melee", "range": 1, "attacks": 2, "to_hit": 4,
                     "to_wound": 4, "rend": 0, "damage": 1}]}]}


FRENZY = {"type": "reroll", "roll": "hit", "which": "ones", "name": "Frenzy"}
SIGIL = {"type": "ward", "target": 5, "name": "Sigil"}
TEXTS = [
    {"name": "Frenzy", "text": "You can re-roll hit rolls of 1 for this unit.", "read": True},
    {"name": "Sigil", "text": "... On a 5+ the wound is negated.", "read": True},
    {"name": "Trampling Charge", "text": "If this unit charged, add 1 to hit rolls."},
]


def test_the_result_names_text_abilities_and_read_ones_this_attack_did_not_apply():
    """The attacker's ward protects only when it is attacked; its charge bonus is text."""
    attacker = warscroll("Bloodhorns", abilities=TEXTS, model_abilities=[FRENZY, SIGIL])
    defender = warscroll("Wardens", abilities=TEXTS[1:2], model_abilities=[SIGIL])
    result = unit_vs_unit("aos1", {"attacker": attacker, "defender": defender, "situation": {}})
    assert result["not_used"] == [
        {"role": "attacker", "unit": "Bloodhorns", "abilities": ["Sigil", "Trampling Charge"]},
    ]


def test_without_a_report_from_the_system_an_ability_read_into_fields_counts_as_used():
    assert abilities_not_used({"abilities": TEXTS}) == ["Trampling Charge"]
    assert abilities_not_used({"abilities": TEXTS}, ["Frenzy"]) == ["Sigil", "Trampling Charge"]
    assert abilities_not_used({"name": "No text"}) == []



@pytest.mark.parametrize(("system_key", "situation"), [
    ("opr", {"mode": "shooting", "second_stage": True}),
    ("opr", {"mode": "melee", "charging": True}),
    ("whfb6", {"mode": "melee", "charging": True}),
    ("ru_whfb", {"mode": "melee", "charging": True}),
    ("aos1", {"mode": "melee"}),
])
def test_a_list_job_reads_each_unit_once_and_gives_exactly_each_matchup_s_figures(system_key, situation):
    """Units and the situation are prepared once per job (`GameSystem.prepare_unit`); every
    cell is still exactly what `attack` gives on the unit-format dicts, one matchup at a time
    (a system computing a row at once, `matrix_row`, to within 1e-12: its sums run in
    another order)."""
    from armybuilder.estimates.compute import list_vs_list, matrix_cell
    from rules.systems.registry import get_system

    system = get_system(system_key)
    units = [{"name": name, "unit": unit} for name, unit in system.reference_targets.items()]
    inputs = {"list_a": {"name": "A", "units": units[:3]},
              "list_b": {"name": "B", "units": units[1:] + units[:1]}, "situation": situation}
    result = list_vs_list(system_key, inputs)

    def one(attacker: dict, defender: dict) -> dict:
        return matrix_cell(system.attack(attacker["unit"], defender["unit"], situation))

    def same(cell: dict, expected: dict) -> None:
        assert list(cell) == list(expected)
        for key, value in expected.items():
            if system.computes_rows and isinstance(value, float):
                assert cell[key] == pytest.approx(value, rel=0, abs=1e-12), key
            else:
                assert cell[key] == value, key

    for i, attacker in enumerate(inputs["list_a"]["units"]):
        for j, defender in enumerate(inputs["list_b"]["units"]):
            same(result["a_vs_b"][i][j], one(attacker, defender))
    for j, attacker in enumerate(inputs["list_b"]["units"]):
        for i, defender in enumerate(inputs["list_a"]["units"]):
            same(result["b_vs_a"][j][i], one(attacker, defender))
