"""What a printed roster can be asked for: its paper size and its print options (query
parameters of the print page and the PDF, and the inputs of a PDF job alike).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext_lazy

#: Paper sizes the roster offers, by the `paper` query parameter: the CSS `@page` size.
PAPER_SIZES = {"a4": "A4", "letter": "letter"}
PAPER_LABELS = {"a4": "A4", "letter": gettext_lazy("Letter")}


#: Print options of the roster (query parameters), each with its choices; the first is the default.
#: Two columns and the rules printed once at the end fit an 11-unit OPR list on two A4 pages.
PRINT_OPTIONS = {
    "columns": {"2": gettext_lazy("Two columns"), "1": gettext_lazy("One column")},
    "rules": {"reference": gettext_lazy("With the rules reference"),
              "none": gettext_lazy("Without rule texts")},
    "layout": {"cards": gettext_lazy("Unit cards"), "table": gettext_lazy("One table")},
    "glossary": {"none": gettext_lazy("Without a glossary page"),
                 "page": gettext_lazy("With a glossary page")},
}


def print_options(query: Mapping[str, str]) -> dict[str, str]:
    """The roster's print options from the query string; an unknown value falls back to the default."""
    return {
        name: value if (value := str(query.get(name, ""))) in choices else next(iter(choices))
        for name, choices in PRINT_OPTIONS.items()
    }
