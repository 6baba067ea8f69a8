"""The share card (`armybuilder.lists.share_card`) and the link previews that carry it."""

from __future__ import annotations

import io
import re

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation
from PIL import Image

from armybuilder.lists.locks import army_list_lock
from armybuilder.lists.selectors import army_list_units
from armybuilder.lists.share_card import HEIGHT, WIDTH, render_share_card
from armybuilder.lists.sharing import army_list_share
from tests.factories.army_lists import make_faction, make_list, make_unit, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def army():
    faction = make_faction()
    units = [make_unit(faction=faction) for _ in range(3)]
    return make_list(owner=make_user(), faction=faction, name="Żelazna Kompania", units=units)


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def test_a_shared_list_page_unfurls_with_its_card(client, army):
    token = army_list_share(army_list=army, expected_version=army.version)
    page = client.get(reverse("lists:shared", args=[token])).content.decode()
    meta = dict(re.findall(r'<meta (?:property|name)="((?:og|twitter):[a-z:]+)" content="([^"]*)"', page))
    assert meta["og:title"] == "Żelazna Kompania"
    assert meta["twitter:card"] == "summary_large_image"
    card_url = "http://testserver" + reverse("lists:shared_card", args=[token])
    assert meta["og:image"] == meta["twitter:image"] == card_url
    assert "429 / 1000 pts" in meta["og:description"]
    image_response = client.get(meta["og:image"].removeprefix("http://testserver"))
    assert image_response.status_code == 200 and image_response["Content-Type"] == "image/png"
    image = decoded(image_response.content)
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)


def test_a_private_list_page_has_no_preview_and_its_card_is_private(client, army):
    client.force_login(army.owner)
    page = client.get(reverse("lists:detail", args=[army.pk])).content.decode()
    assert "og:image" not in page
    response = client.get(reverse("lists:card", args=[army.pk]), {"download": "1"})
    assert response.status_code == 200 and response["Cache-Control"].startswith("private")
    assert response["Content-Disposition"] == 'attachment; filename="zelazna-kompania.png"'
    client.logout()
    assert client.get(reverse("lists:card", args=[army.pk])).status_code == 404


def test_the_card_is_drawn_once_per_version_and_language(army):
    from armybuilder.lists.share_card import share_card_png

    cache.clear()
    units = army_list_units(army_list=army)
    with translation.override("pl"):
        polish = share_card_png(army, units)
        assert share_card_png(army, units) is not None
    with translation.override("en"):
        english = share_card_png(army, units)
    assert polish != english  # "pkt"/"jednostki" against "pts"/"units"
    army.version += 1
    assert cache.get(f"share-card:v1:{army.pk}:{army.version}:{army.created.timestamp()}:en") is None


def test_a_long_list_draws_at_most_twelve_lines_and_counts_the_rest(army):
    """Bounded work: 40 units draw 11 lines and 'and 29 more units'; the picture stays 1200×630."""
    units = army_list_units(army_list=army) * 14  # 42 entries
    png = render_share_card(army, units[:40])
    assert decoded(png).size == (WIDTH, HEIGHT)


def test_a_locked_versions_card_differs_from_the_lists(army):
    locked = army_list_lock(army_list=army, expected_version=army.version)
    plain = render_share_card(army, army_list_units(army_list=army))
    frozen = render_share_card(locked, army_list_units(army_list=locked))
    assert plain != frozen  # the fingerprint is printed in the footer


def test_api_serves_the_card_of_a_shared_list_without_an_account(army):
    from rest_framework.test import APIClient

    token = army_list_share(army_list=army, expected_version=army.version)
    response = APIClient().get(f"/api/v1/shared/{token}/export/card", HTTP_ACCEPT="image/png")
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    assert decoded(response.content).size == (WIDTH, HEIGHT)


def test_a_renamed_unit_shows_its_catalogue_name_beside_its_own(army):
    """Issue 43, item 11: "Da Boyz" alone told an opponent nothing; the roster's form, the
    player's name with the catalogue's in brackets, goes on the card too."""
    from armybuilder.lists.share_card import card_lines

    first, *_rest = army_list_units(army_list=army)
    catalogue = first.catalogue_name
    first.custom_name = "Da Boyz"
    first.save(update_fields=["custom_name"])
    names = [line.name for line in card_lines(army, army_list_units(army_list=army))]
    assert names == [f"Da Boyz ({catalogue})", catalogue, catalogue]
