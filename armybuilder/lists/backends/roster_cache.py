"""The engine's rosters of the lists being edited, kept in this process between requests.

Rebuilding a list's roster from its stored selection trees costs more than the click that
changes it; so after a change the roster (with its dependency-tracked evaluation cache,
`rules.battlescribe.engine.evalcache`) and the rows it was written to are kept here under the
list's id and the version the change saved. The next change of that list, if the list is
still at that version, takes them and applies one engine operation; otherwise (another
process or tab changed it, a unit was moved or renamed, the data was re-imported: every such
change moves the version on) the entry is dropped and the roster is rebuilt from the
database, exactly as before.

An entry is taken out while a change works on it and put back only when the change's
transaction commits (`transaction.on_commit`): a change that fails or is rolled back leaves
nothing half-applied here, and two requests never share one roster. At most `KEPT_ROSTERS`
lists are kept (least recently used go first).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from armybuilder.models import ArmyList, ListUnit
from rules.battlescribe.list_roster import ListRoster

#: How many lists' rosters one process keeps (a 60-row Necrons roster with its evaluated
#: values is a few megabytes).
KEPT_ROSTERS = 24


@dataclass
class KeptRoster:
    """A list's roster at one version and the rows it was written to, in order."""

    version: int
    roster: ListRoster
    units: list[ListUnit]

    def units_for(self, army_list: ArmyList) -> list[ListUnit]:
        """The kept rows, each pointing at `army_list` (the change's locked row)."""
        for unit in self.units:
            unit.army_list = army_list
        return list(self.units)


_kept: OrderedDict[int, KeptRoster] = OrderedDict()
_lock = threading.Lock()


def take(list_id: int, version: int) -> KeptRoster | None:
    """The kept roster of the list at `version`, removed from the cache; None (and the entry
    dropped) when it is missing or kept at another version."""
    with _lock:
        kept = _kept.pop(list_id, None)
    if kept is None or kept.version != version:
        return None
    return kept


def keep(list_id: int, version: int, roster: ListRoster, units: Sequence[ListUnit]) -> None:
    """Keep `roster` as the list's at `version`, holding `units` (whole rows, in order)."""
    with _lock:
        _kept[list_id] = KeptRoster(version=version, roster=roster, units=list(units))
        _kept.move_to_end(list_id)
        while len(_kept) > KEPT_ROSTERS:
            _kept.popitem(last=False)


def peek(list_id: int) -> KeptRoster | None:
    """The list's kept roster, left in the cache (what a check of the cache reads)."""
    with _lock:
        return _kept.get(list_id)


def holds(list_id: int, version: int) -> bool:
    """Whether the list's roster is kept at `version`: then the list is a roster of the engine
    (only those are kept), which its backend and its add are told without a query."""
    with _lock:
        kept = _kept.get(list_id)
    return kept is not None and kept.version == version


def forget(list_id: int) -> None:
    """Drop the list's kept roster, if any."""
    with _lock:
        _kept.pop(list_id, None)


def kept_count() -> int:
    """How many lists' rosters are kept now."""
    with _lock:
        return len(_kept)


def clear() -> None:
    """Forget every kept roster (tests)."""
    with _lock:
        _kept.clear()
