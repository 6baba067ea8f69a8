"""Hostile and broken input: each refused with a message naming the file (and element/line),
in bounded memory, before anything is mapped or written."""

from __future__ import annotations

import io
import tracemalloc
import zipfile

import pytest

from rules.battlescribe.catalogue import read_document
from rules.battlescribe.xml_reader import (
    MAX_FILE_BYTES,
    MAX_TOTAL_XML_BYTES,
    MAX_XML_BYTES,
    BattleScribeError,
    SourceFile,
    parse,
    xml_bytes,
)
from rules.battlescribe_import import parse_import
from tests.rules.battlescribe.files import (
    BILLION_LAUGHS,
    EXTERNAL_ENTITY,
    MALFORMED,
    source,
    sources,
    zipped,
)


def errors_of(call) -> list[str]:
    with pytest.raises(BattleScribeError) as caught:
        call()
    return caught.value.errors


def test_malformed_xml_names_file_and_line():
    assert errors_of(lambda: parse(SourceFile("broken.gst", MALFORMED))) == [
        "broken.gst: line 3, column 43: malformed XML (mismatched tag: line 3, column 43)"
    ]


def test_billion_laughs_is_refused():
    assert errors_of(lambda: parse(SourceFile("laughs.gst", BILLION_LAUGHS))) == [
        "laughs.gst: refused: DTDForbidden (DTDs, entities and external references are not allowed)"
    ]


def test_external_entity_is_refused():
    assert errors_of(lambda: parse(SourceFile("xxe.gst", EXTERNAL_ENTITY)))[0].startswith("xxe.gst: refused:")


def test_zip_bomb_is_refused_in_bounded_memory():
    bomb = zipped("bomb.catz", "bomb.cat", b"<a>" + b" " * (12 * 1024 * 1024) + b"</a>")
    assert len(bomb.data) < 200_000
    tracemalloc.start()
    errors = errors_of(lambda: xml_bytes(bomb))
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert "bomb.catz: bomb.cat is compressed" in errors[0] and "(a zip bomb?)" in errors[0]
    assert peak < 5 * 1024 * 1024


def test_zip_lying_about_its_size_stops_at_the_cap():
    """A member whose directory entry claims a tiny size is still cut off while inflating."""
    data = b"<a>" + b"x" * (3 * 1024 * 1024) + b"</a>"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("liar.cat", data)
    raw = bytearray(buffer.getvalue())
    # patch the uncompressed size in the central directory to 100 bytes
    at = raw.rfind(b"PK\x01\x02")
    raw[at + 24 : at + 28] = (100).to_bytes(4, "little")
    errors = errors_of(lambda: xml_bytes(SourceFile("liar.catz", bytes(raw))))
    assert errors[0].startswith("liar.catz: liar.cat")


def test_zip_member_above_the_xml_limit_is_refused():
    big = zipped("big.catz", "big.cat", b"<a>" + b" " * MAX_XML_BYTES + b"</a>")
    assert errors_of(lambda: xml_bytes(big)) == [
        f"big.catz: big.cat expands to {MAX_XML_BYTES + 7} bytes; the limit is {MAX_XML_BYTES}"
    ]


def test_several_files_together_above_the_total_are_refused():
    half = b'<gameSystem id="s" name="S">' + b" " * (MAX_TOTAL_XML_BYTES // 2) + b"</gameSystem>"
    files = [SourceFile("a.gst", half), SourceFile("b.cat", half)]
    errors = errors_of(lambda: parse_import(system_key="wh40k9", files=files))
    assert errors == [
        f"b.cat: the files of one import expand to more than {MAX_TOTAL_XML_BYTES} bytes of XML"
    ]


def test_a_100_mb_file_is_refused_before_parsing():
    big = SourceFile("huge.cat", b"\0" * (100 * 1024 * 1024))
    assert errors_of(lambda: xml_bytes(big)) == [
        f"huge.cat: the file is {100 * 1024 * 1024} bytes; the limit is {MAX_FILE_BYTES} bytes"
    ]


def test_not_a_zip_with_a_zip_suffix():
    assert errors_of(lambda: xml_bytes(SourceFile("fake.catz", b"<catalogue/>"))) == [
        "fake.catz: not a zip archive"
    ]


def test_wrong_root_element_is_named():
    errors = errors_of(lambda: read_document(SourceFile("list.cat", b"<roster id='r' name='x'/>")))
    assert errors == [
        "list.cat: roster: not a BattleScribe game system or catalogue (its root element is <roster>, "
        "expected <gameSystem> or <catalogue>)"
    ]


def test_bad_number_names_the_element():
    text = (
        b'<catalogue id="c" name="C" gameSystemId="s"><selectionEntries>'
        b'<selectionEntry id="e" name="Bad" type="unit"><costs><cost typeId="p" value="lots"/></costs>'
        b"</selectionEntry></selectionEntries></catalogue>"
    )
    errors = errors_of(lambda: read_document(SourceFile("bad.cat", text)))
    assert errors == ["bad.cat: catalogue/selectionEntry[@name='Bad']/cost@value: 'lots' is not a number"]


def test_unknown_system_is_refused():
    errors = errors_of(lambda: parse_import(system_key="chess", files=sources("grimdark.gst")))
    assert errors[0].startswith("--system: unknown game system 'chess'")


def test_catalogue_without_its_game_system_is_refused():
    errors = errors_of(lambda: parse_import(system_key="wh40k9", files=sources("armoury.cat", "marines.cat")))
    assert errors[0] == (
        "armoury.cat: catalogue: its game system (gameSystemId 'sys-grim') is not among the uploaded files; "
        "upload its .gst/.gstz too"
    )


def test_a_unit_with_a_link_to_a_missing_entry_is_left_out_with_its_path_and_the_rest_imports():
    """Issue 27 §2: one unit that cannot be read does not sink its catalogue."""
    text = source("marines.cat").data.replace(b'targetId="se-sword"', b'targetId="se-nowhere"')
    files = [*sources("grimdark.gst", "armoury.cat"), SourceFile("marines.cat", text)]
    result = parse_import(system_key="wh40k9", files=files)
    assert [[u.values["name"] for u in plan.units] for plan in result.plans] == [["Captain", "Scout Horde"]]
    assert [w for w in result.warnings if "left out" in w] == [
        "marines.cat: catalogue/entryLink[@name='Tactical Squad']: left out: "
        "marines.cat: catalogue/sharedSelectionEntries/selectionEntry[@name='Tactical Squad']/selectionEntry"
        "[@name='Sergeant']/entryLink[@name='Power sword']: the link's target 'se-nowhere' is in none of the "
        "uploaded files"
    ]
