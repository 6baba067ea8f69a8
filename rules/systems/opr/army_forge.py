"""Army Forge's unit shape read into, and written from, the OPR unit format.

Army Forge (OPR's own list builder) describes a unit in its share JSON (`/api/tts?id=…`) and
its army books (`/api/army-books/<id>`) as one profile — `quality`, `defense`, `size` — with
a `loadout` (or `equipment`) whose `count`s are totals over the unit, `rules` (or
`specialRules`) of `{name, rating}`, and the `cost` its own (private) calculator gave it.
Our unit format (`docs/unit-format.md`) gives each model profile its own weapons, so
the loadout is dealt out model by model: what every model carries goes to all, the rest in
order to the next models (4 Rifles and 1 Plasma Gun in a unit of 5 are four riflemen and one
gunner), and identical models become one profile.

Rules are read where Army Forge writes them and as it means them (`read_rule`): its official
names for our rules (Strider is Agile, `points/opr/OLD_OPR.md`) become ours, a model rule it
writes on a weapon (Counter) goes to the models carrying the weapon, and Tough(X) of an item or
mount adds to the unit's own. A rule the points engine does not price (`points.opr.rule_names`)
is not dropped silently and does not refuse the unit: it stays on the unit as text
(`extra.text_rules`), and the import report and the points audit name it beside the formula's
price. The book price is kept as `extra.source_points`, so the audit can set it beside the
formula's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from points.catalogue.i18n import gettext_noop
from points.opr.rule_names import BY_NAME, canonical_name, is_ap, is_tough
from points.opr.tables import AP_RANGE

# A save file's units are read against their army book (asked through `foreign_units`).
from rules.systems.opr.army_forge_upgrades import (  # noqa: F401 (Book, resolve_unit: for the importer)
    SYSTEM_IDS,
    Book,
    book_system,
    resolve_unit,
    same_name,
    target_of,
)
from rules.systems.opr.unit_format.reader import EXCLUSIVE_RULES

#: Army Forge's name for the source, as written into `extra.source`.
SOURCE = "Army Forge"
#: Army Forge's key of the game system our lists are written for (Grimdark Future), and the
#: army id written on our units (they come from no Army Forge army book).
GAME_SYSTEM = "gf"
ARMY_ID = "army-builder"
MAX_SIZE = 1000
MAX_LOADOUT = 50
_EXCLUSIVE = tuple(frozenset(pair) for pair in EXCLUSIVE_RULES)


@dataclass
class ReadUnit:
    """One Army Forge unit in our format, with what could not be carried over.

    `unpriced` are the rules the formula does not price, as Army Forge writes them (each once,
    in the order met): they stay on the unit as text (`extra.text_rules`), and the import
    report and the points audit name them beside the formula's price."""

    unit: dict[str, Any]
    size: int
    source_points: int
    left_out: list[str] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)
    unpriced: list[str] = field(default_factory=list)


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
        return int(value.strip())
    return None


def _written_rule(rule: Any) -> str:
    """`{name: "Blast", rating: 3}` as `Blast(3)`; a plain string as it is."""
    if isinstance(rule, str):
        return rule.strip()
    if not isinstance(rule, Mapping):
        return ""
    name = str(rule.get("name") or rule.get("label") or "").strip()
    rating = rule.get("rating")
    if rating in (None, "") or not name:
        return name
    return f"{name}({str(rating).strip().lstrip('+')})"


def _rules_of(entry: Mapping[str, Any]) -> list[Any]:
    found = entry.get("rules")
    if found is None:
        found = entry.get("specialRules")
    return list(found) if isinstance(found, list) else []


RuleKind = Literal["tough", "ap", "model", "weapon", "text"]


@dataclass(frozen=True)
class ReadRule:
    """How one rule Army Forge writes reads here, wherever Army Forge put it.

    `kind`: `tough` (Tough(X): toughness, `value`), `ap` (a weapon's AP, `value`), `model` or
    `weapon` (a rule the formula prices, at the level the formula prices it, `written` in our
    canonical English form: Army Forge's Strider is our Agile, `points/opr/OLD_OPR.md`), or
    `text` (a rule the formula does not price, or a value it cannot take: kept as text)."""

    kind: RuleKind
    written: str
    value: int | None = None

    @property
    def name(self) -> str:
        return self.written.split("(", 1)[0].strip()


def read_rule(rule: Any) -> ReadRule | None:
    """One Army Forge rule (`{name, rating}` or text) as it reads here; None for an empty one."""
    written = _written_rule(rule)
    if not written:
        return None
    name, _, rest = written.partition("(")
    name, raw = name.strip(), rest.rstrip(") ").strip() if rest else None
    value = _int(raw) if raw else None
    if is_tough(name):
        return ReadRule("tough", written, value) if value is not None and 1 <= value <= 100 else ReadRule(
            "text", written
        )
    if is_ap(name):
        low, high = AP_RANGE
        return ReadRule("ap", written, value) if value is not None and low <= value <= high else ReadRule(
            "text", written
        )
    canonical = canonical_name(name)
    spec = BY_NAME.get(canonical) if canonical else None
    if spec is None:
        return ReadRule("text", written)
    if spec.value_range is None:
        return ReadRule(spec.level, spec.name) if raw is None else ReadRule("text", written)
    low, high = spec.value_range
    if value is None or not low <= value <= high:
        return ReadRule("text", written)
    return ReadRule(spec.level, f"{spec.name}({value})", value)


@dataclass
class _Kit:
    """What one line of the loadout gives each model that carries it: weapons (a weapon, or
    those a mount brings), model rules (of an item or mount, or a model rule Army Forge writes
    on a weapon, like Counter), and Tough, which adds to the model's own (a hero's Tough(3) on
    a mount with Tough(12) is Tough(15): `tough_of`)."""

    count: int
    weapons: tuple[dict[str, Any], ...] = ()
    rules: tuple[str, ...] = ()
    tough: int = 0


def tough_of(own: int, kits: list[_Kit]) -> int:
    """A model's toughness: its own Tough(X) plus the Tough(X) of each item or mount it
    carries, as Army Forge adds them (a model with no Tough at all has toughness 1)."""
    return max(1, own + sum(kit.tough for kit in kits))


class _Unpriced:
    """The rules of one unit the formula does not price, each once, as Army Forge writes them."""

    def __init__(self) -> None:
        self.rules: list[str] = []

    def add(self, written: str) -> None:
        if written and written not in self.rules:
            self.rules.append(written[:100])

    def add_read(self, read: ReadRule, rule: Any) -> None:
        """A rule read as no price reads it: a text rule as read, any other as Army Forge wrote it."""
        self.add(read.written if read.kind == "text" else _written_rule(rule))


def _model_rule(rule: Any, rules: list[str], unpriced: _Unpriced) -> int:
    """A rule on a model, item or gain: its Tough(X) is returned (Army Forge adds them up), a
    model rule joins `rules`, and any other is kept as one the formula does not price."""
    read = read_rule(rule)
    if read is None:
        return 0
    if read.kind == "tough":
        return read.value or 0
    if read.kind == "model":
        rules.append(read.written)
    else:  # a weapon rule here names no weapon: the formula cannot place it
        unpriced.add_read(read, rule)
    return 0


def _weapon(
    entry: Mapping[str, Any], where: str, errors: list[tuple[str, str]], unpriced: _Unpriced
) -> tuple[dict[str, Any] | None, list[str]]:
    """A weapon, and the model rules Army Forge wrote on it (they go to the model carrying it)."""
    name = str(entry.get("name") or "").strip() or "Weapon"
    attacks = _int(entry.get("attacks"))
    weapon_range = _int(entry.get("range", 0) or 0)
    if attacks is None or not 0 <= attacks <= 100:
        errors.append((f"{where}.attacks", gettext_noop("Must be a whole number from 0 to 100.")))
        return None, []
    if weapon_range is None or not 0 <= weapon_range <= 120:
        errors.append((f"{where}.range", gettext_noop("Must be a whole number of inches from 0 to 120.")))
        return None, []
    weapon: dict[str, Any] = {"name": name[:200], "range": weapon_range, "attacks": attacks}
    rules: list[str] = []
    model_rules: list[str] = []
    for rule in _rules_of(entry):
        read = read_rule(rule)
        if read is None:
            continue
        if read.kind == "ap":
            weapon["ap"] = read.value
        elif read.kind == "weapon":
            if all(r.split("(", 1)[0] != read.name for r in rules):
                rules.append(read.written)
        elif read.kind == "model":
            model_rules.append(read.written)
        else:
            unpriced.add_read(read, rule)
    if rules:
        weapon["rules"] = rules[:50]
    return weapon, model_rules


def _is_weapon(entry: Mapping[str, Any]) -> bool:
    kind = str(entry.get("type") or "")
    return kind == "ArmyBookWeapon" or (kind not in ("ArmyBookItem", "ArmyBookRule") and "attacks" in entry)


def _item_kit(
    entry: Mapping[str, Any], count: int, where: str, errors: list[tuple[str, str]], unpriced: _Unpriced
) -> _Kit:
    """An item or a mount: the weapons, rules and Tough of its content, for each carrier."""
    weapons: list[dict[str, Any]] = []
    rules: list[str] = []
    tough = 0
    content = entry.get("content")
    for index, part in enumerate(content if isinstance(content, list) else []):
        if isinstance(part, Mapping) and _is_weapon(part):
            weapon, moved = _weapon(part, f"{where}.content[{index}]", errors, unpriced)
            if weapon is not None:
                weapons.append(weapon)
            rules += moved
            continue
        tough += _model_rule(part, rules, unpriced)
    return _Kit(count=count, weapons=tuple(weapons), rules=tuple(rules), tough=tough)


def _kits(
    loadout: list[Any], path: str, errors: list[tuple[str, str]], unpriced: _Unpriced
) -> list[_Kit]:
    """Each loadout line as a kit; the rules of items we cannot price are kept as text."""
    kits = []
    for index, entry in enumerate(loadout[:MAX_LOADOUT]):
        where = f"{path}[{index}]"
        if not isinstance(entry, Mapping):
            errors.append((where, gettext_noop("Each loadout entry must be an object.")))
            continue
        count = _int(entry.get("count", 1))
        if count is None or not 0 <= count <= MAX_SIZE * 10:
            errors.append((f"{where}.count", gettext_noop("Must be a whole number.")))
            continue
        if count == 0:
            continue
        kind = str(entry.get("type") or "")
        if kind == "ArmyBookItem" or ("attacks" not in entry and "content" in entry):
            kits.append(_item_kit(entry, count, where, errors, unpriced))
        elif kind == "ArmyBookRule":
            read = read_rule(entry)
            if read is None:
                continue
            if read.kind == "tough":
                kits.append(_Kit(count=count, tough=read.value or 0))
            elif read.kind == "model":
                kits.append(_Kit(count=count, rules=(read.written,)))
            else:
                unpriced.add_read(read, entry)
        else:
            weapon, moved = _weapon(entry, where, errors, unpriced)
            if weapon is not None:
                kits.append(_Kit(count=count, weapons=(weapon,), rules=tuple(moved)))
    return kits


def _rule_name(written: str) -> str:
    return written.split("(", 1)[0].strip()


def _merged_rules(own: list[str], kits: list[_Kit], unpriced: _Unpriced) -> list[str]:
    """A model's rules: its own, then those its kits bring, each rule once. A rule met again
    with a value keeps the higher one (a hero with Fear(1) on a Fear(2) mount causes Fear(2));
    one that contradicts a rule the model has (Fast beside Slow) is kept as text, since which
    one Army Forge meant to win is not written down."""
    rules: list[str] = []
    for written in [*own, *(r for kit in kits for r in kit.rules)]:
        name = _rule_name(written)
        same = next((i for i, r in enumerate(rules) if _rule_name(r) == name), None)
        if same is not None:
            if _rule_value(written) > _rule_value(rules[same]):
                rules[same] = written
            continue
        if any({name, _rule_name(r)} in _EXCLUSIVE for r in rules):
            unpriced.add(written)
            continue
        rules.append(written)
    return rules


def _rule_value(written: str) -> int:
    _, _, rest = written.partition("(")
    return _int(rest.rstrip(") ")) or 0


def _models(
    name: str,
    size: int,
    quality: int,
    defence: int,
    rules: list[str],
    kits: list[_Kit],
    toughness: int,
    unpriced: _Unpriced,
) -> list[dict[str, Any]]:
    """Deal the kits out over `size` models and merge identical models into profiles.
    `toughness` is the unit's own Tough(X) (0 without one)."""
    carried: list[list[_Kit]] = [[] for _ in range(size)]
    cursor = 0
    for kit in kits:
        each, rest = divmod(kit.count, size)
        for model in carried:
            model.extend([kit] * each)
        for _ in range(rest):
            carried[cursor % size].append(kit)
            cursor += 1
    profiles: list[dict[str, Any]] = []
    keys: dict[str, dict[str, Any]] = {}
    for kit_list in carried:
        weapons = [dict(w) for k in kit_list for w in k.weapons]
        model_rules = _merged_rules(rules, kit_list, unpriced)
        model_toughness = tough_of(toughness, kit_list)
        key = repr((weapons, model_rules, model_toughness))
        if key in keys:
            keys[key]["count"] += 1
            continue
        profile: dict[str, Any] = {"name": name, "count": 1, "quality": quality, "defence": defence}
        if model_toughness > 1:
            profile["toughness"] = model_toughness
        if model_rules:
            profile["rules"] = model_rules[:50]
        if weapons:
            profile["weapons"] = weapons[:50]
        keys[key] = profile
        profiles.append(profile)
    if len(profiles) > 1:
        for number, profile in enumerate(profiles[1:], start=2):
            profile["name"] = f"{name} ({number})"
    return profiles


def upgrade_cost(upgrade: Any, unit_id: Any) -> int:
    """What one of Army Forge's `selectedUpgrades` adds: its option's cost for this unit."""
    if not isinstance(upgrade, Mapping):
        return 0
    option = upgrade.get("option") if isinstance(upgrade.get("option"), Mapping) else upgrade
    costs = option.get("costs")
    if isinstance(costs, list) and costs:
        mine = [c for c in costs if isinstance(c, Mapping) and c.get("unitId") == unit_id]
        chosen = mine[0] if mine else costs[0]
        return _int(chosen.get("cost") if isinstance(chosen, Mapping) else chosen) or 0
    return _int(option.get("cost")) or 0


def _loadout_of(entry: Mapping[str, Any]) -> tuple[str, Any]:
    """Where a unit's gear is: a list's `loadout` (after its upgrades; older lists call it
    `equipment`), or an army book's `weapons` (and `items`)."""
    for key in ("loadout", "equipment"):
        if entry.get(key) is not None:
            return key, entry[key]
    weapons, items = entry.get("weapons"), entry.get("items")
    if isinstance(weapons, list) and isinstance(items, list):
        return "weapons", weapons + items
    return "weapons", weapons if weapons is not None else []


def read_unit(entry: Any, path: str) -> ReadUnit:
    """One Army Forge unit (list or army book) as an OPR unit dict; errors name the field.

    Rules are read where Army Forge puts them (`read_rule`): a model rule written on a weapon
    (Counter) goes to the models carrying it, Tough(X) of an item or mount adds to the unit's
    own, and a rule the formula does not price stays on the unit as text (`unpriced`)."""
    errors: list[tuple[str, str]] = []
    left_out: list[str] = []
    unpriced = _Unpriced()
    if not isinstance(entry, Mapping):
        return ReadUnit({}, 0, 0, errors=[(path, gettext_noop("Each unit must be an object."))])
    name = str(entry.get("customName") or entry.get("name") or "").strip()[:200]
    if not name:
        errors.append((f"{path}.name", gettext_noop("This field is required.")))
    size = _int(entry.get("size", 1))
    quality, defence = _int(entry.get("quality")), _int(entry.get("defense", entry.get("defence")))
    if size is None or not 1 <= size <= MAX_SIZE:
        errors.append((f"{path}.size", gettext_noop("Must be a whole number from 1 to 1000.")))
    if quality is None or not 2 <= quality <= 6:
        errors.append((f"{path}.quality", gettext_noop("Must be a whole number from 2 to 6.")))
    if defence is None or not 2 <= defence <= 6:
        errors.append((f"{path}.defense", gettext_noop("Must be a whole number from 2 to 6.")))
    cost = _int(entry.get("cost", 0))
    if cost is None or cost < 0:
        errors.append((f"{path}.cost", gettext_noop("Must be a whole number of points.")))
        cost = 0
    upgrades = entry.get("selectedUpgrades") or []
    if not isinstance(upgrades, list):
        errors.append((f"{path}.selectedUpgrades", gettext_noop("Must be a list.")))
        upgrades = []
    source_points = cost + sum(upgrade_cost(u, entry.get("id")) for u in upgrades)
    rules: list[str] = []
    toughness = 0
    for rule in _rules_of(entry)[:50]:
        toughness += _model_rule(rule, rules, unpriced)  # Army Forge's Tough(X) is our toughness
    key, loadout = _loadout_of(entry)
    if not isinstance(loadout, list):
        errors.append((f"{path}.{key}", gettext_noop("Must be a list.")))
        loadout = []
    kits = _kits(loadout, f"{path}.{key}", errors, unpriced)
    if errors or size is None or quality is None or defence is None:
        return ReadUnit({}, 0, source_points, left_out, errors)
    models = _models(name, size, quality, defence, rules, kits, toughness, unpriced)
    unit: dict[str, Any] = {
        "format": 1,
        "system": "opr",
        "name": name,
        "models": models,
        "extra": {"source": SOURCE, "source_points": source_points},
    }
    if unpriced.rules:
        unit["extra"]["text_rules"] = list(unpriced.rules)
    for ident in ("id", "selectionId"):
        if isinstance(entry.get(ident), str | int):
            unit["extra"][f"army_forge_{ident.lower()}"] = str(entry[ident])[:64]
    return ReadUnit(unit, size, source_points, left_out, errors, list(unpriced.rules))


def merge_combined(host: ReadUnit, joined: ReadUnit) -> None:
    """A combined unit (two copies fielded as one, `combined: true`) becomes one unit."""
    host.unit["models"] = host.unit["models"] + [dict(m) for m in joined.unit["models"]]
    host.size += joined.size
    host.source_points += joined.source_points
    host.unit["extra"]["source_points"] = host.source_points
    host.left_out += joined.left_out
    host.unpriced += [r for r in joined.unpriced if r not in host.unpriced]
    if host.unpriced:
        host.unit["extra"]["text_rules"] = list(host.unpriced)


def write_unit(unit: Mapping[str, Any], *, points: int, selection_id: str) -> dict[str, Any]:
    """One unit of ours in Army Forge's share-JSON unit shape (`quality`/`defense` of its first
    model, the loadout summed over its models, the rules of every model and those kept as text,
    our price as `cost`)."""
    models = [m for m in unit.get("models") or [] if isinstance(m, Mapping)]
    first = models[0] if models else {}
    loadout: dict[str, dict[str, Any]] = {}
    rules: list[dict[str, Any]] = []
    seen_rules: set[str] = set()
    size = sum(int(m.get("count", 1)) for m in models)
    # Army Forge's rules are the whole unit's; a rule only some models have (a Vox Officer's
    # Radio among Signallers) is an item those models carry, as Army Forge writes an upgrade:
    # written as a rule of the unit, reading it back would give it to every model.
    holders: dict[str, int] = {}
    for model in models:
        for written in dict.fromkeys(model.get("rules") or []):
            holders[written] = holders.get(written, 0) + int(model.get("count", 1))
    for model in models:
        count = int(model.get("count", 1))
        for written in model.get("rules") or []:
            if written in seen_rules:
                continue
            seen_rules.add(written)
            if holders[written] >= size:
                rules.append(_rule_object(written))
            else:
                loadout[f"item:{written}"] = {
                    "type": "ArmyBookItem",
                    "name": written,
                    "count": holders[written],
                    "content": [_rule_object(written)],
                    "label": written,
                }
        toughness = int(model.get("toughness", 1) or 1)
        if toughness > 1 and "Tough" not in seen_rules:
            seen_rules.add("Tough")
            rules.append({"name": "Tough", "rating": toughness, "label": f"Tough({toughness})"})
        for weapon in model.get("weapons") or []:
            key = repr(sorted(weapon.items()))
            if key in loadout:
                loadout[key]["count"] += count
                continue
            special = [_rule_object(r) for r in weapon.get("rules") or []]
            if weapon.get("ap"):
                special.insert(0, {"name": "AP", "rating": weapon["ap"], "label": f"AP({weapon['ap']})"})
            loadout[key] = {
                "type": "ArmyBookWeapon",
                "name": weapon["name"],
                "range": int(weapon.get("range", 0)),
                "attacks": int(weapon.get("attacks", 0)),
                "count": count,
                "specialRules": special,
                "label": weapon["name"],
            }
    extra = unit.get("extra") if isinstance(unit.get("extra"), Mapping) else {}
    for written in extra.get("text_rules") or []:  # the rules we keep as text go back as Army Forge's
        if isinstance(written, str) and written not in seen_rules:
            seen_rules.add(written)
            rules.append(_rule_object(written))
    return {
        "armyId": ARMY_ID,
        "id": selection_id,
        "selectionId": selection_id,
        "name": str(unit.get("name", "")),
        "customName": None,
        "size": sum(int(m.get("count", 1)) for m in models),
        "quality": int(first.get("quality", 0)),
        "defense": int(first.get("defence", 0)),
        "cost": int(points),
        "rules": rules,
        "specialRules": [dict(r) for r in rules],
        "loadout": list(loadout.values()),
        "equipment": [dict(w) for w in loadout.values()],
        "selectedUpgrades": [],
        "upgrades": [],
        "traits": [],
        "notes": None,
        "xp": 0,
        "joinToUnit": None,
        "combined": False,
        "valid": True,
    }


def write_list(
    *, list_id: str, name: str, points_limit: int | None, units: list[tuple[Mapping[str, Any], int, str, str]]
) -> dict[str, Any]:
    """A list in Army Forge's share-JSON shape (`/api/tts?id=…`), so tools built for it (the
    Tabletop Simulator bridges) read ours: `units` are (unit dict, points, custom name,
    selection id), in list order."""
    written = []
    for unit, points, custom_name, selection_id in units:
        entry = write_unit(unit, points=points, selection_id=selection_id)
        entry["customName"] = custom_name or None
        written.append(entry)
    return {
        "id": list_id,
        "name": name,
        "gameSystem": GAME_SYSTEM,
        "points": sum(int(u["cost"]) for u in written),
        "pointsLimit": points_limit,
        "campaignMode": False,
        "competitive": True,
        "specialRules": [],
        "units": written,
    }


def _rule_object(written: str) -> dict[str, Any]:
    name, _, rest = written.partition("(")
    rating = rest.rstrip(") ").strip()
    obj: dict[str, Any] = {"name": name.strip(), "label": written}
    if rating:
        obj["rating"] = int(rating) if rating.lstrip("-").isdigit() else rating
    return obj


def _slug(text: str) -> str:
    cleaned = "".join(c if c.isalnum() else "-" for c in str(text).lower())
    return "-".join(part for part in cleaned.split("-") if part)[:40] or "option"


def _option_key(written: str, options: list[dict[str, Any]]) -> str:
    """An option's key: at most 60 characters of slug (cut on a word, never ending in a hyphen),
    unique among the unit's options."""
    key = "-".join(part for part in written[:60].split("-") if part) or "option"
    taken = {o["key"] for o in options}
    number = 2
    unique = key
    while unique in taken:
        unique = f"{key[:55].rstrip('-')}-{number}"
        number += 1
    return unique


def _gains_kit(
    gains: list[Mapping[str, Any]], where: str, problems: list[tuple[str, str]]
) -> tuple[list[dict[str, Any]], _Kit, list[str], bool]:
    """What an option's gains give one model: (its weapons, a kit of the model rules and Tough
    of its items and rules, the rules no price reads, whether any gain is an item)."""
    weapons: list[dict[str, Any]] = []
    rules: list[str] = []
    tough = 0
    unpriced = _Unpriced()
    has_item = False
    for g_index, gain in enumerate(gains):
        at = f"{where}.gains[{g_index}]"
        times = max(1, min(_int(gain.get("count", 1)) or 1, 10))
        if _is_weapon(gain):
            weapon, moved = _weapon(gain, at, problems, unpriced)
            if weapon is not None:
                weapons += [dict(weapon) for _ in range(times)]
            rules += moved
            continue
        if str(gain.get("type") or "") == "ArmyBookItem" or "content" in gain:
            has_item = True
            kit = _item_kit(gain, 1, at, problems, unpriced)
            weapons += [dict(w) for w in kit.weapons for _ in range(times)]
            rules += kit.rules
            tough += kit.tough * times
            continue
        tough += _model_rule(gain, rules, unpriced)
    return weapons, _Kit(count=1, rules=tuple(dict.fromkeys(rules)), tough=tough), unpriced.rules, has_item


def read_options(
    entry: Mapping[str, Any], packages: Mapping[str, Any], unit: Mapping[str, Any], path: str
) -> tuple[list[dict[str, Any]], list[str]]:
    """The upgrade sections of an army book unit (`upgrades`: its packages' uids) as catalogue
    options: a weapon swapped for weapons (`replace_weapon`), a weapon or a priced rule gained
    (`add_weapon`, `add_rule`), and an item, a mount or any other bundle of gains as Army Forge
    means it (`add_item` with what it `gives`, `rules.options`: its Tough added to the model's
    own, its rules and weapons carried, the rules no price reads kept as the unit's text). A
    section we cannot express that way (a swap that also brings rules or items) is listed in
    `left_out`, never approximated."""
    options: list[dict[str, Any]] = []
    left_out: list[str] = []
    name = str(unit.get("name", ""))
    carried = {str(w.get("name")) for m in unit.get("models") or [] for w in m.get("weapons") or []}
    size = sum(int(m.get("count", 1)) for m in unit.get("models") or [])
    own_rules = {_rule_name(str(r)) for m in unit.get("models") or [] for r in m.get("rules") or []}
    for package_id in entry.get("upgrades") or []:
        package = packages.get(str(package_id))
        if not isinstance(package, Mapping):
            continue
        for s_index, section in enumerate(package.get("sections") or []):
            if not isinstance(section, Mapping):
                continue
            label = str(section.get("label") or "").strip() or "Upgrade"
            variant = str(section.get("variant") or "")
            targets = [target_of(str(t)) for t in section.get("targets") or []]
            # the weapon the unit carries under the target's name ("Rifles" is its Rifle)
            target = next((c for c in sorted(carried) if len(targets) == 1 and targets[0][1] == 1
                           and same_name(c, targets[0][0])), None)
            affects = section.get("affects") if isinstance(section.get("affects"), Mapping) else {}
            every = affects.get("type") == "all" or section.get("model") is True
            most = _int(affects.get("value")) if affects.get("type") == "exactly" else None
            most = 1 if every else (most or size)
            for o_index, option in enumerate(section.get("options") or []):
                if not isinstance(option, Mapping):
                    continue
                gains = [g for g in option.get("gains") or [] if isinstance(g, Mapping)]
                problems: list[tuple[str, str]] = []
                where = f"{path}.sections[{s_index}].options[{o_index}]"
                weapons, kit, text, has_item = _gains_kit(gains, where, problems)
                # a rule contradicting one the unit has (Fast on a Slow unit) is kept as text, since
                # which one Army Forge meant to win is not written down (as `_merged_rules`)
                rules = [r for r in kit.rules if not any({_rule_name(r), o} in _EXCLUSIVE for o in own_rules)]
                text = [*text, *(r for r in kit.rules if r not in rules)]
                option_label = str(option.get("label") or label)[:200]
                written_key = f"{_slug(str(package_id))}-{s_index}-{o_index}-{_slug(option_label)}"
                key = _option_key(written_key, options)
                common: dict[str, Any] = {
                    "key": key,
                    "label": option_label,
                    "group": label[:120],
                    "max": max(1, min(int(most), 1000)),
                }
                plain = not (has_item or kit.tough)
                gives_nothing = not (weapons or rules or kit.tough or text)
                if problems or gives_nothing or most > size:  # "replace 2x" on 1 model
                    left_out.append(f"{name}: {label}: {option_label}")
                elif variant == "replace" and target is not None and weapons and not rules and plain:
                    payload: dict[str, Any] = {"replace": target, "with": weapons}
                    if every:
                        payload["all"] = True
                    if text:  # the new weapons' rules no price reads, kept as the unit's text
                        payload["text_rules"] = text[:50]
                    options.append({**common, "kind": "replace_weapon", "payload": payload})
                elif variant == "replace":
                    left_out.append(f"{name}: {label}: {option_label}")
                elif plain and len(weapons) == 1 and not rules:
                    payload = {"weapon": weapons[0], **({"all": True} if every else {})}
                    if text:
                        payload["text_rules"] = text[:50]
                    options.append({**common, "kind": "add_weapon", "payload": payload})
                elif plain and len(rules) == 1 and not weapons and not text:
                    options.append({**common, "kind": "add_rule", "payload": {"rule": rules[0]}, "max": 1})
                else:  # an item, a mount, or several gains at once: what Army Forge means by it
                    gives: dict[str, Any] = {}
                    if kit.tough:
                        gives["toughness"] = kit.tough
                    if rules:
                        gives["rules"] = rules[:50]
                    if weapons:
                        gives["weapons"] = weapons[:50]
                    if text:
                        gives["text_rules"] = text[:50]
                    payload = {"item": {"name": option_label, "gives": gives}}
                    if every:
                        payload["all"] = True
                    options.append({**common, "kind": "add_item", "payload": payload})
    return options, left_out


def list_schema() -> dict[str, Any]:
    """A list in Army Forge's share-JSON shape (`/api/tts?id=…`), as Tabletop Simulator tools read it."""
    rule = {"type": "object", "required": ["name"], "properties": {
        "name": {"type": "string"}, "rating": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
        "label": {"type": "string"}}}
    weapon = {"type": "object", "required": ["type", "name", "range", "attacks", "count"], "properties": {
        "type": {"type": "string", "enum": ["ArmyBookWeapon"]}, "name": {"type": "string"},
        "range": {"type": "integer"}, "attacks": {"type": "integer"}, "count": {"type": "integer"},
        "label": {"type": "string"}, "specialRules": {"type": "array", "items": rule}}}
    # a rule only some of the unit's models have, carried as an item by that many models
    item = {"type": "object", "required": ["type", "name", "count", "content"], "properties": {
        "type": {"type": "string", "enum": ["ArmyBookItem"]}, "name": {"type": "string"},
        "count": {"type": "integer"}, "label": {"type": "string"},
        "content": {"type": "array", "items": rule}}}
    kit = {"oneOf": [weapon, item]}
    unit = {"type": "object",
            "required": ["id", "selectionId", "name", "size", "quality", "defense", "cost", "loadout",
                         "rules", "selectedUpgrades", "joinToUnit", "combined"],
            "properties": {
                "armyId": {"type": "string"}, "id": {"type": "string"}, "selectionId": {"type": "string"},
                "name": {"type": "string"}, "customName": {"type": "string", "nullable": True},
                "size": {"type": "integer"}, "quality": {"type": "integer"}, "defense": {"type": "integer"},
                "cost": {"type": "integer", "description": "Our price of the unit."},
                "rules": {"type": "array", "items": rule},
                "specialRules": {"type": "array", "items": rule},
                "loadout": {"type": "array", "items": kit},
                "equipment": {"type": "array", "items": kit},
                "selectedUpgrades": {"type": "array", "items": {"type": "object"}},
                "joinToUnit": {"type": "string", "nullable": True}, "combined": {"type": "boolean"}}}
    return {"type": "object", "title": "ArmyForgeList",
            "required": ["id", "name", "gameSystem", "points", "units"],
            "properties": {"id": {"type": "string"}, "name": {"type": "string"},
                           "gameSystem": {"type": "string", "description": "Army Forge's game system key."},
                           "points": {"type": "integer"},
                           "pointsLimit": {"type": "integer", "nullable": True},
                           "units": {"type": "array", "items": unit}}}


def looks_like_unit(entry: Mapping[str, Any]) -> bool:
    """Whether a JSON object is a unit of an Army Forge list (quality, and defense or a loadout)."""
    return "quality" in entry and ("defense" in entry or "loadout" in entry)
