"""A faction page's card grid is rendered once per content and language, then served from
the cache, and option prices are computed once per unit content (issue 17, item 10)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.cache.utils import make_template_fragment_key
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rules import unit_cards
from rules.models import Faction, UnitTemplate

pytestmark = pytest.mark.django_db


def test_the_card_grid_is_cached_under_its_content_and_changes_with_it(client) -> None:
    call_command("load_catalogue", verbosity=0)
    faction = Faction.objects.filter(system__key="opr", owner__isnull=True).first()
    url = f"/catalogue/opr/{faction.slug}/"

    first = client.get(url)
    key = make_template_fragment_key("faction_cards", [first.context["cards_key"], "en"])
    with CaptureQueriesContext(connection) as queries:
        second = client.get(url)

    assert cache.get(key) is not None
    grid = '<div class="grid unit-grid">'
    assert second.content.decode().split(grid)[1] == first.content.decode().split(grid)[1]
    assert len(queries) <= 6
    assert len(unit_cards._DELTAS) > 0

    unit = UnitTemplate.objects.filter(faction=faction).first()
    unit.name = "Renamed Wardens"
    unit.save()
    changed = client.get(url)
    assert changed.context["cards_key"] != first.context["cards_key"]
    assert "Renamed Wardens" in changed.content.decode()


def test_the_grid_key_moves_with_options_and_rule_texts_too(client) -> None:
    """The key digests what the cards are built from (units, their options, the system's
    rules), so a change to any of them shows at once, though the cards are not built on a hit."""
    from rules.models import SpecialRule, UpgradeOption

    call_command("load_catalogue", verbosity=0)
    option = UpgradeOption.objects.filter(unit__faction__owner__isnull=True,
                                          unit__faction__system__key="opr").select_related("unit__faction").first()
    url = f"/catalogue/opr/{option.unit.faction.slug}/"
    first = client.get(url).context["cards_key"]
    assert client.get(url).context["cards_key"] == first

    option.label = "A relabelled option"
    option.save()
    relabelled = client.get(url)
    assert relabelled.context["cards_key"] != first
    assert "A relabelled option" in relabelled.content.decode()

    rule = SpecialRule.objects.filter(system__key="opr").first()
    rule.text = rule.text + " (errata)"
    rule.save()
    assert client.get(url).context["cards_key"] != relabelled.context["cards_key"]
