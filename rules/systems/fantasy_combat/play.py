"""Play at the table for the Warhammer Fantasy systems (`rules.systems.play`): a unit flees, is
locked in combat, or charged this turn (it strikes first with its charge bonuses, and the unit
it charged fights as charged, §6.2, §12.1); a round is the player's turn of movement, magic,
shooting and close combat (WHFB 6th, "The turn")."""

from __future__ import annotations

from rules.systems.messages import gettext_noop
from rules.systems.play import DESTROYED, PlayPhase, PlayRules, PlayState

#: Words of a rule's English text that tie it to a phase (the rules reference groups by them).
MOVEMENT = ("movement phase", "move", "moves", "march", "marches", "marching", "flee", "flees", "fleeing",
            "rally", "rallies", "pursue", "pursues", "pursuit", "fly", "flies", "flying", "terrain")
MAGIC = ("magic phase", "magic", "spell", "spells", "cast", "casts", "dispel", "dispels", "power dice",
         "dispel dice", "wizard", "wizards", "miscast", "Magic Resistance")
SHOOTING = ("shooting phase", "shoot", "shoots", "shooting", "shooter", "missile", "missile weapon",
            "missile weapons", "missile fire", "stand and shoot", "range", "ranged")
CLOSE_COMBAT = ("close combat", "combat", "combat result", "combat resolution", "break test", "Break test",
                "strike first", "strikes first", "strike last", "strikes last", "charge", "charges",
                "charging", "charged", "base contact", "fights", "fight", "Killing Blow")

FANTASY_PLAY = PlayRules(
    states=(
        PlayState("fleeing", gettext_noop("Fleeing"), can_attack=False),
        PlayState("in_combat", gettext_noop("In combat")),
        PlayState(
            "charged",
            gettext_noop("Charged"),
            attacking={"charging": True},
            defending={"defender_charged": True},
            modes=("melee",),
        ),
        DESTROYED,
    ),
    phases=(
        PlayPhase("movement", gettext_noop("Movement"), rule_words=MOVEMENT),
        PlayPhase("magic", gettext_noop("Magic"), rule_words=MAGIC),
        PlayPhase("shooting", gettext_noop("Shooting"), ("shooting",), rule_words=SHOOTING),
        PlayPhase("close_combat", gettext_noop("Close combat"), ("melee",), rule_words=CLOSE_COMBAT),
    ),
    wounds_field="w",
)
