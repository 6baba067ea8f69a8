"""Warhammer Fantasy Battle 6th edition: the army rules its rules digest gives (pure Python).

Points are catalogue points (`points.catalogue.pricing`); `composition.validate` checks
the army (`docs/rules/whfb6.md` §13).
"""
