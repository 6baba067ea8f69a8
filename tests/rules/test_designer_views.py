"""The unit designer over HTTP: live breakdown fragments, inline errors, saving homebrew units,
and who may see or edit them."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.http import QueryDict
from django.urls import reverse

from rules.designer_form import field_for_path
from rules.models import Faction, UnitTemplate
from rules.services import homebrew_faction_set_shared, homebrew_unit_save
from rules.systems.registry import get_system

pytestmark = pytest.mark.django_db


@pytest.fixture
def catalogue():
    call_command("load_catalogue", verbosity=0)


@pytest.fixture
def player():
    return get_user_model().objects.create_user("player", password="pw-for-tests-only")


@pytest.fixture
def rival():
    return get_user_model().objects.create_user("rival", password="pw-for-tests-only")


def infantry_post(**changes: str) -> dict[str, str]:
    """The designer's inputs for the spec's Infantry example (docs/rules/opr-points.md §9: 143 pts)."""
    post = {
        "system": "opr",
        "name": "Infantry",
        "role": "infantry",
        "models-total": "1",
        "m0-name": "Trooper",
        "m0-count": "10",
        "m0-quality": "4",
        "m0-defence": "5",
        "m0-toughness": "1",
        "m0-weapons-total": "2",
        "m0-w0-name": "Rifle",
        "m0-w0-range": "24",
        "m0-w0-attacks": "1",
        "m0-w0-ap": "0",
        "m0-w1-name": "Knife",
        "m0-w1-range": "0",
        "m0-w1-attacks": "1",
        "m0-w1-ap": "0",
    }
    post.update(changes)
    return post


def total(html: str) -> int | None:
    match = re.search(r'id="designer-total" data-points="(\d*)"', html)
    return int(match.group(1)) if match and match.group(1) else None


def test_field_paths_map_onto_designer_inputs():
    assert field_for_path("models[0].quality") == "m0-quality"
    assert field_for_path("models[1].weapons[2].ap") == "m1-w2-ap"
    assert field_for_path("models[0].rules[3]") == "m0-rules"
    assert field_for_path("models[0].weapons[0].rules[0]") == "m0-w0-rules"
    assert field_for_path("name") == "name"
    assert field_for_path("models") == ""


def test_the_designer_starts_with_a_quality_4_model_and_shows_its_points(client, catalogue):
    response = client.get(reverse("rules:designer"))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="id-m0-quality"' in html and 'name="m0-quality" value="4+"' in html
    assert '<label for="id-m0-quality"' in html
    assert 'hx-trigger="change, input delay:300ms"' in html
    assert total(html) is not None


def test_an_htmx_change_returns_only_the_breakdown_with_every_term(client, catalogue):
    response = client.post(reverse("rules:designer"), infantry_post(), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="designer-breakdown"')
    assert "<form" not in html
    assert total(html) == 143
    assert re.search(
        r"Base cost</a> = 5 × 1 <small>.*Quality factor</a></small> × 1 <small>.*"
        r"Defence factor</a></small> × 1 <small>.*Toughness factor</a></small> = <strong>5</strong>",
        html,
    )
    assert "Model: 5 + weapons 9.3 + abilities 0 = 14.3; × 10 = <strong>143</strong>" in html
    assert "a shooter unit" in html and "its melee weapons cost half." in html
    assert "<s>3.6</s> ½ → <strong>1.8</strong>" in html


def test_quality_3_and_a_weapon_rule_change_the_total_to_the_engines_value(client, catalogue):
    post = infantry_post(**{"m0-quality": "3"})
    post["m0-w1-rules"] = "rending"
    html = client.post(reverse("rules:designer"), post, HTTP_HX_REQUEST="true").content.decode()
    expected = get_system("opr").price(
        {
            "name": "Infantry",
            "models": [
                {
                    "name": "Trooper",
                    "count": 10,
                    "quality": 3,
                    "defence": 5,
                    "toughness": 1,
                    "weapons": [
                        {"name": "Rifle", "range": 24, "attacks": 1, "ap": 0},
                        {"name": "Knife", "range": 0, "attacks": 1, "ap": 0, "rules": ["Rending"]},
                    ],
                }
            ],
        }
    )["points"]
    assert total(html) == expected != 143


def test_invalid_values_show_an_error_beside_their_field(client, catalogue):
    post = infantry_post(**{"m0-quality": "9", "m0-w0-ap": "x"})
    html = client.post(reverse("rules:designer"), post, HTTP_HX_REQUEST="true").content.decode()
    assert total(html) is None
    assert re.search(
        r'<span class="field-error" id="err-m0-quality" hx-swap-oob="true">[^<]*\S[^<]*</span>', html
    )
    assert (
        '<span class="field-error" id="err-m0-w0-ap" hx-swap-oob="true">Enter a whole number.</span>' in html
    )
    assert '<span class="field-error" id="err-m0-count" hx-swap-oob="true"></span>' in html
    # Without JavaScript the same post re-renders the whole page with the errors in place.
    page = client.post(reverse("rules:designer"), post).content.decode()
    assert 'aria-invalid="true"' in page and "<form" in page


@pytest.mark.parametrize("typed", ["3+", "3", " 3+ "])
def test_quality_is_entered_as_3_plus_or_3_and_shown_as_3_plus(client, catalogue, typed):
    """Quality and Defence are rolls: a player types "3+" (or "3"), the form shows "3+"."""
    url = reverse("rules:designer")
    as_typed = client.post(url, infantry_post(**{"m0-quality": typed}), HTTP_HX_REQUEST="true")
    as_number = client.post(url, infantry_post(**{"m0-quality": "3"}), HTTP_HX_REQUEST="true")
    assert total(as_typed.content.decode()) == total(as_number.content.decode()) != 143
    page = client.post(url, infantry_post(**{"m0-quality": typed})).content.decode()
    assert 'name="m0-quality" value="3+"' in page


@pytest.mark.parametrize("typed", ["3++", "+3", "three", "7+", "1"])
def test_a_bad_quality_is_refused_with_a_message_naming_the_field(client, catalogue, typed):
    html = client.post(
        reverse("rules:designer"), infantry_post(**{"m0-quality": typed}), HTTP_HX_REQUEST="true"
    ).content.decode()
    assert total(html) is None
    assert (
        '<span class="field-error" id="err-m0-quality" hx-swap-oob="true">'
        "Quality: enter a roll from 2+ to 6+, e.g. 4+.</span>" in html
    )


def test_the_designer_links_each_priced_input_and_factor_to_the_formula_page(client, catalogue):
    """The designer's factors are named in a player's words ("Quality factor", not "morale
    modifier") and link to the section of the formula page that explains them."""
    page = client.get(reverse("rules:designer")).content.decode()
    formula = reverse("rules:points_formula", args=["opr"])
    for anchor in ("morale", "defence", "toughness", "range", "weapons", "ap"):
        assert f'href="{formula}#{anchor}"' in page, anchor
    assert "Quality <abbr" in page and "How Quality is priced" in page
    breakdown = client.post(
        reverse("rules:designer"), infantry_post(), HTTP_HX_REQUEST="true"
    ).content.decode()
    for anchor in ("unit-cost", "morale", "defence", "toughness", "weapons", "range", "hit-chance", "ap"):
        assert f'href="{formula}#{anchor}"' in breakdown, anchor
    explained = client.get(formula).content.decode()
    for anchor in ("unit-cost", "morale", "defence", "toughness", "weapons", "range", "hit-chance", "ap",
                   "weapon-rules", "abilities"):
        assert f'<section id="{anchor}">' in explained, anchor


def test_a_catalogue_priced_system_has_no_formula_page(client, catalogue):
    from rules.models import GameSystem

    keys = [s.key for s in GameSystem.objects.all() if not get_system(s.key).formula_template]
    assert keys
    assert client.get(reverse("rules:points_formula", args=[keys[0]])).status_code == 404


def test_a_rule_that_needs_a_value_says_so(client, catalogue):
    post = infantry_post()
    post["m0-rules"] = "fear"
    html = client.post(reverse("rules:designer"), post, HTTP_HX_REQUEST="true").content.decode()
    assert "needs a value" in html
    post["m0-rulevalue-fear"] = "2"
    assert total(client.post(reverse("rules:designer"), post, HTTP_HX_REQUEST="true").content.decode()) > 143


def test_adding_and_removing_weapons_and_models_rerenders_the_form(client, catalogue):
    html = client.post(
        reverse("rules:designer"), {**infantry_post(), "action": "add-weapon-0"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert html.lstrip().startswith('<div id="designer"')
    assert 'name="m0-weapons-total" value="3"' in html
    html = client.post(reverse("rules:designer"), {**infantry_post(), "action": "add-model"}).content.decode()
    assert 'name="models-total" value="2"' in html and 'id="id-m1-quality"' in html
    html = client.post(
        reverse("rules:designer"), {**infantry_post(), "action": "remove-weapon-0-1"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert 'name="m0-weapons-total" value="1"' in html


def test_saving_needs_a_signed_in_player(client, catalogue):
    response = client.post(reverse("rules:designer"), {**infantry_post(), "action": "store"})
    assert response.status_code == 302 and "login" in response["Location"]
    assert not UnitTemplate.objects.filter(faction__owner__isnull=False).exists()


def test_saving_puts_the_unit_in_the_players_homebrew_faction(client, catalogue, player):
    client.force_login(player)
    response = client.post(reverse("rules:designer"), {**infantry_post(), "action": "store"})
    unit = UnitTemplate.objects.get(faction__owner=player)
    assert response.status_code == 302 and response["Location"] == reverse(
        "rules:designer_edit", args=[unit.pk]
    )
    assert unit.points == 143 and unit.faction.system.key == "opr" and not unit.faction.is_shared
    # Saving again edits the same unit.
    client.post(
        reverse("rules:designer_edit", args=[unit.pk]),
        {**infantry_post(**{"m0-count": "5"}), "action": "store"},
    )
    unit.refresh_from_db()
    assert unit.points == 72  # 5 × 14.3 = 71.5 → 72
    assert Faction.objects.filter(owner=player).count() == 1


def test_homebrew_units_are_private_until_shared(client, catalogue, player, rival):
    data = {
        "format": 1,
        "system": "opr",
        "name": "Secret Squad",
        "models": [
            {"name": "Agent", "count": 3, "quality": 3, "defence": 4, "toughness": 1, "rules": ["Stealth"]}
        ],
    }
    unit = homebrew_unit_save(user=player, data=data)
    faction = unit.faction
    unit_url = reverse("rules:unit", args=["opr", faction.slug, unit.slug])
    faction_url = reverse("rules:faction", args=["opr", faction.slug])
    edit_url = reverse("rules:designer_edit", args=[unit.pk])

    client.force_login(rival)
    for url in (unit_url, faction_url, edit_url):
        assert client.get(url).status_code == 404
    assert client.post(edit_url, {**infantry_post(), "action": "store"}).status_code == 404
    assert client.post(reverse("rules:homebrew_unit_delete", args=[unit.pk])).status_code == 404
    assert client.post(reverse("rules:homebrew_share", args=[faction.pk]), {"shared": "1"}).status_code == 404
    assert client.get(reverse("rules:designer") + f"?from={unit.pk}").status_code == 404
    client.logout()
    assert client.get(unit_url).status_code == 404

    homebrew_faction_set_shared(user=player, faction=faction, shared=True)
    client.force_login(rival)
    assert client.get(unit_url).status_code == 200
    assert client.get(faction_url).status_code == 200
    assert client.get(edit_url).status_code == 404, "shared means readable, not editable"
    copy = client.get(reverse("rules:designer") + f"?from={unit.pk}").content.decode()
    assert 'value="Secret Squad"' in copy

    client.force_login(player)
    assert client.get(edit_url).status_code == 200
    assert client.post(reverse("rules:homebrew_unit_delete", args=[unit.pk])).status_code == 302
    assert not UnitTemplate.objects.filter(pk=unit.pk).exists()


def test_the_designer_works_for_a_catalogue_priced_system(client, catalogue, player):
    page = client.get(reverse("rules:designer") + "?system=whfb6").content.decode()
    assert 'id="id-m0-ws"' in page and 'id="id-m0-points"' in page
    post = {
        "system": "whfb6",
        "name": "Ogres",
        "role": "infantry",
        "models-total": "1",
        "m0-name": "Ogre",
        "m0-count": "3",
        "m0-points": "35",
        "m0-ws": "3",
        "m0-t": "4",
        "m0-w": "3",
        "m0-ld": "7",
        "m0-weapons-total": "1",
        "m0-w0-name": "Hand weapon",
        "m0-w0-range": "0",
        "m0-w0-strength": "user",
        "m0-rules": "fear",
    }
    html = client.post(reverse("rules:designer"), post, HTTP_HX_REQUEST="true").content.decode()
    assert total(html) == 105 and "3 × 35 pts (from the book) = 105" in html


class _FormFields(HTMLParser):
    """The values a browser would submit from the designer form (checked boxes, selected options)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: list[tuple[str, str]] = []
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if (tag == "input" and a.get("name") and a.get("type") not in ("checkbox",)) or (
            tag == "input" and a.get("type") == "checkbox" and "checked" in a
        ):
            self.fields.append((a["name"], a.get("value", "")))
        elif tag == "select":
            self._select = a.get("name")
        elif tag == "option" and self._select and "selected" in a:
            self.fields.append((self._select, a.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def form_post(html: str) -> dict[str, list[str]]:
    """The designer form's submission, as the test client posts it (a list per repeated name)."""
    start = html.index('<form id="designer-form"')
    parser = _FormFields()
    parser.feed(html[start : html.index("</form>", start)])
    post = QueryDict(mutable=True)
    for name, value in parser.fields:
        post.appendlist(name, value)
    return dict(post.lists())


def test_a_copied_datasheet_round_trips_through_the_form_with_its_power_and_profiles(
    client, catalogue, player
):
    """docs/rules/wh40k9.md §1.2: fields without an input (Power Rating, keywords) survive a save."""
    squad = UnitTemplate.objects.get(slug="assault-intercessor-squad")
    html = client.get(reverse("rules:designer") + f"?from={squad.pk}").content.decode()
    post = form_post(html)
    assert post["system"] == ["wh40k9"] and post["m0-rules"] == ["angels-of-death", "combat-squads"]
    preview = client.post(reverse("rules:designer"), post, HTTP_HX_REQUEST="true").content.decode()
    assert "Power 5" in preview and total(preview) == 0
    client.force_login(player)
    post["action"] = ["store"]
    client.post(reverse("rules:designer"), post)
    saved = UnitTemplate.objects.get(faction__owner=player)
    assert saved.data["power_rating"] == 5 and saved.data["keywords"] == squad.data["keywords"]
    assert [m["count"] for m in saved.data["models"]] == [4, 1]
    assert saved.data["models"][0]["rules"] == ["Angels of Death", "Combat Squads"]
    assert saved.data["models"][0]["weapons"][2]["rules"] == ["Blast", "Grenade"]
