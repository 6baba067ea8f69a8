"""Play at the table for OPR (`rules.systems.play`): a unit is shaken (it fails a morale test
and must spend its next activation idle, `docs/rules/opr-combat.md`) or destroyed; a round is
the players' alternating activations, each of which may shoot or fight in melee."""

from __future__ import annotations

from rules.systems.messages import gettext_noop
from rules.systems.play import DESTROYED, PlayPhase, PlayRules, PlayState

PLAY = PlayRules(
    states=(PlayState("shaken", gettext_noop("Shaken")), DESTROYED),
    phases=(PlayPhase("activations", gettext_noop("Activations"), ("shooting", "melee")),),
    wounds_field="toughness",
)
