"""A list of a faction whose game system is a BattleScribe 1.x file (BSData/whfb's 8th edition
under its 8thBRB army books, imported into ru_whfb): the editor offers the game system's force
types as its forces and the roster checks their limits; the shares of the army's points each
category may take (Core at least 25 %) are the system's own chart's to report, once. Before, such
a list had no force to choose, then said "Core at least 25 %" twice. Data: `oldforce.gst`
(invented)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from armybuilder.lists import services
from armybuilder.lists.backends import force_choices
from armybuilder.lists.evaluation import army_list_evaluate
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


def shares(violations) -> list[str]:
    """The messages about how much of the army's points a category takes."""
    return [v["message"] for v in violations if v["rule"] in ("catalogue", "percentages")]


def test_the_core_minimum_is_said_once_in_the_systems_words(army_list):
    """The game system's "Core at least 25 %" and the system's own 8th-edition chart judge the
    same thing: the player reads it once, in the chart's words (which say the percentage)."""
    assert [u.points for u in army_list.units.all()] == [120]
    assert shares(army_list.violations) == ["Core choices cost 0 pts, under 25% of the limit (500)."]
    assert shares(army_list_evaluate(army_list=army_list).violations) == shares(army_list.violations)


def test_the_charts_lord_limit_is_the_house_rules_not_the_datas(army_list):
    """The data lets Lords take half the army; the 8th-edition chart the system checks, a
    quarter. Over both (140 of 250 pts) the player reads the chart's message only."""
    thane = UnitTemplate.objects.get(faction=army_list.faction, slug="bs-of-thane")
    services.army_list_add_unit(
        army_list=army_list, unit=thane, options={}, expected_version=army_list.version
    )
    army_list.refresh_from_db()
    services.army_list_update(army_list=army_list, points_limit=250, expected_version=army_list.version)
    assert shares(army_list_evaluate(army_list=army_list).violations) == [
        "Lord choices cost 140 pts, over 25% of the limit (62.5 pts).",
        "Rare choices cost 120 pts, over 25% of the limit (62.5 pts).",
        "Core choices cost 0 pts, under 25% of the limit (62.5).",
    ]


def test_another_force_rule_of_the_data_still_speaks(army_list):
    """Only the data's shares of the points limit give way; "Last Days" needs two choices."""
    services.army_list_update(army_list=army_list, roster_force="of-last-days",
                              expected_version=army_list.version)
    army_list.refresh_from_db()
    messages = [v["message"] for v in army_list_evaluate(army_list=army_list).violations]
    assert any("Last Days" in message for message in messages), messages
