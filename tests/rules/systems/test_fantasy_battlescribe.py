"""How community Warhammer Fantasy item and rule texts become model fields (ward, regeneration,
Hatred) in the BattleScribe import."""

from __future__ import annotations

import pytest

from rules.systems.fantasy_battlescribe import read_ability


@pytest.mark.parametrize(
    ("name", "text", "fields"),
    [
        ("Talisman of Endurance", "This item gives a 5+ ward save.", {"ward": 5}),
        ("Blessing", "Ward save (4+)", {"ward": 4}),
        ("Regeneration", "", {"regeneration": 4}),
        ("Regeneration (5+)", "(BRB-72)", {"regeneration": 5}),
        ("Hatred", "May re-roll all failed to hit rolls in the first round of close combat.",
         {"rules": ["Hatred"]}),
    ],
)
def test_unconditional_saves_and_rules_are_read(name, text, fields):
    assert read_ability(name, text) == (fields, [])


@pytest.mark.parametrize(
    "text",
    [
        "Ward save (5+) against shooting attacks and magic missiles",
        "4+ ward save against first wound suffered",
        "Models within 6\" of a wood receive a ward save (6+)",
        "No armour saves or ward saves allowed against these wounds",
    ],
)
def test_conditional_saves_stay_text(text):
    assert read_ability("Item", text) == ({}, [])
