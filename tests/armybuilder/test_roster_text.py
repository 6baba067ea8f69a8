"""The text export a player pastes (issue 30, item 11): unit size and a stat line per unit
from the system's profile schema, notes' line breaks kept, Markdown escaped only where the
rendering would change."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from armybuilder.lists import services
from armybuilder.roster.text import _markdown, army_list_text
from rules.models import Faction, UnitTemplate
from tests.factories.army_lists import make_user

pytestmark = pytest.mark.django_db


def _list(system: str, faction: str, name: str, *units: tuple[str, dict[str, int]]):
    call_command("load_catalogue", verbosity=0)
    row = Faction.objects.get(system__key=system, slug=faction, owner__isnull=True)
    army_list = services.army_list_create(
        owner=make_user(), system=row.system, faction=row, name=name, points_limit=2000
    )
    for slug, options in units:
        army_list.refresh_from_db()
        template = UnitTemplate.objects.prefetch_related("options").get(faction=row, slug=slug)
        services.army_list_add_unit(
            army_list=army_list, unit=template, options=options, expected_version=army_list.version
        )
    army_list.refresh_from_db()
    units = list(army_list.units.order_by("position"))
    for unit in units:
        unit.army_list = army_list
    return army_list, units


def test_an_opr_unit_reads_its_size_and_quality_and_defence_as_rolls():
    army_list, units = _list("opr", "ashen-concord", "Ridge", ("warden-captain", {}))
    text = army_list_text(army_list=army_list, units=units)
    assert "\nWarden-Captain [58 pts], 1 model: Cinder Pistol, Obsidian Blade\n  Q3+ D4+ T3\n" in text


def test_a_fantasy_regiment_prints_each_profile_with_its_save_as_a_roll():
    """WHFB 6th: the champion's profile differs (A2), so each profile gets its own line."""
    army_list, units = _list(
        "whfb6", "vellmark-freeholds", "Vellmark", ("freeholder-spearmen", {"champion": 1})
    )
    text = army_list_text(army_list=army_list, units=units)
    assert "Freeholder Spearmen [" in text and "], 11 models: " in text
    assert "\n  Spearman ×10: M4 WS3 BS3 S3 T3 W1 I3 A1 Ld7 Sv5+\n" in text
    assert "\n  Sergeant ×1: M4 WS3 BS3 S3 T3 W1 I3 A2 Ld7 Sv5+\n" in text


def test_notes_keep_their_line_breaks_in_plain_and_markdown():
    army_list, units = _list("opr", "ashen-concord", "Ridge", ("warden-captain", {}))
    services.army_list_unit_set_details(
        list_unit=units[0], custom_name="", notes="Holds the ridge.\n\nFalls back on turn 3.",
        group="", expected_version=army_list.version,
    )
    units[0].refresh_from_db()
    units[0].army_list = army_list
    plain = army_list_text(army_list=army_list, units=units)
    assert "\n  Notes: Holds the ridge.\n    Falls back on turn 3.\n" in plain
    markdown = army_list_text(army_list=army_list, units=units, style="markdown")
    assert "\n  - `Q3+ D4+ T3`\n  - _Holds the ridge._\n  - _Falls back on turn 3._\n" in markdown
    secret = army_list_text(army_list=army_list, units=units, style="secret")
    assert "||Warden-Captain [58 pts], 1 model: Cinder Pistol, Obsidian Blade — Q3+ D4+ T3 — " in secret


def test_markdown_escapes_only_what_would_render_as_markup():
    assert _markdown("Ridge Patrol — Ashen Concord (OPR-style), 58/1000 pts.") == (
        "Ridge Patrol — Ashen Concord (OPR-style), 58/1000 pts."
    )
    assert _markdown("Q4+ D5+ (Shield)") == "Q4+ D5+ (Shield)"
    assert _markdown("*Bold* _it_ `code` ||spoiler|| ~~gone~~") == (
        "\\*Bold\\* \\_it\\_ \\`code\\` \\|\\|spoiler\\|\\| \\~\\~gone\\~\\~"
    )
    assert _markdown("- not a list") == "\\- not a list"
    assert _markdown("# not a heading") == "\\# not a heading"
    assert _markdown("> not a quote") == "\\> not a quote"
    assert _markdown("1. not a list") == "1\\. not a list"
    assert _markdown("[a](http://x)") == "[a\\](http://x)"
    assert _markdown("Warden-Captain 1.5 +2") == "Warden-Captain 1.5 +2"
