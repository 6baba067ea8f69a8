"""Every label and help text of every system's schemas is translated (issue 14, point 1).

The schemas are JSON data, so `makemessages` cannot see their strings; this test walks the
registered systems' `profile_schema` (and `situation_schema` and `list_settings_schema` where a
system has one) and
asks each catalogue for every `title`, `x-long` (full name), `description`, enum value and enum
label. A system that gains a field without marking its label in its own package (`LABELS`) and
adding it to the catalogues fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import trans_real

from rules.systems.registry import all_systems

#: Profile abbreviations that stay as printed in the rulebooks (the seeds use them too).
ABBREVIATIONS = frozenset(
    {"M", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Sv", "Inv", "Min", "Max", "AP", "D", "US", "D3", "D6",
     "Q"}
)


def labels(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key in ("title", "x-long", "description"):
            if isinstance(node.get(key), str):
                yield node[key]
        enum_labels = node.get("x-enum-labels")
        if isinstance(node.get("enum"), list) and not isinstance(enum_labels, dict):
            # Without labels the values themselves are the choices a select shows.
            yield from (value for value in node["enum"] if isinstance(value, str) and not value.isdigit())
        if isinstance(enum_labels, dict):
            yield from (str(label) for label in enum_labels.values())
        for value in node.values():
            yield from labels(value)
    elif isinstance(node, list):
        for value in node:
            yield from labels(value)


def schema_labels() -> set[str]:
    found: set[str] = set()
    for system in all_systems():
        found.update(labels(system.profile_schema))
        found.update(labels(getattr(system, "situation_schema", None) or {}))
        # a list's own parameters, shown on the editor, the roster page, the PDF and the text
        found.update(labels(getattr(system, "list_settings_schema", None) or {}))
    return found


def test_the_bundled_systems_have_labels_to_translate():
    assert {"Toughness", "Points per model, from the army book", "To Hit", "Rend"} <= schema_labels()


@pytest.mark.parametrize("language", ["pl", "cs", "ru"])
def test_every_schema_label_is_translated(language):
    """Each label has an entry in the language's catalogue (it may read the same: "Model")."""
    catalogue = trans_real.translation(language)._catalog
    untranslated = sorted(label for label in schema_labels() - ABBREVIATIONS if not catalogue.get(label))
    assert untranslated == []
    help_text = "Points per model, from the army book"
    with translation.override(language):
        assert translation.gettext(help_text) != help_text
