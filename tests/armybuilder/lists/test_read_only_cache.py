"""A shared list's unit rows are rendered once per version and language, then served from
the cache; an edit (a new version) shows at once (issue 17: list pages under load)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.cache.utils import make_template_fragment_key
from django.urls import reverse

from armybuilder.lists import services
from armybuilder.lists.sharing import army_list_share
from tests.factories.army_lists import BRUTES, make_faction, make_list, make_unit, make_user

pytestmark = pytest.mark.django_db


def test_shared_rows_come_from_the_cache_until_the_list_changes(client) -> None:
    cache.clear()
    faction = make_faction()
    infantry = make_unit(faction=faction, slug="infantry")
    brutes = make_unit(faction=faction, data=BRUTES, slug="brutes", with_options=False)
    army_list = make_list(owner=make_user(), faction=faction, name="Shared", units=[infantry])
    token = army_list_share(army_list=army_list, expected_version=army_list.version)
    url = reverse("lists:shared", args=[token])

    first = client.get(url).content.decode()
    army_list.refresh_from_db()
    key = make_template_fragment_key("read_only_unit_rows", [
        army_list.pk, army_list.version, army_list.created.timestamp(), token, "en"])
    assert "Infantry" in cache.get(key)
    again = client.get(url).content.decode()
    polish = client.get(url, headers={"Accept-Language": "pl"}).content.decode()
    army_list.refresh_from_db()
    services.army_list_add_unit(army_list=army_list, unit=brutes, expected_version=army_list.version)
    after = client.get(url).content.decode()

    def rows(page: str) -> str:
        return page[page.index('<ol id="unit-rows"'):page.index("</ol>", page.index('<ol id="unit-rows"'))]

    assert "Infantry" in rows(first) and rows(again) == rows(first)
    assert rows(polish) != rows(first)  # a language of its own
    assert "Brutes" in rows(after) and "Brutes" not in rows(first)
    assert "csrfmiddlewaretoken" not in rows(first)  # nothing per visitor in what is shared


def test_the_owner_editor_is_never_cached(client) -> None:
    cache.clear()
    owner = make_user()
    faction = make_faction()
    army_list = make_list(owner=owner, faction=faction, name="Mine", units=[make_unit(faction=faction)])
    client.force_login(owner)
    page = client.get(reverse("lists:detail", args=[army_list.pk])).content.decode()
    assert "csrfmiddlewaretoken" in page[page.index('<ol id="unit-rows"'):]
