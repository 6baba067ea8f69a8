"""Warhammer: Age of Sigmar, 1st edition: army rules (pure Python)."""
