"""The gauntlet while a list is built: its opponents, its matchups cached by content, and the
panel's state (`armybuilder.estimates.gauntlet` does the measuring).

A list keeps its gauntlet (`ArmyList.gauntlet`): the system's reference targets and/or up to
`MAX_OPPONENT_LISTS` other lists — the player's own, public ones, or a locked version an
opponent shared. Every matchup is cached in the shared job cache under the content of its two
units and its situation (`gauntlet.matchup_key`), so after a change only the changed unit's
rows and columns are missing. The web request never computes: it reads what is cached in one
round trip and, if anything is missing, queues one durable job per list content and gauntlet
(`gauntlet_tasks`: a Postgres row; the worker computes the missing matchups, checking each
against the estimate bounds) and shows the progress; the panel waits for the job's word
(`gauntlet_signal`) and polls until the whole table is there.
"""

from __future__ import annotations

import hashlib
import heapq
import math
import os
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import caches
from django.db.models import Q

from armybuilder.estimates.bounds import matchup_cost, over_limit
from armybuilder.estimates.gauntlet import (
    CACHE_VERSION,
    MODES,
    GauntletUnit,
    Matchup,
    Opponent,
    by_points,
    canonical,
    content_digest,
    matchup_figures,
    matchup_key,
    model_count,
    reference_units,
)
from armybuilder.estimates.inputs import estimable_in_list, situation_clean
from armybuilder.lists.selectors import army_list_by_share_token, army_list_units
from armybuilder.models import ArmyList, ListUnit
from rules.dice.shared_results import sharing
from rules.systems.registry import GameSystem, get_system

#: Opponent lists a gauntlet holds at most, and matchups it may need at most (both directions,
#: both modes: 20 units against three 20-unit lists are 4,800).
MAX_OPPONENT_LISTS = 3
MAX_MATCHUPS = 10_000
#: How long a computed matchup is kept (its key changes with its content, never its meaning).
MATCHUP_SECONDS = 7 * 24 * 3600


def job_cache() -> Any:
    return caches["jobs"]


@dataclass(frozen=True)
class GauntletInputs:
    """What one list's gauntlet measures: the system, the list's units, the opponents and the
    two situations (shooting and melee, every other field at the system's default)."""

    system: GameSystem
    units: list[GauntletUnit]
    opponents: list[Opponent]
    situations: dict[str, dict[str, Any]]
    #: The `ListUnit` ids of `units`, in the same order (empty for units that are no list's).
    unit_ids: list[int] = field(default_factory=list)

    def enemies(self) -> list[GauntletUnit]:
        return [enemy for opponent in self.opponents for enemy in opponent.units]

    def counts_points(self) -> bool:
        """Whether the whole gauntlet counts points (`gauntlet.by_points`), so that the figures
        of some of the list's units are measured as the whole list's are."""
        return by_points(self.system, [*self.units, *self.enemies()])

    def runs(self) -> int:
        """The matchups one unit of the list needs: both ways against every enemy unit in every mode."""
        return 2 * len(self.enemies()) * len(self.situations)

    def unit_pairs(self, index: int) -> list[Pair]:
        """The matchups unit `index` of the list needs, in `gauntlet.measure_unit`'s order."""
        unit = self.units[index]
        return [pair for enemy in self.enemies() for situation in self.situations.values()
                for pair in ((unit, enemy, situation), (enemy, unit, situation))]

    def unit_pair_keys(self, index: int) -> list[str]:
        """The cache key of each of `unit_pairs(index)`, in the same order."""
        digests = self._situation_digests()
        return [matchup_key(self.system.key, attacker, defender, digests[situation["mode"]])
                for attacker, defender, situation in self.unit_pairs(index)]

    def unit_keys(self) -> list[set[str]]:
        """Per unit of the list, the keys of every matchup its figures need (its attacks on
        every enemy unit and theirs on it, in every mode)."""
        return [set(self.unit_pair_keys(index)) for index in range(len(self.units))]

    def pair_keys(self) -> list[str]:
        """The cache key of each of `pairs`, in the same order."""
        return [key for index in range(len(self.units)) for key in self.unit_pair_keys(index)]

    def pairs(self) -> list[Pair]:
        return [pair for index in range(len(self.units)) for pair in self.unit_pairs(index)]

    def keyed_pairs(self) -> dict[str, Pair]:
        """Every matchup by its cache key (a pair met twice is one matchup)."""
        return dict(zip(self.pair_keys(), self.pairs(), strict=True))

    def measure_keys(self) -> list[str]:
        """Per unit of the list, the cache key of its measure (`gauntlet.measure_unit`): what its
        figures depend on, its own content, name and worth, the content, names, worths and order
        of every enemy unit (and which are reference targets), the situations and whether the
        gauntlet counts points. A unit's measure outlives edits of the other units of its list."""
        shared = content_digest([CACHE_VERSION, self.system.key, self.counts_points(),
                                 sorted(self._situation_digests().items()),
                                 [[enemy.name, enemy.reference, enemy.worth, enemy.digest]
                                  for enemy in self.enemies()]])
        return [f"gauntlet-unit:{content_digest([shared, unit.name, unit.worth, unit.digest])}"
                for unit in self.units]

    def _situation_digests(self) -> dict[str, str]:
        return {mode: content_digest(situation) for mode, situation in self.situations.items()}


Pair = tuple[GauntletUnit, GauntletUnit, dict[str, Any]]


def gauntlet_settings(army_list: ArmyList) -> dict[str, Any]:
    """The list's gauntlet with its defaults: reference targets unless other opponents are chosen."""
    stored = army_list.gauntlet if isinstance(army_list.gauntlet, Mapping) else {}
    lists = [int(i) for i in stored.get("lists", []) if isinstance(i, int)][:MAX_OPPONENT_LISTS]
    locks = [str(t) for t in stored.get("locks", []) if isinstance(t, str)][:MAX_OPPONENT_LISTS]
    reference = bool(stored.get("reference", not (lists or locks)))
    return {"reference": reference, "lists": lists, "locks": locks}


def opponent_choices(army_list: ArmyList) -> list[ArmyList]:
    """Lists the owner may put in the list's gauntlet: their own other lists and public lists of
    the same system (never the list itself, never a locked version — those come by link)."""
    visible = Q(owner_id=army_list.owner_id) | Q(is_public=True)
    return list(ArmyList.objects.filter(visible, system_id=army_list.system_id, locked_at__isnull=True)
                .exclude(pk=army_list.pk).select_related("owner").order_by("-updated")[:50])


def _units_of(system: GameSystem, units: Sequence[ListUnit]) -> list[GauntletUnit]:
    return [GauntletUnit(name=unit.display_name, data=unit.data,
                         worth=float(unit.points) if system.points_sized else float(model_count(unit.data)))
            for unit in units if estimable_in_list(unit.data or {})]


#: What the gauntlet reads of a list's units, never needed by it (documents as large as the
#: unit itself, decoded for nothing).
UNREAD = ("base_data", "available_options", "chosen_options", "option_points", "selection", "notes")
#: A list's gauntlet units (and their `ListUnit` ids) by list id and version, in this process:
#: each click reads the list and its opponent lists three times (the panel's first look, the
#: job, the look that finds the results), and the opponents do not change between clicks.
#: Every change of a list bumps its version, so an entry never goes stale (issue 42).
_LIST_UNITS: OrderedDict[tuple[Any, ...], tuple[list[GauntletUnit], list[int]]] = OrderedDict()
MAX_LISTS_KEPT = 64


def list_gauntlet_units(system: GameSystem, army_list: ArmyList) -> tuple[list[GauntletUnit], list[int]]:
    """The list's units the gauntlet measures (those that can be estimated, in order) and their
    `ListUnit` ids, kept per process by the list's id and version (`_LIST_UNITS`). Read with
    the version in the query: units read after a change the caller's list does not know of
    are used but not kept under its older version."""
    from django.utils.translation import get_language

    # The names are in the reader's language where the list's faction is at hand (`display_name`).
    key = (army_list.pk, army_list.version, system.key, get_language(), ArmyList.faction.is_cached(army_list))
    if key in _LIST_UNITS:
        _LIST_UNITS.move_to_end(key)
        return _LIST_UNITS[key]
    rows = list(ListUnit.objects.filter(army_list=army_list, army_list__version=army_list.version)
                .defer(*UNREAD).order_by("position"))
    keep = bool(rows)
    if not rows:  # empty, or changed since the caller read it: read it as it is, keep nothing
        rows = army_list_units(army_list=army_list, unread=UNREAD)
    for row in rows:
        row.army_list = army_list
    rows = [row for row in rows if estimable_in_list(row.data or {})]
    found = (_units_of(system, rows), [row.pk for row in rows])
    if keep:
        _LIST_UNITS[key] = found
        while len(_LIST_UNITS) > MAX_LISTS_KEPT:
            _LIST_UNITS.popitem(last=False)
    return found


def opponent_lists(army_list: ArmyList) -> list[ArmyList]:
    """The lists of the gauntlet the owner may still read, in the order chosen: their own and
    public lists chosen from `opponent_choices`, then the locked versions whose links they hold."""
    chosen = gauntlet_settings(army_list)
    others: list[ArmyList] = []
    if chosen["lists"]:  # only a gauntlet with chosen lists needs to know which the owner may use
        visible = Q(owner_id=army_list.owner_id) | Q(is_public=True)
        found = {other.pk: other for other in ArmyList.objects.filter(
            visible, pk__in=chosen["lists"], system_id=army_list.system_id, locked_at__isnull=True)
            .exclude(pk=army_list.pk)}
        others = [found[pk] for pk in chosen["lists"] if pk in found]
    for token in chosen["locks"]:
        locked = army_list_by_share_token(token=token)
        if locked is not None and locked.system_id == army_list.system_id:
            others.append(locked)
    return others[:MAX_OPPONENT_LISTS]


def gauntlet_inputs(army_list: ArmyList, *, others: Sequence[ArmyList] | None = None) -> GauntletInputs:
    """The inputs of the list's gauntlet as it is now (opponents the owner may no longer read
    are left out); `others` are its `opponent_lists` when the caller has read them already."""
    system = get_system(army_list.system.key)
    chosen = gauntlet_settings(army_list)
    opponents: list[Opponent] = []
    if chosen["reference"]:
        opponents.append(Opponent(name="", units=reference_units(system)))  # "" = the reference targets
    for other in opponent_lists(army_list) if others is None else others:
        opponents.append(Opponent(name=other.name, units=list_gauntlet_units(system, other)[0]))
    situations = {mode: situation_clean({"mode": mode}, system=system) for mode in MODES}
    # The ids follow the units measured (one per row of the report): a row that cannot be
    # estimated (no profile, no models) has no figures and no gauntlet slot in the editor.
    units, unit_ids = list_gauntlet_units(system, army_list)
    return GauntletInputs(system=system, units=units, opponents=opponents, situations=situations,
                          unit_ids=unit_ids)


def job_key(army_list: ArmyList, inputs: GauntletInputs) -> str:
    """What a gauntlet job makes, and its lock (`gauntlet_tasks`): one unfinished job per list
    and content of its gauntlet."""
    content = canonical([[u.data for u in inputs.units],
                         [[u.data for u in o.units] for o in inputs.opponents], inputs.situations])
    return f"gauntlet-job:{army_list.pk}:{hashlib.sha256(content.encode()).hexdigest()[:24]}"


#: Missing matchups one job computes itself; past that it fans out into parts for the workers
#: (fan-out has a fixed cost: a part per `PART_SIZE` matchups, at most `MAX_PARTS`).
PART_SIZE = 400
MAX_PARTS = 8
#: Matchups computed under one setting of the memory bound and stored in one round trip: the
#: bound costs a read of /proc and two system calls, and the panel shows progress as they land.
BATCH_SIZE = 100

def unmeasured_pairs(inputs: GauntletInputs) -> tuple[dict[str, Pair], list[list[str]]]:
    """Every matchup of the list's units whose measure is not cached (a measured unit's matchups
    were all there when it was measured), by key, and their keys grouped per unit, each key in
    one group once (identical enemy units meet a unit in the same matchup); nothing when
    the gauntlet is past `MAX_MATCHUPS` (the panel says so and queues nothing)."""
    if len(inputs.units) * inputs.runs() > MAX_MATCHUPS:
        return {}, []
    measure_keys = inputs.measure_keys()
    measured = job_cache().get_many(measure_keys) if measure_keys else {}
    todo: dict[str, Pair] = {}
    groups: list[list[str]] = []
    for index, key in enumerate(measure_keys):
        if key not in measured:
            keys = inputs.unit_pair_keys(index)
            fresh = [pair for pair in dict.fromkeys(keys) if pair not in todo]  # each matchup once
            todo.update(zip(keys, inputs.unit_pairs(index), strict=True))
            if fresh:
                groups.append(fresh)
    return todo, groups


def missing_matchups(army_list: ArmyList) -> tuple[GauntletInputs, list[str], dict[str, Pair]]:
    """The inputs, the keys of the matchups not cached yet (in a stable order), and what each is."""
    inputs = gauntlet_inputs(army_list)
    todo, _groups = unmeasured_pairs(inputs)
    cached = job_cache().get_many(list(todo)) if todo else {}
    return inputs, sorted(key for key in todo if key not in cached), todo


#: Predicted seconds (of this machine) and matchups past which a job's matchups are split over
#: the free worker processes, not computed one after the other (issue 42): an edit's new
#: matchups (240 for a unit against three lists of 20: 0.4–0.7 s of one worker's CPU) take two
#: processes at once. Both, as the predictions alone were no guide: the cost models' seconds
#: predicted such an edit at 0.3 s, and 0.08 s on a worker that had measured the machine faster
#: than theirs (`ESTIMATE_MACHINE_FACTOR`). A part is one more task to queue and read the list
#: for (tens of ms).
PART_SECONDS = 0.1
SPLIT_MATCHUPS = 100


def parts_for(missing: int, seconds: float = 0.0) -> int:
    """How many parts a job of `missing` matchups, predicted to take `seconds` in all, is split
    into (1: no fan-out): one per `PART_SIZE` matchups, or one per `PART_SECONDS` or
    `SPLIT_MATCHUPS` begun but no more than the machine's cores (the worker's processes: 2 in
    docker-compose and `bin/run`; a part past them would only wait for one), whichever gives
    more, at most `MAX_PARTS`."""
    spread = max(math.ceil(seconds / PART_SECONDS - 1e-9) if seconds > 0 else 1,
                 -(-missing // SPLIT_MATCHUPS))
    by_seconds = min(spread, os.cpu_count() or 1)
    return max(1, min(MAX_PARTS, max(-(-missing // PART_SIZE), by_seconds)))


#: Predicted seconds of the matchups priced in this process by matchup key (None: past a
#: limit). The key names both units' content and the situation, so a price never goes stale;
#: a part priced by the job that planned it, or a matchup met again, is not priced twice.
_PRICES: OrderedDict[str, float | None] = OrderedDict()
MAX_PRICES = 100_000


def matchup_seconds(system: GameSystem, key: str, attacker: Mapping[str, Any], defender: Mapping[str, Any],
                    situation: Mapping[str, Any]) -> float | None:
    """The predicted seconds of one matchup, or None when it is past the cost limit or a limit
    of the system's engine (it is then left out without computing)."""
    if key in _PRICES:
        return _PRICES[key]
    try:
        seconds, size = matchup_cost(system, attacker, defender, situation)
        price = None if over_limit(seconds, size) else seconds
    except ValueError:  # past a limit of the system's own engine
        price = None
    remember_prices({key: price})
    return price


def known_prices(keys: Sequence[str]) -> dict[str, float | None]:
    """The prices this process holds for `keys` (what a job sends its parts)."""
    return {key: _PRICES[key] for key in keys if key in _PRICES}


def remember_prices(prices: Mapping[str, float | None]) -> None:
    """Keep prices (the part of a job receives its matchups' from the job that priced them)."""
    _PRICES.update(prices)
    while len(_PRICES) > MAX_PRICES:
        _PRICES.popitem(last=False)


def balanced_parts(groups: Sequence[Sequence[str]], seconds: Mapping[str, float],
                   parts: int) -> list[list[str]]:
    """The matchups of `seconds` dealt into at most `parts` parts of about equal predicted
    seconds (each largest first onto the lightest part). A list unit's matchups stay together:
    they share inner distributions (the counter-attacks on it) that a part computes once; a
    unit whose matchups alone outweigh a part's share is dealt matchup by matchup. `groups` are
    the matchup keys of each unit (`unmeasured_pairs`)."""
    target = sum(seconds.values()) / max(1, parts)
    bundles: list[tuple[float, list[str]]] = []
    placed: set[str] = set()
    for keys in groups:
        mine = sorted({key for key in keys if key in seconds and key not in placed})
        placed.update(mine)
        total = sum(seconds[key] for key in mine)
        if total > target:
            bundles += [(seconds[key], [key]) for key in mine]
        elif mine:
            bundles.append((total, mine))
    bundles += [(seconds[key], [key]) for key in sorted(seconds) if key not in placed]
    bundles.sort(key=lambda bundle: (-bundle[0], bundle[1][0]))
    heap = [(0.0, index) for index in range(max(1, parts))]
    dealt: list[list[str]] = [[] for _ in heap]
    for weight, keys in bundles:
        load, index = heapq.heappop(heap)
        dealt[index] += keys
        heapq.heappush(heap, (load + weight, index))
    # Each part computes its matchups in the order of `groups` (the first unit's first), and the
    # part holding the first unit's comes first (the job computes it itself, at once).
    rank = {key: order for order, keys in reversed(list(enumerate(groups))) for key in keys}
    ordered = [sorted(part, key=lambda key: rank.get(key, len(groups))) for part in dealt if part]
    return sorted(ordered, key=lambda part: rank.get(part[0], len(groups)))


def first_the_edited(groups: Sequence[Sequence[str]], missing: set[str]) -> list[Sequence[str]]:
    """The units' matchup keys in the order they are computed: first the units none of whose
    matchups are cached (content no job has seen: the unit just edited, or added), then those
    with the fewest missing (the rows the panel shows soonest); the list's order otherwise."""
    def order(item: tuple[int, Sequence[str]]) -> tuple[bool, int, int]:
        index, keys = item
        absent = sum(1 for key in keys if key in missing)
        return absent < len(keys), absent, index

    return [keys for _index, keys in sorted(enumerate(groups), key=order)]


def plan_missing(army_list: ArmyList) -> tuple[GauntletInputs, dict[str, Pair], list[list[str]]]:
    """Price every missing matchup once, store those past a limit as left out at once, and deal
    the others into parts of equal predicted seconds (one part below `PART_SIZE` matchups and
    `PART_SECONDS`)."""
    inputs = gauntlet_inputs(army_list)
    todo, groups = unmeasured_pairs(inputs)
    cached = job_cache().get_many(list(todo)) if todo else {}
    missing = sorted(key for key in todo if key not in cached)
    prices = {key: matchup_seconds(inputs.system, key, todo[key][0].data, todo[key][1].data, todo[key][2])
              for key in missing}
    refused = {key: dict(LEFT_OUT) for key, price in prices.items() if price is None}
    if refused:
        job_cache().set_many(refused, timeout=MATCHUP_SECONDS)
    seconds = {key: price for key, price in prices.items() if price is not None}
    if not seconds:
        return inputs, todo, []
    groups = first_the_edited(groups, set(missing))
    return inputs, todo, balanced_parts(groups, seconds, parts_for(len(seconds), sum(seconds.values())))


def compute_missing(army_list: ArmyList, *, keys: Sequence[str] | None = None,
                    landed: Callable[[], None] | None = None) -> int:
    """Compute and cache the matchups of the list's gauntlet not cached yet (only those of
    `keys`, a part of a job, when given); how many were computed. `landed` is called after
    each batch is stored (`compute_matchups`).

    A matchup past the estimate bounds is cached as nothing destroyed and marked `left_out`."""
    if keys is None:
        inputs, missing, todo = missing_matchups(army_list)
        mine = missing
    else:  # a part: its matchups were found missing and priced by the job that planned it
        inputs = gauntlet_inputs(army_list)
        todo, _groups = unmeasured_pairs(inputs)
        mine = [key for key in keys if key in todo]  # the list changed since: the rest is stale
        cached = job_cache().get_many(mine) if mine else {}  # a part delivered again: only the rest
        mine = [key for key in mine if key not in cached]
    return compute_matchups(inputs.system, todo, mine, landed=landed)


def compute_matchups(system: GameSystem, todo: Mapping[str, Pair], keys: Sequence[str], *,
                     landed: Callable[[], None] | None = None) -> int:
    """Compute and cache the matchups `keys` of `todo` in batches (`bounded_batch`), sharing the
    inner distributions they have in common; how many were computed. `landed()` is called after
    each batch is stored (the job tells the panel, `gauntlet_signal.announce`).

    Out of time, what is done is kept: the panel's next look queues the rest."""
    from celery.exceptions import SoftTimeLimitExceeded

    store = job_cache()
    with sharing():
        for start in range(0, len(keys), BATCH_SIZE):
            computed: dict[str, Matchup] = {}
            chunk = [(key, todo[key][0].data, todo[key][1].data, todo[key][2])
                     for key in keys[start:start + BATCH_SIZE]]
            try:
                bounded_batch(system, chunk, computed)
            except SoftTimeLimitExceeded:
                store.set_many(computed, timeout=MATCHUP_SECONDS)
                return start + len(computed)
            store.set_many(computed, timeout=MATCHUP_SECONDS)
            if landed is not None:
                landed()
    return len(keys)


#: What a matchup left out of the gauntlet counts as: nothing destroyed, and marked.
LEFT_OUT: Matchup = {"expected_kills": 0.0, "expected_points_destroyed": 0.0, "p_destroyed": 0.0,
                     "chances": [], "expected_damage": 0.0, "left_out": True}

Item = tuple[str, Mapping[str, Any], Mapping[str, Any], Mapping[str, Any]]


def bounded_batch(system: GameSystem, items: Sequence[Item], into: dict[str, Matchup]) -> None:
    """Each (key, attacker, defender, situation)'s figures into `into`, under the same bounds as
    `bounded_matchup` but with the memory bound set once for the batch: refused past the cost
    limit, and computed with the process's memory held to `ESTIMATE_JOB_MEMORY_MB` more than
    at the batch's start. A matchup that passes it is computed again under a bound of its own
    (the batch's earlier matchups may have taken some of the room), and left out only if it
    passes that too, as it would alone."""
    from django.conf import settings

    from armybuilder.celery import memory_bound

    again: list[Item] = []
    with memory_bound(settings.ESTIMATE_JOB_MEMORY_MB * 2**20):
        for key, attacker, defender, situation in items:
            if matchup_seconds(system, key, attacker, defender, situation) is None:
                into[key] = dict(LEFT_OUT)
                continue
            try:
                into[key] = matchup_figures(system, attacker, defender, situation)
            except MemoryError:  # past the batch's bound: alone, below
                again.append((key, attacker, defender, situation))
            except ValueError:  # past a limit of the system's engine
                into[key] = dict(LEFT_OUT)
    for key, attacker, defender, situation in again:
        into[key] = bounded_matchup(system, attacker, defender, situation)


def bounded_matchup(system: GameSystem, attacker: Mapping[str, Any], defender: Mapping[str, Any],
                    situation: Mapping[str, Any]) -> Matchup:
    """One matchup's figures under the same bounds as an estimate job: refused past the cost
    limit, and computed with its memory held to `ESTIMATE_JOB_MEMORY_MB` (so a cost model that
    under-predicts cannot take the worker down); a matchup past either is left out, not crashed."""
    from django.conf import settings

    from armybuilder.celery import memory_bound

    try:
        if over_limit(*matchup_cost(system, attacker, defender, situation)):
            return dict(LEFT_OUT)
        with memory_bound(settings.ESTIMATE_JOB_MEMORY_MB * 2**20):
            return matchup_figures(system, attacker, defender, situation)
    except (MemoryError, ValueError):  # past the memory bound, or past a limit of the system's engine
        return dict(LEFT_OUT)
