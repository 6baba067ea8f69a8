"""Reading the bundled catalogue files into a checked plan, before anything is written.

The catalogue is readable YAML inside each system's package, `rules/systems/<key>/catalogue/`
(`rules.systems.package_data`):

    rules.yaml            the system's special rules (English and source-language names, text)
    equipment.yaml        equipment and magic items (Warhammer Fantasy style systems)
    factions/<slug>.yaml  a faction: its named weapons and its units, each unit in the unit
                          format of `docs/unit-format.md` plus its upgrade options

`read_catalogue()` (or `read_catalogue(data_dir)` for a folder with one sub-folder per
system key) parses and checks EVERY file first (its shape, then its meaning:
each unit through its system's `price` from the registry, each option applied once, each
rule name known) and returns a `CataloguePlan`, or raises `CatalogueFileError` listing every
problem as "file: field path: message". The loader (`rules.catalogue_sync`) writes a plan
only when the whole catalogue is valid, so a malformed file changes nothing.

Points are never read from OPR-style data: a system whose profile schema has no `points`
field is priced by its formula, and a `points` key in its files is an error.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator

from points.shared_format import FORMAT_VERSION, UnitFormatError
from rules.options import KINDS, OptionError, apply_options, per_model_limit
from rules.selectors import rule_base_name, rule_lookup_key
from rules.systems.package_data import catalogue_dir
from rules.systems.registry import GameSystem, all_systems
from rules.systems.unit_schema import field_path
from rules.unit_roles import ROLES

RULES_FILE = "rules.yaml"
#: The rules texts in the system's source language: `texts: {rule key: text}`.
SOURCE_TEXTS_FILE = "rules.source-language.yaml"
EQUIPMENT_FILE = "equipment.yaml"
FACTIONS_DIR = "factions"
#: Keys of a unit entry that describe the catalogue row, not the unit itself.
UNIT_ROW_KEYS = ("slug", "role", "description", "options")
SCOPES = ("model", "weapon", "other")
EQUIPMENT_KINDS = ("weapon", "armour", "talisman", "arcane", "enchanted", "banner", "mundane")

_SLUG = {"type": "string", "pattern": r"^[a-z0-9]+(-[a-z0-9]+)*$", "maxLength": 80}
_TEXT = {"type": "string"}

SOURCE_TEXTS_SCHEMA = {
    "type": "object",
    "required": ["language", "texts"],
    "additionalProperties": False,
    "properties": {
        "language": {"type": "string", "minLength": 2, "maxLength": 8},
        "texts": {"type": "object", "additionalProperties": {"type": "string", "minLength": 1}},
    },
}

RULES_SCHEMA = {
    "type": "object",
    "required": ["rules"],
    "additionalProperties": False,
    "properties": {
        "rules": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["key", "name", "text", "scope"],
                "additionalProperties": False,
                "properties": {
                    "key": {**_SLUG, "maxLength": 64},
                    "name": {"type": "string", "minLength": 1, "maxLength": 100},
                    "source_name": {"type": "string", "maxLength": 100},
                    "aliases": {"type": "array", "items": {"type": "string", "minLength": 1}},
                    "text": {"type": "string", "minLength": 1},
                    "scope": {"enum": list(SCOPES)},
                    "has_value": {"type": "boolean"},
                    "not_in_source": {"type": "boolean"},
                },
            },
        }
    },
}
EQUIPMENT_SCHEMA = {
    "type": "object",
    "required": ["equipment"],
    "additionalProperties": False,
    "properties": {
        "equipment": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["slug", "name", "kind", "points", "text"],
                "additionalProperties": False,
                "properties": {
                    "slug": _SLUG,
                    "name": {"type": "string", "minLength": 1, "maxLength": 120},
                    "source_name": {"type": "string", "maxLength": 120},
                    "kind": {"enum": list(EQUIPMENT_KINDS)},
                    "points": {"type": "integer", "minimum": 0},
                    "text": _TEXT,
                    "unique": {"type": "boolean"},
                    "bound_spell": {"type": "boolean"},
                    "requires_rule": {"type": "string", "minLength": 1, "maxLength": 60},
                    "effects": {"type": "object"},
                },
            },
        }
    },
}
_OPTION = {
    "type": "object",
    "required": ["key", "label", "kind", "payload"],
    "additionalProperties": False,
    "properties": {
        "key": _SLUG,
        "label": {"type": "string", "minLength": 1, "maxLength": 200},
        "group": {"type": "string", "maxLength": 120},
        "kind": {"enum": list(KINDS)},
        "applies_to": {"type": "string", "maxLength": 120},
        "payload": {"type": "object"},
        "min": {"type": "integer", "minimum": 0, "maximum": 1000},
        "max": {"type": "integer", "minimum": 0, "maximum": 1000},
        "cost": {"type": "integer"},
    },
}
FACTION_SCHEMA = {
    "type": "object",
    "required": ["faction", "units"],
    "additionalProperties": False,
    "properties": {
        "faction": {
            "type": "object",
            "required": ["slug", "name"],
            "additionalProperties": False,
            "properties": {
                "slug": _SLUG,
                "name": {"type": "string", "minLength": 1, "maxLength": 120},
                "version": {"type": "string", "maxLength": 32},
                "description": _TEXT,
                "reference": {"type": "boolean"},
                # the army's own rules, kept as text (the system's price does not count them)
                "rules": {
                    "type": "array",
                    "maxItems": 300,
                    "items": {
                        "type": "object",
                        "required": ["name", "text"],
                        "additionalProperties": False,
                        "properties": {
                            "name": {"type": "string", "minLength": 1, "maxLength": 100},
                            "text": {"type": "string", "maxLength": 4000},
                        },
                    },
                },
            },
        },
        "weapons": {
            "type": "object",
            "propertyNames": _SLUG,
            "additionalProperties": {"type": "object", "required": ["name"]},
        },
        # The faction's texts in other languages: English text as written above (the faction's
        # name, a unit's name, an option's label or group) → {language code: text}.
        "translations": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "propertyNames": {"pattern": "^[a-z]{2}$"},
                "additionalProperties": {"type": "string", "minLength": 1, "maxLength": 200},
            },
        },
        "units": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["slug", "name", "role", "models"],
                "properties": {
                    "slug": _SLUG,
                    "role": {"enum": list(ROLES)},
                    "description": _TEXT,
                    "name": {"type": "string"},
                    "models": {"type": "array"},
                    "options": {"type": "array", "items": _OPTION},
                },
            },
        },
    },
}


class CatalogueFileError(Exception):
    """The catalogue cannot be loaded; `errors` lists every problem as "file: path: message"."""

    def __init__(self, errors: list[str]):
        self.errors = errors
        super().__init__("\n".join(errors))


@dataclass
class OptionPlan:
    key: str
    values: dict[str, Any]


@dataclass
class UnitPlan:
    slug: str
    values: dict[str, Any]
    options: list[OptionPlan] = field(default_factory=list)


@dataclass
class FactionPlan:
    system_key: str
    slug: str
    values: dict[str, Any]
    weapons: dict[str, dict[str, Any]] = field(default_factory=dict)
    units: list[UnitPlan] = field(default_factory=list)
    #: The user whose private faction this is (imports by a player); None: the public catalogue.
    owner_id: int | None = None


@dataclass
class CataloguePlan:
    """Everything to write, already checked: systems, rules, equipment, factions."""

    systems: list[dict[str, Any]] = field(default_factory=list)
    rules: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    equipment: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    factions: list[FactionPlan] = field(default_factory=list)


def system_rows() -> list[dict[str, Any]]:
    """The GameSystem rows the registry implies (name, schema, display position)."""
    return [
        {
            "key": s.key,
            "name": s.name,
            "source_language": s.source_language,
            "description": s.description,
            "profile_schema": dict(s.profile_schema),
            "position": position,
        }
        for position, s in enumerate(all_systems())
    ]


def bundled_catalogue_dirs() -> dict[str, Path]:
    """{system key: its bundled catalogue folder}, for every registered system that has one, in
    the registry's order."""
    folders = {system.key: catalogue_dir(system.key) for system in all_systems()}
    return {key: folder for key, folder in folders.items() if folder is not None}


def read_catalogue(data_dir: Path | None = None) -> CataloguePlan:
    """Parse and check every file of the bundled catalogue (or, given `data_dir`, of its
    sub-folders, one per system key); raise `CatalogueFileError` listing all problems."""
    reader = _Reader(None if data_dir is None else Path(data_dir))
    plan = reader.read()
    if reader.errors:
        raise CatalogueFileError(reader.errors)
    return plan


class _Reader:
    def __init__(self, data_dir: Path | None):
        """`data_dir`: a folder of system sub-folders; None: each system's bundled catalogue."""
        self.data_dir = data_dir
        self.errors: list[str] = []
        self.systems = {s.key: s for s in all_systems()}
        #: Error messages name files relative to this folder.
        self.base = data_dir.parent if data_dir is not None else Path(__file__).resolve().parent / "systems"

    # ------------------------------------------------------------------ files

    def error(self, file: Path, path: str, message: str) -> None:
        where = file.relative_to(self.base) if file.is_relative_to(self.base) else file
        self.errors.append(f"{where}: {path}: {message}" if path else f"{where}: {message}")

    def load(self, file: Path, schema: Mapping[str, Any]) -> Any | None:
        try:
            data = yaml.safe_load(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            self.error(file, "", f"cannot be read ({exc})")
            return None
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f"line {mark.line + 1}" if mark else ""
            self.error(file, where, f"is not valid YAML ({getattr(exc, 'problem', exc)})")
            return None
        problems = sorted(
            Draft202012Validator(schema).iter_errors(data), key=lambda e: list(map(str, e.path))
        )
        for problem in problems:
            self.error(file, field_path(problem), problem.message)
        return None if problems else data

    def read(self) -> CataloguePlan:
        plan = CataloguePlan(systems=system_rows())
        if self.data_dir is None:
            for key, folder in bundled_catalogue_dirs().items():
                self.read_system(plan, folder, self.systems[key])
            return plan
        if not self.data_dir.is_dir():
            self.errors.append(f"{self.data_dir}: no such data directory")
            return plan
        for folder in sorted(p for p in self.data_dir.iterdir() if p.is_dir()):
            system = self.systems.get(folder.name)
            if system is None:
                self.error(folder, "", f"no registered game system has the key {folder.name!r}")
                continue
            self.read_system(plan, folder, system)
        return plan

    def read_source_texts(self, plan: CataloguePlan, folder: Path, system: GameSystem) -> None:
        """The rules texts in the source language, set on the rules `read_system` planned."""
        texts_file = folder / SOURCE_TEXTS_FILE
        if not texts_file.exists():
            return
        data = self.load(texts_file, SOURCE_TEXTS_SCHEMA)
        if data is None:
            return
        if data["language"] != system.source_language:
            self.error(texts_file, "language",
                       f"is {data['language']!r}; the system's source language is {system.source_language!r}")
        planned = {key: values for system_key, key, values in plan.rules if system_key == system.key}
        for key, text in data["texts"].items():
            if key not in planned:
                self.error(texts_file, f"texts.{key}", f"no rule with the key {key!r} in {RULES_FILE}")
                continue
            planned[key]["source_text"] = " ".join(text.split())

    def read_system(self, plan: CataloguePlan, folder: Path, system: GameSystem) -> None:
        rule_names: set[str] = set()
        rules_file = folder / RULES_FILE
        if rules_file.exists():
            data = self.load(rules_file, RULES_SCHEMA)
            for index, rule in enumerate((data or {}).get("rules", [])):
                keys = [r[1] for r in plan.rules if r[0] == system.key]
                if rule["key"] in keys:
                    self.error(rules_file, f"rules[{index}].key", f"duplicate rule key {rule['key']!r}")
                    continue
                values = {
                    "name": rule["name"],
                    "source_name": rule.get("source_name", ""),
                    "aliases": list(rule.get("aliases", [])),
                    "text": rule["text"].strip(),
                    "source_text": "",
                    "scope": rule["scope"],
                    "has_value": rule.get("has_value", False),
                    "not_in_source": rule.get("not_in_source", False),
                }
                plan.rules.append((system.key, rule["key"], values))
                for name in (rule["name"], rule.get("source_name"), *rule.get("aliases", [])):
                    if name:
                        rule_names.add(rule_lookup_key(str(name)))
        self.read_source_texts(plan, folder, system)
        equipment: dict[str, dict[str, Any]] = {}
        equipment_file = folder / EQUIPMENT_FILE
        if equipment_file.exists():
            data = self.load(equipment_file, EQUIPMENT_SCHEMA)
            for index, item in enumerate((data or {}).get("equipment", [])):
                if item["slug"] in equipment:
                    self.error(equipment_file, f"equipment[{index}].slug", f"duplicate slug {item['slug']!r}")
                    continue
                equipment[item["slug"]] = item
                plan.equipment.append(
                    (
                        system.key,
                        item["slug"],
                        {
                            "name": item["name"],
                            "source_name": item.get("source_name", ""),
                            "kind": item["kind"],
                            "points": item["points"],
                            "text": item["text"].strip(),
                            "data": {
                                "unique": item.get("unique", True),
                                "bound_spell": item.get("bound_spell", False),
                                **item.get("effects", {}),
                            },
                        },
                    )
                )
        faction_slugs: set[str] = set()
        for file in (
            sorted((folder / FACTIONS_DIR).glob("*.yaml")) if (folder / FACTIONS_DIR).is_dir() else []
        ):
            data = self.load(file, FACTION_SCHEMA)
            if data is None:
                continue
            slug = data["faction"]["slug"]
            if slug in faction_slugs:
                self.error(
                    file, "faction.slug", f"another file of {system.key} already uses the slug {slug!r}"
                )
                continue
            faction_slugs.add(slug)
            plan.factions.append(_FactionReader(self, file, system, data, rule_names, equipment).read())


class _FactionReader:
    """Checks one faction file: weapon references, each unit, each option."""

    def __init__(
        self,
        reader: _Reader,
        file: Path,
        system: GameSystem,
        data: Mapping[str, Any],
        rule_names: set[str],
        equipment: Mapping[str, Mapping[str, Any]],
    ):
        self.reader, self.file, self.system, self.data = reader, file, system, data
        self.rule_names, self.equipment = rule_names, equipment
        self.weapons = {slug: dict(weapon) for slug, weapon in (data.get("weapons") or {}).items()}
        self.catalogue_points = "points" in (system.profile_schema.get("properties") or {})

    def error(self, path: str, message: str) -> None:
        self.reader.error(self.file, path, message)

    def read(self) -> FactionPlan:
        meta = self.data["faction"]
        faction = FactionPlan(
            system_key=self.system.key,
            slug=meta["slug"],
            weapons=self.weapons,
            values={
                "name": meta["name"],
                "version": str(meta.get("version", "")),
                "description": str(meta.get("description", "")).strip(),
                "is_reference": bool(meta.get("reference", False)),
                "translations": self.translations(),
                "rules": [{"name": r["name"], "text": r["text"].strip()} for r in meta.get("rules") or ()],
            },
        )
        seen: set[str] = set()
        for index, entry in enumerate(self.data["units"]):
            if entry["slug"] in seen:
                self.error(f"units[{index}].slug", f"duplicate unit slug {entry['slug']!r}")
                continue
            seen.add(entry["slug"])
            unit = self.read_unit(f"units[{index}]", entry, position=index)
            if unit is not None:
                faction.units.append(unit)
        return faction

    def translatable_texts(self) -> set[str]:
        """`translatable_texts` of this file (with the items its options add by slug)."""
        return translatable_texts(self.data, self.equipment)

    def translations(self) -> dict[str, dict[str, str]]:
        """The file's `translations` of texts the file has. A key no text matches any more (a
        unit renamed, an option removed) is left out rather than refused: the English text is
        then shown, and the bundled files' completeness is a test's job
        (`tests/rules/test_catalogue_translations.py`), not a reason to refuse a catalogue."""
        written = dict(self.data.get("translations") or {})
        known = self.translatable_texts()
        return {text: dict(languages) for text, languages in written.items() if text in known}

    def weapon(self, path: str, written: Any) -> dict[str, Any] | None:
        """A weapon written in full, or the slug of one of the file's `weapons`."""
        if isinstance(written, str):
            if written not in self.weapons:
                self.error(path, f"no weapon {written!r} among this file's weapons")
                return None
            return copy.deepcopy(self.weapons[written])
        if isinstance(written, Mapping):
            return copy.deepcopy(dict(written))
        self.error(path, "a weapon is a mapping or the slug of one of this file's weapons")
        return None

    def unit_data(self, path: str, entry: Mapping[str, Any]) -> dict[str, Any]:
        data = {"format": FORMAT_VERSION, "system": self.system.key}
        data.update({k: copy.deepcopy(v) for k, v in entry.items() if k not in UNIT_ROW_KEYS})
        for m, model in enumerate(data.get("models") or []):
            if isinstance(model, dict) and isinstance(model.get("weapons"), list):
                model["weapons"] = [
                    w
                    for w in (
                        self.weapon(f"{path}.models[{m}].weapons[{i}]", written)
                        for i, written in enumerate(model["weapons"])
                    )
                    if w is not None
                ]
        return data

    def check_points_field(self, path: str, data: Mapping[str, Any]) -> None:
        """Formula-priced systems: points are computed, never typed into the data."""
        if self.catalogue_points:
            return
        if "points" in data:
            self.error(f"{path}.points", "points are computed by the points engine; remove this field")
        for m, model in enumerate(data.get("models") or []):
            if isinstance(model, Mapping) and "points" in model:
                self.error(
                    f"{path}.models[{m}].points",
                    "points are computed by the points engine; remove this field",
                )

    def check_rules(self, path: str, data: Mapping[str, Any]) -> None:
        for m, model in enumerate(data.get("models") or []):
            if not isinstance(model, Mapping):
                continue
            places = [(f"{path}.models[{m}].rules", model.get("rules") or [])]
            places += [
                (f"{path}.models[{m}].weapons[{w}].rules", (weapon or {}).get("rules") or [])
                for w, weapon in enumerate(model.get("weapons") or [])
                if isinstance(weapon, Mapping)
            ]
            for where, rules in places:
                for r, rule in enumerate(rules):
                    written = str(rule)
                    if not self.known_rule(written):
                        self.error(
                            f"{where}[{r}]", f"unknown rule {written!r} (not in {self.system.key}/rules.yaml)"
                        )

    def known_rule(self, written: str) -> bool:
        return (
            rule_lookup_key(written) in self.rule_names
            or rule_lookup_key(rule_base_name(written)) in self.rule_names
        )

    def check_payload_rules(self, path: str, payload: Mapping[str, Any]) -> None:
        """Rule names an option brings: the rule it adds, the rules of the weapons or model it adds."""
        if "rule" in payload and not self.known_rule(str(payload["rule"])):
            self.error(
                f"{path}.rule", f"unknown rule {payload['rule']!r} (not in {self.system.key}/rules.yaml)"
            )
        weapons = [*(payload.get("with") or []), payload.get("weapon")]
        gives = payload["item"].get("gives") if isinstance(payload.get("item"), Mapping) else None
        if isinstance(gives, Mapping):  # an item that gives rules and weapons (Army Forge's)
            weapons += list(gives.get("weapons") or [])
            for rule in gives.get("rules") or []:
                if not self.known_rule(str(rule)):
                    known = f"{self.system.key}/rules.yaml"
                    self.error(f"{path}.item.gives", f"unknown rule {rule!r} (not in {known})")
        if isinstance(payload.get("model"), Mapping):
            self.check_rules(f"{path}.model", {"models": [payload["model"]]})
        for weapon in (w for w in weapons if isinstance(w, Mapping)):
            for rule in weapon.get("rules") or []:
                if not self.known_rule(str(rule)):
                    self.error(path, f"unknown rule {rule!r} (not in {self.system.key}/rules.yaml)")

    def price(self, path: str, data: Mapping[str, Any]) -> int | None:
        try:
            return int(self.system.price(data)["points"])
        except UnitFormatError as exc:
            for problem in exc.errors:
                self.error(f"{path}.{problem.path}" if problem.path else path, problem.message)
            return None

    def read_unit(self, path: str, entry: Mapping[str, Any], *, position: int) -> UnitPlan | None:
        data = self.unit_data(path, entry)
        self.check_points_field(path, data)
        self.check_rules(path, data)
        points = self.price(path, data)
        if points is None:
            return None
        unit = UnitPlan(
            slug=entry["slug"],
            values={
                "name": str(entry["name"]),
                "role": entry["role"],
                "description": str(entry.get("description", "")).strip(),
                "data": data,
                "points": points,
                "position": position,
            },
        )
        keys: set[str] = set()
        for index, written in enumerate(entry.get("options") or []):
            where = f"{path}.options[{index}]"
            if written["key"] in keys:
                self.error(f"{where}.key", f"duplicate option key {written['key']!r}")
                continue
            keys.add(written["key"])
            option = self.read_option(where, written, position=index, unit=data)
            if option is not None and self.check_option(where, data, option):
                unit.options.append(OptionPlan(key=written["key"], values=option))
        return unit

    def read_option(
        self, path: str, written: Mapping[str, Any], *, position: int, unit: Mapping[str, Any] | None = None
    ) -> dict[str, Any] | None:
        payload = copy.deepcopy(dict(written["payload"]))
        kind = written["kind"]
        if kind == "add_models" and isinstance(payload.get("model"), Mapping):
            model = self.added_model(f"{path}.payload.model", payload["model"], unit or {})
            if model is None:
                return None
            payload["model"] = model
        required = {
            "replace_weapon": ("replace", "with"),
            "add_weapon": ("weapon",),
            "add_rule": ("rule",),
            "add_item": ("item",),
            "add_models": (),
        }[kind]
        missing = [key for key in required if key not in payload]
        if missing:
            self.error(f"{path}.payload", f"a {kind} option needs {', '.join(missing)}")
            return None
        cost = written.get("cost")
        if kind == "replace_weapon":
            replacements = payload["with"] if isinstance(payload["with"], list) else [payload["with"]]
            payload["with"] = [self.weapon(f"{path}.payload.with", w) for w in replacements]
            if None in payload["with"]:
                return None
        if kind == "add_weapon":
            payload["weapon"] = self.weapon(f"{path}.payload.weapon", payload["weapon"])
            if payload["weapon"] is None:
                return None
        if kind == "add_item" and isinstance(payload["item"], str):
            item = self.equipment.get(payload["item"])
            if item is None:
                self.error(
                    f"{path}.payload.item", f"no item {payload['item']!r} in {self.system.key}/equipment.yaml"
                )
                return None
            cost = item["points"] if cost is None else cost
            payload["item"] = {
                "name": item["name"],
                "kind": item["kind"],
                "unique": item.get("unique", True),
                "bound_spell": item.get("bound_spell", False),
                "points": cost,  # what the item costs this unit: counted against item allowances
                # only a model with this rule may carry it (`points.catalogue.item_restrictions`)
                **({"requires_rule": item["requires_rule"]} if item.get("requires_rule") else {}),
            }
        if cost is not None and not self.catalogue_points:
            self.error(f"{path}.cost", "this system prices options with its formula; remove the cost")
            return None
        low, high = int(written.get("min", 0)), int(written.get("max", 1))
        if high < low or high == 0:
            self.error(f"{path}.max", f"max ({high}) must be at least 1 and at least min ({low})")
            return None
        if "costs" in payload and not self.costs_by_count(f"{path}.payload.costs", payload, cost, high):
            return None
        return {
            "group": written.get("group", ""),
            "label": written["label"],
            "kind": kind,
            "applies_to": written.get("applies_to", ""),
            "payload": payload,
            "min_count": low,
            "max_count": high,
            "cost": cost,
            "position": position,
        }

    def added_model(
        self, path: str, written: Mapping[str, Any], unit: Mapping[str, Any]
    ) -> dict[str, Any] | None:
        """The model an `add_models` option adds, its weapons resolved like a unit's.

        A command model (champion, standard bearer, musician) is written `like: <model>`: the
        unit's model of that name (profile, points, weapons, items and rules), with the fields
        written beside `like` in place of its own, and `rules` added to its own, one of it. So
        it carries the kit and rules of the models it leads; the data cannot forget a weapon's
        rule or an armour on one of them (issue 43, item 6)."""
        model = dict(written)
        like = model.pop("like", None)
        if like is not None:
            peers = [m for m in unit.get("models") or [] if isinstance(m, Mapping) and m.get("name") == like]
            if not peers:
                self.error(f"{path}.like", f"no model {like!r} in this unit")
                return None
            base = copy.deepcopy(dict(peers[0]))
            own = list(base.get("rules") or [])
            rules = [*own, *(rule for rule in model.pop("rules", []) if rule not in own)]
            model = {**base, "count": 1, **model, **({"rules": rules} if rules else {})}
        if isinstance(model.get("weapons"), list):
            weapons = [self.weapon(f"{path}.weapons[{i}]", w) for i, w in enumerate(model["weapons"])]
            if None in weapons:
                return None
            model["weapons"] = weapons
        return model

    def costs_by_count(self, path: str, payload: Mapping[str, Any], cost: Any, high: int) -> bool:
        """Whether an option's prices by count (`rules.options`, "Prices by count") can be
        applied: one whole number per count up to `max`, the first one the option's cost."""
        costs = payload["costs"]
        whole = isinstance(costs, list) and all(isinstance(c, int) and not isinstance(c, bool) for c in costs)
        if not whole:
            self.error(path, "must be a list of whole numbers: the option's price taken 1, 2, … times")
        elif len(costs) != high:
            self.error(path, f"gives {len(costs)} prices; the option can be taken up to {high} times")
        elif cost is None or costs[0] != cost:
            first = costs[0] if costs else None
            self.error(path, f"the first price ({first}) must be the option's cost ({cost})")
        elif payload.get("per_model"):
            self.error(path, "an option priced per model cannot also be priced by count")
        else:
            return True
        return False

    def check_option(self, path: str, data: Mapping[str, Any], option: dict[str, Any]) -> bool:
        """Take the option as often as allowed (alone) and price the result."""
        as_dict = {"key": "option", **option}
        count = option["max_count"]
        limit = per_model_limit(data, as_dict)  # a per-model maximum: as many as the unit has models
        if limit is not None:
            count = min(count, limit)
        try:
            changed = apply_options(dict(data), [as_dict], {"option": count})
        except OptionError as exc:
            for _where, message in exc.errors:
                self.error(path, message)
            return False
        self.check_payload_rules(f"{path}.payload", option["payload"])
        return self.price(f"{path} (taken {count}×)", changed) is not None


def translatable_texts(data: Mapping[str, Any],
                       equipment: Mapping[str, Mapping[str, Any]] | None = None) -> set[str]:
    """The texts a player reads of a faction file (`data`, as written), which its
    `translations` may translate: its name, each unit's name, each option's label and group,
    and the names of its models, weapons (and their alternative profiles) and the items its
    models carry, wherever the file writes them (a unit's models, the file's `weapons`, what
    an option adds: an item named by its slug in the system's `equipment`, by slug, is named
    there; a Russian roster printed "Heavy Armour" among "Лёгкая броня" and "Щит"). A command
    model written `like: <model>` is named by its own `name`."""
    texts = {str(data["faction"]["name"])}

    def weapon(written: Any) -> None:
        if isinstance(written, Mapping):
            texts.update(str(w["name"]) for w in (written, *(written.get("profiles") or ()))
                         if isinstance(w, Mapping) and w.get("name"))

    def model(written: Any) -> None:
        if not isinstance(written, Mapping):
            return
        if written.get("name"):
            texts.add(str(written["name"]))
        for each in written.get("weapons") or ():
            weapon(each)
        items = written.get("items") or ()
        texts.update(str(i["name"]) for i in items if isinstance(i, Mapping) and i.get("name"))

    for each in (data.get("weapons") or {}).values():
        weapon(each)
    for entry in data["units"]:
        texts.add(str(entry["name"]))
        for each in entry.get("models") or ():
            model(each)
        for option in entry.get("options") or ():
            texts.update(str(option[k]) for k in ("label", "group") if option.get(k))
            payload = option.get("payload") or {}
            model(payload.get("model"))
            replacements = payload.get("with")
            replacements = replacements if isinstance(replacements, list) else [replacements]
            for each in [*replacements, payload.get("weapon")]:
                weapon(each)
            item = payload.get("item")
            if isinstance(item, str) and item in (equipment or {}):
                texts.add(str((equipment or {})[item]["name"]))
    return texts


def system_rule_names(system_key: str) -> set[str]:
    """Lookup keys of every rule name (and alias) of `system_key`'s bundled rules file."""
    folder = catalogue_dir(system_key)
    rules_file = folder / RULES_FILE if folder is not None else None
    if rules_file is None or not rules_file.exists():
        return set()
    data = yaml.safe_load(rules_file.read_text(encoding="utf-8")) or {}
    names: set[str] = set()
    for rule in data.get("rules") or []:
        for name in (rule.get("name"), rule.get("source_name"), *(rule.get("aliases") or [])):
            if name:
                names.add(rule_lookup_key(str(name)))
    return names


@lru_cache(maxsize=1)
def _fast_faction_validator() -> Any:
    """`FACTION_SCHEMA` compiled by jsonschema-rs (`rules.systems.unit_schema` does the same
    for units)."""
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(FACTION_SCHEMA)


def read_faction_data(
    system_key: str, data: Mapping[str, Any], *, source: str, rule_names: set[str] | None = None
) -> FactionPlan:
    """Check one faction given as data (the shape of a `factions/*.yaml` file) like a bundled file.

    Other sources of catalogue data (BattleScribe imports) come through here, so they pass the
    very checks the bundled YAML passes; `source` names the origin in error messages.
    """
    reader = _Reader(None)
    file = Path(source)
    if system_key not in reader.systems:
        raise CatalogueFileError([f"{source}: no registered game system has the key {system_key!r}"])
    # A fast yes from jsonschema-rs for the common valid faction (a 250-unit BattleScribe
    # import spent a sixth of its time here); only an invalid one is walked for its messages.
    problems = (
        []
        if _fast_faction_validator().is_valid(data)
        else sorted(
            Draft202012Validator(FACTION_SCHEMA).iter_errors(data), key=lambda e: list(map(str, e.path))
        )
    )
    for problem in problems:
        reader.error(file, field_path(problem), problem.message)
    if problems:
        raise CatalogueFileError(reader.errors)
    names = system_rule_names(system_key) if rule_names is None else rule_names
    plan = _FactionReader(reader, file, reader.systems[system_key], data, names, {}).read()
    if reader.errors:
        raise CatalogueFileError(reader.errors)
    return plan
