"""The roster engine's errors in the reader's language (the engine itself is Django-free).

Whatever shows an engine error — the list editor, the API, an import report — calls these,
so that a Polish, Czech or Russian player reads the unit and the rule in their language.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext

from .engine.errors import ValidationError
from .engine.gamedata_checks import DataError
from .engine.messages import render, render_data_error


def error_text(error: ValidationError, cost_names: Mapping[str, str] | None = None) -> str:
    """A roster error in the active language, naming cost types by `cost_names` (id -> name)."""
    return render(error, gettext, cost_names)


def data_error_text(error: DataError) -> str:
    """A data error (broken link, unknown scope…) in the active language."""
    return render_data_error(error, gettext)
