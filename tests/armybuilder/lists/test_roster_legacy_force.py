"""A list of a faction whose game system is a BattleScribe 1.x file (BSData/whfb's 8th edition
under its 8thBRB army books, imported into ru_whfb): the editor offers the game system's force
types as its forces and the roster checks their category limits (Core at least 25 % of the
army's points). Before, such a list had no force to choose. Data: `oldforce.gst` (invented)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from armybuilder.lists import services
from armybuilder.lists.backends import force_choices
from rules.battlescribe_import import import_files
from rules.models import UnitTemplate
from tests.factories.army_lists import make_list, make_user
from tests.rules.battlescribe.files import sources

pytestmark = pytest.mark.django_db


@pytest.fixture
def army_list():
    call_command("load_catalogue", verbosity=0)
    owner = make_user()
    faction = import_files(system_key="ru_whfb", files=sources("oldforce.gst", "oldforce_clans.cat"),
                           owner=owner).factions[0]
    army_list = make_list(owner=owner, faction=faction, points_limit=2000)
    cannon = UnitTemplate.objects.get(faction=faction, slug="bs-of-cannon")
    services.army_list_add_unit(
        army_list=army_list, unit=cannon, options={}, expected_version=army_list.version
    )
    army_list.refresh_from_db()
    return army_list


def test_the_force_types_are_offered_as_the_lists_forces(client, army_list):
    assert force_choices(army_list) == [("of-standard", "Grand Muster"), ("of-last-days", "Last Days")]
    client.force_login(army_list.owner)
    page = client.get(reverse("lists:detail", args=[army_list.pk])).content.decode()
    assert '<option value="of-standard" selected>Grand Muster</option>' in page
    assert '<option value="of-last-days">Last Days</option>' in page


def test_the_core_minimum_is_a_share_of_the_armys_points(army_list):
    assert [u.points for u in army_list.units.all()] == [120]
    assert [v["message"] for v in army_list.violations] == [
        "Grand Muster: at least 500 pts of Core units needed (now 0)."
    ]
