"""A BattleScribe roster engine: game system + catalogues in, a validated roster out.

Pure Python (no Django). `model` loads the data (from the conformance suite's YAML form or
from .gst/.cat XML turned into the same shape by `xmlform`), `roster` keeps forces and
selections and applies the operations, `modifiers`/`conditions`/`constraints` evaluate the
catalogue's rules against the roster, and `errors` carries what BattleScribe would report.
`model` is the one model of BattleScribe data: the catalogue import (`rules.battlescribe.units`)
reads it too.
"""
