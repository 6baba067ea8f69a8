"""BattleScribe interoperability: reading game systems, catalogues and rosters, writing rosters.

Pure Python (no Django): the files are parsed into a small model (`catalogue`), links are
resolved across files (`entries`), costs and modifiers are evaluated at a unit's smallest
legal selection (`costs`, `modifiers`) and the result is mapped onto our unit format through
the target system's profile schema (`units`, one module per part of a unit). The Django side
(`rules.battlescribe_import`) hands the mapped factions to the catalogue's own loader, so
imported data passes the same checks as the bundled YAML.
"""
