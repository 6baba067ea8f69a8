"""How AoS 1st warscroll ability texts (BSData v1.50.9 wordings) become structured abilities."""

from __future__ import annotations

import pytest

from rules.systems.aos1.battlescribe import read_ability

READ = [
    ("You can re-roll hit rolls of 1 for this unit.", [{"type": "reroll", "roll": "hit", "which": "ones"}]),
    ("You can re-roll failed wound rolls for this model.",
     [{"type": "reroll", "roll": "wound", "which": "failed"}]),
    ("You can re-roll save rolls for this unit.", [{"type": "reroll", "roll": "save", "which": "failed"}]),
    ("Add 1 to all hit rolls made for this unit.", [{"type": "modifier", "roll": "hit", "value": 1}]),
    ("Add 1 to save rolls for this unit.", [{"type": "modifier", "roll": "save", "value": 1}]),
    ("Roll a dice each time you allocate a wound or mortal wound to this model. On a 5+ the wound is "
     "negated.", [{"type": "ward", "target": 5}]),
    ("Roll a dice each time Archaon suffers a wound or mortal wound. On a 5 or a 6, that wound is ignored.",
     [{"type": "ward", "target": 5}]),
]
NOT_READ = [
    "If this unit charged this turn, add 1 to hit rolls for it.",
    "You can re-roll hit rolls of 1 for friendly units within 8\" of this model.",
    "If this model suffers any wounds or mortal wounds as the result of a spell, roll a die. If the "
    "result is 4 or more, the wounds are ignored.",
    "In your hero phase, add 1 to wound rolls for this unit until your next hero phase.",
    "Gutter Runners can run and shoot in the same turn.",
]


@pytest.mark.parametrize(("text", "expected"), READ)
def test_common_wordings_are_read(text, expected):
    fields, found = read_ability("Ability", text)
    assert fields == {}
    assert found == [{**e, "name": "Ability"} for e in expected]


@pytest.mark.parametrize("text", NOT_READ)
def test_conditions_the_estimate_cannot_know_leave_the_text_unread(text):
    assert read_ability("Ability", text) == ({}, [])
