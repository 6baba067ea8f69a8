"""Reading the unit format: JSON-like data in, `Unit`/`Army` out, or every error at once.

Two passes over a document. The published JSON Schema checks the shape (fields, types,
ranges); then this module checks what a schema cannot say: that rule names exist (English,
Polish aliases, official OPR names), that `Name(X)` has a valid X, that a rule sits on a model
or on a weapon as it should, that auras and orders grant something the cost table prices,
that a Massive model lists its parts. Nothing here raises anything but `UnitFormatError`:
bad input, of any type or size, is an error list, never a traceback.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from points.catalogue.i18n import _, language_key
from points.opr import tables
from points.opr.army import Army, ArmyEntry
from points.opr.army_structure import GROUP_OPTIONS, OPTION_KEYS
from points.opr.rule_names import (
    AURA_GRANTABLE,
    BY_NAME,
    ORDER_GRANTABLE,
    RULES,
    RuleSpec,
    canonical_name,
    is_ap,
    is_order,
    is_tough,
)
from points.opr.unit import Aura, Model, Part, Rule, Unit, Weapon
from points.shared_format import FORMAT_VERSION, FieldError, UnitFormatError, join
from rules.systems.opr.unit_format.schema import schema_errors, schema_is_valid

#: Deeper than any real unit or list; guards the recursive copy against pathological input.
MAX_DEPTH = 32
SYSTEM = "opr"

#: Rules that cannot be on the same model (one is the other's opposite).
EXCLUSIVE_RULES: tuple[tuple[str, str], ...] = (("Fast", "Slow"), ("Good Shot", "Bad Shot"))

_WRITTEN_RULE = re.compile(r"^\s*(?P<name>[^()]*?)\s*(?:\(\s*(?P<value>[^()]*?)\s*\))?\s*$")

#: Resolves a list entry's `catalogue_unit` reference (and its options) to a unit document.
CatalogueResolver = Callable[[str, list[str]], "Mapping[str, Any] | Unit"]


class _TooDeep(Exception):
    pass


def _plain(data: Any, depth: int = 0) -> Any:
    """A copy with plain dicts and lists (jsonschema wants them), refusing absurd nesting."""
    if depth > MAX_DEPTH:
        raise _TooDeep
    if isinstance(data, Mapping):
        return {k if isinstance(k, str) else str(k): _plain(v, depth + 1) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_plain(v, depth + 1) for v in data]
    return data


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _as_int(value: Any, default: int) -> int:
    """A schema-checked integer (JSON may write 4 as 4.0); `default` when absent or not usable."""
    if _is_int(value):
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e9:
        return int(value)
    return default


def _did_you_mean(written: str) -> str:
    names = [spec.name for spec in RULES]
    close = difflib.get_close_matches(written, names, n=1, cutoff=0.75)
    if not close:
        close = difflib.get_close_matches(written.title(), names, n=1, cutoff=0.75)
    return _(" (did you mean %(name)s?)") % {"name": close[0]} if close else ""


#: Rules longer than this are read without the cache (no real rule is; keeps the cache small).
MAX_CACHED_RULE_LENGTH = 40


#: Weapons read so far, by `_weapon_key` -> (the Weapon, its errors with paths inside it).
_WEAPONS: dict[tuple[Any, ...], tuple[Weapon | None, tuple[tuple[str, str], ...]]] = {}
MAX_CACHED_WEAPONS = 4096
MAX_CACHED_WEAPON_TEXT = 200


def _weapon_key(data: dict[str, Any]) -> tuple[Any, ...] | None:
    """The weapon as a hashable key that tells 1, 1.0 and True apart; None when it holds
    anything but short strings, numbers, booleans and lists of strings (read uncached)."""
    parts: list[tuple[Any, ...]] = []
    for name, value in data.items():
        kind = type(value)
        if kind is list:
            if not all(type(item) is str and len(item) <= MAX_CACHED_RULE_LENGTH for item in value):
                return None
            parts.append((name, "list", tuple(value)))
        elif kind is str and len(value) > MAX_CACHED_WEAPON_TEXT:
            return None
        elif kind in (str, int, float, bool) or value is None:
            parts.append((name, kind.__name__, value))
        else:
            return None
    return tuple(parts)


def clear_caches() -> None:
    """Forget every rule and weapon read (benchmarks measure the first reading)."""
    _read_rule.cache_clear()
    _WEAPONS.clear()
    for level, known in _FAST_RULES.items():
        known.clear()
        known.update(_FIXED_READINGS[level])  # the vocabulary itself is not a cache
    _FAST_WEAPON_RULE_LISTS.clear()


@lru_cache(maxsize=4096)
def _read_rule(
    written: str, level: str, language: str
) -> tuple[tuple[str, Rule | int | Aura] | None, tuple[str, ...]]:
    """`_Reader._read` of one written rule at one level: its reading and its error messages
    (in `language`, the active one: part of the key so no reader gets another's words)."""
    reader = _Reader()
    read = reader._read(written, level, "")
    return read, tuple(error.message for error in reader.errors)


class _Reader:
    """One pass over one document, collecting errors instead of raising."""

    def __init__(self) -> None:
        self.errors: list[FieldError] = []

    def error(self, path: str, message: str) -> None:
        self.errors.append(FieldError(path, message))

    # --- rules --------------------------------------------------------------------------

    def _split(self, written: Any, path: str) -> tuple[str, str | None] | None:
        if not isinstance(written, str):
            return None  # the schema reported the type
        match = _WRITTEN_RULE.match(written)
        if match is None or not match.group("name"):
            return None  # the schema reported the pattern
        return match.group("name"), match.group("value")

    def _int_value(self, raw: str | None, low: int, high: int, label: str, path: str) -> int | None:
        if raw is None or raw == "":
            self.error(path, _("%(rule)s needs a value: %(rule)s(X)") % {"rule": label})
            return None
        if not re.fullmatch(r"[+-]?\d{1,9}", raw):
            self.error(path, _("%(rule)s(X): X must be a whole number, not %(raw)r")
                       % {"rule": label, "raw": raw})
            return None
        value = int(raw)
        if not low <= value <= high:
            self.error(path, _("%(rule)s(X): X must be between %(low)d and %(high)d")
                       % {"rule": label, "low": low, "high": high})
            return None
        return value

    def _rule(self, written: Any, level: str, path: str) -> tuple[str, Rule | int | Aura] | None:
        """One written rule: ("rule", Rule), ("ap", int), ("tough", int) or ("order", Aura).

        A rule reads the same wherever it is written, so short ones are read once per process
        (`_read_rule`) and only their errors get this path: a list repeats "Rending" hundreds
        of times, and normalising the name was a fifth of parsing a unit."""
        if not isinstance(written, str):
            return None  # the schema reported the type
        if len(written) > MAX_CACHED_RULE_LENGTH:
            return self._read(written, level, path)
        read, messages = _read_rule(written, level, language_key())
        for message in messages:
            self.error(path, message)
        return read

    def _read(self, written: str, level: str, path: str) -> tuple[str, Rule | int | Aura] | None:
        split = self._split(written, path)
        if split is None:
            return None
        name, raw = split
        if level == "weapon" and is_ap(name):
            value = self._int_value(raw, *tables.AP_RANGE, "AP", path)
            return None if value is None else ("ap", value)
        if level == "model" and is_tough(name):
            value = self._int_value(raw, 1, 100, "Tough", path)
            return None if value is None else ("tough", value)
        if level == "model" and is_order(name):
            order = self._order_from_rule(raw, path)
            return None if order is None else ("order", order)
        canonical = canonical_name(name)
        if canonical is None:
            self.error(path, _("unknown rule %(name)r") % {"name": name} + _did_you_mean(name))
            return None
        spec = BY_NAME[canonical]
        if spec.level != level:
            message = (_("%(rule)s is a weapon rule; list it in a weapon's rules") if spec.level == "weapon"
                       else _("%(rule)s is a model rule; list it in the model's rules"))
            self.error(path, message % {"rule": canonical})
            return None
        if spec.value_range is None:
            if raw is not None:
                self.error(path, _("%(rule)s takes no value") % {"rule": canonical})
                return None
            return "rule", Rule(canonical)
        value = self._int_value(raw, *spec.value_range, canonical, path)
        return None if value is None else ("rule", Rule(canonical, value))

    def _rules(self, items: Any, level: str, path: str) -> tuple[list[Rule], dict[str, Any]]:
        rules: list[Rule] = []
        specials: dict[str, Any] = {"orders": []}
        if not isinstance(items, list):
            return rules, specials
        seen: dict[str, int] = {}
        for i, written in enumerate(items):
            item_path = join(path, i)
            read = self._rule(written, level, item_path)
            if read is None:
                continue
            kind, value = read
            if kind == "rule":
                assert isinstance(value, Rule)
                if value.name in seen:
                    self.error(
                        item_path, _("%(rule)s is listed twice (first at %(path)s)")
                        % {"rule": value.name, "path": join(path, seen[value.name])}
                    )
                    continue
                for first, second in EXCLUSIVE_RULES:
                    other = second if value.name == first else first if value.name == second else None
                    if other is not None and other in seen:
                        self.error(item_path, _("%(rule)s contradicts %(other)s")
                                   % {"rule": value.name, "other": other})
                seen[value.name] = i
                rules.append(value)
            elif kind == "order":
                specials["orders"].append(value)
            elif kind in specials:
                self.error(item_path, _("%(name)r is given twice") % {"name": written})
            else:
                specials[kind] = (value, item_path)
        return rules, specials

    # --- auras and orders ---------------------------------------------------------------

    def _grantable(self, written: Any, grantable: tuple[str, ...], kind: str, path: str) -> str | None:
        if not isinstance(written, str) or not written.strip():
            return None
        canonical = canonical_name(written)
        if canonical is None:
            self.error(path, _("unknown ability %(name)r") % {"name": written} + _did_you_mean(written))
            return None
        if canonical not in grantable:
            self.error(
                path,
                (_("%(rule)s cannot be granted by an aura (the cost table has no aura price for it); "
                   "possible: %(names)s") if kind == "aura" else
                 _("%(rule)s cannot be granted by an order (the cost table has no order price for it); "
                   "possible: %(names)s")) % {"rule": canonical, "names": ", ".join(grantable)},
            )
            return None
        return canonical

    def _order_from_rule(self, raw: str | None, path: str) -> Aura | None:
        if not raw:
            self.error(path, _("Order needs the ability it gives: Order(Fast)"))
            return None
        grants = self._grantable(raw, ORDER_GRANTABLE, "order", path)
        return None if grants is None else Aura(grants, "friends", "grant", tables.ORDER_RANGE)

    def _auras(self, items: Any, kind: str, path: str) -> list[Aura]:
        out: list[Aura] = []
        if not isinstance(items, list):
            return out
        grantable = AURA_GRANTABLE if kind == "aura" else ORDER_GRANTABLE
        default_range = tables.AURA_RANGES[0] if kind == "aura" else tables.ORDER_RANGE
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            grants = self._grantable(item.get("grants"), grantable, kind, join(join(path, i), "grants"))
            to, effect, rng = (
                item.get("to", "friends"),
                item.get("effect", "grant"),
                item.get("range", default_range),
            )
            if grants is None or to not in ("friends", "enemies") or effect not in ("grant", "negate"):
                continue
            out.append(Aura(grants, to, effect, _as_int(rng, default_range)))
        return out

    # --- weapons, models, units ---------------------------------------------------------

    def weapon(self, data: Any, path: str) -> Weapon | None:
        """One weapon; a weapon written exactly as one read before is not read again (a
        catalogue repeats its rifles on every unit), only its errors get this path."""
        if not isinstance(data, dict):
            return None
        key = _weapon_key(data)
        if key is None:
            return self._weapon(data, path)
        key = (language_key(), *key)  # the cached errors are in the active language
        known = _WEAPONS.get(key)
        if known is None:
            fresh = _Reader()
            known = (fresh._weapon(data, ""), tuple((e.path, e.message) for e in fresh.errors))
            if len(_WEAPONS) >= MAX_CACHED_WEAPONS:
                _WEAPONS.clear()
            _WEAPONS[key] = known
        for sub_path, message in known[1]:
            self.error(join(path, sub_path) if sub_path else path, message)
        return known[0]

    def _weapon(self, data: dict[str, Any], path: str) -> Weapon | None:
        rules, specials = self._rules(data.get("rules", []), "weapon", join(path, "rules"))
        ap = _as_int(data.get("ap"), 0)
        if "ap" in specials:
            written_ap, ap_path = specials["ap"]
            if "ap" in data and _as_int(data.get("ap"), written_ap) != written_ap:
                self.error(ap_path, _("AP(%(written)s) contradicts ap %(ap)s")
                           % {"written": written_ap, "ap": data["ap"]})
            ap = written_ap
        weapon_range = _as_int(data.get("range"), 0)
        if weapon_range == 0 and any(r.name == tables.ASSAULT_RULE for r in rules):
            self.error(
                join(path, "rules"),
                "Assault is for ranged weapons (range above 0); a melee weapon is already priced as melee",
            )
        name = data.get("name")
        return Weapon(
            name=name if isinstance(name, str) else "",
            range=weapon_range,
            attacks=_as_int(data.get("attacks"), 0),
            ap=ap,
            rules=tuple(rules),
        )

    def model(self, data: Any, path: str) -> Model | None:
        if not isinstance(data, dict):
            return None
        rules, specials = self._rules(data.get("rules", []), "model", join(path, "rules"))
        toughness = _as_int(data.get("toughness"), 1)
        if "tough" in specials:
            tough, tough_path = specials["tough"]
            if "toughness" in data and _as_int(data.get("toughness"), tough) != tough:
                self.error(tough_path, _("Tough(%(written)s) contradicts toughness %(toughness)s")
                           % {"written": tough, "toughness": data["toughness"]})
            toughness = tough
        weapons_data = data.get("weapons", [])
        weapons = [
            self.weapon(w, join(join(path, "weapons"), i))
            for i, w in enumerate(weapons_data if isinstance(weapons_data, list) else [])
        ]
        auras = self._auras(data.get("auras", []), "aura", join(path, "auras"))
        orders = specials["orders"] + self._auras(data.get("orders", []), "order", join(path, "orders"))
        parts = self._parts(data.get("parts"), any(r.name == "Massive" for r in rules), path)
        name = data.get("name")
        return Model(
            name=name if isinstance(name, str) else "",
            count=_as_int(data.get("count"), 1),
            quality=_as_int(data.get("quality"), 4),
            defence=_as_int(data.get("defence"), 4),
            toughness=toughness,
            rules=tuple(rules),
            weapons=tuple(w for w in weapons if w is not None),
            auras=tuple(auras),
            orders=tuple(orders),
            parts=parts,
        )

    def _parts(self, data: Any, massive: bool, path: str) -> tuple[Part, ...]:
        if data is None:
            if massive:
                self.error(join(path, "parts"), _("a Massive model needs its parts (each with a toughness)"))
            return ()
        if not massive:
            self.error(join(path, "parts"), _("only a Massive model has parts; add the Massive rule"))
        if not isinstance(data, list):
            return ()
        return tuple(
            Part(p.get("name", "") if isinstance(p.get("name"), str) else "", _as_int(p.get("toughness"), 1))
            for p in data
            if isinstance(p, dict)
        )

    def unit(self, data: Any, path: str) -> Unit | None:
        if not isinstance(data, dict):
            return None
        models_data = data.get("models", [])
        models = [
            self.model(m, join(join(path, "models"), i))
            for i, m in enumerate(models_data if isinstance(models_data, list) else [])
        ]
        name = data.get("name")
        extra = data.get("extra")
        return Unit(
            name=name if isinstance(name, str) else "",
            models=tuple(m for m in models if m is not None),
            system=SYSTEM,
            format=FORMAT_VERSION,
            extra=dict(extra) if isinstance(extra, dict) else {},
        )

    def options(self, data: Any, path: str) -> dict[str, bool]:
        if not isinstance(data, dict):
            return {}
        known = (*GROUP_OPTIONS, *OPTION_KEYS)
        out: dict[str, bool] = {}
        for key, value in data.items():
            if key not in known:
                self.error(
                    join(path, key),
                    _("unknown option; known: %(names)s (the points limit is always checked)")
                    % {"names": ", ".join(known)},
                )
            elif isinstance(value, bool):
                out[key] = value
        return out


def _document(data: Any, which: str, prefix: str = "") -> tuple[Any, list[FieldError]]:
    """The document as plain data, with the schema's errors; or a single error if unusable."""
    if not isinstance(data, Mapping):
        message = _("must be an object (a JSON {...}), not %(kind)s") % {"kind": type(data).__name__}
        return None, [FieldError(prefix, message)]
    if type(data) is dict:
        # The common case, a valid document of plain JSON: copied at C speed, and validated
        # once (by jsonschema-rs, whose schema also bounds its depth). Anything else (other
        # mappings, odd keys, an invalid document) takes the careful path below.
        try:
            plain = json.loads(json.dumps(data))
        except (RecursionError, TypeError, ValueError):
            plain = None
        if plain is not None and schema_is_valid(plain, which):
            return plain, []
    try:
        plain = _plain(data)
    except _TooDeep:
        return None, [FieldError(prefix, _("is nested more than %(n)d levels deep") % {"n": MAX_DEPTH})]
    except (RecursionError, TypeError, ValueError) as exc:
        return None, [FieldError(prefix, _("cannot be read: %(error)s") % {"error": exc})]
    try:
        return plain, schema_errors(plain, which, prefix)
    except RecursionError:
        return None, [FieldError(prefix, _("is too deeply nested to check"))]


def parse_unit(data: Mapping[str, Any]) -> Unit:
    """A `Unit` from its interchange-format dict; `UnitFormatError` lists every problem.

    A valid document of plain JSON is read by the fast path (`fast_parse_unit`); anything else,
    and every error, by the careful reader (`careful_parse_unit`)."""
    unit = fast_parse_unit(data)
    if unit is not None:
        return unit
    return careful_parse_unit(data)


def careful_parse_unit(data: Mapping[str, Any]) -> Unit:
    """`parse_unit` by the careful reader alone (what the fast path must agree with)."""
    plain, errors = _document(data, "unit")
    reader = _Reader()
    unit = reader.unit(plain, "") if plain is not None else None
    errors += reader.errors
    if errors or unit is None:
        raise UnitFormatError(errors or [FieldError("", _("is not a unit"))])
    return unit


def parse_army(data: Mapping[str, Any], resolve_catalogue_unit: CatalogueResolver | None = None) -> Army:
    """An `Army` from its interchange-format dict; `UnitFormatError` lists every problem.

    An entry with `catalogue_unit` instead of `unit` needs `resolve_catalogue_unit(ref, options)`
    (the catalogue lives in the database, outside this pure core); without it such an entry
    is an error, since an exported list writes its units in full.

    A valid document of plain JSON with every unit written in full is read by the fast path
    (`fast_parse_army`); anything else, and every error, by the careful reader.
    """
    army = fast_parse_army(data)
    if army is not None:
        return army
    return careful_parse_army(data, resolve_catalogue_unit)


def careful_parse_army(
    data: Mapping[str, Any], resolve_catalogue_unit: CatalogueResolver | None = None
) -> Army:
    """`parse_army` by the careful reader alone (what the fast path must agree with)."""
    plain, errors = _document(data, "army")
    if plain is None:
        raise UnitFormatError(errors)
    reader = _Reader()
    entries: list[ArmyEntry] = []
    units_data = plain.get("units", [])
    for i, entry in enumerate(units_data if isinstance(units_data, list) else []):
        path = join("units", i)
        if not isinstance(entry, dict):
            continue
        unit = _entry_unit(entry, path, reader, errors, resolve_catalogue_unit)
        if unit is not None:
            entries.append(ArmyEntry(unit, _as_int(entry.get("count"), 1)))
    options = reader.options(plain.get("options", {}), "options")
    errors += reader.errors
    if errors:
        raise UnitFormatError(errors)
    name = plain.get("name")
    return Army(
        name=name if isinstance(name, str) else "",
        points_limit=_as_int(plain.get("points_limit"), 0),
        units=tuple(entries),
        options=options,
        system=SYSTEM,
        format=FORMAT_VERSION,
    )


def _entry_unit(
    entry: dict[str, Any],
    path: str,
    reader: _Reader,
    errors: list[FieldError],
    resolve: CatalogueResolver | None,
) -> Unit | None:
    has_unit, has_ref = "unit" in entry, "catalogue_unit" in entry
    if has_unit == has_ref:
        errors.append(FieldError(path, _("needs exactly one of unit (the unit in full) or catalogue_unit")))
        return None
    if has_unit:
        return reader.unit(entry["unit"], join(path, "unit"))
    ref, options = entry["catalogue_unit"], entry.get("options", [])
    if any(e.path == path or e.path.startswith((path + ".", path + "[")) for e in errors):
        return None  # the schema already reported this entry (a malformed reference or options)
    if resolve is None:
        errors.append(
            FieldError(
                join(path, "catalogue_unit"),
                _("catalogue references cannot be resolved here; export the list with units written in full"),
            )
        )
        return None
    try:
        resolved = resolve(ref, options)
    except (KeyError, LookupError, ValueError) as exc:
        errors.append(FieldError(join(path, "catalogue_unit"), _("unknown catalogue unit %(ref)r: %(error)s")
                                 % {"ref": ref, "error": exc}))
        return None
    if isinstance(resolved, Unit):
        return resolved
    try:
        return parse_unit(resolved)
    except UnitFormatError as exc:
        errors.extend(
            FieldError(
                join(join(path, "catalogue_unit"), e.path) if e.path else join(path, "catalogue_unit"),
                e.message,
            )
            for e in exc.errors
        )
        return None


# --- the fast path: a valid document of plain JSON, read without copying it --------------------
#
# Nearly every document the product reads (every request of the list builder, the API,
# the commands) is valid plain JSON. For those, the careful reader above costs several times the
# pricing itself: it copies the document (so that jsonschema sees plain data), builds the path of
# every field in case it has an error, and goes through the error-collecting helpers. The fast
# path validates the caller's document as it is (jsonschema-rs, compiled once, validates it once)
# and reads it directly; the moment anything is not exactly what a plain valid document holds
# (another type than dict/list/str/int, a rule with an error, a rule written as AP(X) or Tough(X),
# a Massive model's parts...), it gives up and the careful path reads the document instead, so
# both paths give the same unit for every document the fast one accepts, and every error comes
# from the careful path (`tests/rules/systems/opr/unit_format/test_fast_path.py` checks both claims).

#: Readings of error-free rules, by level and written text (the fixed vocabulary of rule names,
#: like `_read_rule`; language-free since they carry no message). Bounded like the rule cache.
_FAST_RULES: dict[str, dict[str, tuple[str, Rule | int | Aura]]] = {"model": {}, "weapon": {}}


def _fixed_readings() -> tuple[dict[str, dict[str, tuple[str, Rule | int | Aura]]],
                               dict[str, dict[str, RuleSpec]]]:
    """The readings of the vocabulary as the tables write it, made at import: by level, each rule
    name and alias without a value (`"Rending"`, `"Rozrywający"`) -> its reading, and each name and
    alias of a rule with a value (`"Blast"`) -> its spec, for `Blast(3)` written plainly.

    The first unit a process reads then normalises no name it writes as the tables do (a name
    written otherwise, "LOCK-ON", is read by `_read_rule` as before). A dict of some hundred
    entries, built from `RULES` without normalising anything: a fraction of a millisecond.
    `test_fast_path` checks every entry reads as `_read_rule` reads it."""
    plain: dict[str, dict[str, tuple[str, Rule | int | Aura]]] = {"model": {}, "weapon": {}}
    valued: dict[str, dict[str, RuleSpec]] = {"model": {}, "weapon": {}}
    for spec in RULES:
        reading = ("rule", Rule(spec.name))
        for written in (spec.name, *spec.aliases):
            if spec.value_range is None:
                plain[spec.level][written] = reading
            else:
                valued[spec.level][written] = spec
    return plain, valued


_FIXED_READINGS, _FIXED_VALUED = _fixed_readings()
for _level, _known in _FAST_RULES.items():
    _known.update(_FIXED_READINGS[_level])
_FAST_MODEL_RULES = _FAST_RULES["model"]
_FAST_WEAPON_RULES = _FAST_RULES["weapon"]
#: A weapon's rules as written (a list of texts recurs on every weapon of its kind) -> the rules,
#: one tuple shared by every weapon written so, and whether Assault is among them. The same
#: vocabulary as `_FAST_RULES`, bounded the same way.
_FAST_WEAPON_RULE_LISTS: dict[tuple[str, ...], tuple[tuple[Rule, ...], bool]] = {}
_MUTUALLY_EXCLUSIVE = tuple(frozenset(pair) for pair in EXCLUSIVE_RULES)


def _learn_rule(written: Any, level: str) -> tuple[str, Rule | int | Aura] | None:
    """The reading of a rule that reads without error (kept by its text), or None."""
    if type(written) is not str or len(written) > MAX_CACHED_RULE_LENGTH:
        return None
    read = _plain_valued_rule(written, level)
    if read is None:
        read, messages = _read_rule(written, level, language_key())
        if messages or read is None:
            return None
    known = _FAST_RULES[level]
    if len(known) >= MAX_CACHED_WEAPONS:
        known.clear()
        known.update(_FIXED_READINGS[level])  # what was learned goes; the vocabulary stays
    known[written] = read
    return read


def _plain_valued_rule(written: str, level: str) -> tuple[str, Rule] | None:
    """`Blast(3)` written as the tables write it (the name, "(", digits, ")") and X in the rule's
    range: its reading, without a regular expression or a normalised name; None for anything else
    (`_read_rule` reads it, errors and all)."""
    name, bracket, rest = written.partition("(")
    if not bracket:
        return None
    spec = _FIXED_VALUED[level].get(name)
    if spec is None or rest[-1:] != ")":
        return None
    digits = rest[:-1]
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 9:
        return None
    value = int(digits)
    low, high = spec.value_range  # type: ignore[misc]
    if not low <= value <= high:
        return None
    return "rule", Rule(spec.name, value)


def _slot_constructor(cls: type, fields: tuple[str, ...]) -> Callable[..., Any]:
    """A constructor of the frozen, slotted dataclass `cls` that fills its slots directly.

    A frozen dataclass's `__init__` sets each field through `object.__setattr__`; a unit of ten
    weapons makes a dozen of them, a third of the fast path. The slots' own descriptors do the
    same assignment for a fraction of the cost. Only made when `fields` are exactly the class's
    fields, in order, and the class has no `__post_init__` (checked here); otherwise the class
    itself. Written out per class, as `dataclasses` writes its `__init__`, for speed."""
    from dataclasses import fields as dataclass_fields

    if tuple(f.name for f in dataclass_fields(cls)) != fields or hasattr(cls, "__post_init__"):
        return cls
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    for i, name in enumerate(fields):
        namespace[f"set{i}"] = cls.__dict__[name].__set__
    arguments = ", ".join(f"v{i}" for i in range(len(fields)))
    body = "".join(f"    set{i}(made, v{i})\n" for i in range(len(fields)))
    exec(f"def construct({arguments}):\n    made = new(cls)\n{body}    return made\n", namespace)
    return namespace["construct"]


_new_weapon = _slot_constructor(Weapon, ("name", "range", "attacks", "ap", "rules"))
_new_model = _slot_constructor(
    Model,
    ("name", "count", "quality", "defence", "toughness", "rules", "weapons", "auras", "orders", "parts"),
)
_new_unit = _slot_constructor(Unit, ("name", "models", "system", "format", "extra"))


def _fast_weapon_rules(written: list[Any]) -> tuple[Rule, ...] | None:
    rules: list[Rule] = []
    for text in written:
        read = _FAST_WEAPON_RULES.get(text) if type(text) is str else None
        if read is None:
            read = _learn_rule(text, "weapon")
            if read is None:
                return None
        if read[0] != "rule":
            return None  # AP(X): the careful path checks it against `ap`
        rules.append(read[1])  # type: ignore[arg-type]
    if len(rules) > 1 and len({r.name for r in rules}) != len(rules):
        return None  # listed twice: an error
    return tuple(rules)


def _fast_weapon(data: Any) -> Weapon | None:
    if type(data) is not dict:
        return None
    get = data.get
    name, weapon_range, attacks, ap = get("name"), get("range"), get("attacks"), get("ap", 0)
    if (type(name) is not str or type(weapon_range) is not int or type(attacks) is not int
            or type(ap) is not int):
        return None
    written = get("rules")
    if not written:
        if written is None or type(written) is list:
            return _new_weapon(name, weapon_range, attacks, ap, ())
        return None
    if type(written) is not list:
        return None
    try:
        key = tuple(written)
        known = _FAST_WEAPON_RULE_LISTS.get(key)
    except TypeError:  # an item that cannot be a key (the schema would have said so): careful path
        return None
    if known is None:
        rules = _fast_weapon_rules(written)
        if rules is None:
            return None
        known = (rules, any(r.name == tables.ASSAULT_RULE for r in rules))
        if len(_FAST_WEAPON_RULE_LISTS) >= MAX_CACHED_WEAPONS:
            _FAST_WEAPON_RULE_LISTS.clear()
        _FAST_WEAPON_RULE_LISTS[key] = known
    if weapon_range == 0 and known[1]:
        return None  # an error: Assault on a melee weapon
    return _new_weapon(name, weapon_range, attacks, ap, known[0])


def _fast_model(data: Any) -> Model | None:
    if type(data) is not dict:
        return None
    get = data.get
    name, count, quality, defence = get("name"), get("count"), get("quality"), get("defence")
    toughness = get("toughness", 1)
    if (type(name) is not str or type(count) is not int or type(quality) is not int
            or type(defence) is not int or type(toughness) is not int):
        return None
    rules: list[Rule] = []
    orders: list[Aura] = []
    written = get("rules")
    if written is not None:
        if type(written) is not list:
            return None
        for text in written:
            read = _FAST_MODEL_RULES.get(text) if type(text) is str else None
            if read is None:
                read = _learn_rule(text, "model")
                if read is None:
                    return None
            kind = read[0]
            if kind == "rule":
                rules.append(read[1])  # type: ignore[arg-type]
            elif kind == "order":
                orders.append(read[1])  # type: ignore[arg-type]
            else:
                return None  # Tough(X): the careful path checks it against `toughness`
    names = {r.name for r in rules}
    if len(names) != len(rules):
        return None  # a rule listed twice: an error
    if len(names) > 1:
        for pair in _MUTUALLY_EXCLUSIVE:
            if pair <= names:
                return None  # contradicting rules: an error
    weapons_data = get("weapons")
    weapons: list[Weapon] = []
    if weapons_data is not None:
        if type(weapons_data) is not list:
            return None
        for item in weapons_data:
            weapon = _fast_weapon(item)
            if weapon is None:
                return None
            weapons.append(weapon)
    auras_data, orders_data, parts_data = get("auras"), get("orders"), get("parts")
    auras: list[Aura] = []
    parts: tuple[Part, ...] = ()
    if auras_data is not None or orders_data is not None or parts_data is not None or "Massive" in names:
        # rare: read by the careful reader's own helpers, given up on any error
        reader = _Reader()
        auras = reader._auras(auras_data if auras_data is not None else [], "aura", "auras")
        orders += reader._auras(orders_data if orders_data is not None else [], "order", "orders")
        parts = reader._parts(parts_data, "Massive" in names, "")
        if reader.errors:
            return None
    return _new_model(name, count, quality, defence, toughness, tuple(rules), tuple(weapons),
                      tuple(auras), tuple(orders), parts)


def _fast_unit(data: Any) -> Unit | None:
    """The unit of a schema-valid document of plain JSON, or None to leave it to the careful path."""
    if type(data) is not dict:
        return None
    name, models_data = data.get("name"), data.get("models")
    if type(name) is not str or type(models_data) is not list:
        return None
    models: list[Model] = []
    for item in models_data:
        model = _fast_model(item)
        if model is None:
            return None
        models.append(model)
    extra = data.get("extra")
    if extra is None:
        extra = {}
    else:
        if type(extra) is not dict:
            return None
        try:  # the careful path keeps a copy of plain JSON; so does this one
            extra = json.loads(json.dumps(extra))
        except (RecursionError, TypeError, ValueError):
            return None
    return _new_unit(name, tuple(models), SYSTEM, FORMAT_VERSION, extra)


def _fast_valid(data: Any, which: str) -> bool:
    """jsonschema-rs's verdict on the caller's document as it is; False when it cannot say."""
    try:
        return schema_is_valid(data, which)
    except (RecursionError, TypeError, ValueError, OverflowError):
        return False


def fast_parse_unit(data: Any) -> Unit | None:
    """`parse_unit` of a valid document of plain JSON, or None (then `parse_unit` reads it carefully)."""
    if type(data) is not dict or not _fast_valid(data, "unit"):
        return None
    return _fast_unit(data)


def fast_parse_army(data: Any) -> Army | None:
    """`parse_army` of a valid document of plain JSON whose units are all written in full, or None
    (then `parse_army` reads it carefully: catalogue references, errors, anything unusual)."""
    if type(data) is not dict or not _fast_valid(data, "army"):
        return None
    units_data = data.get("units")
    if type(units_data) is not list:
        return None
    entries: list[ArmyEntry] = []
    for entry in units_data:
        if type(entry) is not dict or "catalogue_unit" in entry:
            return None
        unit = _fast_unit(entry.get("unit"))
        count = entry.get("count", 1)
        if unit is None or type(count) is not int:
            return None
        entries.append(ArmyEntry(unit, count))
    options_data = data.get("options")
    options: dict[str, bool] = {}
    if options_data is not None:
        reader = _Reader()
        options = reader.options(options_data, "options")
        if reader.errors or type(options_data) is not dict:
            return None
    name, points_limit = data.get("name"), data.get("points_limit")
    if type(name) is not str or type(points_limit) is not int:
        return None
    return Army(name=name, points_limit=points_limit, units=tuple(entries), options=options,
                system=SYSTEM, format=FORMAT_VERSION)

