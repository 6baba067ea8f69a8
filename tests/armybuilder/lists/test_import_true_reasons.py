"""Known refusals say their true reason (issue 38, item 7), not a generic "failed".

- A catalogue nested 200,000 deep ended in a RecursionError the worker's catch-all called
  "The import failed; nothing was imported."; the reader now refuses it by its depth.
- An Army Forge list holding a 31-digit number: the digit-limit message was raised while the
  JSON was read for detection and swallowed there, so the player read "This is not a list in
  any format we read"; now that message is what they read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command

from armybuilder.lists.importers import ImportProblem, Source, importer_for
from rules.battlescribe.xml_reader import MAX_XML_DEPTH, BattleScribeError, SourceFile, parse
from tests.factories.army_lists import make_user, token_client
from tests.factories.list_imports import api_result

LIST = (Path(__file__).parent / "imports" / "army_forge_list.json").read_text()
HUGE = "1" * 31
DIGITS = "A number has 31 digits; numbers may have at most 30."


def deep_catalogue(depth: int) -> bytes:
    opening = b'<selectionEntry id="e" name="E" type="unit"><selectionEntries>' * depth
    closing = b"</selectionEntries></selectionEntry>" * depth
    return (b'<catalogue id="c" name="C" xmlns="http://www.battlescribe.net/schema/catalogueSchema">'
            b"<sharedSelectionEntries>" + opening + closing + b"</sharedSelectionEntries></catalogue>")


def test_a_catalogue_nested_200000_deep_is_refused_by_its_depth():
    with pytest.raises(BattleScribeError) as refused:
        parse(SourceFile("deep.cat", deep_catalogue(100_000)))  # 200,000 elements deep
    assert refused.value.errors == [
        f"deep.cat: elements nest deeper than the limit of {MAX_XML_DEPTH} levels"]


def test_a_catalogue_at_the_depth_limit_is_read():
    root = parse(SourceFile("deep.cat", deep_catalogue((MAX_XML_DEPTH - 2) // 2)))
    assert root.tag.endswith("catalogue")


def test_an_army_forge_list_with_a_31_digit_number_says_so():
    source = Source(name="list.json", data=LIST.replace('"points": 520', f'"points": {HUGE}').encode())
    with pytest.raises(ImportProblem) as refused:
        importer_for(source)
    assert refused.value.errors == [("list.json", DIGITS)]


@pytest.mark.django_db
def test_the_api_import_of_that_list_fails_with_that_message(inline_pdf_renders: Any):
    call_command("load_catalogue", verbosity=0)
    client = token_client(make_user("importer"))
    data = LIST.replace('"cost": 100', f'"cost": {HUGE}', 1).encode()
    posted = client.post("/api/v1/lists/import", {"file": SimpleUploadedFile("list.json", data)},
                         format="multipart")
    answer = api_result(client, posted)
    body = answer.json()
    assert body["status"] == "failed"
    assert body["errors"] == [{"field": "list.json", "message": DIGITS}]
