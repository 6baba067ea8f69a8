"""The editor's unit rows and the roster's cards are rendered once per content and reused
(issue 42: "pages from per-unit fragments"); whatever a row or card shows changing — an
edit, the reader's language, the catalogue's data — shows at once, and what differs per
request (the CSRF token, the list's version in the forms) is never kept."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from armybuilder.lists import services
from armybuilder.models import ListUnit
from armybuilder.templatetags import page_fragments
from rules.models import SpecialRule
from tests.factories.army_lists import BRUTES, make_faction, make_list, make_unit, make_user

pytestmark = pytest.mark.django_db

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
VERSION = re.compile(r'name="version" value="(\d+)"')


def rows(page: str) -> str:
    start = page.index('<ol id="unit-rows"')
    return page[start:page.index("</ol>", start)]


def cards(page: str) -> str:
    return page[page.index('<section class="unit-card"'):page.rindex("</section>")]


@pytest.fixture
def editor() -> tuple[Client, object]:
    """An owner's editor on a two-unit list, with a fragment cache that starts empty."""
    cache.clear()
    owner = make_user()
    faction = make_faction()
    infantry = make_unit(faction=faction, slug="infantry")
    brutes = make_unit(faction=faction, data=BRUTES, slug="brutes", with_options=False)
    army_list = make_list(owner=owner, faction=faction, name="Cached", units=[infantry, brutes])
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    return client, army_list


def kept(kind: str) -> int:
    """How many fragments of `kind` the cache holds (locmem: its keys are listed)."""
    return sum(f"fragment:{kind}:" in key for key in cache._cache)


def test_rows_from_the_cache_equal_the_rows_rendered_whole(editor, settings) -> None:
    client, army_list = editor
    url = reverse("lists:detail", args=[army_list.pk])
    first = rows(client.get(url).content.decode())
    assert kept("unit-row") == 2
    again = rows(client.get(url).content.decode())
    settings.DEBUG = True  # nothing kept nor read: each row rendered by its template
    whole = rows(client.get(url).content.decode())

    def without_tokens(html: str) -> str:
        return CSRF.sub("TOKEN", html)

    assert without_tokens(again) == without_tokens(first) == without_tokens(whole)
    assert "Infantry" in first and "Brutes" in first
    assert "csrf" not in CSRF.sub("", again)  # no placeholder left behind


def test_a_kept_row_carries_this_requests_token_and_version_so_its_forms_post(editor) -> None:
    client, army_list = editor
    url = reverse("lists:detail", args=[army_list.pk])
    client.get(url)  # rows kept with the version of then
    brutes = ListUnit.objects.get(army_list=army_list, name="Brutes")
    army_list.refresh_from_db()
    services.army_list_unit_set_details(list_unit=brutes, custom_name="", notes="Hold the hill", group="",
                                        expected_version=army_list.version)
    page = client.get(url).content.decode()
    army_list.refresh_from_db()
    assert set(VERSION.findall(rows(page))) == {str(army_list.version)}
    infantry = ListUnit.objects.get(army_list=army_list, name="Infantry")
    assert set(CSRF.findall(rows(page)))  # one per form, each a masking of the session's secret
    form_token = CSRF.findall(rows(page))[0]
    response = client.post(reverse("lists:unit_details", args=[army_list.pk, infantry.pk]),
                           {"csrfmiddlewaretoken": form_token, "version": army_list.version,
                            "custom_name": "Red squad", "notes": "", "group": ""})
    assert response.status_code == 302, response.content[:300]  # saved (a refused token is a 403)
    assert "Red squad" in rows(client.get(url).content.decode())


def test_every_edit_shows_at_once_and_unchanged_rows_are_reused(editor) -> None:
    client, army_list = editor
    url = reverse("lists:detail", args=[army_list.pk])
    before = rows(client.get(url).content.decode())
    assert kept("unit-row") == 2
    infantry = ListUnit.objects.get(army_list=army_list, name="Infantry")
    army_list.refresh_from_db()
    infantry = services.army_list_unit_set_options(list_unit=infantry, options={"plasma": 1},
                                                   expected_version=army_list.version)
    army_list.refresh_from_db()
    services.army_list_unit_set_details(list_unit=infantry, custom_name="Blue squad", notes="Left flank",
                                        group="Vanguard", expected_version=army_list.version)
    after = rows(client.get(url).content.decode())
    assert kept("unit-row") == 3  # the edited unit's row is new; the other one's is reused
    for shown in ("Blue squad", "Left flank", "Vanguard"):
        assert shown in after and shown not in before
    assert re.search(r'id="unit-\d+-option-plasma"[^>]* checked', after)
    assert not re.search(r'id="unit-\d+-option-plasma"[^>]* checked', before)
    army_list.refresh_from_db()
    services.army_list_update(army_list=army_list, expected_version=army_list.version, name="Renamed")
    client.get(url)
    assert kept("unit-row") == 5  # the list's fields a row reads (its name) are in the key


def test_the_readers_language_is_its_own_fragment(editor) -> None:
    client, army_list = editor
    url = reverse("lists:detail", args=[army_list.pk])
    english = rows(client.get(url).content.decode())
    polish = rows(client.get(url, headers={"Accept-Language": "pl"}).content.decode())
    assert "Remove" in english and "Remove" not in polish
    assert rows(client.get(url).content.decode()).count("Remove") == english.count("Remove")


def test_a_catalogue_change_shows_in_the_rows(editor) -> None:
    client, army_list = editor
    url = reverse("lists:detail", args=[army_list.pk])
    client.get(url, headers={"Accept-Language": "pl"})
    faction = army_list.faction
    faction.translations = {"Brutes": {"pl": "Osiłki"}}
    faction.save()
    assert "Osiłki" in rows(client.get(url, headers={"Accept-Language": "pl"}).content.decode())


def test_a_row_of_one_request_is_never_kept(editor) -> None:
    client, army_list = editor
    infantry = ListUnit.objects.get(army_list=army_list, name="Infantry")
    client.get(reverse("lists:detail", args=[army_list.pk]))
    assert kept("unit-row") == 2
    army_list.refresh_from_db()
    token = CSRF.findall(client.get(reverse("lists:detail", args=[army_list.pk])).content.decode())[0]
    response = client.post(reverse("lists:unit_options", args=[army_list.pk, infantry.pk]),
                           {"csrfmiddlewaretoken": token, "version": army_list.version, "option-plasma": "1"},
                           headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert kept("unit-row") == 2  # the open row the htmx answer carries is not kept


@pytest.fixture
def roster(client) -> tuple[Client, object]:
    cache.clear()
    owner = make_user()
    faction = make_faction()
    data = {**BRUTES, "models": [{**BRUTES["models"][0], "rules": ["Tough(3)", "Fearless"]}]}
    brutes = make_unit(faction=faction, data=data, slug="brutes", with_options=False)
    army_list = make_list(owner=owner, faction=faction, name="Printed", units=[brutes, brutes])
    client.force_login(owner)
    return client, army_list


def test_roster_cards_from_the_cache_equal_the_cards_rendered_whole(roster, settings) -> None:
    client, army_list = roster
    url = reverse("lists:roster", args=[army_list.pk])
    first = cards(client.get(url).content.decode())
    assert kept("roster-card") == 1  # two identical units: one card, numbered apart on the way out
    again = cards(client.get(url).content.decode())
    settings.DEBUG = True
    whole = cards(client.get(url).content.decode())
    assert first == again == whole
    assert "Brutes" in first
    for number in (1, 2):
        assert f'id="card-{number}"' in first and f'<span class="card-number">{number}.</span>' in first


def test_a_cards_key_leaves_out_only_its_number() -> None:
    """The number is the one field a roster card's fragment fills per card (a slot)."""
    import dataclasses

    from armybuilder.roster.cards import Card, card_content

    card = Card(number=1, name="Brutes", points=90, models=5, profile_columns=[], profiles=[],
                weapon_columns=[], weapons=[], rules=[])
    second = dataclasses.replace(card, number=2)
    assert card_content(second, numbered=False) == card_content(card, numbered=False)
    assert card_content(second) != card_content(card)
    assert card_content(dataclasses.replace(card, name="Other"), numbered=False) != card_content(
        card, numbered=False)


def test_roster_cards_follow_edits_language_and_rule_texts(roster) -> None:
    client, army_list = roster
    url = reverse("lists:roster", args=[army_list.pk])
    client.get(url)
    unit = ListUnit.objects.filter(army_list=army_list).first()
    services.army_list_unit_set_details(list_unit=unit, custom_name="", notes="Guard the objective", group="",
                                        expected_version=army_list.version)
    assert "Guard the objective" in cards(client.get(url).content.decode())
    english = cards(client.get(url).content.decode())
    polish = cards(client.get(url, headers={"Accept-Language": "pl"}).content.decode())
    assert "Notes:" in english and "Notes:" not in polish
    before = kept("roster-card")
    SpecialRule.objects.create(system=army_list.system, name="Fearless", text="Never runs.")
    client.get(url)
    assert kept("roster-card") == before + 2  # a rule text is part of the card's content


def test_the_keys_cover_every_stored_field_of_a_unit() -> None:
    """A new field on `ListUnit` must be weighed for the row's key (`unit_content`)."""
    stored = {field.attname for field in ListUnit._meta.concrete_fields}
    assert stored - {"id", "army_list_id", "position"} == {
        "template_id", "catalogue_ref", "name", "custom_name", "notes", "group", "points", "data",
        "base_data", "available_options", "chosen_options", "option_points", "selection"}
    assert len(page_fragments.unit_content(ListUnit(pk=1, army_list_id=1, position=0))) == 14


def test_a_cards_key_covers_every_field_of_the_card() -> None:
    """A new field on `Card` (or its rows, columns, rule texts) must be weighed for the card's key."""
    import dataclasses

    from armybuilder.roster.cards import CARD_FIELDS, Card, Row, RuleText, card_content
    from rules.unit_cards import Column

    assert tuple(field.name for field in dataclasses.fields(Card)) == CARD_FIELDS
    assert {field.name for field in dataclasses.fields(Row)} == {"name", "count", "cells", "rules", "sub"}
    assert {field.name for field in dataclasses.fields(Column)} == {"key", "short", "title", "roll_target"}
    assert {field.name for field in dataclasses.fields(RuleText)} == {"name", "text", "lang"}
    column, row = Column("q", "Q", "Quality"), Row("Warrior", 5, ["4+"], ["Tough(3)"])
    card = Card(number=1, name="Brutes", points=90, models=5, profile_columns=[column], profiles=[row],
                weapon_columns=[column], weapons=[row], rules=[RuleText("Tough", "Takes hits.")],
                extras=["aura"], upgrades=["Banner"], catalogue_name="Brutes", notes="n", group="g",
                figures=[{"key": "power", "value": 5}])
    others = {"number": 2, "name": "Other", "points": 91, "models": 6, "profile_columns": [],
              "profiles": [dataclasses.replace(row, count=4)], "weapon_columns": [Column("q", "Q", "Other")],
              "weapons": [dataclasses.replace(row, sub=True)], "rules": [RuleText("Tough", "Other.")],
              "extras": [], "upgrades": [], "catalogue_name": "", "notes": "", "group": "", "figures": []}
    assert set(others) == set(CARD_FIELDS)
    for name, value in others.items():
        assert card_content(dataclasses.replace(card, **{name: value})) != card_content(card), name


def test_a_roster_row_prints_each_cell_in_its_class_and_its_text_again_on_the_phone_line() -> None:
    """What the roster card's template prints of a row as markup (`StackedRow.cells_html`,
    `line_html`): the value inside its cell, the class on the cell, both escaped."""
    from armybuilder.roster.cards import Row, stacked_rows
    from rules.unit_cards import Column

    columns = [Column("quality", "Q", "Quality"), Column("special", "Sp", "Special")]
    stacked = stacked_rows(columns, [Row("Warrior", 5, ["4+", "Rapid Fire <1>"], ["Tough(3)"])])[0]
    assert stacked.cells_html == '<td class="num">4+</td><td class="text rules-col">Rapid Fire &lt;1&gt;</td>'
    label = '<span class="stacked-field"><span class="rules-row-label">'
    assert stacked.line_html == (
        f'<tr class="rules-row"><td colspan="3">{label}Special:</span> Rapid Fire &lt;1&gt;'
        f'</span> · {label}Rules:</span> Tough(3)</span></td></tr>')
