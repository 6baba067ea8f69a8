"""A system package dropped into `rules/systems/` is a system of the whole product, with no other
change (`DESIGN.md`, "A system declares what the product shows of it"; the registry
discovers packages, no list is kept by hand).

The test writes a package `rules/systems/toydarts/` that registers the toy system of
`tests/armybuilder/estimates/toy_system` (darts thrown at balloons), removes it again afterwards, and walks
the pages a player meets: the home page, the catalogue, the designer, the list editor, the
roster and the estimate form. Its catalogue row comes from the loader's own
`system_rows()`, its faction and unit are data, as a catalogue file would give them.
"""

from __future__ import annotations

import importlib
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.urls import reverse

from rules.catalogue_files import system_rows
from rules.models import GameSystem as GameSystemRow
from rules.models import UnitTemplate
from rules.systems.registry import SYSTEMS_PACKAGE, all_systems, get_system, unregister
from tests.armybuilder.estimates.toy_system import KEY, toy_unit
from tests.factories.army_lists import make_faction, make_list, make_user

# The package lands in the shared source tree: a parallel test process must not discover it.
pytestmark = pytest.mark.serial

PACKAGE_DIR = Path(__file__).resolve().parents[3] / "rules" / "systems" / KEY
PACKAGE_SOURCE = '''"""Written by tests/rules/systems/test_toy_system_package.py, removed when it ends."""

from rules.systems.registry import register
from tests.armybuilder.estimates.toy_system import make_system

SYSTEM = register(make_system())
'''


@pytest.fixture
def toy_package() -> Iterator[Path]:
    assert not PACKAGE_DIR.exists(), f"{PACKAGE_DIR} is left from an earlier run: delete it"
    PACKAGE_DIR.mkdir()
    try:
        (PACKAGE_DIR / "__init__.py").write_text(PACKAGE_SOURCE, encoding="utf-8")
        importlib.invalidate_caches()
        yield PACKAGE_DIR
    finally:
        shutil.rmtree(PACKAGE_DIR, ignore_errors=True)
        unregister(KEY)
        sys.modules.pop(f"{SYSTEMS_PACKAGE}.{KEY}", None)
        importlib.invalidate_caches()


def test_the_registry_discovers_the_dropped_package_in_its_declared_order(toy_package):
    keys = [s.key for s in all_systems()]
    assert keys == ["opr", "whfb6", "wh40k9", "aos1", "ru_whfb", KEY]  # orders 10..50, then the toy's 99
    assert get_system(KEY).name == "Toy darts"


@pytest.mark.django_db
def test_the_dropped_package_appears_on_every_page_a_player_meets(client, toy_package):
    # Home page: the systems come from the registry.
    home = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("rules:system", args=[KEY])}">Toy darts</a>' in home

    # Catalogue: the row the loader derives from the registry, a faction and a unit as data.
    row = GameSystemRow.objects.create(**next(r for r in system_rows() if r["key"] == KEY))
    faction = make_faction(slug="balloon-throwers", system=row)
    data = toy_unit("Throwers", count=3, darts=2, balloons=1)
    unit = UnitTemplate.objects.create(faction=faction, slug="throwers", name="Throwers", data=data, points=9)
    assert "Toy darts" in client.get(reverse("rules:systems")).content.decode()
    assert "Balloon Throwers" in client.get(reverse("rules:system", args=[KEY])).content.decode()
    card = client.get(reverse("rules:unit", args=[KEY, faction.slug, unit.slug])).content.decode()
    assert '<abbr title="Darts">Dt</abbr>' in card and '<abbr title="Balloons">Bl</abbr>' in card
    assert 'data-points="9"' in card  # 3 models × 3 pts, priced by the toy

    # Designer: one input per profile field of the toy's schema, priced by the toy.
    designer = client.get(reverse("rules:designer"), {"system": KEY}).content.decode()
    inputs = set(re.findall(r'name="(m0-[a-z_]+)"', designer))
    assert {"m0-darts", "m0-balloons"} <= inputs
    assert 'data-points="3"' in designer  # a blank unit: 1 model × 3 pts

    # List editor and roster.
    owner = make_user()
    client.force_login(owner)
    army_list = make_list(owner=owner, faction=faction, name="Pop squad", points_limit=100, units=[unit])
    editor = client.get(reverse("lists:detail", args=[army_list.pk]))
    assert editor.status_code == 200 and "Throwers" in editor.content.decode()
    roster = client.get(reverse("lists:roster", args=[army_list.pk])).content.decode()
    assert '<abbr title="Darts">Dt</abbr>' in roster
    assert re.search(r"<th scope=\"row\">Throwers</th><td class=\"num\">3</td><td class=\"num\">2</td>"
                     r"<td class=\"num\">1</td>", roster)

    # Estimate form: the toy's situation fields.
    form = client.get(reverse("estimates:new"), {"unit": unit.pk}).content.decode()
    assert 'name="wind"' in form and "Wind strength" in form
