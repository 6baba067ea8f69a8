"""How a unit of a list built by the roster engine shows its chosen options beside one of a list in
the unit format: the row's "Upgrades", the roster card and the text export count equal options
("5x Boltgun", as a bundled row writes "2x Add Marine (up to 9)"), and the picker names each
model's own choices after that model ("Marine 2: Gun"), so a group is one model's choice, as a
bundled unit's "Gun" group is. Before, a Tactical Squad of six Marines (`marines.cat`, each
Marine a selection of its own with a Gun to choose) read "Boltgun, Plasma gun, Boltgun, Boltgun,
…", and its six Gun groups were one pick-one group: the picker showed twelve radio buttons of
one name, so choosing one Marine's gun unchose the other five's."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from armybuilder.lists.services import army_list_add_unit, army_list_create, army_list_unit_set_options
from armybuilder.roster.cards import build_roster
from armybuilder.roster.describe import chosen_upgrades
from armybuilder.roster.text import army_list_text
from armybuilder.templatetags.army_lists import option_groups
from rules.models import Faction, GameSystem
from tests.factories.army_lists import make_user
from tests.rules.battlescribe.files import FILES, GRIMDARK

pytestmark = pytest.mark.django_db


@pytest.fixture
def squad():
    """A Tactical Squad of an engine list: six Marines (two over its four), the second with a
    plasma gun instead of his boltgun."""
    call_command("load_catalogue", verbosity=0)
    call_command("import_battlescribe", *[str(FILES / n) for n in GRIMDARK], system="wh40k9", verbosity=0)
    owner = make_user()
    faction = Faction.objects.get(slug="bs-cat-marines", owner=None)
    army_list = army_list_create(owner=owner, system=GameSystem.objects.get(key="wh40k9"), faction=faction,
                                 name="Labels", points_limit=1000)
    tactical = faction.units.get(slug="bs-se-tactical")
    unit = army_list_add_unit(army_list=army_list, unit=tactical, options={"more-marine": 2},
                              expected_version=None)
    unit.army_list = army_list
    # the second Marine's gun: the options under the Marine selection numbered 1 (from 0)
    second = [o for o in unit.available_options if "Gun" in o["group"] and o["path"][0].endswith("#1")]
    assert sorted(o["label"] for o in second) == ["Boltgun", "Plasma gun"]
    chosen = dict(unit.chosen_options)
    chosen.update({option["key"]: int(option["label"] == "Plasma gun") for option in second})
    unit = army_list_unit_set_options(list_unit=unit, options=chosen, expected_version=None)
    army_list.refresh_from_db()
    unit.army_list = army_list
    return owner, army_list, unit


def test_equal_options_are_counted_as_a_bundled_row_counts_them(squad, client):
    owner, army_list, unit = squad
    upgrades = "6x Marine, 6x Boltgun, Plasma gun, Frag grenades"  # the Sergeant: no choice
    assert ", ".join(chosen_upgrades(unit)) == upgrades
    client.force_login(owner)
    page = client.get(reverse("lists:detail", args=[army_list.pk])).content.decode()
    assert f'<span class="unit-upgrades">Upgrades: {upgrades}</span>' in page
    [card] = build_roster(army_list=army_list, units=[unit]).cards
    assert list(card.upgrades) == upgrades.split(", ")
    text = army_list_text(army_list=army_list, units=[unit])
    assert f"Tactical Squad [{unit.points} pts], 7 models: 7x Boltgun, {upgrades}" in text


def test_each_models_choice_is_a_group_of_its_own(squad):
    _owner, _army_list, unit = squad
    guns = [group for group in option_groups(unit) if "Gun" in group["name"]]
    assert [group["name"] for group in guns] == [f"Marine {n}: Gun" for n in range(1, 7)]
    assert all(group["pick_one"] for group in guns)
    taken = [[option["label"] for option in group["options"] if option["count"]] for group in guns]
    assert taken == [["Boltgun"], ["Plasma gun"], ["Boltgun"], ["Boltgun"], ["Boltgun"], ["Boltgun"]]
    # the Sergeant, one of his kind, is named alone, as before
    assert "Sergeant" in [group["name"] for group in option_groups(unit)]
