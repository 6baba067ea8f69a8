"""`armybuilder.estimates.sources`: a reference target is shown by its name in the reader's
language, and stays English as data."""

from __future__ import annotations

import pytest
from django.utils import translation

from armybuilder.estimates import sources
from rules.systems.fantasy_combat.reference_targets import TRANSLATED_NAMES, reference_targets
from rules.systems.registry import all_systems

TARGETS = [(system.key, slug) for system in all_systems() for slug in system.reference_targets]


def test_every_system_with_estimates_has_reference_targets_to_check():
    assert len({key for key, _slug in TARGETS}) >= 5


@pytest.mark.parametrize("language", ["pl", "cs", "ru"])
@pytest.mark.parametrize(("system_key", "slug"), TARGETS)
def test_a_reference_targets_name_is_shown_in_the_readers_language(system_key, slug, language):
    source = sources.reference_source(system_key=system_key, slug=slug)
    english = source.unit["name"]
    with translation.override(language):
        shown = sources.reference_source(system_key=system_key, slug=slug)
        menu = dict(sources._reference_choices(system_key))
    assert shown.label != english
    assert menu[f"ref:{slug}"] == shown.label
    assert shown.unit["name"] == english  # the data itself is not translated


@pytest.mark.parametrize("system_key", ["whfb6", "ru_whfb"])
def test_every_composed_fantasy_target_name_is_marked_for_translation(system_key):
    assert {unit["name"] for unit in reference_targets(system_key).values()} <= set(TRANSLATED_NAMES)
