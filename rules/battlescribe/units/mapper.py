"""Mapping BattleScribe entries onto our unit format through a system's profile schema.

Nothing here knows a game system: characteristics are matched to the fields of the target
system's profile schema by name (a field's key, its `title` such as "WS" or "Sv", or the
first words of its `description` such as "Weapon Skill"), and each value is converted to
whatever that field's JSON Schema accepts ("3+" -> 3, '6"' -> 6, "-" -> null, "D3").

A root entry of type `unit` becomes a unit whose `model` children are its model profiles;
a root `model` entry is a one-model unit. The unit is written at its smallest legal selection
with its default entries taken (their weapons on the models, their costs in the model's
per-model points or the unit's fixed `upgrades`), so its price equals BattleScribe's.
Optional entries become upgrade options with their limits; alternatives of a group with a
default become "replace the default" options priced by the difference; an option whose price
BattleScribe scales with the unit's size ("+2 pts per model") is priced per model
(`per_model_option`), so it costs the same in a list at any size. Anything that has no
place in the unit format is kept as text (`abilities`, `notes`) and reported as a warning.

The data is read in the engine's model only (`engine.model.GameData`, the one model of
BattleScribe data, which the roster import and export and lists use too): a unit's entries are
the engine's options (`data.ImportData` answers the rest: names, paths, profiles, rules).
`UnitMapper` holds one import's state (that data, the system's mapping, the engine's selection
of the unit being mapped) and the walk over a catalogue's root entries; each part of a unit is read by the
methods of its own module, which the mapper combines: `profiles`, `abilities`, `sizes`,
`options` and `costs` (`values` converts one characteristic, `limits` bounds the work).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from jsonschema import Draft202012Validator

from rules.battlescribe.catalogue import CATALOGUE, Document
from rules.battlescribe.engine.model import GameData, Option
from rules.battlescribe.mapping import DEFAULT, BattleScribeMapping, norm
from rules.battlescribe.units.abilities import AbilityReading
from rules.battlescribe.units.costs import CostReading
from rules.battlescribe.units.data import ImportData, Node
from rules.battlescribe.units.options import OptionReading
from rules.battlescribe.units.profiles import ProfileReading
from rules.battlescribe.units.sizes import SizeReading
from rules.battlescribe.units.smallest import SmallestSelection, UnitSelection
from rules.battlescribe.units.values import field_names, slug
from rules.battlescribe.xml_reader import BattleScribeError
from rules.unit_roles import role_named_by


@dataclass
class Mapped:
    """What one import produced: faction dicts (loader format), unit summaries, warnings."""

    factions: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


#: Root entry types BattleScribe offers in a force's "add" menu. An `upgrade` at the root is an
#: entry a player adds like a unit: AoS battalions (BSData/age-of-sigmar), and every warscroll of
#: the 1st-edition "Grand Alliance: Death" catalogue; imported as a unit of one model (without
#: characteristics when it has no model profile).
ROOT_TYPES = ("unit", "model", "upgrade", "")


def never_shown(entry: Option) -> bool:
    """Whether BattleScribe never shows `entry`: hidden, and none of its own modifiers (a link's
    and its target's) can set `hidden` false. The 40k game system's "Aegis Defence Line" link
    and Tyranids' "Tyranid Shrikes" (BSData/wh40k-9e) are such entries: BattleScribe offers
    them in no roster, so they are no unit a player can add either."""
    if not entry.hidden:
        return False
    return not any(
        m.field == "hidden" and m.type == "set" and m.value.strip().lower() == "false"
        for m in entry.modifiers
    )


class UnitMapper(ProfileReading, AbilityReading, SizeReading, OptionReading, CostReading):
    """Maps the root entries of each catalogue of `data` onto units of one system."""

    def __init__(
        self,
        data: ImportData,
        *,
        system_key: str,
        profile_schema: Mapping[str, Any],
        price: Callable[[Mapping[str, Any]], Mapping[str, Any]],
        known_rule: Callable[[str], bool],
        mapping: BattleScribeMapping = DEFAULT,
    ):
        self.data = data
        self.mapping = mapping
        self.system_key = system_key
        self.properties = dict(profile_schema.get("properties") or {})
        self.weapon_properties = dict(
            ((profile_schema.get("$defs") or {}).get("weapon") or {}).get("properties") or {}
        )
        self.price = price
        self.known_rule = known_rule
        self.catalogue_points = "points" in self.properties
        #: The characteristics a model must have (the system's schema): a model of the data
        #: lacking one has no complete profile.
        self.required = [
            k
            for k in profile_schema.get("required") or ()
            if k in self.properties and k not in ("name", "count")
        ]
        self.unit_fields = dict(profile_schema.get("x-unit-fields") or {})
        self.model_fields = {
            k: v
            for k, v in field_names(self.properties).items()
            if v in (profile_schema.get("x-profile") or [])
        }
        self.model_fields.update(
            {norm(k): v for k, v in mapping.characteristics.items() if v in self.properties}
        )
        self.weapon_fields = {
            k: v
            for k, v in field_names(self.weapon_properties).items()
            if v not in ("name", "profiles", "rules")
        }
        self.weapon_fields.update(
            {norm(k): v for k, v in mapping.weapon_characteristics.items() if v in self.weapon_properties}
        )
        weapon_schema = (profile_schema.get("$defs") or {}).get("weapon") or {"type": "object"}
        self.weapon_validator = Draft202012Validator(weapon_schema)
        self.warnings: list[str] = []
        #: The catalogue whose force a unit is added to (set per catalogue by `map_documents`).
        self.catalogue_id = ""
        self.points_id = mapping.points_type(data.cost_types)
        self.smallest = SmallestSelection(data, self.warn, self.points_id)
        #: (what the unit reports, cost type id) for each other cost type the system maps.
        self.unit_costs = [
            (found, type_id)
            for type_id, name in data.cost_types.items()
            if type_id != self.points_id and (found := mapping.unit_cost(name)) is not None
        ]
        self.model_type, self.weapon_types = self._profile_types()
        #: The model type and the catalogues' own variants of it: a type holding every one of
        #: its characteristics and more (wh40k-9e Titan Legions' "Unit (Titan)", + Void Shields).
        self.model_types = {self.model_type} - {None}
        if self.model_type is not None:
            base = {norm(c) for c in self.data.profile_types[self.model_type][1]}
            self.model_types |= {
                t
                for t, (_name, chars) in self.data.profile_types.items()
                if base and base < {norm(c) for c in chars}
            }
        self.table_types = {
            type_id for type_id, (name, _chars) in data.profile_types.items() if mapping.is_table_type(name)
        }

    def warn(self, path: str, message: str) -> None:
        line = f"{path}: {message}"
        if line not in self._seen:
            self._seen.add(line)
            self.warnings.append(line)

    _seen: set[str] = set()

    def categories(self, entry: Option) -> tuple[list[str], str]:
        names, role = [], "other"
        links = self.data.categories_of(entry)
        primary = [c for c, p in links if p] or [c for c, _p in links]
        for category_id, _primary in links:
            name = self.data.categories.get(category_id)
            if name and name not in names:
                names.append(name)
        if primary:
            role = role_named_by(self.data.categories.get(primary[0], ""))
        return names, role

    def slot(self, entry: Option) -> str | None:
        """The system's army slot (`x-unit-fields.slot`, e.g. WHFB Core/Special/Rare/Hero/Lord)
        named by the entry's primary category ("Heroes" is `hero`), or None."""
        if not self.mapping.slot_field:
            return None
        values = [str(v) for v in (self.unit_fields.get(self.mapping.slot_field) or {}).get("enum") or []]
        links = self.data.categories_of(entry)
        primary = [c for c, p in links if p] or [c for c, _p in links]
        if not values or not primary:
            return None
        name = norm(self.data.categories.get(primary[0], ""))
        found = next((v for v in values if name and (name.startswith(norm(v)) or norm(v) == name)), None)
        if found is None:
            self.warn(
                self.data.path(entry), f"category {name!r} is none of the army slots {values}; no slot set"
            )
        return found

    def model_entries(self, entry: Option) -> list[Option]:
        found = []
        for child in self.data.children(entry):
            if child.is_group:
                found += self.model_entries(child)
            elif child.type == "model":
                found.append(child)
        return found

    _where = ""

    def unit_or_warning(self, entry: Option, used_slugs: set[str]) -> dict[str, Any] | None:
        """`unit(entry)`, or None with a warning naming the entry when it cannot be read: one
        unit BattleScribe data describes in a way this importer cannot follow (a broken link,
        a cycle, a number that is not one) is left out, and the rest of the catalogue imports."""
        try:
            return self.unit(entry, used_slugs)
        except BattleScribeError as exc:
            self.warn(self.data.path(entry), "left out: " + "; ".join(exc.errors))
        except (RecursionError, ValueError, ArithmeticError, KeyError, TypeError) as exc:
            self.warn(self.data.path(entry), f"left out: it cannot be read ({type(exc).__name__}: {exc})")
        return None

    def unit(self, entry: Option, used_slugs: set[str]) -> dict[str, Any] | None:
        where = self._where = self.data.path(entry)
        if never_shown(entry):
            self.warn(where, "hidden in BattleScribe and no modifier shows it; not offered")
            return None
        if entry.type not in ROOT_TYPES:
            self.warn(where, f"a root entry of type {entry.type!r} is not a unit; not imported")
            return None
        try:
            self._selection = self.smallest.select(entry, self.catalogue_id)
            root = self._selection.root
        except OverflowError:
            self.warn(where, "the smallest selection of this unit is too large to import; skipped")
            return None
        keywords, role = self.categories(entry)
        abilities: list[dict[str, str]] = []
        notes: list[str] = self.unmapped_modifiers(root)
        model_nodes = [n for n in root.children if n.entry.type == "model"] if entry.type == "unit" else []
        unit_profiles = self.profiles_of(entry)
        models: list[dict[str, Any]] = []
        options: list[dict[str, Any]] = []
        growth: list[tuple[Node, int]] = []
        holders = model_nodes or [root]
        self._unit_entry, self._growth, self._per_model, self._model_max = entry, growth, [], {}
        self._unprofiled: list[str] = []
        self._table = None
        for node in holders:
            model = self.model(node, root, unit_profiles, abilities, notes, options, growth)
            if model is None:
                return None
            models.append(model)
        for entry_model in self.model_entries(entry):
            taken = {self.data.entry_id(n.entry) for n in model_nodes}
            if entry.type == "unit" and self.data.entry_id(entry_model) not in taken:
                self.warn(
                    self.data.path(entry_model),
                    "a model that is not taken at the minimum size; not imported as a profile",
                )
        self._names = {id(n): m["name"] for m, n in zip(models, holders, strict=True)}
        if model_nodes:  # the unit's own profiles, rules and non-model selections
            self.collect_text(entry, abilities, notes)
            for rule_name, text in self.rules_of(entry):
                self.add_rule(models, None, rule_name, text, abilities)
            fixed = self._selection.total(self.points_id) - sum(
                (self._selection.total(self.points_id, below=n) for n in model_nodes), Fraction(0)
            )
            for child in root.children:
                if child.entry.type != "model":
                    self.mandatory(child, models[0], abilities, notes, where)
            self.options_for(entry, root, root, None, options, notes)
            self.settle_per_model()
        else:
            fixed = Fraction(0)
        sizes: dict[str, tuple[int, str]] = {}
        if self.mapping.sized_by_name:
            sizes, resized_fixed = self.size_by_name(entry, root, models, holders, options)
            if resized_fixed is not None:
                fixed = resized_fixed
        unit: dict[str, Any] = {
            "slug": self.unique(f"bs-{slug(self.data.unit_id(entry), 60)}", used_slugs),
            "name": self.data.name(entry)[:120] or "Unit",
            "role": role,
            "models": models,
            "keywords": keywords,
            "battlescribe_id": self.data.unit_id(entry),
        }
        slot = self.slot(entry)
        if slot is not None:
            unit[self.mapping.slot_field] = slot
        # What a roster export needs for BattleScribe to recognise the unit (`engine.roster_xml`).
        if self.data.system is not None:
            unit["battlescribe_system_id"] = self.data.system.id
            forces = self.data.data.game_system.force_entries
            if forces:  # a roster's force must name one of these
                unit["battlescribe_force"] = {"id": forces[0].id, "name": forces[0].name}
        unit["battlescribe_cost_types"] = {
            k: v
            for k, v in (("points", self.points_id), *((c.key or c.field, t) for c, t in self.unit_costs))
            if v is not None
        }
        category_ids = {
            self.data.categories[c]: c
            for c, _p in self.data.categories_of(entry)
            if c in self.data.categories
        }
        if category_ids:
            unit["battlescribe_categories"] = category_ids
        if model_nodes:
            unit["battlescribe_models"] = {
                m["name"]: self.data.unit_id(n.entry) for m, n in zip(models, model_nodes, strict=True)
            }
        if sizes:  # a roster export writes count / N selections of the size entry
            unit.setdefault("battlescribe_models", {}).update({k: v[1] for k, v in sizes.items()})
            unit["battlescribe_per_selection"] = {k: v[0] for k, v in sizes.items()}
        if abilities:
            unit["abilities"] = abilities
        if self._unprofiled:
            unit["profile_in_source"] = False
            self.warn(where, "no complete profile in the data; imported, but it cannot be estimated")
        if notes:
            unit["notes"] = notes
        if self.catalogue_points and fixed:
            unit["upgrades"] = [
                {"key": "unit", "label": "Unit", "count": 1, "cost": self.integer(fixed, where)}
            ]
        self.read_abilities(models, abilities, where)
        self.power(entry, root, unit, growth, options)
        self.fix_replacements(models, options, where)
        keys: set[str] = set()
        for option in options:
            option["key"] = self.unique(option["key"][:76], keys)
        unit["options"] = options
        expected = self._selection.total(self.points_id) if self.catalogue_points else None
        return self.checked(unit, expected, where)

    def unique(self, base: str, used: set[str]) -> str:
        candidate, n = base, 2
        while candidate in used:
            candidate, n = f"{base[:74]}-{n}", n + 1
        used.add(candidate)
        return candidate

    _unit_entry: Option | None = None

    #: The unit being mapped, selected in the engine's roster (its prices are the engine's).
    _selection: UnitSelection

    _growth: list[tuple[Node, int]] = []

    _names: dict[int, str] = {}

    #: {id(model node): the most models of it the unit can have}, for per-model maxima.
    _model_max: dict[int, int] = {}


def map_documents(
    documents: list[Document],
    shapes: list[tuple[bool, dict[str, Any]]],
    *,
    system_key: str,
    profile_schema: Mapping[str, Any],
    price: Callable[[Mapping[str, Any]], Mapping[str, Any]],
    known_rule: Callable[[str], bool],
    mapping: BattleScribeMapping | None = None,
) -> Mapped:
    """Every catalogue (and the game system's own root entries) as a faction in loader format.

    `shapes` are the files' engine dict shapes (`battlescribe_lists.source_shape`), in the
    order of `documents`, their headers: the data is read into the engine's model once."""
    system = next((shape for is_system, shape in shapes if is_system), {})
    game_data = GameData(system, [shape for is_system, shape in shapes if not is_system])
    data = ImportData(documents, game_data, [shape for _is_system, shape in shapes])
    mapper = UnitMapper(
        data,
        system_key=system_key,
        profile_schema=profile_schema,
        price=price,
        known_rule=known_rule,
        mapping=mapping or DEFAULT,
    )
    where = data.system.file if data.system else "import"
    # What the engine's model could not convert of a 1.x catalogue (`engine.legacy_catalogue`),
    # left out of its units: said with the import's own warnings.
    for line in game_data.warnings:
        written, _, message = line.partition(": ")
        if message:
            mapper.warn(written, message)
        else:
            mapper.warn(where, written)
    if mapper.model_type is None:
        mapper.warn(
            where, "no profile type matches the system's model characteristics; units cannot be mapped"
        )
    for type_id, name in data.cost_types.items():
        if type_id != mapper.points_id and type_id not in {t for _c, t in mapper.unit_costs}:
            mapper.warn(where, f"cost type {name!r} is not imported")
    result = Mapped()
    # A catalogue another uploaded catalogue links to is that one's library (Space Marines for
    # Ultramarines): its units come in through the catalogues that import its root entries,
    # not as a faction of its own, unless nothing uploaded links to it.
    linked = {target for doc in documents for target in doc.catalogue_links}
    for doc in documents:
        if doc.kind == CATALOGUE and ((doc.library and not doc.root_entries) or doc.id in linked):
            continue
        used: set[str] = set()
        units = []
        mapper.catalogue_id = doc.id
        for written, entry in data.root_entries(doc):
            if entry is None:
                # A root link to nothing (Adeptus Astra Telepathica's "Astropath" at BSData
                # wh40k-9e v9.1.10): that entry is left out, the catalogue's other units import.
                where = data.written(written)
                reasons = [e.removeprefix(f"{where}: ") for e in data.dangling(written).errors]
                mapper.warn(where, "left out: " + "; ".join(reasons))
                continue
            unit = mapper.unit_or_warning(entry, used)
            if unit is not None:
                units.append(unit)
        if not units:
            if doc.kind == CATALOGUE:
                mapper.warn(doc.file, "no importable units in this catalogue")
            continue
        result.factions.append(
            {
                "faction": {
                    "slug": f"bs-{slug(doc.id, 60)}",
                    "name": doc.name[:120],
                    "version": f"rev {doc.revision}"[:32],
                    "description": f"Imported from BattleScribe ({doc.file}, revision {doc.revision}).",
                },
                "units": units,
            }
        )
    result.warnings = mapper.warnings
    return result
