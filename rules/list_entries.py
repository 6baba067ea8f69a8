"""A list file's unit entries as units written out in full, for the command-line tools.

An army list in the interchange format (`docs/unit-format.md`, "An army list") gives
each unit either in full (`{"unit": {...}, "count": n}`) or as a reference into the bundled
catalogue (`{"catalogue_unit": "<faction-slug>/<unit-slug>", "options": [keys], "count": n}`).
A system's `validate` and `price` read units in full, so `manage.py validate` resolves the
references first, here: the public catalogue's unit (`manage.py load_catalogue`), its options
applied with `rules.options.apply_options` (options not named start at their minimum, as
when a player adds the unit). Every problem is reported at once with its path, never a
traceback. The pages and the API import references through the lists app
(`armybuilder.lists.interchange`), which also sees a player's own factions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from rules.options import OPTION_FIELDS, OptionError, apply_options

#: What a list entry may hold (the interchange format's entry, without the player's own fields).
ENTRY_KEYS = frozenset({"unit", "catalogue_unit", "options", "count", "custom_name", "notes", "group"})
#: Most times one entry may be repeated (`count`), as the published army schema allows.
MAX_ENTRY_COUNT = 100


def _error(path: str, message: str) -> dict[str, str]:
    return {"path": path, "message": message}


def _catalogue_unit(reference: Any, *, system_key: str, path: str) -> tuple[Any, list]:
    """The public catalogue's unit `reference` names (a `UnitTemplate`), or its error. `manage.py
    validate` runs without `django.setup()` (a list in full needs no models), so the first
    reference sets Django up."""
    if not isinstance(reference, str) or reference.count("/") != 1:
        return None, [_error(path, "write a catalogue unit as <faction-slug>/<unit-slug>")]
    from django.apps import apps

    if not apps.ready:
        import django

        django.setup()
    from rules.models import UnitTemplate

    faction_slug, unit_slug = reference.split("/")
    template = (
        UnitTemplate.objects.filter(
            faction__system__key=system_key,
            faction__owner__isnull=True,
            faction__slug=faction_slug,
            slug=unit_slug,
        )
        .prefetch_related("options")
        .first()
    )
    if template is None:
        return None, [
            _error(path, f"no catalogue unit {reference!r} in {system_key} (is the catalogue loaded?)")
        ]
    return template, []


def _resolved(entry: Mapping[str, Any], *, system_key: str, path: str) -> tuple[dict | None, list]:
    """The unit in full one entry stands for, or its errors."""
    if "unit" in entry:
        if not isinstance(entry["unit"], Mapping):
            return None, [_error(f"{path}.unit", "must be an object")]
        if "options" in entry:
            message = "options go with catalogue_unit; a unit in full has its upgrades"
            return None, [_error(f"{path}.options", message)]
        return dict(entry["unit"]), []
    template, errors = _catalogue_unit(
        entry["catalogue_unit"], system_key=system_key, path=f"{path}.catalogue_unit"
    )
    if template is None:
        return None, errors
    keys = entry.get("options", [])
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        return None, [_error(f"{path}.options", "must be a list of option keys")]
    menu = [{name: getattr(option, name) for name in OPTION_FIELDS} for option in template.options.all()]
    known = {option["key"] for option in menu}
    unknown = sorted(set(keys) - known)
    if unknown:
        return None, [_error(f"{path}.options.{key}", "this unit has no such option") for key in unknown]
    chosen = {option["key"]: int(option["min_count"] or 0) for option in menu if option["min_count"]}
    chosen.update(Counter(keys))
    try:
        return apply_options(dict(template.data), menu, chosen), []
    except OptionError as exc:
        return None, [_error(f"{path}.{where}", message) for where, message in exc.errors]


def units_in_full(
    document: Mapping[str, Any], *, system_key: str
) -> tuple[dict[str, Any], list[dict[str, str]]]:
    """`document` with every entry's unit written out in full (`{"unit", "count"}`), and every
    problem with its path (`units[2].catalogue_unit`, `units[0].count`)."""
    entries = document.get("units")
    if not isinstance(entries, list):
        return dict(document), [_error("units", "must be a list of unit entries")]
    errors: list[dict[str, str]] = []
    resolved = []
    for index, entry in enumerate(entries):
        path = f"units[{index}]"
        if not isinstance(entry, Mapping):
            errors.append(_error(path, "each unit entry must be an object"))
            continue
        errors += [_error(f"{path}.{key}", "unknown field") for key in entry if key not in ENTRY_KEYS]
        count = entry.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_ENTRY_COUNT:
            errors.append(_error(f"{path}.count", f"must be a whole number from 1 to {MAX_ENTRY_COUNT}"))
        if ("unit" in entry) == ("catalogue_unit" in entry):
            errors.append(_error(path, "give either unit (written out in full) or catalogue_unit"))
            continue
        unit, problems = _resolved(entry, system_key=system_key, path=path)
        errors += problems
        if unit is not None:
            resolved.append({"unit": unit, "count": count if isinstance(count, int) else 1})
    return {**document, "units": resolved}, errors
