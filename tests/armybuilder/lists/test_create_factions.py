"""A new list is offered playable factions only: a rulebook's reference profiles (marked
`reference: true` in the catalogue file, no points) stay in the catalogue (issue 30, item 3)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from armybuilder.lists.forms import ArmyListCreateForm
from rules.models import Faction, GameSystem
from tests.factories.army_lists import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def catalogue():
    call_command("load_catalogue", verbosity=0)


def test_the_catalogue_flag_marks_exactly_the_two_reference_factions(catalogue):
    reference = set(Faction.objects.filter(is_reference=True).values_list("system__key", "slug"))
    assert reference == {("whfb6", "rulebook-examples"), ("wh40k9", "core-booklet-datasheets")}


@pytest.mark.parametrize(
    ("system_key", "offered"),
    [
        (
            "whfb6",
            ["Snagtooth Bog-Clans (original sample army)", "Vellmark Freeholds (original sample army)"],
        ),
        (
            "wh40k9",
            ["Ironbound Covenant (original sample army)", "Vyrrid Swarm (original sample army)"],
        ),
    ],
)
def test_the_create_form_offers_no_reference_faction(catalogue, system_key, offered):
    form = ArmyListCreateForm(user=make_user(), system=GameSystem.objects.get(key=system_key))
    assert [faction.name for faction in form.fields["faction"].queryset] == offered


def test_a_post_naming_a_reference_faction_is_refused(client, catalogue):
    user = make_user()
    client.force_login(user)
    reference = Faction.objects.get(system__key="whfb6", slug="rulebook-examples")
    response = client.post(
        reverse("lists:create"),
        {"system": "whfb6", "faction": reference.pk, "name": "Zero", "points_limit": 2000},
    )
    assert response.status_code == 400
    assert not user.army_lists.exists()


def test_the_system_page_lists_reference_profiles_last_and_labelled(client, catalogue):
    html = client.get(reverse("rules:system", args=["whfb6"])).content.decode()
    assert html.index("Vellmark Freeholds") < html.index("Rulebook examples")
    assert "reference profiles, no points: not offered for lists" in html
