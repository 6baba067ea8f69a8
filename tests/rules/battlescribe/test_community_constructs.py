"""Constructs found in real community data (BSData/whfb, Tomb Kings 7th/6th), reproduced in the
hand-written `realm.gst` + `realm_undead.cat` (invented data; no community file is committed).

Each was a gap when a real catalogue was imported: points-only catalogues (no profiles) were
refused, hidden entries were offered, magic items inside a free "Magic Items" container were
offered as one useless item, `modifierGroups` were ignored, points caps on groups vanished
silently, and WHFB army slots were not set. Expected prices are worked out by hand the way
BattleScribe totals them.
"""

from __future__ import annotations

import pytest

from rules.battlescribe.engine.xmlform import load_files
from rules.battlescribe_import import parse_import
from tests.rules.battlescribe.files import source, sources

REALM = ("realm.gst", "realm_undead.cat")


@pytest.fixture(scope="module")
def realm():
    result = parse_import(system_key="whfb6", files=sources(*REALM))
    return result, {u.values["name"]: u for plan in result.plans for u in plan.units}


def test_points_only_units_import_at_minimum_size(realm):
    result, _units = realm
    assert result.summary()["factions"] == [
        {
            "id": None,
            "name": "Realm Undead",
            "slug": "bs-rl-cat-undead",
            "units": [
                # 10 × 8 + 1 per 5 models (a modifierGroup with a repeat) = 82
                {"name": "Bone Guard", "points": 82, "models": 10},
                # 120 − 5 (modifierGroup: when it has the BSB) + 25 (required link to the .gst) = 140
                {"name": "Bone Lord", "points": 140, "models": 1},
                # the machine (a required upgrade) at 30
                {"name": "Bone Thrower", "points": 30, "models": 1},
            ],
        }
    ]
    warnings = "\n".join(result.warnings)
    assert "selectionEntry[@name='Bone Guard']: no profile of the system's model type; imported without" in (
        warnings
    )


def test_long_characteristic_names_and_army_slots(realm):
    _result, units = realm
    lord = units["Bone Lord"].values["data"]
    assert {k: lord["models"][0][k] for k in ("m", "ws", "ld")} == {"m": 4, "ws": 6, "ld": 9}
    assert lord["slot"] == "lord"  # primary category "Lords"
    thrower = units["Bone Thrower"].values["data"]["models"][0]
    assert {k: thrower[k] for k in ("m", "ws", "ld")} == {
        "m": 4,
        "ws": 2,
        "ld": 3,
    }  # from its required upgrade
    assert units["Bone Guard"].values["data"]["slot"] == "core"
    assert lord["models"][0]["items"] == [{"name": "Battle Standard Bearer", "kind": "mundane"}]


def test_options_inside_containers_and_shared_groups(realm):
    _result, units = realm
    guard = {o.values["label"]: o.values for o in units["Bone Guard"].options}
    lord = {o.values["label"]: o.values for o in units["Bone Lord"].options}
    # +1 per model (a repeat): 1 for each model the unit has (10 at its minimum of 10)
    assert (guard["Spears"]["cost"], guard["Spears"]["payload"]["per_model"]) == (1, True)
    assert (guard["Banner of Dust"]["group"], guard["Banner of Dust"]["cost"]) == ("Magic Standards", 30)
    assert guard["Standard Bearer"]["cost"] == 10
    # a link in the catalogue to the game system's shared entry, priced by `set` on the link
    assert (lord["Sword of Might"]["group"], lord["Sword of Might"]["cost"]) == ("Magic Weapons", 20)
    assert lord["Blade of Ages"]["cost"] == 35
    assert guard["Banner of Dust"]["cost"] == 30
    assert "Secret Relic" not in guard  # hidden and never shown
    assert "Banner of Dust" not in lord  # hidden from Lords: `instanceOf` the Lords category
    assert "Magic Banner" not in guard and "Magic Items" not in lord  # free containers: contents only


def test_what_cannot_be_mapped_is_reported(realm):
    result, units = realm
    warnings = "\n".join(result.warnings)
    assert (
        "selectionEntry[@name='Secret Relic']: hidden in BattleScribe for this unit; not offered" in warnings
    )
    assert (
        "selectionEntry[@name='Magic Banner']: hidden in BattleScribe unless its conditions hold" in warnings
    )
    assert (
        "selectionEntryGroup[@name='Magic Banner']: limit max 25 pts per parent is kept as text" in warnings
    )
    assert (
        "selectionEntryGroup[@name='Magic Items']: limit max 100 pts per parent is kept as text" in warnings
    )
    notes = units["Bone Guard"].values["data"]["notes"]
    assert "Magic Banner: max 25 pts per parent" in notes
    assert "options under 'Magic Banner' need 'Magic Banner' taken" in notes


def test_modifier_groups_pass_their_conditions_and_repeats_on():
    data = load_files(source("realm.gst"), [source("realm_undead.cat")])
    (catalogue,) = data.catalogues.values()
    guard, lord, _thrower = catalogue.root
    (per_five,) = guard.modifiers
    assert (per_five.type, per_five.field) == ("increment", "c0st-pts0-0000-0001")
    assert [[(r.value, r.child_id) for r in level] for level in per_five.repeat_levels] == [[(5, "model")]]
    (discount,) = lord.modifiers
    conditions = [c for own, _groups in discount.guards for c in own]
    assert [(c.type, c.child_id) for c in conditions] == [("atLeast", "rl-bsb")]


def test_nested_repeats_multiply():
    """A modifier's own repeats × its modifierGroup's: (10 models // 10) × 3 per group repeat
    × (10 // 5) = 6, not the 5 a sum would give."""
    text = source("realm_undead.cat").data.replace(
        b'<modifier type="increment" field="c0st-pts0-0000-0001" value="1.0"/>',
        b'<modifier type="increment" field="c0st-pts0-0000-0001" value="1.0"><repeats>'
        b'<repeat field="selections" scope="self" value="10.0" childId="model" repeats="3"/>'
        b"</repeats></modifier>",
        1,
    )
    files = [source("realm.gst"), type(source("realm.gst"))("realm_undead.cat", text)]
    units = parse_import(system_key="whfb6", files=files).summary()["factions"][0]["units"]
    assert units[0] == {"name": "Bone Guard", "points": 86, "models": 10}


def test_roster_export_ids_are_kept(realm):
    _result, units = realm
    guard = units["Bone Guard"].values["data"]
    assert guard["battlescribe_system_id"] == "sys-realm"
    assert guard["battlescribe_force"] == {"id": "rl-force", "name": "Realm Army"}
    assert guard["battlescribe_cost_types"] == {"points": "c0st-pts0-0000-0001"}
    assert guard["battlescribe_models"] == {"Bone Guard": "rl-bg-model"}
    assert guard["battlescribe_categories"] == {"Core": "rl-core"}
