"""The serialized form of each list version, kept in this process's memory.

Reading a list is the API's hottest request (a phone reopening a list, a shared link
opened by a whole gaming club). What `ArmyListSerializer` produces depends only on the list
row — whose `version` and `updated` change with every change to the list or its units —
and on the names of its faction and owner, so it is computed once per version and reused.
A read then costs the queries that decide whether the caller may see the list, and the
JSON encoding; no unit is loaded, decoded or serialized again.

Entries are shared, not copied: callers treat them as read-only (the renderer only reads).
Old versions fall out as new ones come in (least recently used first), and every entry is
rebuilt after `MAX_AGE_SECONDS`: the few changes that reach a list's units without going
through the list services (a deleted homebrew unit template clears `template` on the
units made from it) show within that time.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.utils import translation

from armybuilder.models import ArmyList

#: Lists whose latest representation this process keeps (about 30 KB each for 25 units);
#: `API_LIST_CACHE_ENTRIES` in the environment (0: keep none, every read builds the JSON: the
#: baseline of `bench/bench_api.py`).
MAX_ENTRIES: int = settings.API_LIST_CACHE_ENTRIES
#: Age after which an entry is rebuilt even though its key still matches.
MAX_AGE_SECONDS = 60.0

_entries: OrderedDict[tuple, tuple[float, dict[str, Any]]] = OrderedDict()
_lock = threading.Lock()


def cache_key(army_list: ArmyList) -> tuple:
    """Everything the representation is made of that the list's version does not cover
    (the language too: violation messages are written in the reader's)."""
    faction_name = army_list.faction.name if army_list.faction_id else None
    return (army_list.pk, army_list.version, army_list.updated, faction_name, army_list.owner.get_username(),
            army_list.system.key, translation.get_language())


def representation(army_list: ArmyList, build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The cached representation of this version of the list, built with `build()` if missing."""
    key = cache_key(army_list)
    now = time.monotonic()
    with _lock:
        found = _entries.get(key)
        if found is not None and found[0] > now:
            _entries.move_to_end(key)
            return found[1]
    built = build()
    with _lock:
        _entries[key] = (now + MAX_AGE_SECONDS, built)
        _entries.move_to_end(key)
        while len(_entries) > MAX_ENTRIES:
            _entries.popitem(last=False)
    return built


def clear() -> None:
    """Forget everything (tests, where ids and versions repeat between test databases)."""
    with _lock:
        _entries.clear()
