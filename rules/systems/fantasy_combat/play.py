"""Play at the table for the Warhammer Fantasy systems (`rules.systems.play`): a unit flees or
is locked in combat; a round is the player's turn of movement, magic, shooting and close combat
(WHFB 6th, "The turn")."""

from __future__ import annotations

from rules.systems.messages import gettext_noop
from rules.systems.play import DESTROYED, PlayPhase, PlayRules, PlayState

FANTASY_PLAY = PlayRules(
    states=(
        PlayState("fleeing", gettext_noop("Fleeing"), can_attack=False),
        PlayState("in_combat", gettext_noop("In combat")),
        DESTROYED,
    ),
    phases=(
        PlayPhase("movement", gettext_noop("Movement")),
        PlayPhase("magic", gettext_noop("Magic")),
        PlayPhase("shooting", gettext_noop("Shooting"), ("shooting",)),
        PlayPhase("close_combat", gettext_noop("Close combat"), ("melee",)),
    ),
    wounds_field="w",
)
