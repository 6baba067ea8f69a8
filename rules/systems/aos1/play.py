"""Play at the table for Age of Sigmar 1st edition (`rules.systems.play`): a unit has fled (every
model gone in battleshock) or is destroyed, and the phases of a turn (Hero, Movement, Shooting,
Charge, Combat, Battleshock); shooting attacks in the Shooting phase, melee in the Combat phase."""

from __future__ import annotations

from points.catalogue.i18n import gettext_noop
from rules.systems.play import DESTROYED, PlayPhase, PlayRules, PlayState

PLAY = PlayRules(
    states=(
        PlayState("fled", gettext_noop("Fled"), can_attack=False, out_of_play=True),
        DESTROYED,
    ),
    phases=(
        PlayPhase("hero", gettext_noop("Hero")),
        PlayPhase("movement", gettext_noop("Movement")),
        PlayPhase("shooting", gettext_noop("Shooting"), ("shooting",)),
        PlayPhase("charge", gettext_noop("Charge")),
        PlayPhase("combat", gettext_noop("Combat"), ("melee",)),
        PlayPhase("battleshock", gettext_noop("Battleshock")),
    ),
    wounds_field="wounds",
)
