"""A catalogue unit whose list row is named otherwise than the catalogue entry: BSData AoS links
"[SE] Battalion: Anvils of the Heldenhammer Warrior Chamber" to an entry named "Anvils of the
Heldenhammer Warrior Chamber", and the list row (so the text export) shows the latter. The text
importer matched names to catalogue entries only, so such a unit did not come back from our own
text; nor, in a system without points, a unit whose name holds a comma ("Celestant-Prime, Hammer
of Sigmar, 1 model: …"). Hand-written catalogue of the same shape (invented names)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from armybuilder.lists.importers import Source
from armybuilder.lists.imports import import_source
from armybuilder.lists.services import army_list_add_unit, army_list_create, list_units_in_order
from armybuilder.roster.text import army_list_text
from rules.models import Faction, GameSystem
from tests.rules.battlescribe.files import FILES

CATALOGUE = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<catalogue id="ln-cat" name="Linked Names Host" revision="1" battleScribeVersion="2.03" library="false"
    gameSystemId="sys-realm" gameSystemRevision="3" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <entryLinks>
    <entryLink id="ln-link-warband" name="[LN] Warband: Grave Host, Urn Bearers" hidden="false"
        collective="false" import="true" targetId="ln-grave-host" type="selectionEntry">
      <categoryLinks>
        <categoryLink id="ln-gh-core" name="Core" hidden="false" targetId="rl-core" primary="true"/>
      </categoryLinks>
    </entryLink>
  </entryLinks>
  <selectionEntries>
    <selectionEntry id="ln-walker" name="Bone Walker" hidden="false" collective="false" import="true"
        type="model">
      <categoryLinks>
        <categoryLink id="ln-bw-core" name="Core" hidden="false" targetId="rl-core" primary="true"/>
      </categoryLinks>
      <costs><cost name="pts" typeId="c0st-pts0-0000-0001" value="30.0"/></costs>
    </selectionEntry>
  </selectionEntries>
  <sharedSelectionEntries>
    <selectionEntry id="ln-grave-host" name="Grave Host, Urn Bearers" hidden="false" collective="false"
        import="true" type="model">
      <costs><cost name="pts" typeId="c0st-pts0-0000-0001" value="120.0"/></costs>
    </selectionEntry>
  </sharedSelectionEntries>
</catalogue>
"""


@pytest.fixture(params=["whfb6", "aos1"])
def host_list(request, db, django_user_model, tmp_path: Path):
    """A list of both units, in a system sized by points and in one that is not (AoS 1st: our text
    writes "Name, 1 model: …", no price)."""
    call_command("load_catalogue", verbosity=0)
    catalogue = tmp_path / "linked_names.cat"
    catalogue.write_text(CATALOGUE, encoding="utf-8")
    call_command("import_battlescribe", str(FILES / "realm.gst"), str(catalogue), system=request.param,
                 verbosity=0)
    user = django_user_model.objects.create_user("player", password="a-long-test-password")
    faction = Faction.objects.get(name="Linked Names Host", owner=None)
    army_list = army_list_create(
        owner=user, system=GameSystem.objects.get(key=request.param), faction=faction, name="Linked",
        points_limit=1000,
    )
    for name in ("[LN] Warband: Grave Host, Urn Bearers", "Bone Walker"):
        unit = faction.units.get(name=name)
        army_list_add_unit(army_list=army_list, unit=unit, options={}, expected_version=None)
    army_list.refresh_from_db()
    return user, army_list


@pytest.mark.parametrize("style", ["plain", "markdown", "secret"])
def test_a_unit_whose_row_is_named_otherwise_than_its_entry_comes_back_from_our_text(host_list, style):
    user, army_list = host_list
    units = list_units_in_order(army_list)
    # the shape of the bug: the row shows the linked entry's name, not the catalogue unit's
    assert [u.name for u in units] == ["Grave Host, Urn Bearers", "Bone Walker"]
    text = army_list_text(army_list=army_list, units=units, style=style)
    outcome = import_source(user=user, source=Source.of_text(text), faction=army_list.faction)
    assert outcome.imported.left_out == []
    assert outcome.army_list is not None
    back = list_units_in_order(outcome.army_list)
    assert [(u.name, u.points) for u in back] == [(u.name, u.points) for u in units]
    assert [u.template_id for u in back] == [u.template_id for u in units]
