"""The army-wide figures of a list as the editor's templates read them (`list_summary`)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import translation

from armybuilder.templatetags import army_lists


@pytest.fixture
def summaries(monkeypatch):
    """Every army summary worked out, as (version, language)."""
    made: list[tuple[int, str]] = []

    def summary(*, army_list, units):
        made.append((army_list.version, translation.get_language()))
        return [{"key": "power_level", "label": translation.gettext("Power Level"), "value": len(made)}]

    monkeypatch.setattr(army_lists, "army_summary", summary)
    monkeypatch.setattr(army_lists.backends, "units_in_order", lambda army_list: [])
    return made


def a_list(version: int) -> SimpleNamespace:
    return SimpleNamespace(pk=1, version=version, system=SimpleNamespace(key="wh40k9"))


def test_the_figures_are_worked_out_once_per_version_and_language(summaries):
    army_list = a_list(3)
    with translation.override("en"):
        first = army_lists.list_summary(army_list)
        assert army_lists.list_summary(army_list) == first  # the totals, then the summary
        first[0]["value"] = "changed by a caller"
        assert army_lists.list_summary(army_list)[0]["value"] == 1
    with translation.override("pl"):
        army_lists.list_summary(army_list)
    army_list.version = 4  # a change
    with translation.override("pl"):
        assert army_lists.list_summary(army_list)[0]["value"] == 3
    assert summaries == [(3, "en"), (3, "pl"), (4, "pl")]
