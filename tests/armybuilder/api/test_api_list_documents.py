"""A list read from its stored document (`armybuilder/api/list_documents.py`) is, byte for byte
and header for header, what serializing the list gives; a document that no longer matches the
list is never sent."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from armybuilder.api import list_cache
from armybuilder.lists.services import army_list_add_unit, army_list_create, army_list_unit_set_options
from armybuilder.models import ArmyList, ListApiDocument
from rules.models import Faction, UnitTemplate
from tests.armybuilder.api.conftest import if_match

LANGUAGES = ("en", "pl", "cs", "ru")
#: Headers a document read must answer exactly as the serializing path does.
HEADERS = ("Content-Type", "ETag", "Cache-Control", "Vary", "Allow", "Content-Length")


def _get(client: APIClient, url: str, language: str) -> Any:
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language)


def serialized(client: APIClient, list_id: int, settings: Any, language: str = "en") -> Any:
    """The read as the serializer answers it (no stored documents, nothing cached)."""
    settings.API_LIST_DOCUMENTS = False
    list_cache.clear()
    try:
        return _get(client, f"/api/v1/lists/{list_id}", language)
    finally:
        settings.API_LIST_DOCUMENTS = True


def assert_read_from_document(client: APIClient, list_id: int, settings: Any, language: str = "en") -> bytes:
    """Read the list twice (the first may store its document), the second from the document,
    and check it against the serializer's answer; the body read."""
    url = f"/api/v1/lists/{list_id}"
    list_cache.clear()
    assert _get(client, url, language).status_code == 200
    with CaptureQueriesContext(connection) as context:
        stored = _get(client, url, language)
    assert stored.status_code == 200
    assert not [q for q in context.captured_queries if '"armybuilder_listunit"' in q["sql"]]
    assert len(context.captured_queries) <= 2  # the token (or session) and the document's statement
    expected = serialized(client, list_id, settings, language)
    assert stored.content == expected.content
    assert {name: stored.get(name) for name in HEADERS} == {name: expected.get(name) for name in HEADERS}
    return stored.content


def assert_first_read_is_the_document(client: APIClient, list_id: int, settings: Any, language: str) -> None:
    """The first read after a change, in a language a document is stored in, is answered from
    it (the token and the document's statement), equal to the serializer's answer."""
    list_cache.clear()
    with CaptureQueriesContext(connection) as context:
        first = _get(client, f"/api/v1/lists/{list_id}", language)
    assert len(context.captured_queries) == 2
    assert first.content == serialized(client, list_id, settings, language).content


def test_every_kind_of_list_reads_from_its_document_as_the_serializer_gives_it(
        owner: Any, example_lists: list[ArmyList], imported_list: ArmyList, settings: Any) -> None:
    """Bundled lists of every system, a homebrew list and a list of a faction imported with its
    BattleScribe source (the engine's), in every language."""
    from rules.services import homebrew_faction_get_or_create, homebrew_unit_save
    from tests.factories.opr_documents import opr_unit

    opr = next(army_list.system for army_list in example_lists if army_list.system.key == "opr")
    homebrew_faction = homebrew_faction_get_or_create(user=owner, system=opr)
    made = homebrew_unit_save(user=owner, data={"system": "opr", **opr_unit("Home Guard", count=5)})
    homebrew = army_list_create(owner=owner, system=opr, faction=homebrew_faction, name="Homebrew",
                                points_limit=10)  # over its limit: a violation, in the reader's language
    army_list_add_unit(army_list=homebrew, unit=made, expected_version=homebrew.version)

    lists = [*example_lists, imported_list, homebrew]
    for army_list in lists:
        client = APIClient()
        client.force_authenticate(army_list.owner)
        bodies = {language: assert_read_from_document(client, army_list.pk, settings, language)
                  for language in LANGUAGES}
        assert ListApiDocument.objects.filter(army_list=army_list).count() == len(LANGUAGES)
        if army_list == homebrew:
            assert bodies["en"] != bodies["pl"]  # the violation's message is translated


def test_after_every_kind_of_change_the_document_read_is_the_current_list(
        owner_client: Any, owner: Any, other: Any, private_list: ArmyList, units: dict[str, UnitTemplate],
        settings: Any) -> None:
    pk = private_list.pk
    base = f"/api/v1/lists/{pk}"
    assert_read_from_document(owner_client, pk, settings)

    def unit_ids() -> list[int]:
        return list(private_list.units.order_by("position").values_list("pk", flat=True))

    changes = [
        lambda: owner_client.patch(base, {"name": "Renamed", "points_limit": 20}, format="json",
                                   **if_match(private_list)),
        lambda: owner_client.post(f"{base}/units", {"unit": units["captain"].pk}, format="json",
                                  **if_match(private_list)),
        lambda: owner_client.patch(f"{base}/units/{unit_ids()[0]}", {"options": {"plasma": 2}, "position": 2},
                                   format="json", **if_match(private_list)),
        lambda: owner_client.patch(f"{base}/units/{unit_ids()[0]}", {"custom_name": "Red", "notes": "n"},
                                   format="json", **if_match(private_list)),
        lambda: owner_client.post(f"{base}/units/{unit_ids()[1]}/duplicate", format="json",
                                  **if_match(private_list)),
        lambda: owner_client.delete(f"{base}/units/{unit_ids()[0]}", **if_match(private_list)),
        lambda: owner_client.post(f"{base}/undo", **if_match(private_list)),
        lambda: owner_client.post(f"{base}/share", **if_match(private_list)),
        lambda: owner_client.delete(f"{base}/share", **if_match(private_list)),
        lambda: owner_client.post(f"{base}/locks", **if_match(private_list)),
        # The editor's way: the services, no API response storing anything.
        lambda: army_list_unit_set_options(
            list_unit=private_list.units.filter(template=units["veterans"]).first(), options={"plasma": 1},
            expected_version=None),
        lambda: army_list_add_unit(army_list=ArmyList.objects.get(pk=pk), unit=units["recruits"],
                                   expected_version=None),
    ]
    for change in changes:
        response = change()
        if hasattr(response, "status_code"):  # an API request (the services answer otherwise)
            assert response.status_code < 300, response.content[:300]
        for language in ("en", "pl"):
            assert_read_from_document(owner_client, pk, settings, language)

    # Changes outside the list services: the names shown, a deleted catalogue unit.
    Faction.objects.filter(pk=private_list.faction_id).update(name="Renamed Guard")
    assert b"Renamed Guard" in assert_read_from_document(owner_client, pk, settings)
    owner.username = "renamed-owner"
    owner.save()
    assert b"renamed-owner" in assert_read_from_document(owner_client, pk, settings)
    assert_read_from_document(owner_client, pk, settings)
    units["recruits"].delete()
    assert b'"template":null' in assert_read_from_document(owner_client, pk, settings)

    # A fork: a new list, read from its document too; another reader never sees the token.
    forked = owner_client.post(f"{base}/fork").json()["id"]
    assert_read_from_document(owner_client, forked, settings)
    ArmyList.objects.filter(pk=pk).update(is_public=True)
    owner_client.post(f"{base}/share", **if_match(private_list))
    from tests.factories.army_lists import token_client

    reader = token_client(other)
    assert assert_read_from_document(reader, pk, settings).count(b'"share_token":null') == 1
    token = ArmyList.objects.get(pk=pk).share_token
    assert f'"share_token":"{token}"'.encode() in assert_read_from_document(owner_client, pk, settings)


def test_a_stored_document_is_sent_only_while_it_matches_the_list(
        owner_client: Any, private_list: ArmyList, settings: Any) -> None:
    """The document read is the stored one (a marked copy is sent while it matches); a new
    version, another release's format or another language is serialized again and stored anew."""
    url = f"/api/v1/lists/{private_list.pk}"
    owner_client.get(url)
    ListApiDocument.objects.filter(army_list=private_list).update(head='{"marked":true,"share_token":',
                                                                  tail="}")
    assert owner_client.get(url).json() == {"marked": True, "share_token": None}

    ListApiDocument.objects.filter(army_list=private_list).update(format="0:stored by an older release")
    assert owner_client.get(url).content == serialized(owner_client, private_list.pk, settings).content
    ListApiDocument.objects.filter(army_list=private_list).update(head='{"marked":true,"share_token":',
                                                                  tail="}")
    assert "units" in _get(owner_client, url, "pl").json()  # not the English (marked) document

    army_list_add_unit(army_list=ArmyList.objects.get(pk=private_list.pk),
                       unit=private_list.units.first().template, expected_version=None)
    fresh = owner_client.get(url)
    assert "units" in fresh.json() and len(fresh.json()["units"]) == 3
    assert fresh.content == serialized(owner_client, private_list.pk, settings).content


def test_a_list_no_one_may_read_is_not_found_from_documents_either(
        owner_client: Any, other_client: Any, private_list: ArmyList) -> None:
    url = f"/api/v1/lists/{private_list.pk}"
    assert owner_client.get(url).status_code == 200  # its document is stored
    assert other_client.get(url).status_code == 404
    assert other_client.get("/api/v1/lists/999999999").status_code == 404


def test_the_current_etag_is_a_304_from_the_document(owner_client: Any, private_list: ArmyList) -> None:
    url = f"/api/v1/lists/{private_list.pk}"
    tag = owner_client.get(url)["ETag"]
    response = owner_client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert (response.status_code, response["ETag"], response.content) == (304, tag, b"")


def test_a_committed_change_rewrites_the_stored_documents_in_each_language(
        owner_client: Any, private_list: ArmyList, units: dict[str, UnitTemplate], settings: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    """The editor's click (the services, no API request): once it commits, the very first read
    in each language already stored is answered from a document, equal to the serializer's."""
    url = f"/api/v1/lists/{private_list.pk}"
    for language in ("en", "pl"):
        _get(owner_client, url, language)
    with django_capture_on_commit_callbacks(execute=True):
        army_list_add_unit(army_list=ArmyList.objects.get(pk=private_list.pk), unit=units["captain"],
                           expected_version=None)
    version = ArmyList.objects.get(pk=private_list.pk).version
    stored = ListApiDocument.objects.filter(army_list=private_list).values_list("language", "list_version")
    assert set(stored) == {("en", version), ("pl", version)}
    for language in ("en", "pl"):
        assert_first_read_is_the_document(owner_client, private_list.pk, settings, language)


def test_a_list_read_through_no_api_costs_its_changes_no_document(
        private_list: ArmyList, units: dict[str, UnitTemplate],
        django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        army_list_add_unit(army_list=ArmyList.objects.get(pk=private_list.pk), unit=units["captain"],
                           expected_version=None)
    assert not ListApiDocument.objects.filter(army_list=private_list).exists()


def test_a_changed_battlescribe_source_is_not_served_from_an_older_document(
        owner: Any, owner_client: Any, settings: Any) -> None:
    """The forces a list offers come from its faction's source, which a re-import may change
    without a new version of the list: the source's digest is part of the document's match."""
    from django.core.management import call_command

    from rules.battlescribe_import import import_files
    from rules.models import BattleScribeSource
    from tests.rules.battlescribe.files import sources

    call_command("load_catalogue", stdout=io.StringIO())
    faction = import_files(system_key="wh40k9", files=sources("slots.gst", "slots_warband.cat"),
                           owner=owner).factions[0]
    army_list = army_list_create(owner=owner, system=faction.system, faction=faction, name="BS",
                                 points_limit=500)
    url = f"/api/v1/lists/{army_list.pk}"
    assert owner_client.get(url).json()["roster_forces"]
    ListApiDocument.objects.filter(army_list=army_list).update(head='{"marked":true,"share_token":', tail="}")
    assert owner_client.get(url).json() == {"marked": True, "share_token": None}  # it matches: sent

    BattleScribeSource.objects.filter(faction=faction).update(digest="0" * 64)
    assert owner_client.get(url).content == serialized(owner_client, army_list.pk, settings).content


@pytest.mark.django_db(transaction=True)
def test_a_changes_response_is_sent_before_its_documents_are_rewritten(
        owner: Any, owner_client: Any, private_list: ArmyList, units: dict[str, UnitTemplate],
        settings: Any) -> None:
    """The change's answer does not wait on rewriting the list's documents in every language
    stored (`list_documents.refresh` defers `rewrite` to `armybuilder.after_response`): served
    as a WSGI server serves it, the response is ready (the change committed) while the
    documents are still the old version's, which are not sent; once the server has sent it and
    closed it, they are the list as it is now, and the next read is answered from them."""
    from django.core.handlers.wsgi import WSGIHandler
    from django.test import RequestFactory
    from rest_framework.authtoken.models import Token

    def stored() -> set[tuple[str, int]]:
        documents = ListApiDocument.objects.filter(army_list=private_list)
        return set(documents.values_list("language", "list_version"))

    url = f"/api/v1/lists/{private_list.pk}"
    for language in ("en", "pl"):
        _get(owner_client, url, language)
    before = ArmyList.objects.get(pk=private_list.pk).version
    request = RequestFactory().post(
        f"{url}/units", data=json.dumps({"unit": units["captain"].pk}), content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {Token.objects.get(user=owner).key}", **if_match(private_list))
    statuses: list[str] = []
    response = WSGIHandler()(request.environ, lambda status, headers, *exc_info: statuses.append(status))
    try:
        assert statuses[0].startswith("201")
        assert ArmyList.objects.get(pk=private_list.pk).version == before + 1  # committed
        assert stored() == {("en", before), ("pl", before)}  # not rewritten within the response
    finally:
        response.close()  # the body sent: the server closes the response
    assert stored() == {("en", before + 1), ("pl", before + 1)}
    for language in ("en", "pl"):
        assert_first_read_is_the_document(owner_client, private_list.pk, settings, language)
