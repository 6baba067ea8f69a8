"""The roster engine behind lists of imported factions: its data, kept and loaded.

An import keeps, for each faction it writes, the game system and the catalogues the faction
needs (its own and those it links to) in the engine's dict shape (`BattleScribeSource`).
A list of such a faction is a roster of the engine (`rules.battlescribe.list_roster`); this
module loads the engine's `GameData` for a faction once per process (keyed by the source's
digest, so a re-import is seen) and turns engine costs into what a list unit stores: its
points, and the other costs the system's BattleScribe mapping names (40k Power) written into
the unit's fields, so the system's own summaries read them.
"""

from __future__ import annotations

import gc
import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from xml.etree.ElementTree import Element

from rules.battlescribe.engine.legacy import upgraded
from rules.battlescribe.engine.model import GameData
from rules.battlescribe.engine.roster import Selection
from rules.battlescribe.engine.xmlform import element_to_dict
from rules.battlescribe.list_roster import ListRoster, force_entries
from rules.battlescribe.mapping import BattleScribeMapping
from rules.battlescribe.xml_reader import SourceFile, local_name, parse, xml_bytes
from rules.models import BattleScribeSource, Faction
from rules.systems.profile_fields import ENVELOPE_FIELDS
from rules.systems.registry import get_system

#: How many factions' engine data one process keeps loaded (a large 40k faction is ~20 MB).
CACHED_ENGINES = 6

_cache: OrderedDict[tuple[int, str], GameData] = OrderedDict()
_lock = threading.Lock()


def source_dicts(files: Sequence[SourceFile]) -> tuple[dict[str, Any] | None, dict[str, dict[str, Any]]]:
    """(game system, {catalogue id: catalogue}) of uploaded files in the engine's dict shape."""
    return gathered_sources(source_shape(parse(source, xml_bytes(source))) for source in files)


def source_shape(root: Element) -> tuple[bool, dict[str, Any]]:
    """(whether it is the game system, the engine's dict shape) of one parsed file: taken by
    the import from the tree it parses anyway, so the files are not parsed a second time."""
    return local_name(root.tag) == "gameSystem", element_to_dict(root)


def gathered_sources(
    shapes: Iterable[tuple[bool, dict[str, Any]]],
) -> tuple[dict[str, Any] | None, dict[str, dict[str, Any]]]:
    """`source_dicts`' answer from the files' `source_shape`s."""
    system, catalogues = None, {}
    for is_system, shape in shapes:
        if is_system:
            system = shape
        else:
            catalogues[str(shape.get("id", ""))] = shape
    return system, catalogues


def _needed(catalogue_id: str, catalogues: Mapping[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The catalogue and every catalogue it links to (transitively), itself first."""
    out, todo, seen = [], [catalogue_id], set()
    while todo:
        cid = todo.pop(0)
        if cid in seen or cid not in catalogues:
            continue
        seen.add(cid)
        out.append(catalogues[cid])
        todo += [str(link.get("targetId")) for link in catalogues[cid].get("catalogueLinks") or []]
    return out


def keep_sources(
    factions: Sequence[Faction], system: dict[str, Any] | None, catalogues: Mapping[str, dict[str, Any]]
) -> list[Faction]:
    """Store, for each imported faction (slug `bs-<catalogue id>`), what the engine needs.
    Returns the factions whose kept source changed (a re-import at another revision): their
    lists are re-priced with it (`rules.signals.source_updated`)."""
    from rules.battlescribe.units import slug

    changed: list[Faction] = []
    if system is None:
        return changed
    by_slug = {f"bs-{slug(cid, 60)}": cid for cid in catalogues}
    for faction in factions:
        cid = by_slug.get(faction.slug)
        if cid is None:
            continue
        needed = _needed(cid, catalogues)
        if not _offers_a_force(system, needed):
            # Nothing to build a roster in (data of points and profiles only): its lists stay in
            # the unit format, checked by the system's own rules, as before the engine.
            BattleScribeSource.objects.filter(faction=faction).delete()
            continue
        digest = hashlib.sha256(json.dumps([system, needed], sort_keys=True).encode()).hexdigest()
        before = BattleScribeSource.objects.filter(faction=faction).values_list("digest", flat=True).first()
        BattleScribeSource.objects.update_or_create(
            faction=faction,
            defaults={"catalogue_id": cid, "game_system": system, "catalogues": needed, "digest": digest},
        )
        if before is not None and before != digest:
            changed.append(faction)
    return changed


def _offers_a_force(system: Mapping[str, Any], catalogues: Sequence[Mapping[str, Any]]) -> bool:
    """Whether the game system or one of the faction's catalogues has a force entry not hidden
    outright (a roster needs one to hold units)."""
    documents = [upgraded(system), *catalogues]  # a 1.x system's forces are its force types
    return any(
        isinstance(entry, Mapping) and entry.get("hidden") != "true"
        for document in documents
        for entry in (document.get("forceEntries") or [])
    )


def faction_source(faction_id: int | None) -> tuple[int, str, str] | None:
    """(source id, digest, catalogue id) of a faction imported with its source, else None."""
    if faction_id is None:
        return None
    row = (
        BattleScribeSource.objects.filter(faction_id=faction_id)
        .values_list("pk", "digest", "catalogue_id")
        .first()
    )
    return tuple(row) if row else None


def game_data(source_id: int, digest: str) -> GameData:
    """The engine's data of a source, loaded once per process and digest."""
    key = (source_id, digest)
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    system, catalogues = BattleScribeSource.objects.values_list("game_system", "catalogues").get(pk=source_id)
    data = GameData(system, catalogues)
    #: Revisions by id, for exports (BattleScribe compares a roster's with its data's).
    data.source_revisions = {  # type: ignore[attr-defined]
        str(raw.get("id", "")): str(raw.get("revision", "") or "") for raw in [system, *catalogues]
    }
    with _lock:
        _cache[key] = data
        while len(_cache) > CACHED_ENGINES:
            _cache.popitem(last=False)
    _set_aside_long_lived()
    return data


def _set_aside_long_lived() -> None:
    """In a process that froze its start-up heap (a server worker, `armybuilder.process_heap`),
    freeze the engine data just loaded with it: a large faction is a few hundred thousand
    objects that live as long as the process keeps them, and each full collection walked them
    all again (about 100 ms, a pause that some click of the editor paid). Everything frozen
    is unfrozen and collected first, so what died since the last freeze (data evicted above,
    a roster dropped by its list) is freed then rather than kept for ever. Costs one full
    collection per data load, which is rare; other processes (tests, commands) are left
    as they are."""
    if not gc.get_freeze_count():
        return
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def revisions(roster: ListRoster) -> dict[str, str]:
    """The game system's and catalogues' revisions of the data a roster was built with."""
    return dict(getattr(roster.data, "source_revisions", {}))


def list_roster(
    faction_id: int | None,
    *,
    force_entry_id: str,
    trees: Sequence[Mapping[str, Any]],
    points_limit: int | None = None,
    system_key: str,
) -> ListRoster | None:
    """The roster of a list of `faction_id` holding `trees`; None for a faction without source."""
    found = faction_source(faction_id)
    if found is None:
        return None
    source_id, digest, catalogue_id = found
    data = game_data(source_id, digest)
    # A catalogue's default limits (often 0) are not the army's: every cost type is unlimited
    # but points, whose limit is the list's. The data reads it (`limit::<costTypeId>` sets WHFB
    # slot limits by the army's size); going over it is reported by the product in its own
    # words, so the engine's own "over the limit" error for it is left out (`quiet_limits`).
    limits = {c.id: -1.0 for c in data.cost_types}
    points_type, _fields = cost_fields(data, system_key)
    # Where the system's own rules judge each category's share of the points
    # (`BattleScribeMapping.system_point_shares`), the data's percentages of them are left out too.
    quiet: tuple[str, ...] = ()
    shares: tuple[str, ...] = ()
    if points_type is not None:
        quiet = (points_type,)
        if get_system(system_key).battlescribe.system_point_shares:
            shares = (points_type,)
        if points_limit is not None and points_limit >= 0:
            limits[points_type] = float(points_limit)
    return ListRoster(
        data,
        catalogue_id=catalogue_id,
        force_entry_id=force_entry_id,
        trees=trees,
        cost_limits=limits,
        quiet_limits=quiet,
        quiet_shares=shares,
    )


def data_stated_rules(system_key: str) -> tuple[str, ...]:
    """The system's optional rules that BattleScribe data states itself (`data_rules` of its
    mapping): a list built by the roster engine gets the data's errors for them, not the
    system's as well."""
    return tuple(get_system(system_key).battlescribe.data_rules)


def cost_fields(data: GameData, system_key: str) -> tuple[str | None, dict[str, str]]:
    """(points cost type id, {cost type id: unit field}) by the system's BattleScribe mapping."""
    mapping: BattleScribeMapping = get_system(system_key).battlescribe
    points, fields = None, {}
    for cost_type in data.cost_types:
        if points is None and mapping.is_points(cost_type.name):
            points = cost_type.id
            continue
        unit_cost = mapping.unit_cost(cost_type.name)
        if unit_cost is not None:
            fields[cost_type.id] = unit_cost.field
    return points, fields


def unit_costs(
    roster: ListRoster, index: int, system_key: str, base_data: Mapping[str, Any]
) -> tuple[int, dict[str, Any]]:
    """(points, unit data) of the roster's unit `index`: the engine's points, rounded once, and
    the unit's data with the engine's other costs in the fields the system reads them from."""
    points_type, fields = cost_fields(roster.data, system_key)
    mapping = get_system(system_key).battlescribe
    costs = roster.costs(index)
    data = dict(base_data)
    for type_id, name in fields.items():
        data[name] = _whole(costs.get(type_id, 0.0))
        unit_cost = next((c for c in mapping.unit_costs if c.field == name), None)
        if unit_cost is not None and unit_cost.steps_field:
            data.pop(unit_cost.steps_field, None)  # the engine's cost already follows the size
    counts = model_counts(roster.unit(index), sized_models(base_data))
    if counts and isinstance(data.get("models"), list):
        # The unit format keeps the unit at its smallest size; its models follow the roster.
        data["models"] = [
            {**model, "count": counts[model.get("name")]}
            if isinstance(model, Mapping) and counts.get(model.get("name"), 0) > 0
            else model
            for model in data["models"]
        ]
    given = selection_rules(roster.unit(index), mapping, roster.data)
    if given and isinstance(data.get("models"), list):
        data["models"] = _with_rules(data["models"], given)
    data[CONFIGURATION_FIELD] = is_configuration_selection(roster.unit(index), data)
    points = _whole(costs.get(points_type, 0.0)) if points_type else 0
    return max(points, 0), data


#: The unit-data field saying a roster selection is configuration, not a unit (`unit_costs`).
CONFIGURATION_FIELD = "battlescribe_configuration"


def is_configuration_selection(sel: Selection, data: Mapping[str, Any]) -> bool:
    """Whether a root selection of a roster is its configuration (Battle Size, Detachment Command
    Cost, Dynasty Choice, an AoS Allegiance): nothing in it is a model — no selection of type
    "model" at any depth — and no model of the unit it maps to has a profile (a field beyond
    the unit format's envelope: the importer gives such an entry a bare model of its name). A
    unit whose models the catalogue leaves without a profile ("Lieutenants": model selections,
    points only), a model itself (a vehicle) or a unit with its profile on it (AoS) is a unit."""
    models = data.get("models") if isinstance(data.get("models"), list) else []
    if any(isinstance(m, Mapping) and set(m) - set(ENVELOPE_FIELDS) for m in models):
        return False
    stack = [sel]
    while stack:
        node = stack.pop()
        if node.option.type == "model":
            return False
        stack.extend(node.children)
    return True


def selection_rules(
    sel: Selection, mapping: BattleScribeMapping, data: GameData
) -> dict[str, str | None]:
    """{rule: name of the model selection that carries it, or None for the unit as a whole} of
    the selections of a unit (itself included) whose name or one of whose categories the
    system's mapping reads as a rule (`BattleScribeMapping.rule_selections`, 40k: "Warlord").

    The unit format keeps a unit at its smallest size without the player's upgrades, so the
    system's army rules (exactly one Warlord) would not see the engine's selections otherwise.
    The unit's own name does not count (a unit may be called "Warlord"), its categories do.
    Each rule is given once per unit, to the nearest model selection above the first selection
    that carries it."""
    if not mapping.rule_selections:
        return {}
    categories = _rule_categories(mapping, data)
    found: dict[str, str | None] = {}
    stack: list[tuple[Selection, str | None]] = [(sel, None)]
    while stack:
        node, model = stack.pop()
        if node.option.type == "model":
            model = node.option.name
        rules: list[str | None] = []
        if node is not sel:
            # The unit itself by its categories only: a unit named "Warlord" is a unit, while an
            # upgrade of that name (BSData/wh40k-9e) is the army's Warlord.
            rules.append(mapping.rule_of_selection(node.option.name) or mapping.rule_of_selection(node.name))
        if categories:
            rules += [categories.get(cid) for cid in node.category_ids()]
        for rule in rules:
            if rule is not None and rule not in found:
                found[rule] = model
        stack.extend((child, model) for child in reversed(node.children))
    return found


def _rule_categories(mapping: BattleScribeMapping, data: GameData) -> dict[str, str]:
    """{category id: rule} of the data's categories the mapping reads as a rule, once per data."""
    cached = getattr(data, "_rule_categories", None)
    if cached is None or cached[0] is not mapping:
        found = {cid: mapping.rule_of_selection(d.name) for cid, d in data.categories.items()}
        cached = (mapping, {cid: rule for cid, rule in found.items() if rule is not None})
        data._rule_categories = cached  # type: ignore[attr-defined]
    return cached[1]


def _with_rules(models: Sequence[Any], given: Mapping[str, str | None]) -> list[Any]:
    """`models` with each rule of `given` added to its model (by name; else the unit's first
    single model, else its first model), once."""
    out = [dict(m) if isinstance(m, Mapping) else m for m in models]
    shaped = [m for m in out if isinstance(m, dict)]
    if not shaped:
        return out
    for rule, model_name in given.items():
        target = next((m for m in shaped if model_name and m.get("name") == model_name), None)
        if target is None:
            target = next((m for m in shaped if int(m.get("count", 1) or 1) == 1), shaped[0])
        rules = list(target.get("rules") or [])
        if not any(str(r).split("(")[0].strip() == rule for r in rules):
            target["rules"] = [*rules, rule]
    return out


def sized_models(data: Mapping[str, Any]) -> dict[str, tuple[str, int]]:
    """{entry id: (model name, models per selection)} of the numbered selections that size an
    imported unit's models ("10 Bestigors": 10 Bestigors each; `battlescribe_per_selection`)."""
    per = data.get("battlescribe_per_selection") or {}
    ids = data.get("battlescribe_models") or {}
    return {str(ids[name]): (str(name), int(n)) for name, n in per.items() if name in ids}


def model_counts(sel: Selection, sized: Mapping[str, tuple[str, int]] | None = None) -> dict[str, int]:
    """{model name: how many} of the selections of type "model" in a unit (itself included),
    and of the numbered selections `sized` names (N models each)."""
    out: dict[str, int] = {}
    stack = [sel]
    while stack:
        node = stack.pop()
        option = node.option
        ids = [option.defn.id, *([option.link.id] if option.link is not None else [])]
        size = next((sized[i] for i in ids if i in sized), None) if sized else None
        if size is not None:
            out[size[0]] = out.get(size[0], 0) + node.number * size[1]
        elif option.type == "model":
            out[option.name] = out.get(option.name, 0) + node.number
        stack.extend(node.children)
    return out


def _whole(value: float) -> int:
    return round(value)


def entering_points(faction_id: int | None, force_entry_id: str, system_key: str) -> dict[str, int]:
    """{unit slug (`bs-<entry id>`): points} of each root entry of the faction's catalogue as it enters a new
    list: selected by the roster engine in a new force, with what BattleScribe selects with it.
    The "Add a unit" menu shows these, so a unit costs in the menu what it costs once added
    (Goblin Wolf Riders were 60 in the menu, priced with the import's cheapest weapon, and
    50 in the list). A choice BattleScribe leaves empty (a group that needs a selection and
    names no default) is priced at its cheapest member and the unit is named in
    `entering_from` (shown "from N pts"): a unit is never offered at 0 pts for lacking it.
    Computed once per process, force and data (the engine's data is cached by digest; a
    large 40k faction takes a couple of CPU seconds once); {} without a source."""
    return _entering(faction_id, force_entry_id, system_key)[0]


def entering_from(faction_id: int | None, force_entry_id: str, system_key: str) -> set[str]:
    """Unit slugs whose `entering_points` include choices BattleScribe leaves empty when it adds
    the unit (a group that needs a selection and names no default): the price of the cheapest
    legal unit, shown "from N pts" (Leman Russ Battle Tanks enter at 0 pts with an error)."""
    return _entering(faction_id, force_entry_id, system_key)[1]


def _entering(
    faction_id: int | None, force_entry_id: str, system_key: str
) -> tuple[dict[str, int], set[str]]:
    from rules.battlescribe.units import slug

    found = faction_source(faction_id)
    if found is None:
        return {}, set()
    data = game_data(found[0], found[1])
    cache = data.__dict__.setdefault("_entering_points", {})
    key = (found[2], force_entry_id)
    if key in cache:
        return cache[key]
    points_type, _fields = cost_fields(data, system_key)
    prices: dict[str, int] = {}
    completed: set[str] = set()
    if points_type is not None:
        roster = ListRoster(
            data,
            catalogue_id=found[2],
            force_entry_id=force_entry_id,
            trees=[],
            cost_limits={c.id: -1.0 for c in data.cost_types},
        )
        prices = {f"bs-{slug(k, 60)}": v for k, v in roster.entering_points(points_type).items()}
        completed = {f"bs-{slug(k, 60)}" for k in roster.completed}
    cache[key] = (prices, completed)
    return prices, completed


def force_choices(faction_id: int | None) -> list[tuple[str, str]]:
    """(force entry id, name) a list of the faction can be built in; [] without a source."""
    found = faction_source(faction_id)
    if found is None:
        return []
    data = game_data(found[0], found[1])
    return [(d.id, d.name) for d in force_entries(data, found[2])]
