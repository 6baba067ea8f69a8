"""Catalogue pages: systems → factions → unit cards, priced by the engine, with bounded queries."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rules.models import Faction, GameSystem, UnitTemplate, UpgradeOption
from rules.options import apply_options
from rules.systems.registry import get_system
from rules.unit_cards import option_dicts

pytestmark = pytest.mark.django_db


@pytest.fixture
def catalogue():
    call_command("load_catalogue", verbosity=0)


def card_points(html: str, slug: str) -> int:
    """The points a unit card shows (its `data-points`)."""
    card = html[html.index(f'id="unit-{slug}"') :]
    return int(re.search(r'class="points unit-points" data-points="(\d+)"', card).group(1))


def test_every_bundled_opr_unit_prices_and_its_card_shows_the_engines_points(client, catalogue):
    opr = get_system("opr")
    units = UnitTemplate.objects.filter(faction__system__key="opr").select_related("faction")
    assert units.count() >= 20
    pages: dict[str, str] = {}
    for unit in units:
        engine = opr.price(unit.data)["points"]
        assert unit.points == engine
        if unit.faction.slug not in pages:
            response = client.get(reverse("rules:faction", args=["opr", unit.faction.slug]))
            assert response.status_code == 200
            pages[unit.faction.slug] = response.content.decode()
        assert card_points(pages[unit.faction.slug], unit.slug) == engine


def test_a_unit_page_shows_profile_weapons_rules_with_text_and_option_deltas(client, catalogue):
    unit = UnitTemplate.objects.get(slug="concord-wardens")
    html = client.get(
        reverse("rules:unit", args=["opr", "ashen-concord", "concord-wardens"])
    ).content.decode()
    # The system's schema heading (issue 30: "Q", as OPR prints "Q3+"; the seam helper adds its long name).
    assert '<th scope="col" class="num">Q</th>' in html
    assert "Ash Rifle" in html and "Melee" in html
    # A rule's text is reachable by hover and by keyboard focus (tabindex) and tied to it for screen readers.
    assert (
        re.search(
            r'<span class="rule" tabindex="0" aria-describedby="(rt-[^"]+)">Blast\(3\)'
            r'<span class="rule-text" role="tooltip" id="\1">',
            html,
        )
        is None
    )  # not on the base unit
    wardens_rules = UnitTemplate.objects.get(slug="ashguard-veterans")
    veterans = client.get(
        reverse("rules:unit", args=["opr", "ashen-concord", wardens_rules.slug])
    ).content.decode()
    assert re.search(
        r'<span class="rule" tabindex="0" aria-describedby="(rt-[^"]+)">Fearless'
        r'<span class="rule-text" role="tooltip" id="\1">When the unit has to take morale tests',
        veterans,
    )
    options = option_dicts(unit)
    base = get_system("opr").price(unit.data)["points"]
    more = apply_options(unit.data, options, {"more-wardens": 1})
    delta = get_system("opr").price(more)["points"] - base
    assert f"+{delta} pts" in html
    assert "Add five Wardens" in html and "(Special weapons)" in html


def test_system_pages_list_factions_and_rules_for_every_system(client, catalogue):
    index = client.get(reverse("rules:systems")).content.decode()
    for system in GameSystem.objects.all():
        assert system.name in index
        page = client.get(reverse("rules:system", args=[system.key]))
        assert page.status_code == 200
    whfb = client.get(reverse("rules:system", args=["whfb6"])).content.decode()
    assert "Smrtící úder" in whfb and "not in the source" in whfb
    aos = client.get(reverse("rules:system", args=["aos1"])).content.decode()
    assert "Stormwardens of Halcyr (original sample army)" in aos  # the sheet has none: ours
    chariot = client.get(reverse("rules:unit", args=["whfb6", "rulebook-examples", "goblin-wolf-chariot"]))
    assert chariot.status_code == 200 and "Giant Wolves" in chariot.content.decode()
    datasheet = client.get(
        reverse("rules:unit", args=["wh40k9", "core-booklet-datasheets", "assault-intercessor-squad"])
    ).content.decode()
    assert "3+" in datasheet and "Pistol 1" in datasheet and "Power 5" in datasheet
    assert '0 pts <small class="points-missing">(none in the source)</small>' in datasheet


def test_the_navigation_links_to_the_catalogue_and_the_designer(client, catalogue):
    html = client.get("/").content.decode()
    assert f'href="{reverse("rules:systems")}"' in html and ">Catalogue<" in html
    assert f'href="{reverse("rules:designer")}"' in html


def make_faction(units: int) -> Faction:
    system, _ = GameSystem.objects.get_or_create(key="opr", defaults={"name": "OPR"})
    faction = Faction.objects.create(system=system, slug=f"test-{units}", name=f"Test {units}")
    for i in range(units):
        unit = UnitTemplate.objects.create(
            faction=faction,
            slug=f"unit-{i}",
            name=f"Unit {i}",
            data={
                "format": 1,
                "system": "opr",
                "name": f"Unit {i}",
                "models": [
                    {
                        "name": "Trooper",
                        "count": 5,
                        "quality": 4,
                        "defence": 5,
                        "toughness": 1,
                        "rules": ["Fearless"],
                        "weapons": [{"name": "Rifle", "range": 24, "attacks": 1, "ap": 0}],
                    }
                ],
            },
        )
        UpgradeOption.objects.create(
            unit=unit, key="more", label="More", kind="add_models", payload={"count": 1}, max_count=5
        )
        UpgradeOption.objects.create(
            unit=unit, key="fast", label="Fast", kind="add_rule", payload={"rule": "Fast"}, group="Speed"
        )
    return faction


def queries_for_faction_page(client, faction: Faction) -> int:
    url = reverse("rules:faction", args=["opr", faction.slug])
    client.get(url)  # warm caches (sessions, content types) so only the page's own queries count
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured)


def test_the_faction_page_makes_the_same_number_of_queries_for_5_and_15_units(client, catalogue):
    five, fifteen = make_faction(5), make_faction(15)
    assert queries_for_faction_page(client, five) == queries_for_faction_page(client, fifteen)
    assert queries_for_faction_page(client, fifteen) <= 6
