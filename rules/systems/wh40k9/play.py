"""Play at the table for Warhammer 40,000 9th edition (`rules.systems.play`): a unit below half
strength (its Combat Attrition flees on 1–2, `docs/rules/wh40k9.md` §8.7, whatever the next attack
kills), battle-shocked, or that charged this turn (its charge abilities work in the Fight
phase), and the phases of a turn (Command, Movement, Psychic, Shooting, Charge, Fight,
Morale); shooting attacks in the Shooting phase, melee in the Fight phase."""

from __future__ import annotations

from points.catalogue.i18n import gettext_noop
from rules.systems.play import DESTROYED, PlayPhase, PlayRules, PlayState

#: Words of a rule's English text that tie it to a phase (the rules reference groups by them).
COMMAND = ("Command phase", "Command Point", "Command Points", "CP", "Stratagem", "Stratagems")
MOVEMENT = ("Movement phase", "Advance", "Advances", "Advanced", "Fall Back", "Falls Back", "Normal Move",
            "Remain Stationary", "Deep Strike", "set up", "Move characteristic")
PSYCHIC = ("Psychic phase", "psychic", "Psyker", "PSYKER", "manifest", "Deny the Witch", "Smite")
SHOOTING = ("Shooting phase", "shoot", "shoots", "shooting", "shooter", "ranged", "half range",
            "half its range", "grenade", "Overwatch", "to hit")
CHARGE = ("Charge phase", "charge", "charges", "charged", "charging", "charge move", "Heroic Intervention")
FIGHT = ("Fight phase", "fight", "fights", "melee", "close combat", "Engagement Range", "pile in",
         "consolidate")
MORALE = ("Morale phase", "Morale", "Morale test", "Combat Attrition", "Leadership", "Ld", "flee", "flees")

PLAY = PlayRules(
    states=(
        PlayState("below_half", gettext_noop("Below half strength"), defending={"defender_below_half": True}),
        PlayState("battle_shocked", gettext_noop("Battle-shocked")),
        PlayState("charged", gettext_noop("Charged"), attacking={"charged": True}, modes=("melee",)),
        DESTROYED,
    ),
    phases=(
        PlayPhase("command", gettext_noop("Command"), rule_words=COMMAND),
        PlayPhase("movement", gettext_noop("Movement"), rule_words=MOVEMENT),
        PlayPhase("psychic", gettext_noop("Psychic"), rule_words=PSYCHIC),
        PlayPhase("shooting", gettext_noop("Shooting"), ("shooting",), rule_words=SHOOTING),
        PlayPhase("charge", gettext_noop("Charge"), rule_words=CHARGE),
        PlayPhase("fight", gettext_noop("Fight"), ("melee",), rule_words=FIGHT),
        PlayPhase("morale", gettext_noop("Morale"), rule_words=MORALE),
    ),
    wounds_field="w",
)
