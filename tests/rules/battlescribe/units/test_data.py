"""The catalogue import reads one model of BattleScribe data, the engine's (`units.data`): what it
asks of an engine option beyond the engine (its name as a menu shows it, the id a unit keeps, where
it is written), a link to nothing inside a unit, and the check of each file's XML that refuses what
the engine's model would read as 0. Hand-written XML (invented data) on the Bands test system."""

from __future__ import annotations

import pytest

from rules.battlescribe.catalogue import read_document
from rules.battlescribe.units.data import read_files
from rules.battlescribe.xml_reader import BattleScribeError, SourceFile
from rules.battlescribe_import import parse_import
from tests.rules.battlescribe.files import source

HEAD = (
    b'<?xml version="1.0" encoding="UTF-8"?>'
    b'<catalogue id="dt-cat" name="Data Test" revision="1" battleScribeVersion="2.03" library="false" '
    b'gameSystemId="sys-bands" gameSystemRevision="2" '
    b'xmlns="http://www.battlescribe.net/schema/catalogueSchema">'
)
MODEL = (
    b'<profiles><profile id="{id}-pr" name="{name}" hidden="false" typeId="bd-model" typeName="Model">'
    b"<characteristics>"
    + b"".join(
        b'<characteristic name="%s" typeId="bd-%s">3</characteristic>' % (n, n.lower())
        for n in (b"M", b"WS", b"BS", b"S", b"T", b"W", b"I", b"A", b"Ld")
    )
    + b"</characteristics></profile></profiles>"
)


def entry(entry_id: str, name: str, inner: bytes = b"", points: str = "10") -> bytes:
    return (
        f'<selectionEntry id="{entry_id}" name="{name}" collective="false" type="model">'.encode()
        + MODEL.replace(b"{id}", entry_id.encode()).replace(b"{name}", name.encode())
        + f'<costs><cost name="pts" typeId="bd-pts" value="{points}"/></costs>'.encode()
        + inner
        + b"</selectionEntry>"
    )


CATALOGUE = (
    HEAD
    + b"<entryLinks>"
    + b'<entryLink id="dt-link-hero" name="Hill Hero" targetId="dt-hero" type="selectionEntry"/>'
    + b'<entryLink id="dt-link-lost" name="Lost Band" targetId="dt-lost" type="selectionEntry"/>'
    + b"</entryLinks><sharedSelectionEntries>"
    + entry("dt-hero", "Hero")
    + entry(
        "dt-lost",
        "Lost",
        b'<entryLinks><entryLink id="dt-link-gone" name="Gone Gear" hidden="false" targetId="dt-nowhere" '
        b'type="selectionEntry"/></entryLinks>',
    )
    + b"</sharedSelectionEntries></catalogue>"
)


def imported(text: bytes):
    return parse_import(system_key="whfb6", files=[source("bands.gst"), SourceFile("data.cat", text)])


def test_a_linked_unit_is_named_by_its_link_and_known_by_its_target():
    """BattleScribe's menu shows the link's name; the unit keeps the linked entry's id (saved
    lists refer to it), as the import always kept them."""
    result = imported(CATALOGUE)
    [unit] = result.plans[0].units
    assert (unit.values["name"], unit.values["data"]["battlescribe_id"]) == ("Hill Hero", "dt-hero")
    assert unit.slug == "bs-dt-hero"


def test_a_link_to_nothing_inside_a_unit_leaves_that_unit_out_naming_the_link():
    """The engine leaves such a link out of a roster's menu; the import does not import the unit
    without a part of it, and says which link points nowhere (where it is written)."""
    result = imported(CATALOGUE)
    assert [u.values["name"] for u in result.plans[0].units] == ["Hill Hero"]
    assert (
        "data.cat: catalogue/entryLink[@name='Lost Band']: left out: data.cat: catalogue/"
        "sharedSelectionEntries/selectionEntry[@name='Lost']/entryLink[@name='Gone Gear']: the link's "
        "target 'dt-nowhere' is in none of the uploaded files"
    ) in result.warnings


def test_an_option_is_read_from_the_engines_model():
    data = read_files([source("bands.gst"), SourceFile("data.cat", CATALOGUE)])
    [(_hero_link, hero), (_lost_link, lost)] = list(data.root_entries(data.documents[1]))
    assert (data.name(hero), hero.name, data.entry_id(hero), data.target_id(hero)) == (
        "Hill Hero",
        "Hero",
        "dt-link-hero",
        "dt-hero",
    )
    assert data.path(hero) == "data.cat: catalogue/entryLink[@name='Hill Hero']"
    assert (
        data.written(hero.defn) == "data.cat: catalogue/sharedSelectionEntries/selectionEntry[@name='Hero']"
    )
    assert [p.name for p in data.profiles_of(hero)] == ["Hero"]
    assert data.costs(hero) == {"bd-pts": 10}
    with pytest.raises(BattleScribeError):
        data.children(lost)


@pytest.mark.parametrize(
    ("inner", "where"),
    [
        (
            b'<constraints><constraint field="selections" scope="parent" value="many" id="c1" '
            b'type="max"/></constraints>',
            "constraint@value: 'many' is not a number",
        ),
        (
            b'<modifiers><modifier type="set" field="c1" value="2"><conditions><condition '
            b'field="selections" scope="parent" value="x" childId="model" type="atLeast"/></conditions>'
            b"</modifier></modifiers>",
            "modifier/condition@value: 'x' is not a number",
        ),
        (
            b'<modifierGroups><modifierGroup><repeats><repeat field="selections" scope="parent" '
            b'value="?" childId="model" repeats="1"/></repeats></modifierGroup></modifierGroups>',
            "modifier/repeat@value: '?' is not a number",
        ),
    ],
)
def test_a_value_that_is_no_number_is_refused_naming_file_and_element(inner, where):
    """The engine's model reads such a value as 0; the import refuses the file instead."""
    text = HEAD + b"<selectionEntries>" + entry("dt-bad", "Bad", inner) + b"</selectionEntries></catalogue>"
    with pytest.raises(BattleScribeError) as refused:
        read_document(SourceFile("bad.cat", text))
    assert refused.value.errors == [f"bad.cat: catalogue/selectionEntry[@name='Bad']/{where}"]


def test_a_link_without_a_target_is_refused_and_a_1x_catalogue_is_read():
    text = (
        HEAD
        + b'<entryLinks><entryLink id="dt-l" name="Nowhere" type="selectionEntry"/></entryLinks></catalogue>'
    )
    with pytest.raises(BattleScribeError) as refused:
        read_document(SourceFile("bad.cat", text))
    assert refused.value.errors == [
        "bad.cat: catalogue/entryLink[@name='Nowhere']: the entry link has no targetId"
    ]
    old = (
        b'<catalogue id="o" name="Old" battleScribeVersion="1.15" gameSystemId="s" '
        b'xmlns="http://www.battlescribe.net/schema/catalogueSchema"><entries><entry id="e" name="E" '
        b'points="10"/></entries></catalogue>'
    )
    # a 1.x catalogue is read (the engine's model converts it): its header, its entries counted
    header = read_document(SourceFile("old.cat", old))
    assert (header.name, header.root_entries, header.entry_count) == ("Old", 1, 1)
