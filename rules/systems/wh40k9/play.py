"""Play at the table for Warhammer 40,000 9th edition (`rules.systems.play`): a unit below half
strength or battle-shocked, and the phases of a turn (Command, Movement, Psychic, Shooting,
Charge, Fight, Morale); shooting attacks in the Shooting phase, melee in the Fight phase."""

from __future__ import annotations

from points.catalogue.i18n import gettext_noop
from rules.systems.play import DESTROYED, PlayPhase, PlayRules, PlayState

PLAY = PlayRules(
    states=(
        PlayState("below_half", gettext_noop("Below half strength")),
        PlayState("battle_shocked", gettext_noop("Battle-shocked")),
        DESTROYED,
    ),
    phases=(
        PlayPhase("command", gettext_noop("Command")),
        PlayPhase("movement", gettext_noop("Movement")),
        PlayPhase("psychic", gettext_noop("Psychic")),
        PlayPhase("shooting", gettext_noop("Shooting"), ("shooting",)),
        PlayPhase("charge", gettext_noop("Charge")),
        PlayPhase("fight", gettext_noop("Fight"), ("melee",)),
        PlayPhase("morale", gettext_noop("Morale")),
    ),
    wounds_field="w",
)
