"""Play at the table for Age of Sigmar 1st edition (`rules.systems.play`): a unit has fled (every
model gone in battleshock) or is destroyed, and the phases of a turn (Hero, Movement, Shooting,
Charge, Combat, Battleshock); shooting attacks in the Shooting phase, melee in the Combat phase."""

from __future__ import annotations

from points.catalogue.i18n import gettext_noop
from rules.systems.play import DESTROYED, PlayPhase, PlayRules, PlayState

#: Words of a rule's English text that tie it to a phase (the rules reference groups by them).
HERO = ("hero phase", "command ability", "prayer", "prays", "spell", "spells", "cast", "casts", "casting",
        "wizard", "unbind", "heal", "heals")
MOVEMENT = ("movement phase", "move", "moves", "run", "runs", "retreat", "retreats", "fly", "flies")
SHOOTING = ("shooting phase", "shoot", "shoots", "shooting", "missile", "missile weapon", "missile weapons")
CHARGE = ("charge phase", "charge", "charges", "charged", "charging", "charge roll")
COMBAT = ("combat phase", "combat", "pile in", "piles in", "melee", "melee weapon", "melee weapons", "fight",
          "fights")
BATTLESHOCK = ("battleshock", "battleshock phase", "battleshock test", "Bravery", "flee", "flees")

PLAY = PlayRules(
    states=(
        PlayState("fled", gettext_noop("Fled"), can_attack=False, out_of_play=True),
        DESTROYED,
    ),
    phases=(
        PlayPhase("hero", gettext_noop("Hero"), rule_words=HERO),
        PlayPhase("movement", gettext_noop("Movement"), rule_words=MOVEMENT),
        PlayPhase("shooting", gettext_noop("Shooting"), ("shooting",), rule_words=SHOOTING),
        PlayPhase("charge", gettext_noop("Charge"), rule_words=CHARGE),
        PlayPhase("combat", gettext_noop("Combat"), ("melee",), rule_words=COMBAT),
        PlayPhase("battleshock", gettext_noop("Battleshock"), rule_words=BATTLESHOCK),
    ),
    wounds_field="wounds",
)
