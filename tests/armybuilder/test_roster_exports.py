"""Rosters: the print page (A4 or Letter), its PDF and the forum text (golden file)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

from armybuilder.lists import services
from armybuilder.models import ListUnit
from rules.models import SpecialRule
from tests.factories.army_lists import BRUTES, make_faction, make_list, make_unit, make_user

pytestmark = pytest.mark.django_db

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def roster_list(client):
    """Infantry with a plasma gun and two extra troopers, and Brutes: 2 cards, known points."""
    owner = make_user("roster-owner")
    faction = make_faction(slug="battle-brothers")
    infantry = make_unit(faction=faction, slug="infantry")
    brutes = make_unit(faction=faction, data=BRUTES, slug="brutes", with_options=False)
    SpecialRule.objects.create(
        system=faction.system, key="furious", name="Furious", text="Gets +1 attack in melee when charging."
    )
    army_list = make_list(
        owner=owner, faction=faction, name="Golden Patrol", points_limit=750, units=[infantry, brutes]
    )
    unit = ListUnit.objects.get(army_list=army_list, position=0)
    unit.army_list = army_list
    services.army_list_unit_set_options(
        list_unit=unit, options={"plasma": 1, "extra": 2}, expected_version=army_list.version
    )
    client.force_login(owner)
    return army_list


def test_print_page_has_a_card_per_unit_with_profiles_weapons_rules_and_points(client, roster_list):
    response = client.get(reverse("lists:roster", args=[roster_list.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count('class="unit-card"') == 2
    assert "css/paper-a4.css" in html and "<style" not in html
    for text in (
        "Infantry",
        "Brutes",
        "Quality",
        "Defence",
        "Toughness",
        "Plasma Gun",
        "Great Axe",
        "Rending",
        "Gets +1 attack in melee when charging.",
        "Summary",
        "css/roster.css",
    ):
        assert text in html, text
    unit = ListUnit.objects.get(army_list=roster_list, position=0)
    assert f"{unit.points} pts" in html
    letter = client.get(reverse("lists:roster", args=[roster_list.pk]), {"paper": "letter"}).content.decode()
    assert "css/paper-letter.css" in letter


def test_each_paper_has_its_page_size_in_its_stylesheet():
    from pathlib import Path

    from armybuilder.roster.views import PAPER_SIZES

    static = Path(__file__).resolve().parents[2] / "static" / "css"
    for paper, size in PAPER_SIZES.items():
        assert f"@page {{ size: {size}; margin: 10mm; }}" in (static / f"paper-{paper}.css").read_text()


def test_pdf_is_a_valid_pdf_with_every_unit_name(client, roster_list, tmp_path, inline_pdf_renders):
    response = client.get(reverse("lists:roster_pdf", args=[roster_list.pk]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-") and b"%%EOF" in response.content[-1024:]
    pdf = tmp_path / "roster.pdf"
    pdf.write_bytes(response.content)
    assert shutil.which("pdftotext"), "poppler-utils is installed by bin/setup test"
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    for unit in ListUnit.objects.filter(army_list=roster_list):
        assert unit.name in text
    assert "Golden Patrol" in text
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert "595.28 x 841.89" in info or "595.276 x 841.89" in info  # A4 in points
    letter = client.get(reverse("lists:roster_pdf", args=[roster_list.pk]), {"paper": "letter"}).content
    pdf.write_bytes(letter)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert "612 x 792" in info  # US Letter


def test_text_export_matches_the_golden_file(client, roster_list):
    response = client.get(reverse("lists:roster_text", args=[roster_list.pk]))
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content.decode() == (GOLDEN / "roster_forum.txt").read_text(encoding="utf-8")


def test_roster_pages_of_a_shared_list_work_without_an_account(client, roster_list, inline_pdf_renders):
    from armybuilder.lists.sharing import army_list_share

    token = army_list_share(army_list=roster_list, expected_version=roster_list.version)
    client.logout()
    assert client.get(reverse("lists:roster", args=[roster_list.pk])).status_code == 404
    for name in ("lists:shared_roster", "lists:shared_roster_text", "lists:shared_roster_pdf"):
        assert client.get(reverse(name, args=[token])).status_code == 200, name
