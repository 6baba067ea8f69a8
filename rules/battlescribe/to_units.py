"""Mapping BattleScribe entries onto our unit format through a system's profile schema.

Nothing here knows a game system: characteristics are matched to the fields of the target
system's profile schema by name (a field's key, its `title` such as "WS" or "Sv", or the
first words of its `description` such as "Weapon Skill"), and each value is converted to
whatever that field's JSON Schema accepts ("3+" -> 3, "6\"" -> 6, "-" -> null, "D3").

A root entry of type `unit` becomes a unit whose `model` children are its model profiles;
a root `model` entry is a one-model unit. The unit is written at its smallest legal selection
with its default entries taken (their weapons on the models, their costs in the model's
per-model points or the unit's fixed `upgrades`), so its price equals BattleScribe's.
Optional entries become upgrade options with their limits; alternatives of a group with a
default become "replace the default" options priced by the difference; an option whose price
BattleScribe scales with the unit's size ("+2 pts per model") is priced per model
(`per_model_option`), so it costs the same in a list at any size. Anything that has no
place in the unit format is kept as text (`abilities`, `notes`) and reported as a warning.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator

from rules.battlescribe.catalogue import CATALOGUE, Document, Entry, Profile
from rules.battlescribe.costs import Pricer, cost_type_ids
from rules.battlescribe.entries import GROUP, Index, Node
from rules.battlescribe.mapping import DEFAULT, BattleScribeMapping, norm, random_average
from rules.battlescribe.xml_reader import BattleScribeError

#: Largest model count an add-models option offers (a unit without a max gets none).
MAX_OPTION_COUNT = 1000
#: Most unit sizes examined when deriving Power steps and checking per-model points.
MAX_SIZE_SWEEP = 100
#: The most sizes of a unit sized by a numbered selection priced one by one (BattleScribe's
#: price at each count); beyond them a unit is priced at its first step.
MAX_SIZE_PRICES = 40
#: Models an add-models option offers beyond the minimum when BattleScribe sets no maximum
#: (community WHFB data writes `max -1` on rank-and-file models).
UNBOUNDED_GROWTH = 100
#: Unit sizes above the minimum at which an option's price is compared to find per-model costs
#: (one step and a later, odd one, so "+1 per 5 models" steps are not taken for per-model).
PER_MODEL_PROBES = (1, 7)
ROLE_WORDS = (
    (("hq", "lord", "hero", "character", "leader", "commander"), "hero"),
    (("troop", "core", "battleline", "infantry"), "infantry"),
    (("elite", "special"), "elite"),
    (("fast", "cavalry"), "cavalry"),
    (("flyer", "aircraft", "flier"), "aircraft"),
    (("transport",), "transport"),
    (("monster", "behemoth"), "monster"),
    (("war machine", "artillery"), "artillery"),
    (("heavy", "vehicle", "lord of war"), "vehicle"),
)
_STATIC_CONDITIONS = ("instanceOf", "notInstanceOf")
_DASHES = ("", "-", "—", "–", "*", "n/a", "none")


def slug(text: str, limit: int = 80) -> str:
    """An ASCII slug (`[a-z0-9-]`), never empty."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    out = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:limit].strip("-")
    return out or "x"


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def field_names(properties: Mapping[str, Any]) -> dict[str, str]:
    """{normalised characteristic name: schema field} from each field's key, title, description."""
    names: dict[str, str] = {}
    first_words: dict[str, set[str]] = {}
    for key, schema in properties.items():
        description = re.split(r"[(;,:]", str(schema.get("description", "")))[0]
        for name in (description, key, schema.get("title", "")):
            if name and _norm(name):
                names[_norm(name)] = key
        if description.split():  # "Movement in inches": community data writes "Movement"
            first_words.setdefault(_norm(description.split()[0]), set()).add(key)
    for word, keys in first_words.items():
        if word and word not in names and len(keys) == 1:
            names[word] = next(iter(keys))
    return names


@lru_cache(maxsize=256)
def _validator(schema_json: str) -> Draft202012Validator:
    import json

    return Draft202012Validator(json.loads(schema_json))


_SCHEMA_JSON: dict[int, tuple[Mapping[str, Any], str]] = {}


def _schema_json(schema: Mapping[str, Any]) -> str:
    import json

    known = _SCHEMA_JSON.get(id(schema))
    if known is None or known[0] is not schema:
        known = (schema, json.dumps(schema, sort_keys=True))
        _SCHEMA_JSON[id(schema)] = known
    return known[1]


def convert(text: str, schema: Mapping[str, Any]) -> tuple[bool, Any]:
    """(accepted, value): `text` as the first of int / the text / null that `schema` accepts.

    "3+", "6\"" and "12''" read as their number; a leading "+" ("+1" to Strength) stays
    text. A dash is null where the field takes null, and no value (`_ABSENT`) otherwise.
    """
    return _convert(text.strip(), _schema_json(schema))


@lru_cache(maxsize=8192)
def _convert(raw: str, schema_json: str) -> tuple[bool, Any]:
    validator = _validator(schema_json)
    candidates: list[Any] = []
    digits = re.fullmatch(r"(-?\d+)\s*(\+|(?:\"|''|”)+|in|cm)?", raw)
    if digits:
        candidates.append(int(digits.group(1)))
    between = re.fullmatch(r"(\d+)\s*(?:\"|''|”)?\s*-\s*(\d+)\s*(?:\"|''|”)?", raw)
    if between:  # a 40k aircraft's Move, "20-50\"" (or "20\"-50\"")
        candidates.append(f"{between.group(1)}-{between.group(2)}")
    if raw.lower() in _DASHES:
        return True, (None if validator.is_valid(None) else _ABSENT)
    candidates.append(raw)
    if raw.lower() != raw:  # "Missile" where the field's enum says "missile"
        candidates.append(raw.lower())
    for value in candidates:
        if validator.is_valid(value):
            return True, value
    return False, raw


#: A dash in a field that has no "none" value: the field is left out.
_ABSENT = object()


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


def never_shown(entry: Entry) -> bool:
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


class UnitMapper:
    """Maps the root entries of each catalogue of `index` onto units of one system."""

    def __init__(
        self,
        index: Index,
        *,
        system_key: str,
        profile_schema: Mapping[str, Any],
        price: Callable[[Mapping[str, Any]], Mapping[str, Any]],
        known_rule: Callable[[str], bool],
        mapping: BattleScribeMapping = DEFAULT,
    ):
        self.index = index
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
        self.pricer = Pricer(index, self.warn)
        self.points_id = next((k for k, n in index.cost_types.items() if mapping.is_points(n)), None)
        if self.points_id is None and not mapping.points_cost_types:
            self.points_id = cost_type_ids(index.cost_types)[0]
        #: (what the unit reports, cost type id) for each other cost type the system maps.
        self.unit_costs = [
            (found, type_id)
            for type_id, name in index.cost_types.items()
            if type_id != self.points_id and (found := mapping.unit_cost(name)) is not None
        ]
        self.model_type, self.weapon_types = self._profile_types()
        #: The model type and the catalogues' own variants of it: a type holding every one of
        #: its characteristics and more (wh40k-9e Titan Legions' "Unit (Titan)", + Void Shields).
        self.model_types = {self.model_type} - {None}
        if self.model_type is not None:
            base = {_norm(c) for c in self.index.profile_types[self.model_type][1]}
            self.model_types |= {
                t
                for t, (_name, chars) in self.index.profile_types.items()
                if base and base < {_norm(c) for c in chars}
            }
        self.table_types = {
            type_id for type_id, (name, _chars) in index.profile_types.items() if mapping.is_table_type(name)
        }

    def warn(self, path: str, message: str) -> None:
        line = f"{path}: {message}"
        if line not in self._seen:
            self._seen.add(line)
            self.warnings.append(line)

    _seen: set[str] = set()

    def _profile_types(self) -> tuple[str | None, set[str]]:
        """The profile type that is a model's profile, and those that are weapons: those the
        system's mapping names, else by best match of their characteristics."""
        self._seen = set()
        named_model = [
            t for t, (name, _c) in self.index.profile_types.items() if self.mapping.is_model_type(name)
        ]
        named_weapons = {
            t for t, (name, _c) in self.index.profile_types.items() if self.mapping.is_weapon_type(name)
        }
        model_type, best = None, 1
        weapons: set[str] = set()
        for type_id, (_name, chars) in self.index.profile_types.items():
            as_model = sum(_norm(c) in self.model_fields for c in chars)
            as_weapon = sum(_norm(c) in self.weapon_fields for c in chars)
            if as_model > best and as_model >= as_weapon:
                model_type, best = type_id, as_model
            elif as_weapon >= 2 and as_weapon > as_model:
                weapons.add(type_id)
        return (named_model[0] if named_model else model_type), (named_weapons or weapons)

    # ---------------------------------------------------------------- profiles

    def _characteristics(
        self,
        profile: Profile,
        fields: Mapping[str, str],
        properties: Mapping[str, Any],
        where: str,
        table: tuple[list[str], list[str]] | None = None,
    ) -> tuple[dict[str, Any], list[str]]:
        """The profile's characteristics as field values, and what stays text. `table`: the
        first row of the model's damage table, read where a characteristic is written "*"."""
        values: dict[str, Any] = {}
        kept: list[str] = []
        starred = 0
        for name, _type_id, text in profile.characteristics:
            key = fields.get(_norm(name))
            if key is None:
                if text:
                    kept.append(f"{name}: {text}")
                continue
            if text.strip() == "*" and table:
                found = self.from_table(
                    table, name, starred, properties[key], random=key in self.mapping.random_fields
                )
                starred += 1
                if found is not None:
                    kept.append(f"{name}: * (damage table; {found} unwounded)")
                    values[key] = found
                    continue
            if key in self.mapping.random_fields and (average := random_average(text)) is not None:
                ok, value = convert(str(average), properties[key])
                if ok and value is not _ABSENT:
                    kept.append(f"{name}: {text} (the average, {average}, used)")
                    values[key] = value
                    continue
            if fields is self.model_fields and key in self.mapping.dash_values and text.strip() in _DASHES:
                values[key] = self.mapping.dash_values[key]
                continue
            if key == "range" and text.strip().lower() == "melee":
                text = "0"  # the unit format's melee weapon (`docs/unit-format.md`)
            ok, value = convert(text, properties[key])
            if ok and value is not _ABSENT:
                values[key] = value
            elif ok:
                continue
            else:
                kept.append(f"{name}: {text}")
                self.warn(
                    where, f"{profile.name}: {name} {text!r} does not fit the field {key!r}; kept as text"
                )
        return values, kept

    @staticmethod
    def from_table(
        table: tuple[list[str], list[str]],
        name: str,
        nth: int,
        schema: Mapping[str, Any],
        random: bool = False,
    ) -> Any:
        """The value of characteristic `name` (the `nth` one written "*") in a damage-table row:
        the column the table names after it (a header row, or the characteristic's own name),
        else the `nth` column after the wounds column. `random`: a dice value there ("3D6\"",
        a Chaos Spawn's Move) reads as its average."""
        names, row = table
        column = next((i for i, n in enumerate(names) if n and _norm(n) == _norm(name)), None)
        if column is None:
            column = nth + 1
        if column >= len(row):
            return None
        text = row[column]
        if random and (average := random_average(text)) is not None:
            text = str(average)
        ok, value = convert(text, schema)
        return value if ok and value is not _ABSENT and value is not None else None

    def table_row(self, entry: Entry) -> tuple[list[str], list[str]] | None:
        """(column names, values) of the healthiest row of the entry's damage table, if it has
        one: the system's table profiles (`mapping.varying_tables`) or, failing those, profiles
        of a type of the catalogue's own that carry one of the model's characteristics. A
        header row (a first value that is no number: empty, "Wounds Suffered") names the
        columns; the row that starts lowest (`mapping.table_healthiest` "lowest": wounds
        suffered) or highest ("highest": wounds remaining) is the healthiest."""
        # The table sits on the entry or on a child of it ("Wound Track Slaughterbrute").
        found, stack, seen = [], [(entry, 0)], set()
        while stack:
            here, depth = stack.pop()
            if id(here) in seen:
                continue
            seen.add(id(here))
            found += self.profiles_of(here)
            if depth < 2:
                stack += [(self.index.resolve(c), depth + 1) for c in here.children if c.kind != GROUP]
        profiles = [p for p in found if p.type_id in self.table_types and p.characteristics]
        if not profiles:
            known = set(self.model_fields)
            profiles = [
                p
                for p in found
                if p.type_id not in self.model_types
                and p.type_id not in self.weapon_types
                and any(_norm(n) in known for n, _t, _v in p.characteristics)
                and re.search(r"\d", p.name)
            ]
        if not profiles:
            return None
        header = next((p for p in profiles if self._is_header(p.characteristics[0][2])), None)
        rows = [p for p in profiles if p is not header]
        if not rows:
            return None
        names = (
            [v for _n, _t, v in header.characteristics]
            if header
            else [n for n, _t, _v in rows[0].characteristics]
        )

        crew = any(
            self.mapping.is_crew_table(self.index.profile_types.get(p.type_id, ("",))[0]) for p in rows
        )
        highest = crew or self.mapping.table_healthiest == "highest"

        def start(p: Profile) -> int:
            # the row's wounds: its name where that is a range ("00-02", "10+"), else its first
            # value ("3 models"); a row with no number ("No models") is never the healthiest
            found = re.match(r"\s*(\d+)", p.name) or re.match(r"\s*(\d+)", p.characteristics[0][2])
            return int(found.group(1)) if found else (-1 if highest else 10**6)

        best = (max if highest else min)(rows, key=start)
        return names, [v for _n, _t, v in best.characteristics]

    def weapon_from_table(self, profile: Profile, values: dict[str, Any], kept: list[str]) -> None:
        """A weapon characteristic written "*" that the unit's damage or crew table gives in a
        column named after the weapon (a Dread Maw's Cavernous Maw Rend, a Greatcannon's
        Cannon Ball Attacks): the healthiest row's value, when exactly one is starred."""
        table = self._table
        starred = [n for n, _t, text in profile.characteristics if text.strip() == "*"]
        if not table or len(starred) != 1:
            return
        names, row = table
        column = next((i for i, n in enumerate(names) if n and _norm(n) == _norm(profile.name)), None)
        key = self.weapon_fields.get(_norm(starred[0]))
        if column is None or column >= len(row) or key is None or key in values:
            return
        ok, value = convert(row[column], self.weapon_properties[key])
        if ok and value is not _ABSENT:
            values[key] = value
            kept.append(f"{starred[0]}: * ({profile.name} in the table; {row[column]} at full strength)")

    @staticmethod
    def _is_header(first: str) -> bool:
        """Whether a table row whose first value is `first` names the columns: it is no number
        ("Wounds Suffered", "Crew within 1\"", empty) and no dice value (a Dread Maw's last row
        moves 'D6"')."""
        return not re.match(r"\s*\d", first) and random_average(first) is None

    #: The healthiest row of the unit being mapped's damage or crew table (`table_row`), if any.
    _table: tuple[list[str], list[str]] | None = None

    def weapon(self, profile: Profile, where: str) -> tuple[dict[str, Any], list[str]]:
        values, kept = self._characteristics(profile, self.weapon_fields, self.weapon_properties, where)
        self.weapon_from_table(profile, values, kept)
        weapon = {"name": profile.name[:120] or "Weapon", **values}
        if kept and "abilities" in self.weapon_properties and "abilities" not in weapon:
            weapon["abilities"] = "; ".join(kept)
            kept = []
        for key, schema in self.weapon_properties.items():
            required = "null" not in str(schema.get("type", ""))
            if key not in weapon and key in ("range",) and required:
                weapon[key] = 0  # a weapon without a range is a melee weapon
        return weapon, kept

    def entry_weapons(self, entry: Entry, where: str) -> tuple[list[dict[str, Any]], list[str]]:
        """The weapons an entry brings. Several weapon profiles on one entry (a gun with two
        firing modes) become one weapon with `profiles` where the system's weapon schema has
        that field and accepts the result; otherwise one weapon per profile."""
        built, notes = [], []
        for profile in (p for p in self.profiles_of(entry) if p.type_id in self.weapon_types):
            weapon, extra = self.weapon(profile, where)
            built.append(weapon)
            notes += extra
        if len(built) > 1 and "profiles" in self.weapon_properties:
            combined = {**built[0], "name": entry.name[:120] or built[0]["name"], "profiles": built}
            if self.weapon_validator.is_valid(combined):
                return [combined], notes
        return built, notes

    def profiles_of(self, entry: Entry) -> list[Profile]:
        linked = [
            self.index.profiles[link.target_id]
            for link in entry.info_links
            if link.type == "profile" and link.target_id in self.index.profiles
        ]
        return [p for p in [*entry.profiles, *linked] if not p.hidden]

    def rules_of(self, entry: Entry) -> list[tuple[str, str]]:
        linked = [
            self.index.rules[link.target_id]
            for link in entry.info_links
            if link.type == "rule" and link.target_id in self.index.rules
        ]
        for link in entry.info_links:
            if link.type not in ("rule", "profile"):
                self.warn(entry.path, f"info link {link.name!r} of type {link.type!r} is not imported")
        missing = [
            link.name
            for link in entry.info_links
            if link.target_id not in self.index.rules
            and link.target_id not in self.index.profiles
            and link.type in ("rule", "profile")
        ]
        for name in missing:
            self.warn(entry.path, f"info link {name!r} points at nothing in the uploaded files")
        return [(r.name, r.description) for r in [*entry.rules, *linked] if not r.hidden]

    # ------------------------------------------------------------------ units

    def categories(self, entry: Entry) -> tuple[list[str], str]:
        names, role = [], "other"
        primary = [c for c, p in entry.categories if p] or [c for c, _p in entry.categories]
        for category_id, _primary in entry.categories:
            name = self.index.categories.get(category_id)
            if name and name not in names:
                names.append(name)
        if primary:
            lowered = self.index.categories.get(primary[0], "").lower()
            role = next((r for words, r in ROLE_WORDS if any(w in lowered for w in words)), "other")
        return names, role

    def slot(self, entry: Entry) -> str | None:
        """The system's army slot (`x-unit-fields.slot`, e.g. WHFB Core/Special/Rare/Hero/Lord)
        named by the entry's primary category ("Heroes" is `hero`), or None."""
        if not self.mapping.slot_field:
            return None
        values = [str(v) for v in (self.unit_fields.get(self.mapping.slot_field) or {}).get("enum") or []]
        primary = [c for c, p in entry.categories if p] or [c for c, _p in entry.categories]
        if not values or not primary:
            return None
        name = _norm(self.index.categories.get(primary[0], ""))
        found = next((v for v in values if name and (name.startswith(_norm(v)) or _norm(v) == name)), None)
        if found is None:
            self.warn(entry.path, f"category {name!r} is none of the army slots {values}; no slot set")
        return found

    def model_entries(self, entry: Entry) -> list[Entry]:
        found = []
        for child in (self.index.resolve(c) for c in entry.children):
            if child.kind == GROUP:
                found += self.model_entries(child)
            elif child.type == "model":
                found.append(child)
        return found

    _where = ""

    def unit_or_warning(self, entry: Entry, used_slugs: set[str]) -> dict[str, Any] | None:
        """`unit(entry)`, or None with a warning naming the entry when it cannot be read: one
        unit BattleScribe data describes in a way this importer cannot follow (a broken link,
        a cycle, a number that is not one) is left out, and the rest of the catalogue imports."""
        try:
            return self.unit(entry, used_slugs)
        except BattleScribeError as exc:
            self.warn(entry.path, "left out: " + "; ".join(exc.errors))
        except (RecursionError, ValueError, ArithmeticError, KeyError, TypeError) as exc:
            self.warn(entry.path, f"left out: it cannot be read ({type(exc).__name__}: {exc})")
        return None

    def unit(self, entry: Entry, used_slugs: set[str]) -> dict[str, Any] | None:
        where = self._where = entry.path
        if never_shown(entry):
            self.warn(where, "hidden in BattleScribe and no modifier shows it; not offered")
            return None
        if entry.type not in ROOT_TYPES:
            self.warn(where, f"a root entry of type {entry.type!r} is not a unit; not imported")
            return None
        try:
            root = self.pricer.tree(entry)
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
        self._unit_entry, self._growth, self._sized, self._model_max = entry, growth, {}, {}
        self._unprofiled: list[str] = []
        self._table = None
        for node in holders:
            model = self.model(node, root, unit_profiles, abilities, notes, options, growth)
            if model is None:
                return None
            models.append(model)
        for entry_model in self.model_entries(entry):
            if entry.type == "unit" and entry_model.id not in {n.entry.id for n in model_nodes}:
                self.warn(
                    entry_model.path,
                    "a model that is not taken at the minimum size; not imported as a profile",
                )
        self._names = {id(n): m["name"] for m, n in zip(models, holders, strict=True)}
        if model_nodes:  # the unit's own profiles, rules and non-model selections
            self.collect_text(entry, abilities, notes)
            for rule_name, text in self.rules_of(entry):
                self.add_rule(models, None, rule_name, text, abilities)
            fixed = self.pricer.total(root, self.points_id) - sum(
                (self.pricer.total(root, self.points_id, below=n) for n in model_nodes), Fraction(0)
            )
            for child in root.children:
                if child.entry.type != "model":
                    self.mandatory(child, models[0], abilities, notes, where)
            self.options_for(entry, root, root, None, options, notes)
        else:
            fixed = Fraction(0)
        sizes: dict[str, tuple[int, str]] = {}
        if self.mapping.sized_by_name:
            sizes, resized_fixed = self.size_by_name(entry, root, models, holders, options)
            if resized_fixed is not None:
                fixed = resized_fixed
        unit: dict[str, Any] = {
            "slug": self.unique(f"bs-{slug(entry.target_id or entry.id, 60)}", used_slugs),
            "name": entry.name[:120] or "Unit",
            "role": role,
            "models": models,
            "keywords": keywords,
            "battlescribe_id": entry.target_id or entry.id,
        }
        slot = self.slot(entry)
        if slot is not None:
            unit[self.mapping.slot_field] = slot
        # What a roster export needs for BattleScribe to recognise the unit (`roster_writer`).
        if self.index.system is not None:
            unit["battlescribe_system_id"] = self.index.system.id
            if self.index.system.force_entries:  # a roster's force must name one of these
                force_id, force_name = self.index.system.force_entries[0]
                unit["battlescribe_force"] = {"id": force_id, "name": force_name}
        unit["battlescribe_cost_types"] = {
            k: v
            for k, v in (("points", self.points_id), *((c.key or c.field, t) for c, t in self.unit_costs))
            if v is not None
        }
        category_ids = {
            self.index.categories[c]: c for c, _p in entry.categories if c in self.index.categories
        }
        if category_ids:
            unit["battlescribe_categories"] = category_ids
        if model_nodes:
            unit["battlescribe_models"] = {
                m["name"]: n.entry.target_id or n.entry.id for m, n in zip(models, model_nodes, strict=True)
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
        expected = self.pricer.total(root, self.points_id) if self.catalogue_points else None
        return self.checked(unit, expected, where)

    def size_by_name(
        self,
        entry: Entry,
        root: Node,
        models: list[dict[str, Any]],
        holders: list[Node],
        options: list[dict[str, Any]],
    ) -> tuple[dict[str, tuple[int, str]], Fraction | None]:
        """Unit sizes of data whose models are counted in the name of a selection (AoS 1st:
        "Bestigors" takes 1 to 3 of "10 Bestigors", an upgrade; "Gutter Runners" 1 to 4 of
        "5 Gutter Runners", a model entry). The rule (`mapping.sized_by_name`): the first
        selection of the unit, a model or an upgrade taken at least once at the smallest size,
        whose name starts with a number N stands for N models per selection. Its model (the
        entry itself, or the unit's only model when it is an upgrade) then has N x the
        selections taken at the minimum as its count, and an add-models option adding N models
        per take, up to the entry's maximum.

        Prices follow BattleScribe's, wherever the data puts them (on the unit, raised by a
        modifier per selection, or on the numbered entry): one more selection costs `step`
        (BattleScribe's price one selection up, less the smallest unit's), so a model costs
        step / N and the rest of the smallest unit's price is the unit's fixed part. A step that
        is no whole number of points per model (3 models for 160) keeps the models at 0 and
        prices the option itself (`cost`: the step per take). A unit whose larger sizes do not
        cost a step each (AoS 1st: the largest is cheaper, Bestigors 30 are 360, not 3 x 140,
        whether a modifier takes points off the unit or off each numbered selection when the
        count reaches its maximum) keeps its models at 0 and its option carries BattleScribe's
        price of every size (`payload.costs`, `rules.options` "Prices by count"); only one whose
        sizes cannot be priced so (a fraction of a point, more than `MAX_SIZE_PRICES` sizes) is
        exact up to its first irregular size, with a warning. Returns {model name: (N, the size
        entry's id)} of the models resized, and the unit's fixed points (None: unchanged)."""
        where = entry.path
        found: tuple[Node, int, str] | None = None
        for node in root.children:
            named = re.match(r"\s*(\d+)\s*x?\s+(\S.*)$", node.entry.name)
            sizing = node.entry.type in ("model", "upgrade") and node.count >= 1
            if named and sizing and int(named.group(1)) >= 1:
                found = (node, int(named.group(1)), named.group(2).strip())
                break
        if found is None:
            return {}, None
        node, per, rest = found
        if node in holders:
            index = holders.index(node)
        elif len(models) == 1 and holders == [root]:
            index = 0
        else:
            return {}, None
        model = models[index]
        old_name = model["name"]
        selections = node.count
        model["count"] = per * selections
        name = rest[:120] if node in holders else old_name
        base = self.pricer.total(root, self.points_id)
        high = self.pricer.limit(node.entry, "max", root, root)
        grows = high is not None and high > selections
        step = base / selections
        # What each size costs over the smallest (BattleScribe's price at that many selections)
        steps: list[Fraction] = []
        if grows:
            top = min(high, selections + MAX_SIZE_PRICES)
            steps = [self._price_with(entry, node, n) - base for n in range(selections + 1, top + 1)]
            step = steps[0]
        by_count = any(s != step * k for k, s in enumerate(steps, 1))
        unpriceable = high is not None and high > selections + MAX_SIZE_PRICES
        if by_count and (unpriceable or any(s.denominator != 1 for s in steps) or not self.catalogue_points):
            k, off = next((k, s) for k, s in enumerate(steps, 1) if s != step * k)
            self.warn(
                where,
                f"{per * (selections + k)} {name} cost {base + off} in BattleScribe, not {base + k * step}; "
                f"only the sizes up to {per * (selections + k - 1)} are exact",
            )
            by_count = False
        others = sum((m.get("points", 0) or 0) * m["count"] for m in models if m is not model)
        each = step / per
        option_cost: int | None = None
        fixed: Fraction | None = None
        if self.catalogue_points:
            if by_count:  # a size priced apart (cheaper at the largest): the option carries it
                model["points"] = 0
                fixed = base - Fraction(str(others))
                option_cost = int(step)
            elif each.denominator == 1 or Fraction(str(float(each))) == each:
                model["points"] = self.per_model(each, where)
                fixed = base - each * model["count"] - Fraction(str(others))
            else:
                model["points"] = 0
                fixed = base - Fraction(str(others))
                if step.denominator == 1:
                    option_cost = int(step)
        options[:] = [
            o for o in options if not (o.get("kind") == "add_models" and o.get("applies_to") == old_name)
        ]
        for option in options:
            if option.get("applies_to") == old_name:
                option["applies_to"] = name
        model["name"] = name
        if model.get(self.mapping.item_field or "items"):  # the size selection is no equipment
            kept = [i for i in model[self.mapping.item_field] if i.get("name") != node.entry.name[:120]]
            if kept:
                model[self.mapping.item_field] = kept
            else:
                del model[self.mapping.item_field]
        self._growth[:] = [g for g in self._growth if g[0] is not node]
        if grows:
            grow: dict[str, Any] = {
                "key": f"more-{slug(name, 70)}",
                "label": f"Add {per} {name} (up to {per * high})",
                "kind": "add_models",
                "applies_to": name,
                "payload": {"count": per},
                "max": min(high - selections, MAX_OPTION_COUNT),
            }
            if option_cost is not None:
                grow["cost"] = option_cost
            if by_count:
                grow["payload"]["costs"] = [int(s) for s in steps]
            options.append(grow)
        self.warn(
            where,
            f"{node.entry.name!r} counts {per} models per selection: {model['count']} models at the "
            f"smallest size" + (f", up to {per * high}" if high else ""),
        )
        return {name: (per, node.entry.target_id or node.entry.id)}, fixed

    def _price_with(self, entry: Entry, node: Node, selections: int) -> Fraction:
        """BattleScribe's price of the unit with `selections` of the size entry `node`."""
        return self.pricer.total(self.pricer.tree(entry, {node.entry.id: selections}), self.points_id)

    def read_abilities(
        self, models: list[dict[str, Any]], abilities: list[dict[str, str]], where: str
    ) -> None:
        """What the unit's ability texts say about its models in the wordings the system's
        mapping reads (`ability_reader`: 40k "a 4+ invulnerable save", "Feel No Pain"...), put
        into the models' fields and structured abilities so estimates use them; the text stays."""
        reader = self.mapping.ability_reader
        if reader is None:
            return
        for ability in abilities:
            fields, found = reader(ability["name"], ability.get("text", ""))
            fields = {k: v for k, v in fields.items() if k in self.properties}
            if "abilities" not in self.properties:
                found = []
            validator = self.ability_validator
            if validator is not None and any(not validator.is_valid(a) for a in found):
                self.warn(
                    where, f"ability {ability['name']!r}: a reading the system does not take; kept as text"
                )
                found = [a for a in found if validator.is_valid(a)]
            if not fields and not found:
                continue
            # Marked for the estimate's report: its text was read into structured fields, so
            # it is not among the abilities "not used by this estimate".
            ability["read"] = True
            for model in models:
                for key, value in fields.items():
                    if key == "rules" and isinstance(value, list):
                        model["rules"] = list(dict.fromkeys([*(model.get("rules") or []), *value]))
                    elif model.get(key) is None:
                        model[key] = value
                if found:
                    held = model.get("abilities") or []
                    model["abilities"] = held + [
                        a
                        for a in (self.on_weapon(a, ability.get("text", ""), model) for a in found)
                        if a not in held
                    ]
            self.warn(
                where, f"ability {ability['name']!r} read for the estimates: {fields or ''}{found or ''}"
            )

    def on_weapon(self, ability: dict[str, Any], text: str, model: Mapping[str, Any]) -> dict[str, Any]:
        """A hit or wound ability whose text names one of the model's weapons ("add 1 to hit
        rolls for this unit's Blades") applies to that weapon only (`weapon`), where the
        system's abilities take a weapon (AoS's do; 40k's modifiers do not: unit-wide there)."""
        if ability.get("weapon") or ability.get("roll") not in ("hit", "wound"):
            return ability
        lowered = text.lower()
        weapons = [str(w.get("name", "")) for w in model.get("weapons") or ()]
        named = [name for name in weapons if name and name.lower() in lowered]
        if len(named) == 1:
            limited = {**ability, "weapon": named[0]}
            if self.ability_validator is None or self.ability_validator.is_valid(limited):
                return limited
        return ability

    @property
    def ability_validator(self) -> Draft202012Validator | None:
        """The system's schema of one structured ability of a model (None: it has none)."""
        if not hasattr(self, "_ability_validator"):
            items = (self.properties.get("abilities") or {}).get("items")
            self._ability_validator = Draft202012Validator(items) if isinstance(items, Mapping) else None
        return self._ability_validator

    def fix_replacements(
        self, models: list[dict[str, Any]], options: list[dict[str, Any]], where: str
    ) -> None:
        """A "replace the default" option whose weapon the named model does not carry at the
        smallest selection (the default sits on another model of the unit, or deeper than the
        unit's minimum reaches): pointed at the model that carries it, else offered as an added
        weapon, with a warning; so one such option does not cost the unit."""
        for option in options:
            if option.get("kind") != "replace_weapon":
                continue
            old = option["payload"].get("replace")
            named = [m for m in models if not option.get("applies_to") or m["name"] == option["applies_to"]]
            if any(any(w.get("name") == old for w in m.get("weapons") or []) for m in named):
                continue
            carrier = next(
                (m for m in models if any(w.get("name") == old for w in m.get("weapons") or [])), None
            )
            if carrier is not None:
                option["applies_to"] = carrier["name"]
                continue
            new = option["payload"].get("with")
            weapons = [new] if isinstance(new, Mapping) else list(new or [])
            self.warn(
                where,
                f"{option.get('label')}: replaces {old!r}, which no model carries at the smallest "
                "selection; offered as an added weapon",
            )
            payload = {k: v for k, v in option["payload"].items() if k not in ("replace", "with")}
            if len(weapons) == 1:
                option.update(kind="add_weapon", payload={**payload, "weapon": weapons[0]})
            else:
                option.update(
                    kind="add_item",
                    payload={**payload, "item": {"name": str(option.get("label"))[:120], "kind": "mundane"}},
                )

    def unmapped_modifiers(self, root: Node) -> list[str]:
        """Warn about modifiers that change what the unit format cannot hold (names, visibility...)."""
        kept: list[str] = []
        for node in root.walk():
            entries = [node.entry, *(self.index.resolve(c) for c in node.entry.children)]
            for entry in entries:
                constraint_ids = {c.id for c in entry.constraints}
                for m in entry.modifiers:
                    if m.field not in self.index.cost_types and m.field not in constraint_ids:
                        kept.append(f"{entry.name}: modifier {m.type} {m.field} {m.value!r}")
                        self.warn(
                            m.path,
                            f"a {m.type!r} modifier of {m.field!r} ({m.value!r}) is not applied; "
                            "kept as text",
                        )
        return kept

    def checked(self, unit: dict[str, Any], expected: Fraction | None, where: str) -> dict[str, Any] | None:
        data = {k: v for k, v in unit.items() if k not in ("slug", "role", "options")}
        data.update({"format": 1, "system": self.system_key})
        try:
            breakdown = self.price(data)
        except Exception as exc:  # the system's own validation: report, never half-import
            problems = getattr(exc, "errors", None) or [exc]
            text = "; ".join(f"{getattr(p, 'path', '')}: {getattr(p, 'message', p)}" for p in problems)
            self.warn(where, f"does not fit the system's unit format ({text}); not imported")
            return None
        if expected is not None and Fraction(breakdown["exact"]) != expected:
            self.warn(
                where, f"priced {breakdown['exact']} here but {expected} by BattleScribe at minimum size"
            )
        return unit

    def unique(self, base: str, used: set[str]) -> str:
        candidate, n = base, 2
        while candidate in used:
            candidate, n = f"{base[:74]}-{n}", n + 1
        used.add(candidate)
        return candidate

    def integer(self, value: Fraction, where: str) -> int:
        if value.denominator != 1:
            self.warn(
                where, f"cost {float(value)} rounded to {round(value)} (options and fixed costs are whole)"
            )
        return round(value)

    def per_model(self, value: Fraction, where: str) -> int | float:
        if value.denominator == 1:
            return int(value)
        as_float = float(value)
        if Fraction(str(as_float)) != value:
            self.warn(where, f"per-model cost {value} is not a terminating decimal; stored as {as_float}")
        return as_float

    def collect_text(self, entry: Entry, abilities: list, notes: list) -> None:
        for profile in self.profiles_of(entry):
            if profile.type_id in self.model_types or profile.type_id in self.weapon_types:
                continue
            text = "; ".join(f"{n}: {v}" if n else v for n, _t, v in profile.characteristics if v)
            if profile.type_id in self.table_types:  # a damage or crew table's row: no ability
                notes.append(f"{self.index.profile_types[profile.type_id][0]} {profile.name}: {text}")
                continue
            abilities.append({"name": profile.name, "text": text})
        for c in entry.constraints:
            if c.scope not in ("parent",) and c.field == "selections":
                notes.append(f"{entry.name}: {c.type} {c.value} per {c.scope}")
                self.warn(entry.path, f"limit {c.type} {c.value} per {c.scope} is kept as text")

    def add_rule(self, models, model, name: str, text: str, abilities: list) -> None:
        if self.known_rule(name):
            for target in [model] if model is not None else models:
                if name not in target.setdefault("rules", []):
                    target["rules"].append(name)
        elif not any(a["name"] == name for a in abilities):
            abilities.append({"name": name, "text": text})
            self.warn(self._where, f"rule {name!r} is not a rule of this system; kept as text")

    def model(self, node, root, unit_profiles, abilities, notes, options, growth) -> dict[str, Any] | None:
        entry = node.entry
        where = entry.path
        own = [p for p in self.profiles_of(entry) if p.type_id in self.model_types]
        inherited = [p for p in unit_profiles if p.type_id in self.model_types]
        profiles = own or inherited
        if len(profiles) > 1 and all(re.search(r"\[(\d+)\]", p.name) for p in profiles):
            # 40k wound brackets as profiles, "Rhino [1] (6+ wounds remaining)", "Rhino [2] ...":
            # the unwounded one first
            profiles = sorted(profiles, key=lambda p: int(re.search(r"\[(\d+)\]", p.name).group(1)))
        if not profiles and node is root:
            # A war machine written as a unit whose profiles sit on its required upgrade
            # ("Hobgoblin Bolt Thrower": machine and crew on a min-1 child): take them from there.
            profiles = [
                p
                for child in list(node.walk())[1:]
                for p in self.profiles_of(child.entry)
                if p.type_id in self.model_types
            ]
        if not profiles:
            # Points-only catalogues (many community WHFB lists) and some AoS warscrolls carry
            # no profile at all: the model is imported without characteristics and the unit
            # is marked as having none (`profile_in_source: false`), so it is listed, priced
            # and shown with its rules, but never estimated.
            self.warn(where, "no profile of the system's model type; imported without characteristics")
            self._unprofiled.append(entry.name)
        if len(profiles) > 1:
            self.warn(where, f"{len(profiles)} model profiles; the first is used, the others kept as text")
            for extra in profiles[1:]:
                abilities.append(
                    {"name": extra.name, "text": "; ".join(f"{n}: {v}" for n, _t, v in extra.characteristics)}
                )
        values: dict[str, Any] = {}
        if profiles:
            table = self.table_row(entry) or (self.table_row(self._unit_entry) if self._unit_entry else None)
            self._table = table
            values, kept = self._characteristics(
                profiles[0], self.model_fields, self.properties, where, table
            )
            if kept:
                notes.append(f"{profiles[0].name}: " + "; ".join(kept))
            lacking = [k for k in self.required if values.get(k) is None]
            if lacking:
                self.warn(
                    where,
                    f"{profiles[0].name}: no {', '.join(lacking)} in the data; imported without "
                    "a complete profile",
                )
                self._unprofiled.append(entry.name)
        count = node.count if node is not root else 1
        model: dict[str, Any] = {
            "name": (entry.name if node is not root or not profiles else profiles[0].name)[:120] or "Model"
        }
        model["count"] = count
        model.update(values)
        if self.catalogue_points:
            below = (
                self.pricer.total(root, self.points_id, below=node)
                if node is not root
                else (self.pricer.total(root, self.points_id))
            )
            model["points"] = self.per_model(below / count, where)
        model["weapons"] = []
        self.collect_text(entry, abilities, notes)
        for profile in self.profiles_of(entry):
            if profile.type_id in self.weapon_types:
                weapon, extra = self.weapon(profile, where)
                model["weapons"].append(weapon)
                notes += extra
        for rule_name, text in self.rules_of(entry):
            self.add_rule([], model, rule_name, text, abilities)
        for child in node.children:
            self.mandatory(child, model, abilities, notes, where)
        if node is not root:
            low = self.pricer.limit(entry, "min", root, root) or node.count
            high = self.pricer.limit(entry, "max", root, root)
            if "min_count" in self.properties:
                model["min_count"] = low
            if high is not None and "max_count" in self.properties and high >= 1:
                model["max_count"] = max(high, low)
            if high is None:
                high = node.count + UNBOUNDED_GROWTH
                self.warn(where, f"the model has no maximum; the unit is offered up to {high} of them")
            if high > node.count:
                growth.append((node, high))
                options.append(
                    {
                        "key": f"more-{slug(model['name'], 70)}",
                        "label": f"Add {model['name']} (up to {high})",
                        "kind": "add_models",
                        "applies_to": model["name"],
                        "payload": {"count": 1},
                        "max": min(high - node.count, MAX_OPTION_COUNT),
                    }
                )
            self._model_max[id(node)] = max(high, node.count)
        self.options_for(entry, node, root, model["name"], options, notes)
        return model

    def mandatory(self, node: Node, model: dict[str, Any], abilities, notes, where: str) -> None:
        """A default or required selection: its weapons and items go onto the model."""
        entry = node.entry
        weapons, extra = self.entry_weapons(entry, where)
        model.setdefault("weapons", []).extend(weapons)
        notes += extra
        items = self.mapping.item_field
        if not weapons and items and items in self.properties and entry.type != "model":
            model.setdefault(items, []).append({"name": entry.name[:120], "kind": "mundane"})
        self.collect_text(entry, abilities, notes)
        for rule_name, text in self.rules_of(entry):
            self.add_rule([], model, rule_name, text, abilities)
        for child in node.children:
            self.mandatory(child, model, abilities, notes, where)

    # ---------------------------------------------------------------- options

    def option(
        self,
        entry: Entry,
        parent: Node,
        root: Node,
        applies_to,
        group: str,
        cost: Fraction,
        high: int,
        replaces: str | None,
    ) -> dict[str, Any]:
        """`entry` as an option taken at most `high` times; on a model entry `high` is per
        model (`payload.max_per_model`), so the limit follows the unit's size."""
        option: dict[str, Any] = {
            "key": f"opt-{slug(entry.target_id or entry.id, 60)}",
            "label": entry.name[:200] or "Option",
            "group": group[:120],
            "applies_to": applies_to or "",
            "max": max(1, min(high, MAX_OPTION_COUNT)),
        }
        if self.catalogue_points:
            option["cost"] = self.integer(cost, entry.path)
        built = self.entry_weapons(entry, entry.path)[0]
        if replaces and built:
            option.update(kind="replace_weapon", payload={"replace": replaces, "with": built})
        elif len(built) == 1:
            option.update(kind="add_weapon", payload={"weapon": built[0]})
        elif self.mapping.item_field and self.mapping.item_field in self.properties:
            option.update(kind="add_item", payload={"item": {"name": entry.name[:120], "kind": "mundane"}})
            if len(built) > 1:
                self.warn(entry.path, f"{len(built)} weapon profiles in one option; taken as an item")
        else:
            return {}
        if applies_to is None:
            option["payload"]["all"] = True
        models = self._model_max.get(id(parent))
        if models is not None:
            option["payload"]["max_per_model"] = high
            option["max"] = max(1, min(high * models, MAX_OPTION_COUNT))
        if (
            applies_to is not None
            and high > 1
            and option["kind"] in ("add_item", "add_weapon", "replace_weapon")
        ):
            # One model taking it several times: runes (up to 3 of one rune on a weapon),
            # a Tyrant's two Sword Gnoblars, a War Walker's two heavy weapons
            # (`rules.options`, "Stacking").
            option["payload"]["stacks"] = True
        return option

    _unit_entry: Entry | None = None
    _growth: list[tuple[Node, int]] = []
    _sized: dict[int, Node] = {}
    _names: dict[int, str] = {}
    #: {id(model node): the most models of it the unit can have}, for per-model maxima.
    _model_max: dict[int, int] = {}

    def per_model_option(
        self,
        option: dict[str, Any],
        entry: Entry,
        default: Entry | None,
        cost: Fraction,
        node: Node,
        root: Node,
    ) -> None:
        """Make `option` a per-model one (`payload.per_model`, see `rules.options`) when
        BattleScribe's price for it grows with the unit's size.

        Community WHFB data writes "+2 pts per model" as an upgrade of the unit costing 0 with
        `increment 2` repeated per `selections` of `model` in `parent`; other data repeats per
        a named model entry. Whatever the construct, the option is priced in the unit at its
        minimum and at larger sizes (`PER_MODEL_PROBES`): if the price is the same number of
        points for each model counted (every model of the unit, or the models of the profile
        that grows), that number is the option's per-model cost, so a list pays it for as many
        models as the unit has. A price that changes with size some other way ("+5 per 5
        models") stays the minimum size's, with a warning.
        """
        if node is not root or "cost" not in option or not self._growth or self._unit_entry is None:
            return
        grown, high = self._growth[0]
        sizes = [grown.count + step for step in PER_MODEL_PROBES if grown.count + step <= high]
        later = {n: self._price_at(n, grown, entry, default) for n in sizes}
        if all(value == cost for value in later.values()):
            return
        models_at_min = sum(child.count for child in root.children if child.entry.type == "model")
        counters = (
            (self._names[id(grown)], 0),
            ("", models_at_min - grown.count),  # every model: the others stay at their minimum
        )
        for applies_to, others in counters:
            each = cost / (grown.count + others)
            if each and each.denominator == 1 and all(v == each * (n + others) for n, v in later.items()):
                option["cost"] = int(each)
                option["applies_to"] = applies_to
                option["payload"]["per_model"] = True
                return
        self.warn(
            entry.path,
            f"its price changes with the unit's size ({cost} at {grown.count}, "
            + ", ".join(f"{v} at {n}" for n, v in later.items())
            + ") but not per model; priced at the minimum size only",
        )

    def _price_at(self, n: int, grown: Node, entry: Entry, default: Entry | None) -> Fraction:
        """The price of taking `entry` (instead of `default`) in the unit with `n` of `grown`."""
        tree = self._sized.get(n)
        if tree is None:
            assert self._unit_entry is not None
            tree = self._sized[n] = self.pricer.tree(self._unit_entry, {grown.entry.id: n})
        price = self.pricer.extra_cost(entry, tree, tree, self.points_id)
        if default is not None:
            price -= self.pricer.extra_cost(default, tree, tree, self.points_id)
        return price

    @staticmethod
    def _static(m) -> bool:
        """A modifier whose conditions only ask what the unit *is* (`instanceOf` a category or
        entry), never what it holds: the same for every list, so it can be applied at import."""

        def group_static(g) -> bool:
            return all(c.type in _STATIC_CONDITIONS for c in g.conditions) and all(
                group_static(sub) for sub in g.groups
            )

        return (
            bool(m.conditions or m.groups)
            and not m.repeats
            and all(c.type in _STATIC_CONDITIONS for c in m.conditions)
            and all(group_static(g) for g in m.groups)
        )

    def offered(self, entry: Entry, node: Node | None = None, root: Node | None = None) -> bool:
        """Whether BattleScribe can show `entry` in this unit. `hidden` and the `set hidden`
        modifiers that only ask what the unit is (community data hides "Arcane Items" from
        non-wizards with `notInstanceOf Wizard`) are applied; an entry that other modifiers may
        show or hide is offered always, with a warning (their conditions depend on the list)."""
        hidden = entry.hidden
        dynamic = []
        for m in entry.modifiers:
            if m.field != "hidden" or m.type != "set":
                continue
            if node is not None and root is not None and self._static(m):
                if self.pricer.evaluator.holds(m, None, node, root):
                    hidden = m.value.strip().lower() == "true"
            else:
                dynamic.append(m)
        unhide = [m for m in dynamic if m.value.strip().lower() == "false"]
        if hidden and not unhide:
            self.warn(entry.path, "hidden in BattleScribe for this unit; not offered")
            return False
        if hidden:
            self.warn(entry.path, "hidden in BattleScribe unless its conditions hold; offered always")
        elif any(m.value.strip().lower() == "true" for m in dynamic):
            self.warn(entry.path, "hidden in BattleScribe when its conditions hold; offered always")
        return True

    def cost_limits(self, entry: Entry, notes: list) -> None:
        """Limits on a cost (e.g. "at most 50 pts of magic items") have no place in the unit
        format: kept as text and reported."""
        for c in entry.constraints:
            if c.field in self.index.cost_types:
                name = self.index.cost_types[c.field]
                notes.append(f"{entry.name}: {c.type} {c.value} {name.strip()} per {c.scope}")
                self.warn(
                    entry.path, f"limit {c.type} {c.value} {name.strip()} per {c.scope} is kept as text"
                )

    def options_for(
        self, entry: Entry, node: Node, root: Node, applies_to, options: list, notes: list, group: str = ""
    ) -> None:
        """Upgrade options of `entry` (a model, the unit, or an optional container such as
        "Magic Items"): optional entries, group alternatives, and what optional entries hold."""
        taken = {child.entry.id for child in node.children}
        for written in entry.children:
            child = self.index.resolve(written)
            if child.type == "model":
                continue
            if child.kind == GROUP:
                self.group_options(child, node, root, applies_to, options, notes)
                continue
            if (self.pricer.limit(child, "min", node, root) or 0) > 0 or child.id in taken:
                continue
            if not self.offered(child, node, root):
                continue
            self.cost_limits(child, notes)
            high = self.pricer.limit(child, "max", node, root)
            if high is None:
                high = 1
                self.warn(child.path, "optional entry without a maximum; offered once per model")
            cost = self.pricer.extra_cost(child, node, root, self.points_id)
            container = bool(child.children) and not self.entry_weapons(child, child.path)[0]
            if not (container and cost == 0):  # a free container ("Magic Items") is only its contents
                option = self.option(child, node, root, applies_to, group, cost, high, None)
                if option:
                    if group:  # the selections of one entry: each has its own limit, none in all
                        option["payload"]["group_max"] = None
                    self.per_model_option(option, child, None, cost, node, root)
                    options.append(option)
                else:
                    notes.append(f"option not mapped: {child.name}")
                    self.warn(
                        child.path, "an option with no weapon cannot be offered in this system; kept as text"
                    )
            if child.children:
                self.nested_options(child, node, root, applies_to, options, notes)

    def nested_options(
        self, entry: Entry, node: Node, root: Node, applies_to, options: list, notes: list
    ) -> None:
        """The selections inside an optional entry, offered as options of the unit (grouped under
        the entry's name) and priced as if the entry were taken; that they need the entry is
        kept as text."""
        holder = self.pricer._build(entry, 1, node, root, {}, [0])
        state = self.pricer.attach(node, holder)
        try:
            before = len(options)
            self.options_for(entry, holder, root, applies_to, options, notes, group=entry.name)
            if len(options) > before:
                notes.append(f"options under {entry.name!r} need {entry.name!r} taken")
                self.warn(
                    entry.path,
                    "its selections are offered as options of the unit; that they "
                    "need this entry is kept as text",
                )
        finally:
            self.pricer.detach(node, holder, state)

    def group_options(
        self,
        group: Entry,
        node: Node,
        root: Node,
        applies_to,
        options: list,
        notes: list,
        depth: int = 0,
    ) -> None:
        """The members of a selection-entry group as options sharing its name. The group's own
        maximum becomes the option group's cap (`payload.group_max`, see `rules.options`);
        a group without one caps nothing, so BattleScribe's "Command" (champion, standard,
        musician) or "Equipment" (shields and light armour) members combine."""
        members = [self.index.resolve(m) for m in group.children]
        if not self.offered(group, node, root):
            return
        self.cost_limits(group, notes)
        group_min = self.pricer.limit(group, "min", node, root) or 0
        group_max = self.group_cap(group, node, root, notes)
        if group_max == 0:
            self.warn(group.path, "at most 0 of it for this unit; not offered")
            return
        default = self.pricer.default_member(group, members) if group_min > 0 else None
        default_cost = self.pricer.extra_cost(default, node, root, self.points_id) if default else Fraction(0)
        replaced = None
        if default is not None:
            weapons = self.entry_weapons(default, default.path)[0]
            replaced = weapons[0]["name"] if weapons else None
        if group_max is not None and any(m.kind == GROUP for m in members):
            self.warn(
                group.path, f"at most {group_max} across its inner groups is not enforced; kept as text"
            )
            notes.append(f"{group.name}: at most {group_max} in all")
        for member in members:
            if member.kind == GROUP:  # "Magic Items" holding "Magic Weapons", "Talismans"...
                if depth < 8:
                    self.group_options(member, node, root, applies_to, options, notes, depth + 1)
                continue
            if member is default or member.type == "model":
                continue
            if not self.offered(member, node, root):
                continue
            high = self.pricer.limit(member, "max", node, root) or group_max or 1
            if group_max is not None:
                high = min(high, group_max)
            cost = self.pricer.extra_cost(member, node, root, self.points_id) - default_cost
            if default is not None and replaced is None:
                self.warn(member.path, "replaces a default that is not a weapon; offered as an extra item")
            option = self.option(member, node, root, applies_to, group.name, cost, high, replaced)
            if option:
                # On a model entry the cap is per model: at most the largest unit's worth here;
                # `_split` in `rules.options` keeps a cap of 1 exact (each model one member).
                option["payload"]["group_max"] = (
                    None if group_max is None else group_max * self._model_max.get(id(node), 1)
                )
                self.per_model_option(option, member, default, cost, node, root)
                options.append(option)
            else:
                self.warn(
                    member.path, "an option with no weapon cannot be offered in this system; kept as text"
                )
            if member.children:
                self.nested_options(member, node, root, applies_to, options, notes)

    def group_cap(self, group: Entry, node: Node, root: Node, notes: list) -> int | None:
        """The group's maximum at the unit's smallest selection, or, where modifiers raise it
        when other selections are made (community WHFB data: "Arcane Items" at most 0, +1 when
        the Plague Priest is a wizard, +1 per Dispel Scroll), the most those modifiers can give,
        with a note that BattleScribe's limit depends on the list."""
        now = self.pricer.limit(group, "max", node, root)
        ceiling = self.pricer.ceiling(group, "max")
        if now is None or ceiling is None or ceiling <= now:
            return now
        notes.append(f"{group.name}: at most {now}, up to {ceiling} with the selections that raise it")
        self.warn(
            group.path,
            f"at most {now} at the smallest selection and up to {ceiling} when other selections "
            "raise it; offered up to the higher limit",
        )
        return ceiling

    def price_sizes(
        self,
        entry: Entry,
        root: Node,
        unit: dict[str, Any],
        node: Node,
        high: int,
        options: list[dict[str, Any]],
    ) -> bool:
        """Price every size of a unit growing by `node`'s model as BattleScribe does, when its
        price is not the model's per-model one: the model costs 0, its points at the smallest
        size join the unit's fixed part, and its add-models option costs each size's price over
        the smallest (`cost`, and `payload.costs` when the steps differ, `rules.options`
        "Prices by count"). False (nothing changed) when the sizes cannot be priced so: more
        than `MAX_SIZE_PRICES` of them, a fraction of a point, or no such option."""
        name = self._names.get(id(node))
        model = next((m for m in unit["models"] if m["name"] == name), None)
        grow = next(
            (o for o in options if o.get("kind") == "add_models" and o.get("applies_to") == name
             and (o.get("payload") or {}).get("count") == 1 and "model" not in (o.get("payload") or {})),
            None,
        )
        if model is None or grow is None or grow.get("cost") is not None:
            return False
        if high - node.count > MAX_SIZE_PRICES:
            return False
        base = self.pricer.total(root, self.points_id)
        top = node.count + int(grow["max"])
        steps = [
            self.pricer.total(self.pricer.tree(entry, {node.entry.id: n}), self.points_id) - base
            for n in range(node.count + 1, top + 1)
        ]
        if any(s.denominator != 1 for s in steps):
            return False
        fixed = Fraction(str(model.get("points", 0) or 0)) * model["count"]
        if fixed.denominator != 1:
            return False
        model["points"] = 0
        upgrades = unit.setdefault("upgrades", [])
        record = next((u for u in upgrades if u["key"] == "unit"), None)
        if record is None:
            upgrades.append({"key": "unit", "label": "Unit", "count": 1, "cost": int(fixed)})
        else:
            record["cost"] += int(fixed)
        grow["cost"] = int(steps[0])
        if any(s != steps[0] * k for k, s in enumerate(steps, 1)):
            grow["payload"]["costs"] = [int(s) for s in steps]
        return True

    # ------------------------------------------------------------------ power

    def power(
        self,
        entry: Entry,
        root: Node,
        unit: dict[str, Any],
        growth: list[tuple[Node, int]],
        options: list[dict[str, Any]],
    ) -> None:
        """The system's other unit costs (40k Power) at the minimum and the size steps where
        they change; points checked per size: where BattleScribe's price of a larger size is
        not the per-model one (AoS chariots priced on the unit, a modifier adding the price of
        each model), `price_sizes` moves the model's price onto its add-models option."""
        for cost, type_id in self.unit_costs:
            unit[cost.field] = self.integer(self.pricer.total(root, type_id), entry.path)
        if not growth:
            return
        if len(growth) > 1 and self.unit_costs:
            self.warn(entry.path, "several model profiles can grow; cost steps follow the first only")
        node, high = growth[0]
        base_models = sum(m["count"] for m in unit["models"])
        base_points = self.pricer.total(root, self.points_id)
        per_model = self.pricer.total(root, self.points_id, below=node) / node.count
        steps: dict[str, list[dict[str, Any]]] = {c.field: [] for c, _t in self.unit_costs}
        last = {c.field: unit.get(c.field) for c, _t in self.unit_costs}
        for n in range(node.count + 1, min(high, node.count + MAX_SIZE_SWEEP) + 1):
            tree = self.pricer.tree(entry, {node.entry.id: n})
            for cost, type_id in self.unit_costs:
                if not cost.steps_field:
                    continue
                value = self.integer(self.pricer.total(tree, type_id), entry.path)
                if value != last[cost.field]:
                    steps[cost.field].append(
                        {"min_models": base_models + n - node.count, cost.steps_key: value}
                    )
                    last[cost.field] = value
            if self.catalogue_points:
                points = self.pricer.total(tree, self.points_id)
                if points != base_points + per_model * (n - node.count):
                    if self.price_sizes(entry, root, unit, node, high, options):
                        break
                    self.warn(
                        entry.path,
                        f"at {n} {node.entry.name} BattleScribe prices {points}, not the per-model "
                        f"{base_points + per_model * (n - node.count)}; only the minimum size is exact",
                    )
                    break
        for cost, _type_id in self.unit_costs:
            if cost.steps_field and steps[cost.field]:
                unit[cost.steps_field] = steps[cost.field]


def map_documents(
    documents: list[Document],
    *,
    system_key: str,
    profile_schema: Mapping[str, Any],
    price: Callable[[Mapping[str, Any]], Mapping[str, Any]],
    known_rule: Callable[[str], bool],
    mapping: BattleScribeMapping | None = None,
) -> Mapped:
    """Every catalogue (and the game system's own root entries) as a faction in loader format."""
    index = Index(documents)
    mapper = UnitMapper(
        index,
        system_key=system_key,
        profile_schema=profile_schema,
        price=price,
        known_rule=known_rule,
        mapping=mapping or DEFAULT,
    )
    if mapper.model_type is None:
        mapper.warn(
            index.system.file if index.system else "import",
            "no profile type matches the system's model characteristics; units cannot be mapped",
        )
    for type_id, name in index.cost_types.items():
        if type_id != mapper.points_id and type_id not in {t for _c, t in mapper.unit_costs}:
            where = index.system.file if index.system else "import"
            mapper.warn(where, f"cost type {name!r} is not imported")
    result = Mapped()
    # A catalogue another uploaded catalogue links to is that one's library (Space Marines for
    # Ultramarines): its units come in through the catalogues that import its root entries,
    # not as a faction of its own, unless nothing uploaded links to it.
    linked = {target for doc in documents for target in doc.catalogue_links}
    for doc in documents:
        if doc.kind == CATALOGUE and ((doc.library and not doc.entries) or doc.id in linked):
            continue
        used: set[str] = set()
        units = []
        for link in index.root_entries(doc, resolve=False):
            try:
                entry = index.resolve(link)
            except BattleScribeError as exc:
                # A root link to nothing (Adeptus Astra Telepathica's "Astropath" at BSData
                # wh40k-9e v9.1.10): that entry is left out, the catalogue's other units import.
                prefix = f"{link.path}: "
                reasons = [e[len(prefix) :] if e.startswith(prefix) else e for e in exc.errors]
                mapper.warn(link.path, "left out: " + "; ".join(reasons))
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
