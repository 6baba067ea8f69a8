"""System-agnostic dice mathematics: exact outcome distributions over numpy float64 arrays.

Nothing here knows a game: the OPR attack sequence (`rules.systems.opr.combat`) and the
later systems (40k, Age of Sigmar, Warhammer Fantasy) compose these pieces.

- `pmf`: probability mass functions over counts 0, 1, 2, … and the operations on them;
- `d6`: one d6 test with modifiers and natural-face rules, and values read off a d6;
- `counts`: how many successes many dice give (binomial, compound, multiplied, cancelled);
- `allocation`: wounds placed on a unit's models one model at a time, as a state machine.
"""
