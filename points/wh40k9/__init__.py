"""Warhammer 40,000, 9th edition: Power Rating and the army rules of the core booklet (pure Python)."""
