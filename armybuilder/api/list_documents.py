"""Each list's API JSON stored as the bytes sent, read back by one statement that checks it.

An uncached `GET /api/v1/lists/{id}` used to read the list's row and its units through the
ORM, serialize them and encode the JSON: about 3.7 times the CPU of the cheapest API call for
50 units (issue 42). Here the document a read would produce is stored (`ListApiDocument`, one
per list and language: violation messages and summary labels are in the reader's language),
and a read is a single statement that decides whether the caller may see the list, whether
the stored document is still the list as it is now, and returns it; the bytes go into the
response without being parsed or encoded again.

Never stale: the statement compares everything the document was built from (see
`ListApiDocument`) and the code's format (`code_format`: a fingerprint of the code and
messages, so a release never sends documents an older release stored). A document that does
not match is not sent; the list is serialized as before and the document rewritten (`store`).
Documents are written by a read that found none current, and rewritten (in every language
stored) when a change of the list commits (`refresh`, on the services' `list_saved`), after the
response of the request that made the change (`armybuilder.after_response`): lists no one reads
through the API cost their changes nothing more, and the others' changes are answered without
waiting for their documents.
"""

from __future__ import annotations

import functools
import hashlib
import json
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.http import HttpResponse
from django.utils import translation
from rest_framework.renderers import JSONRenderer

from armybuilder import after_response
from armybuilder.lists.selectors import API_READ_UNITS_UNREAD, API_READ_UNREAD, army_list_units
from armybuilder.models import ArmyList, ListApiDocument
from rules.models import BattleScribeSource, Faction

#: The representation's format: raise it when what `ArmyListSerializer` produces changes in a
#: way the code's fingerprint (`code_format`) cannot see.
FORMAT = 1
#: The product's own packages and messages: any change in them may change a list's JSON (a
#: field, a system's figures, a translated message), so documents stored by other code are not
#: sent (`code_format`).
_CODE_DIRECTORIES = ("armybuilder", "rules", "points", "locale")
_CODE_SUFFIXES = frozenset({".py", ".po", ".json", ".yaml", ".yml", ".toml"})

#: Largest list id the statement is asked for (a larger one is answered by the ordinary path).
_MAX_ID = 2**31 - 1

#: Stands for the share token while a document is rendered; never in any list's content.
_SENTINEL = f"share-token-{uuid.uuid4().hex}"
_TOKEN_KEY = '"share_token":'


@functools.cache
def code_format() -> str:
    """`FORMAT` and a fingerprint of the code and messages running (about 15 ms, once per
    process): a release that changes anything a document is made by never sends one stored by
    the release before, without anyone having to remember to raise `FORMAT`."""
    root = Path(__file__).resolve().parents[2]
    digest = hashlib.sha256()
    for directory in _CODE_DIRECTORIES:
        for path in sorted((root / directory).rglob("*")):
            if path.suffix in _CODE_SUFFIXES and path.is_file():
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return f"{FORMAT}:{digest.hexdigest()}"


def enabled() -> bool:
    """Whether reads use stored documents (`API_LIST_DOCUMENTS`, on by default)."""
    return bool(settings.API_LIST_DOCUMENTS)


def language() -> str:
    """The language documents are stored and looked up in: the request's."""
    return translation.get_language() or settings.LANGUAGE_CODE


@dataclass(frozen=True)
class StoredList:
    """What the read statement answers for a list the caller may read."""

    version: int
    owner_id: int
    share_token: str | None
    head: str | None  # None: no current document in this language (serialize and store)
    tail: str | None


def _read_statement() -> str:
    user = get_user_model()
    username = user._meta.get_field(user.USERNAME_FIELD).column
    return f"""
        SELECT l.version, l.owner_id, l.share_token, d.head, d.tail
        FROM {ArmyList._meta.db_table} l
        JOIN {user._meta.db_table} u ON u.id = l.owner_id
        LEFT JOIN {Faction._meta.db_table} f ON f.id = l.faction_id
        LEFT JOIN {BattleScribeSource._meta.db_table} s ON s.faction_id = l.faction_id
        LEFT JOIN {ListApiDocument._meta.db_table} d
            ON d.army_list_id = l.id AND d.language = %s AND d.format = %s
            AND d.list_version = l.version AND d.list_updated = l.updated
            AND d.owner_name = u.{username} AND d.faction_name IS NOT DISTINCT FROM f.name
            AND d.source_digest IS NOT DISTINCT FROM s.digest
        WHERE l.id = %s AND ((l.owner_id = %s AND l.locked_at IS NULL) OR l.is_public)
    """


_READ: str | None = None


def stored(*, user: Any, list_id: int) -> StoredList | None:
    """The list as the read statement finds it for `user` (signed in), in the request's language;
    `None` when `user` may not read it (or it does not exist: the ordinary path answers 404).

    The visibility rule is `selectors.army_lists_visible_to`'s for a signed-in player: their own
    lists except locked versions, and public lists.
    """
    global _READ
    if not (0 < list_id <= _MAX_ID) or not user.is_authenticated:
        return None
    if _READ is None:
        _READ = _read_statement()
    with connection.cursor() as cursor:
        cursor.execute(_READ, [language(), code_format(), list_id, user.pk])
        row = cursor.fetchone()
    return None if row is None else StoredList(*row)


def split(representation: dict[str, Any]) -> tuple[str, str]:
    """The JSON `JSONRenderer` sends for `representation`, cut around the share token's value."""
    rendered = JSONRenderer().render({**representation, "share_token": _SENTINEL}).decode()
    marker = _TOKEN_KEY + json.dumps(_SENTINEL)
    at = rendered.index(marker)
    return rendered[:at + len(_TOKEN_KEY)], rendered[at + len(marker):]


def body(head: str, tail: str, share_token: str | None) -> bytes:
    """The bytes of the document with `share_token` (None: not shown) in its place."""
    token = "null" if share_token is None else json.dumps(share_token, ensure_ascii=False)
    return f"{head}{token}{tail}".encode()


def source_digest(army_list: ArmyList) -> str | None:
    """The digest of the list's faction's BattleScribe source (the forces it offers), or None.
    Read before the list is serialized, so a document is never stamped newer than its content."""
    if not army_list.faction_id or getattr(army_list, "has_roster_source", True) is False:
        return None
    return BattleScribeSource.objects.filter(faction_id=army_list.faction_id).values_list(
        "digest", flat=True).first()


def store(army_list: ArmyList, head: str, tail: str, *, digest: str | None) -> None:
    """Keep the document of `army_list` as read (its version, names and `digest` as they were
    when it was serialized) for the request's language, replacing the one there was."""
    document = ListApiDocument(
        army_list_id=army_list.pk, language=language(), format=code_format(), list_version=army_list.version,
        list_updated=army_list.updated, faction_name=army_list.faction.name if army_list.faction_id else None,
        owner_name=army_list.owner.get_username(), source_digest=digest, head=head, tail=tail)
    ListApiDocument.objects.bulk_create(
        [document], update_conflicts=True, unique_fields=["army_list", "language"],
        update_fields=["format", "list_version", "list_updated", "faction_name", "owner_name",
                       "source_digest", "head", "tail"])


def json_response(head: str, tail: str, share_token: str | None, *, status: int = 200) -> HttpResponse:
    """The response DRF's `JSONRenderer` would give for the document (same bytes, same type)."""
    return HttpResponse(body(head, tail, share_token), status=status,
                        content_type=JSONRenderer.media_type)


def representation(army_list: ArmyList) -> dict[str, Any]:
    """The list as `ArmyListSerializer` gives it, its units read once (one query, without the
    columns it never shows)."""
    from armybuilder.api.serializers import ArmyListSerializer, ListUnitSerializer

    units = army_list_units(army_list=army_list, unread=API_READ_UNITS_UNREAD)
    context = {"units": ListUnitSerializer(units, many=True).data, "list_units": units}
    return ArmyListSerializer(army_list, context=context).data


def save(army_list: ArmyList) -> tuple[str, str]:
    """Serialize `army_list` (read from the database as it is now, not a service's changed
    object: JSON columns read back have the database's key order) and store its document in the
    current language; the document's two parts."""
    digest = source_digest(army_list)  # before serializing: see `source_digest`
    head, tail = split(representation(army_list))
    store(army_list, head, tail, digest=digest)
    return head, tail


def refresh(sender: Any, list_id: int, **_kwargs: Any) -> None:
    """`list_saved`: rewrite the list's stored documents (`rewrite`) once the response of the
    request that changed it has been sent (`after_response.defer`; at once outside a request):
    about 11.5 ms per language stored that the change's answer no longer waits for. Until then
    the documents no longer match the list and are not sent (a read serializes it)."""
    if enabled():
        after_response.defer(functools.partial(rewrite, list_id), key=("list-documents", list_id))


def rewrite(list_id: int) -> None:
    """Rewrite the list's stored documents, in each language one is stored in, from the list
    as it is now."""
    languages = list(ListApiDocument.objects.filter(army_list_id=list_id).values_list("language", flat=True))
    if not languages:
        return
    has_source = Exists(BattleScribeSource.objects.filter(faction_id=OuterRef("faction_id")))
    army_list = (ArmyList.objects.select_related("system", "faction", "owner").defer(*API_READ_UNREAD)
                 .filter(pk=list_id, locked_at__isnull=True).annotate(has_roster_source=has_source).first())
    if army_list is None:
        return
    for code in languages:
        with translation.override(code):
            save(army_list)


def forget_lists_using_template(sender: Any, instance: Any, **_kwargs: Any) -> None:
    """`pre_delete` of a catalogue unit: delete the documents of the lists with a unit made from
    it, whose `template` the deletion clears without changing the lists' versions. Done at once
    and again when the deletion commits (a read serializing meanwhile may have stored one)."""
    from armybuilder.models import ListUnit

    list_ids = list(ListUnit.objects.filter(template_id=instance.pk).values_list("army_list_id", flat=True)
                    .distinct())
    if not list_ids:
        return

    def forget() -> None:
        ListApiDocument.objects.filter(army_list_id__in=list_ids).delete()

    forget()
    transaction.on_commit(forget)
