"""Russian Warhammer Fantasy house rules ("7. Дополнительные правила"): army rules (pure Python)."""
