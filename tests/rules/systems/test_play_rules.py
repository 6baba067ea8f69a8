"""What each system declares for play at the table (`rules/systems/play.py`, issue 44): its
states, its phases and their attack modes, and the profile field of a model's wounds; and the
survivors an estimate takes from a unit and its losses."""

from __future__ import annotations

from rules.systems.play import survivors
from rules.systems.registry import all_systems

UNIT = {"format": 1, "system": "toy", "name": "Guard", "models": [
    {"name": "Captain", "count": 1, "w": 3},
    {"name": "Guard", "count": 5, "w": 2, "weapons": [{"name": "Spear"}]},
]}


def test_every_system_declares_states_phases_and_a_wounds_field_of_its_profile():
    for system in all_systems():
        play = system.play
        assert system.playable, system.key
        assert play.wounds_field in system.profile_schema["properties"], system.key
        modes = set(system.situation_schema["properties"]["mode"]["enum"])
        assert {m for p in play.phases for m in p.modes} == modes, system.key
        assert len({s.key for s in play.states}) == len(play.states) and play.states, system.key


def test_survivors_lose_models_and_split_off_the_damaged_model():
    standing = survivors(UNIT, lost=[0, 2], wounds=[1, 1], wounds_field="w")
    assert standing["models"] == [
        {"name": "Captain", "count": 1, "w": 2},
        {"name": "Guard", "count": 1, "w": 1, "weapons": [{"name": "Spear"}]},
        {"name": "Guard", "count": 2, "w": 2, "weapons": [{"name": "Spear"}]},
    ]
    assert UNIT["models"][1]["count"] == 5  # the unit itself is left as it was


def test_an_entry_with_no_model_left_is_dropped():
    assert survivors(UNIT, lost=[1, 0], wounds=[0, 0], wounds_field="w")["models"] == [UNIT["models"][1]]
