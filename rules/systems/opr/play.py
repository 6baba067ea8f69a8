"""Play at the table for OPR (`rules.systems.play`), from the seed's regroup states (seed 002,
"Przegrupowanie"): a unit is shaken (exhausted: "it cannot take an action in its next
activation; it cannot attack" — so it neither attacks nor strikes back at a charger), pinned
("it cannot make its first move, but counts as having moved": Relentless and the like read it
as moved), or destroyed; a unit that charged fights its melee charging. A round is the players'
alternating activations, each of which may shoot or fight in melee."""

from __future__ import annotations

from rules.systems.messages import gettext_noop
from rules.systems.play import DESTROYED, PlayPhase, PlayRules, PlayState

PLAY = PlayRules(
    states=(
        PlayState("shaken", gettext_noop("Shaken"), can_attack=False, defending={"defender_exhausted": True}),
        PlayState("pinned", gettext_noop("Pinned"), attacking={"attacker_moved": True}),
        PlayState("charged", gettext_noop("Charged"), attacking={"charging": True}, modes=("melee",)),
        DESTROYED,
    ),
    phases=(PlayPhase("activations", gettext_noop("Activations"), ("shooting", "melee")),),
    wounds_field="toughness",
)
