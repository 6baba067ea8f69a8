"""The engine's errors are shown in the reader's language (`rules.battlescribe.engine_text`)."""

from __future__ import annotations

import pytest
from django.utils import translation

from rules.battlescribe.engine.errors import ValidationError
from rules.battlescribe.engine.gamedata_checks import DataError
from rules.battlescribe.engine_text import data_error_text, error_text

TOO_MANY_SPEARS = ValidationError(
    "selection",
    "se-wolf",
    "se-spear/c-sp",
    "Spear: at most 1 allowed (has 2)",
    owner_name="Giant Wolf",
    constraint_type="max",
    limit=1,
    actual=2,
    field="selections",
    entry_name="Spear",
)
OVER_BUDGET = ValidationError(
    "roster",
    "",
    "costLimits/pts",
    "pts total 120 is over the limit of 100",
    constraint_type="max",
    limit=100,
    actual=120,
    field="pts",
    entry_name="pts",
)


@pytest.mark.parametrize(
    ("language", "spears", "budget"),
    [
        (
            "en",
            "Giant Wolf may take at most 1 × Spear (has 2).",
            "The army costs 120 pts, over its limit of 100.",
        ),
        (
            "pl",
            "Giant Wolf może wziąć najwyżej 1 × Spear (ma 2).",
            "Armia kosztuje 120 pts, ponad limit 100.",
        ),
        (
            "cs",
            "Giant Wolf smí mít nejvýše 1 × Spear (má 2).",
            "Armáda stojí 120 pts, což je nad limitem 100.",
        ),
        (
            "ru",
            "Giant Wolf: можно взять не больше 1 × Spear (сейчас 2).",
            "Армия стоит 120 pts — больше лимита 100.",
        ),
    ],
)
def test_errors_read_in_the_active_language(language, spears, budget):
    with translation.override(language):
        assert error_text(TOO_MANY_SPEARS) == spears
        assert error_text(OVER_BUDGET) == budget


def test_data_errors_read_in_the_active_language():
    error = DataError("broken-entry-link", "EntryLink must have a target that exists", "el", "se-gone")
    with translation.override("pl"):
        assert data_error_text(error) == "Odnośnik wskazuje na „se-gone”, którego nie ma w danych."
