"""The QR code on the printed roster and the PDF opens the list (`armybuilder.lists.share_links`).

Decoded with a QR reader (zxing-cpp) from the PDF's rendered page, as a phone would."""

from __future__ import annotations

import subprocess

import pytest
import zxingcpp
from django.urls import reverse
from PIL import Image

from armybuilder.lists.locks import army_list_lock
from armybuilder.lists.sharing import army_list_share
from tests.factories.army_lists import make_faction, make_list, make_unit, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def army():
    faction = make_faction()
    return make_list(owner=make_user(), faction=faction, name="Scan me", units=[make_unit(faction=faction)])


def qr_texts(pdf: bytes, tmp_path) -> list[str]:
    path = tmp_path / "roster.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-png", "-r", "150", "-f", "1", "-l", "1", str(path), str(tmp_path / "page")],
                   check=True)
    page = next(tmp_path.glob("page*.png"))
    return [result.text for result in zxingcpp.read_barcodes(Image.open(page))]


def test_the_pdf_qr_code_decodes_to_the_share_link(client, army, tmp_path, inline_pdf_renders):
    token = army_list_share(army_list=army, expected_version=army.version)
    army.refresh_from_db()
    client.force_login(army.owner)
    response = client.get(reverse("lists:roster_pdf", args=[army.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    expected = "http://testserver" + reverse("lists:shared", args=[token])
    assert qr_texts(response.content, tmp_path) == [expected]


def test_a_locked_versions_pdf_qr_opens_the_locked_version(client, army, tmp_path, inline_pdf_renders):
    locked = army_list_lock(army_list=army, expected_version=army.version)
    response = client.get(reverse("lists:shared_roster_pdf", args=[locked.share_token]))
    assert response.status_code == 200
    assert qr_texts(response.content, tmp_path) == [
        "http://testserver" + reverse("lists:shared", args=[locked.share_token])]


def test_the_printed_roster_says_what_its_qr_code_opens(client, army):
    client.force_login(army.owner)
    page = client.get(reverse("lists:roster", args=[army.pk])).content.decode()
    assert '<figure class="roster-qr"><svg' in page
    assert "only you can open it until you share it" in page
    assert "http://testserver" + reverse("lists:detail", args=[army.pk]) in page
    army_list_share(army_list=army, expected_version=army.version)
    page = client.get(reverse("lists:roster", args=[army.pk])).content.decode()
    assert "through its share link" in page
