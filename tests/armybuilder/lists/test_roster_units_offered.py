"""What a roster list offers is what BattleScribe offers (issue 40): an entry BattleScribe never
shows is not imported as a unit, one it hides while its conditions hold is refused until they
change, a root entry of type `upgrade` (an AoS battalion) is a unit a player can add, and a
root link to nothing leaves out that entry alone (hand-written test catalogue `bands_army.cat`)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from armybuilder.lists import services
from armybuilder.lists.backends import engine_units as roster_units
from armybuilder.lists.errors import ArmyListError
from rules.battlescribe_import import import_files
from rules.models import UnitTemplate
from tests.factories.army_lists import make_list, make_user
from tests.rules.battlescribe.files import sources

pytestmark = pytest.mark.django_db


@pytest.fixture
def imported():
    call_command("load_catalogue", verbosity=0)
    owner = make_user()
    result = import_files(system_key="whfb6", files=sources("bands.gst", "bands_army.cat"), owner=owner)
    return owner, result


def add(army_list, faction, slug):
    army_list.refresh_from_db()
    return services.army_list_add_unit(
        army_list=army_list,
        unit=UnitTemplate.objects.get(faction=faction, slug=slug),
        options={},
        expected_version=army_list.version,
    )


def test_never_shown_entries_and_links_to_nothing_are_not_units_upgrades_at_the_root_are(imported):
    _owner, result = imported
    faction = result.factions[0]
    slugs = sorted(UnitTemplate.objects.filter(faction=faction).values_list("slug", flat=True))
    assert slugs == ["bs-bd-chief", "bs-bd-giant", "bs-bd-pact", "bs-bd-riders", "bs-bd-spears"]
    assert (
        "bands_army.cat: catalogue/entryLink[@name='Old Giant']: hidden in BattleScribe and no "
        "modifier shows it; not offered"
    ) in result.warnings
    # a link to nothing leaves out that entry alone
    assert (
        "bands_army.cat: catalogue/entryLink[@name='Lost Troll']: left out: the link's target "
        "'bd-nowhere' is in none of the uploaded files"
    ) in result.warnings


def test_a_conditionally_hidden_unit_is_refused_until_battlescribe_shows_it(imported):
    owner, result = imported
    faction = result.factions[0]
    army_list = make_list(owner=owner, faction=faction, points_limit=2000)
    with pytest.raises(ArmyListError) as refused:
        add(army_list, faction, "bs-bd-chief")
    assert refused.value.errors == [
        ("unit", "Hill Chief is not available in this list: BattleScribe hides it here.")
    ]
    add(army_list, faction, "bs-bd-spears")
    chief = add(army_list, faction, "bs-bd-chief")
    assert chief.points == 80
    army_list.refresh_from_db()
    assert army_list.total_points == 60 + 80


def test_an_upgrade_at_the_root_is_added_for_its_points(imported):
    owner, result = imported
    faction = result.factions[0]
    army_list = make_list(owner=owner, faction=faction, points_limit=2000)
    pact = add(army_list, faction, "bs-bd-pact")
    assert (pact.name, pact.points) == ("Warband Pact", 25)
    army_list.refresh_from_db()
    assert army_list.total_points == 25


def test_a_choice_battlescribe_leaves_empty_is_priced_from_its_cheapest_completion(imported, client):
    """BattleScribe adds Wolf Riders without a weapon (the group needs one and names no
    default): 50 pts and an error. The menu does not offer them for 50 as if that were the unit,
    nor for 0 as Leman Russ Battle Tanks were: "from 60 pts", with the cheapest weapon, the
    price of the smallest legal unit, which is also the import's."""
    owner, result = imported
    faction = result.factions[0]
    template = UnitTemplate.objects.get(faction=faction, slug="bs-bd-riders")
    assert template.points == 60
    army_list = make_list(owner=owner, faction=faction, points_limit=2000)
    menu = roster_units.with_menu_points(army_list, [template])
    assert (menu[0].points, menu[0].points_from) == (60, True)
    riders = add(army_list, faction, "bs-bd-riders")
    assert riders.points == 50
    army_list.refresh_from_db()
    assert "Wolf Riders: at least 1 × Weapons needed (now 0)." in [v["message"] for v in army_list.violations]
    client.force_login(owner)
    page = client.get(reverse("lists:detail", args=[army_list.pk])).content.decode()
    row = page[page.index('data-unit="bs-bd-riders"') :]
    assert row[: row.index("</form>")].count("from 60 pts") == 1
    spears = UnitTemplate.objects.get(faction=faction, slug="bs-bd-spears")
    (menu_spears,) = roster_units.with_menu_points(army_list, [spears])
    assert menu_spears.points_from is False  # entered whole: its plain price


def test_the_menu_offers_only_what_the_roster_can_take_when_the_player_imported_other_factions(imported):
    """A player who imported three 40k catalogues saw, in a Necrons list, every Orks and
    Ultramarines unit too (363 of 449 entries), each refused once picked: "This unit cannot be
    taken in this list's catalogue". The menu of a roster list holds its own faction's units and
    the root entries its force shows, nothing another catalogue brings."""
    from armybuilder.lists import backends, selectors

    owner, result = imported
    faction = result.factions[0]
    other = import_files(system_key="whfb6", files=sources("hold.gst", "hold_dwarfs.cat"), owner=owner)
    assert other.factions and all(f.pk != faction.pk for f in other.factions)
    army_list = make_list(owner=owner, faction=faction, points_limit=2000)
    offered = backends.backend_for(army_list, []).unit_choices(
        list(selectors.army_list_unit_choices(army_list=army_list))
    )
    assert sorted(t.slug for t in offered) == sorted(
        UnitTemplate.objects.filter(faction=faction).values_list("slug", flat=True)
    )
    for template in offered:
        if template.slug != "bs-bd-chief":  # hidden until a unit of spears is in the list
            army_list.refresh_from_db()
            services.army_list_add_unit(army_list=army_list, unit=template, options={},
                                        expected_version=army_list.version)
