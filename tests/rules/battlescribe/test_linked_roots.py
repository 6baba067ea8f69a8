"""Root entries of a catalogue linked with `importRootEntries` are offered in the linking one,
except those marked `import="false"`, which stay in their own catalogue as in BattleScribe
(issue 40: Inquisition's Acolytes were offered in Adeptus Astra Telepathica)."""

from __future__ import annotations

from rules.battlescribe.xml_reader import SourceFile
from rules.battlescribe_import import parse_import
from tests.rules.battlescribe.files import source

LIBRARY = b"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="bd-cat-lib" name="Hill Allies" revision="1" battleScribeVersion="2.03" library="false"
    gameSystemId="sys-bands" gameSystemRevision="2" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="bd-ally" name="Hill Ally" import="true" type="model">
      <costs><cost name="pts" typeId="bd-pts" value="30.0"/></costs>
    </selectionEntry>
    <selectionEntry id="bd-own" name="Allies Only" import="false" type="model">
      <costs><cost name="pts" typeId="bd-pts" value="40.0"/></costs>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""
MAIN = b"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="bd-cat-main" name="Hill Host" revision="1" battleScribeVersion="2.03" library="false"
    gameSystemId="sys-bands" gameSystemRevision="2" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <catalogueLinks>
    <catalogueLink id="bd-link" targetId="bd-cat-lib" type="catalogue" importRootEntries="true"/>
  </catalogueLinks>
  <selectionEntries>
    <selectionEntry id="bd-host" name="Host Warrior" import="true" type="model">
      <costs><cost name="pts" typeId="bd-pts" value="20.0"/></costs>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""


def test_import_false_root_entries_stay_in_their_catalogue():
    result = parse_import(
        system_key="whfb6",
        files=[source("bands.gst"), SourceFile("main.cat", MAIN), SourceFile("lib.cat", LIBRARY)],
    )
    (host,) = [plan for plan in result.plans if plan.slug == "bs-bd-cat-main"]
    assert sorted(unit.values["name"] for unit in host.units) == ["Hill Ally", "Host Warrior"]
