"""Army Forge's upgrades applied to a unit of its army book, as Army Forge applies them.

An army book (`/api/army-books/<id>`) gives each unit its base gear (`weapons` and `items`)
and the uids of its upgrade packages; a package's sections (`ArmyBookUpgradeSection`) offer
options (`gains`: weapons, items, rules). Army Forge's share JSON holds each unit after its
upgrades (`loadout`); its own save file (the "Export" of a list) holds only the unit's id in
the book and the uids of the section and option of each upgrade taken, in the order taken.
`resolve_unit` turns such a saved unit into the share JSON's unit shape, so one reader
(`army_forge.read_unit`) reads both.

How an upgrade changes the gear (`apply_upgrade`), by the section's `variant`:

- ``upgrade`` and ``attachment``: the option's gains join the gear; a section that affects
  all (`affects: {type: all}`) gives each of the unit's models (or each carried target, when
  it names `targets`: "Upgrade all Crossbows with") the gain's count.
- ``replace``: the section's `targets` (a count prefix, "2x Heavy Fist", replaces that many
  per model) lose as many as the section affects — one per take, N for `exactly N`, every
  one carried for `all` — and the gains come in their place (for `all`, the gain's count for
  each one replaced).

A target is found by name, case aside and singular or plural ("Bio-Spiners" finds the
Bio-Spiner), in the gear first and then inside the items (a weapon a mount brings).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from points.catalogue.i18n import gettext_noop

_COUNT = re.compile(r"^\s*(\d+)\s*x\s+", re.IGNORECASE)


def _int(value: Any, default: int = 0) -> int:
    if isinstance(value, bool):
        return default
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return default


def _forms(name: str) -> set[str]:
    """A name as written, case and spacing aside, and the singulars it may be the plural of."""
    folded = " ".join(name.lower().split())
    forms = {folded}
    for ending, replacements in (("ies", ("y",)), ("ves", ("f", "fe")), ("es", ("",)), ("s", ("",))):
        if folded.endswith(ending) and len(folded) > len(ending) + 1:
            forms.update(folded[: -len(ending)] + r for r in replacements)
    return forms


def same_name(a: str, b: str) -> bool:
    """Whether two of Army Forge's names name the same gear ("Bio-Spiners", "Bio-Spiner")."""
    return bool(_forms(a) & _forms(b))


def target_of(written: str) -> tuple[str, int]:
    """A section's target as (name, how many per take): "2x Suit-Burst" is ("Suit-Burst", 2)."""
    match = _COUNT.match(written)
    if match:
        return written[match.end():].strip(), max(1, int(match[1]))
    return written.strip(), 1


@dataclass
class Applied:
    """A unit's gear after its upgrades, and the upgrades that could not be applied (their
    label and why), which are left out of the gear and of the unit's cost."""

    loadout: list[dict[str, Any]]
    #: (index in the upgrades taken, the target it replaces that the unit does not carry)
    skipped: list[tuple[int, str]] = field(default_factory=list)


def _find(loadout: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """The gear entries named `name` with a count left: top level first, then inside items."""
    found = [e for e in loadout if _int(e.get("count"), 1) > 0 and same_name(str(e.get("name") or ""), name)]
    if found:
        return found
    inner = []
    for entry in loadout:
        for part in entry.get("content") or [] if isinstance(entry.get("content"), list) else []:
            if (isinstance(part, dict) and "attacks" in part and _int(part.get("count"), 1) > 0
                    and same_name(str(part.get("name") or ""), name)):
                inner.append(part)
    return inner


def _carried(loadout: list[dict[str, Any]], name: str) -> int:
    return sum(_int(e.get("count"), 1) for e in _find(loadout, name))


def _take(loadout: list[dict[str, Any]], name: str, count: int) -> None:
    for entry in _find(loadout, name):
        if count <= 0:
            return
        have = _int(entry.get("count"), 1)
        used = min(have, count)
        entry["count"] = have - used
        count -= used


def _gained(option: Mapping[str, Any], times: int) -> list[dict[str, Any]]:
    gains = []
    for gain in option.get("gains") or []:
        if not isinstance(gain, Mapping):
            continue
        copied = copy.deepcopy(dict(gain))
        copied["count"] = max(0, _int(gain.get("count"), 1)) * times
        gains.append(copied)
    return gains


def apply_upgrade(
    loadout: list[dict[str, Any]], section: Mapping[str, Any], option: Mapping[str, Any], size: int
) -> str | None:
    """Change `loadout` (the unit's gear, Army Forge's entries with their `count`s) by one take of
    `option` of `section`, for a unit of `size` models; the target it would replace that the
    unit does not carry (then nothing changed), else None."""
    variant = str(section.get("variant") or "upgrade")
    affects = section.get("affects") if isinstance(section.get("affects"), Mapping) else {}
    every = affects.get("type") == "all"
    targets = [target_of(str(t)) for t in section.get("targets") or [] if str(t).strip()]
    if variant != "replace":
        times = 1
        if every:
            carried = [_carried(loadout, name) // per for name, per in targets]
            times = min(carried) if carried else max(1, size)
        loadout.extend(g for g in _gained(option, max(times, 0)) if g["count"] > 0)
        return None
    if every:
        carried = [_carried(loadout, name) // per for name, per in targets]
        replaced = min(carried) if carried else 0
    else:
        replaced = _int(affects.get("value"), 1) if affects.get("type") == "exactly" else 1
    for name, per in targets:
        if _carried(loadout, name) < replaced * per or replaced <= 0:
            return name
    for name, per in targets:
        _take(loadout, name, replaced * per)
    loadout.extend(g for g in _gained(option, replaced if every else 1) if g["count"] > 0)
    _drop_spent(loadout)
    return None


def _drop_spent(loadout: list[dict[str, Any]]) -> None:
    loadout[:] = [e for e in loadout if _int(e.get("count"), 1) > 0]
    for entry in loadout:
        if isinstance(entry.get("content"), list):
            entry["content"] = [
                c for c in entry["content"] if not isinstance(c, Mapping) or _int(c.get("count"), 1) > 0
            ]


def base_loadout(unit: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A book unit's gear before upgrades: its weapons, then its items (copies)."""
    gear = []
    for key in ("weapons", "items"):
        for entry in unit.get(key) or []:
            if isinstance(entry, Mapping):
                gear.append(copy.deepcopy(dict(entry)))
    return gear


def apply_upgrades(
    unit: Mapping[str, Any], taken: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]], size: int
) -> Applied:
    """The gear of book `unit` of `size` models after each (section, option) of `taken`, in order."""
    applied = Applied(loadout=base_loadout(unit))
    for index, (section, option) in enumerate(taken):
        problem = apply_upgrade(applied.loadout, section, option, size)
        if problem is not None:
            applied.skipped.append((index, problem))
    return applied


#: Army Forge's game systems: its numeric ids and page slugs, by the key its lists use.
_SYSTEM_IDS = {2: "gf", 3: "gff", 4: "aof", 5: "aofs", 6: "aofr", 7: "aofq"}
_SYSTEM_SLUGS = {
    "grimdark-future": "gf",
    "grimdark-future-firefight": "gff",
    "age-of-fantasy": "aof",
    "age-of-fantasy-skirmish": "aofs",
    "age-of-fantasy-regiments": "aofr",
    "age-of-fantasy-quest": "aofq",
}
SYSTEM_IDS = {key: number for number, key in _SYSTEM_IDS.items()}


def book_system(book: Mapping[str, Any]) -> str:
    """An army book's game system as the key Army Forge's lists use (gf, gff, aof, …); "" when
    the book does not say."""
    for field_name in ("gameSystemKey", "aberration"):
        value = str(book.get(field_name) or "").strip().lower()
        if value.isalnum() and len(value) <= 16:
            return value
    number = _int(book.get("gameSystemId"), -1)
    if number in _SYSTEM_IDS:
        return _SYSTEM_IDS[number]
    return _SYSTEM_SLUGS.get(str(book.get("gameSystemSlug") or ""), "")


@dataclass
class Book:
    """An army book read for resolving saved units: its units by id, and each (section uid,
    option uid) of its upgrade packages."""

    uid: str
    name: str
    version: str
    system: str
    units: dict[str, Mapping[str, Any]]
    options: dict[tuple[str, str], tuple[Mapping[str, Any], Mapping[str, Any]]]

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Book:
        units = {str(u["id"]): u for u in data.get("units") or [] if isinstance(u, Mapping) and u.get("id")}
        options: dict[tuple[str, str], tuple[Mapping[str, Any], Mapping[str, Any]]] = {}
        for package in data.get("upgradePackages") or []:
            if not isinstance(package, Mapping):
                continue
            for section in package.get("sections") or []:
                if not isinstance(section, Mapping):
                    continue
                for option in section.get("options") or []:
                    if not isinstance(option, Mapping):
                        continue
                    for section_id in {str(section.get("uid") or ""), str(section.get("id") or "")} - {""}:
                        for option_id in {str(option.get("uid") or ""), str(option.get("id") or "")} - {""}:
                            options.setdefault((section_id, option_id), (section, option))
        return cls(
            uid=str(data.get("uid") or ""),
            name=str(data.get("name") or "").strip(),
            version=str(data.get("versionString") or data.get("version") or ""),
            system=book_system(data),
            units=units,
            options=options,
        )


@dataclass
class Resolved:
    """A saved unit in the share JSON's unit shape (`entry`, None when the book has no such
    unit), and what of it was left out, for the report: each a message (marked for
    translation, translated by the importer) and its values."""

    entry: dict[str, Any] | None
    left_out: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


def resolve_unit(book: Book, saved: Mapping[str, Any]) -> Resolved:
    """One unit of Army Forge's save file (`{id, selectionId, selectedUpgrades: [{upgradeId,
    optionId}], joinToUnit, combined, customName, notes}`) resolved against its army book: the
    book's profile, rules and cost, the gear after each upgrade taken (`apply_upgrades`), and
    the upgrades with their costs (`selectedUpgrades: [{upgrade, option}]`, as the share JSON
    gives them). An upgrade the book does not have, or cannot apply, is left out and named."""
    unit = book.units.get(str(saved.get("id") or ""))
    where = {"book": book.name, "version": book.version or "?"}
    if unit is None:
        missing = gettext_noop("a unit (id %(id)s) that version %(version)s of %(book)s does not have")
        return Resolved(None, [(missing, {**where, "id": str(saved.get("id"))[:64]})])
    name = str(unit.get("name") or "")
    left_out: list[tuple[str, dict[str, Any]]] = []
    taken: list[tuple[Mapping[str, Any], Mapping[str, Any]]] = []
    for chosen in saved.get("selectedUpgrades") or []:
        if not isinstance(chosen, Mapping):
            continue
        found = book.options.get((str(chosen.get("upgradeId") or ""), str(chosen.get("optionId") or "")))
        if found is None:
            missing = gettext_noop("%(unit)s: an upgrade (option %(option)s) that version %(version)s of "
                                   "%(book)s does not have")
            left_out.append((missing, {**where, "unit": name, "option": str(chosen.get("optionId"))[:64]}))
            continue
        taken.append(found)
    size = max(1, _int(unit.get("size"), 1))
    applied = apply_upgrades(unit, taken, size)
    skipped = dict(applied.skipped)
    for index, target in applied.skipped:
        section, option = taken[index]
        label = str(option.get("label") or section.get("label") or "")
        cannot = gettext_noop("%(unit)s: %(upgrade)s: it replaces %(target)s, which the unit does not carry "
                              "in version %(version)s of %(book)s")
        left_out.append((cannot, {**where, "unit": name, "upgrade": label, "target": target}))
    upgrades = [{"upgrade": dict(section), "option": dict(option)}
                for index, (section, option) in enumerate(taken) if index not in skipped]
    entry: dict[str, Any] = {
        "id": str(unit.get("id")),
        "selectionId": saved.get("selectionId"),
        "name": name,
        "customName": saved.get("customName"),
        "size": size,
        "quality": unit.get("quality"),
        "defense": unit.get("defense"),
        "cost": unit.get("cost", 0),
        "rules": copy.deepcopy(list(unit.get("rules") or [])),
        "loadout": applied.loadout,
        "selectedUpgrades": upgrades,
        "joinToUnit": saved.get("joinToUnit"),
        "combined": bool(saved.get("combined")),
        "notes": saved.get("notes"),
    }
    return Resolved(entry, left_out)
