"""Names from official OPR army lists ("old OPR", docs/rules/opr-points.md §8) mapped to our rules.

The seed says units written for official OPR work with this formula (costing about 10% more
there than here), so the importer accepts the official names for the *same* abilities.
An official name that already is one of our English names (Fearless, Furious, Relentless,
Regeneration, Stealth, Blast, Deadly, Lock-On, …) needs no entry; this table holds only the
names that differ. Official rules without an equivalent here (Impact, Poison, …) stay
unknown and are reported as errors: pricing them would be guessing.

Two official forms are not rules here but profile fields, and the parser converts them:
`Tough(X)` is the model's toughness and `AP(X)` (also the seed's own form) a weapon's `ap`.

The human-readable version of this table is `points/opr/OLD_OPR.md`; keep them in step
(a test checks that every entry here appears there).
"""

from __future__ import annotations

#: Official OPR name → canonical rule name here, with why they are the same ability.
OLD_OPR_NAMES: dict[str, str] = {
    # "Strider: may ignore the effects of difficult terrain" = Agile ("ignores difficult terrain")
    "Strider": "Agile",
    # "Psychic(X)" (Grimdark Future v2) and "Wizard(X)" (Age of Fantasy): a spell caster with X tokens
    "Psychic": "Caster",
    "Wizard": "Caster",
    # "Sniper: the shooter picks which model is hit" = Precise ("the attacker allocates wounds")
    "Sniper": "Precise",
    # "Repair: a unit within 2\" removes D3 wounds" = Mending ("a unit within 2\" removes d3 wound markers")
    "Repair": "Mending",
    # "Unstoppable: ignores Regeneration" = Brutal ("ignores regeneration")
    "Unstoppable": "Brutal",
    # "Counter-Attack" is how older lists spell Counter
    "Counter-Attack": "Counter",
    # "Shield Wall" / "Shielded": +1 to defence rolls, as Shield's "always has cover"
    "Shield Wall": "Shield",
    "Shielded": "Shield",
}

#: Official OPR writes a model's toughness as the rule `Tough(X)`.
TOUGH_NAME = "Tough"
