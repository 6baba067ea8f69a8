"""Print options of the roster and a PDF that uses the page (issue 15, feature 5).

An 11-unit OPR list printed 6 A4 pages with 2 cards on each; two columns and the rules
printed once at the end must fit it on 2. Pages are counted by poppler's `pdfinfo`.
"""

from __future__ import annotations

import re
import subprocess

import pytest
from django.core.management import call_command
from django.urls import reverse

from armybuilder.lists import services
from rules.models import Faction, UnitTemplate
from tests.factories.army_lists import ASHEN_CONCORD_ELEVEN as ELEVEN


@pytest.fixture
def eleven_units(client, django_user_model):
    call_command("load_catalogue", verbosity=0)
    user = django_user_model.objects.create_user("printer", password="pw-printer-123")
    faction = Faction.objects.get(system__key="opr", slug="ashen-concord", owner__isnull=True)
    army_list = services.army_list_create(
        owner=user, system=faction.system, faction=faction, name="Eleven", points_limit=3000
    )
    for slug in ELEVEN:
        template = UnitTemplate.objects.prefetch_related("options").get(faction=faction, slug=slug)
        services.army_list_add_unit(army_list=army_list, unit=template, expected_version=army_list.version)
    client.force_login(user)
    return army_list


def pages(client, army_list, tmp_path, **options) -> tuple[int, str]:
    response = client.get(reverse("lists:roster_pdf", args=[army_list.pk]), options)
    assert response.status_code == 200
    pdf = tmp_path / "roster.pdf"
    pdf.write_bytes(response.content)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)$", info, re.M).group(1)), text


@pytest.mark.django_db
@pytest.mark.usefixtures("inline_pdf_renders")
def test_eleven_opr_units_fit_two_a4_pages_with_the_rules_once(client, eleven_units, tmp_path):
    count, text = pages(client, eleven_units, tmp_path)
    assert count <= 2
    assert text.count("Rules reference") == 1
    for slug in ELEVEN:
        assert UnitTemplate.objects.filter(slug=slug).first().name in text


@pytest.mark.django_db
@pytest.mark.usefixtures("inline_pdf_renders")
def test_print_options_change_the_pdf(client, eleven_units, tmp_path):
    two, _ = pages(client, eleven_units, tmp_path)
    one, _ = pages(client, eleven_units, tmp_path, columns="1")
    table, table_text = pages(client, eleven_units, tmp_path, layout="table", rules="none")
    assert one > two
    assert table == 1 and "Rules reference" not in table_text and "Ember Hawk" in table_text


@pytest.mark.django_db
@pytest.mark.usefixtures("inline_pdf_renders")
def test_unknown_print_options_fall_back_to_the_defaults(client, eleven_units):
    html = client.get(reverse("lists:roster", args=[eleven_units.pk]), {"columns": "9", "layout": "<x>"})
    assert html.status_code == 200
    assert 'class="roster paper-a4 columns-2 layout-cards print-rules-reference"' in html.content.decode()
