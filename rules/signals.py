"""Signals the catalogue sends to the rest of the product (the catalogue knows nothing of lists).

`source_updated`: sent inside the import's transaction after factions' BattleScribe sources
changed (a re-import at another revision), with `factions` (the `Faction` rows). Each receiver
returns a list of JSON-ready reports (`armybuilder.lists.data_updates` re-prices every list of
those factions once and reports what changed), which the import adds to its summary.
"""

from django.dispatch import Signal

source_updated = Signal()
