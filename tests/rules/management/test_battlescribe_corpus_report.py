"""`manage.py battlescribe_corpus_report` (issue 40): what BattleScribe offers in each catalogue
of a folder against the import and the lists, on the hand-written Bands test data."""

from __future__ import annotations

import json
import shutil
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.rules.battlescribe.files import FILES

#: A catalogue whose one unit may not be taken at all in a list of the Bands system (a max 0 in
#: the roster, which no modifier changes): its lone selection breaks a limit.
BROKEN = b"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="bd-cat-broken" name="Broken Tribe" revision="1" battleScribeVersion="2.03" library="false"
    gameSystemId="sys-bands" gameSystemRevision="2" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="bd-troll" name="Troll" hidden="false" collective="false" import="true" type="model">
      <constraints>
        <constraint field="selections" scope="roster" value="0.0" percentValue="false" shared="true"
            includeChildSelections="false" includeChildForces="false" id="bd-troll-max" type="max"/>
      </constraints>
      <costs><cost name="pts" typeId="bd-pts" value="70.0"/></costs>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""


def report(folder, *args: str) -> tuple[dict, int]:
    out = StringIO()
    try:
        call_command(
            "battlescribe_corpus_report", str(folder), "--system", "whfb6", "--json", *args, stdout=out
        )
    except SystemExit as exc:
        return json.loads(out.getvalue()), int(exc.code)
    return json.loads(out.getvalue()), 0


@pytest.fixture
def folder(tmp_path):
    for name in ("bands.gst", "bands_army.cat"):
        shutil.copy(FILES / name, tmp_path / name)
    (tmp_path / "broken.cat").write_bytes(BROKEN)
    return tmp_path


def test_a_clean_catalogue_reports_offers_and_the_catalogue_price_against_the_list(folder):
    found, code = report(folder, "--glob", "bands_army.cat", "--points", "1000", "2000")
    assert code == 0
    (army,) = found["catalogues"]
    # Spear Band, Giant, Warband Pact and Wolf Riders at the start; the Hill Chief once a Spear
    # Band is taken (so imported, not "never shown"); Old Giant and Lost Troll never.
    assert (army["status"], army["offered"], army["imported"]) == ("ok", 4, 5)
    assert army["missing"] == [] and army["never_shown"] == []
    assert [lim["points_limit"] for lim in army["limits"]] == [1000, 2000]
    for lim in army["limits"]:
        assert lim["introduced_errors"] == []
        assert lim["price_mismatches"] == [
            {"entry": "Wolf Riders", "entry_id": "bd-riders", "catalogue": 60, "list": 50}
        ]
    assert found["totals"]["introduced_errors"] == 0


def test_a_lone_selection_that_breaks_a_limit_is_reported_with_the_xml_value(folder):
    found, code = report(folder, "--glob", "broken.cat", "--points", "2000")
    assert code == 1
    (broken,) = found["catalogues"]
    (lim,) = broken["limits"]
    (troll,) = lim["introduced_errors"]
    assert troll["entry"] == "Troll"
    assert troll["errors"] == [
        {
            "kind": "limit",
            "message": "Troll: at most 0 allowed (has 1)",
            "source": "bd-troll/bd-troll-max",
            "xml_value": 0.0,
            "value": 0.0,
            "actual": 1.0,
        }
    ]
    assert found["totals"]["introduced_errors"] == 1


def test_the_summary_names_what_to_look_at(folder):
    out = StringIO()
    with pytest.raises(SystemExit):
        call_command("battlescribe_corpus_report", str(folder), "--system", "whfb6", stdout=out)
    text = out.getvalue()
    assert "at 2000 pts: Troll: Troll: at most 0 allowed (has 1) (XML value 0.0, after modifiers 0)" in text
    assert "at 2000 pts: Wolf Riders: 60 pts in the catalogue, 50 in a list" in text


def test_a_folder_without_catalogues_is_a_clear_error(tmp_path):
    with pytest.raises(CommandError, match="no catalogue matches"):
        call_command("battlescribe_corpus_report", str(tmp_path), "--system", "whfb6")
