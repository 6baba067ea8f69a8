"""BattleScribe interoperability: reading game systems, catalogues and rosters, writing rosters.

Pure Python (no Django). BattleScribe data has one model, the roster engine's (`engine`:
`engine.model.GameData`, read from the files' XML in the engine's dict shape), which the
catalogue import, the roster import and export and lists all use. The catalogue import checks
each file and keeps its header (`catalogue`), selects each unit at its smallest legal selection
in the engine's roster and maps it onto our unit format through the target system's profile
schema (`units`, one module per part of a unit). The Django side (`rules.battlescribe_import`)
hands the mapped factions to the catalogue's own loader, so imported data passes the same
checks as the bundled YAML.
"""
