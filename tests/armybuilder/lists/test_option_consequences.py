"""Options say what they would break before they are taken; pick-one groups are radio buttons
(issue 30, item 9). The rules are the list's own: OPR §7.4 (a model's weapons cost 1× to 5×
its base cost, before halving — `docs/rules/opr-points.md`). Every bundled option keeps it
(`tests/rules/test_catalogue_samples.py`), so the option that breaks it is the test's own
(`add_overweight_heavy_weapon`)."""

from __future__ import annotations

import html as html_module
import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from armybuilder.lists import services
from armybuilder.lists.forms import parse_option_counts, pick_input_name
from armybuilder.lists.option_consequences import option_consequences, pick_one_groups
from armybuilder.models import ListUnit
from rules.models import Faction, UnitTemplate
from tests.factories.army_lists import make_user
from tests.factories.catalogue_options import add_overweight_heavy_weapon

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
AUTOGUN = (
    "Ashguard Veterans: Ashguard (Overcharged Autogun) carries too much weaponry for what it is: "
    "its weapons are worth 87 pts, and the rules allow at most 5× the model's own cost (85.8 pts)"
)


@pytest.fixture
def editor():
    call_command("load_catalogue", verbosity=0)
    add_overweight_heavy_weapon()
    owner = make_user()
    faction = Faction.objects.get(system__key="opr", slug="ashen-concord", owner__isnull=True)
    army_list = services.army_list_create(
        owner=owner, system=faction.system, faction=faction, name="Ridge", points_limit=2000
    )

    def add(slug: str) -> ListUnit:
        army_list.refresh_from_db()
        template = UnitTemplate.objects.prefetch_related("options").get(faction=faction, slug=slug)
        unit = services.army_list_add_unit(
            army_list=army_list, unit=template, options={}, expected_version=army_list.version
        )
        unit.army_list = army_list
        return unit

    client = Client()
    client.force_login(owner)
    return army_list, add, client


def test_an_option_that_breaks_unit_balance_carries_the_message_before_it_is_taken(editor):
    army_list, add, _client = editor
    veterans = add("ashguard-veterans")
    found = option_consequences(army_list=army_list, list_unit=veterans)
    assert sorted(found) == ["overcharged-autogun"]
    [autogun] = found["overcharged-autogun"]
    assert autogun["rule"] == "unit_balance" and autogun["message"] == AUTOGUN
    # Stored language-neutral: the English original and its arguments travel with it.
    assert autogun["message_id"] == (
        "{unit}: {model} carries too much weaponry for what it is: its weapons are worth {weapons} pts, "
        "and the rules allow at most {ratio}× the model's own cost ({bound} pts)"
    )


def test_the_picker_shows_the_consequence_in_the_readers_language(editor):
    army_list, add, client = editor
    veterans = add("ashguard-veterans")
    html = client.get(reverse("lists:detail", args=[army_list.pk])).content.decode()
    option_id = f"unit-{veterans.pk}-option-overcharged-autogun"
    assert f'aria-describedby="{option_id}-consequence"' in html
    pattern = rf'<p class="option-consequence" id="{option_id}-consequence">(.*?)</p>'
    consequence = re.search(pattern, html, re.S)
    assert consequence is not None
    text = html_module.unescape(re.sub(r"<[^>]+>", "", consequence.group(1)))
    assert text == f"Taking it breaks a rule: {AUTOGUN}"
    polish = client.get(reverse("lists:detail", args=[army_list.pk]), HTTP_ACCEPT_LANGUAGE="pl")
    assert AUTOGUN not in polish.content.decode()


def test_an_option_that_breaks_nothing_says_nothing(editor):
    army_list, add, _client = editor
    captain = add("warden-captain")
    assert option_consequences(army_list=army_list, list_unit=captain) == {}


def test_a_pick_one_group_is_radio_buttons_and_posts_the_option_taken(editor):
    army_list, add, client = editor
    captain = add("warden-captain")
    menu = captain.available_options
    assert pick_one_groups(menu) == {"Captain's wargear"}
    html = client.get(reverse("lists:detail", args=[army_list.pk])).content.decode()
    radio = pick_input_name("Captain's wargear")
    assert html.count(f'type="radio" id="unit-{captain.pk}-option-') == 2
    assert f'name="{radio}" value="smoke-cloak"' in html
    assert f'id="unit-{captain.pk}-{radio}-none" name="{radio}" value="" checked' in html
    # The checkboxes outside the group stay checkboxes.
    assert f'type="checkbox" id="unit-{captain.pk}-option-forward-order"' in html
    army_list.refresh_from_db()
    response = client.post(
        reverse("lists:unit_options", args=[army_list.pk, captain.pk]),
        {"version": army_list.version, radio: "smoke-cloak"},
        **HTMX,
    )
    assert response.status_code == 200
    captain.refresh_from_db()
    assert captain.chosen_options == {"smoke-cloak": 1}
    # Another radio replaces it; "none" clears the group.
    assert parse_option_counts({radio: "refractor-shield"}, menu=menu) == {
        "slag-lance": 0, "refractor-shield": 1, "smoke-cloak": 0, "forward-order": 0
    }
    assert parse_option_counts({radio: ""}, menu=menu)["smoke-cloak"] == 0


def test_the_refusal_summary_speaks_in_messages_not_field_paths(editor):
    army_list, add, client = editor
    wardens = add("concord-wardens")
    army_list.refresh_from_db()
    response = client.post(
        reverse("lists:unit_options", args=[army_list.pk, wardens.pk]),
        {"version": army_list.version, "option-pyre-thrower": "2", "option-slag-lance": "2"},
        **HTMX,
    )
    html = response.content.decode()
    assert response.status_code == 400
    assert "At most 2 of “Special weapons” can be taken (chosen: 4)." in html
    assert "groups.Special weapons" not in html and "<code>" not in html
