"""How an estimate is named to a person: its title and its situation in words.

Read from the job's inputs, so a page needs nothing but the row (the units' own names, the
lists' names, the situation's flags), and translated when shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from armybuilder.estimates.gauntlet_text import shown_target, target_text
from armybuilder.estimates.inputs import REFERENCES, reference_roles
from armybuilder.estimates.models import Estimate
from rules.models import Faction, UnitTemplate
from rules.systems.registry import get_system


def _name(side: Any, fallback: str) -> str:
    return str(side.get("name") or fallback) if isinstance(side, Mapping) else fallback


def estimate_title(*, kind: str, inputs: Mapping[str, Any] | None = None,
                   names: tuple[str | None, str | None] = (None, None),
                   references: Iterable[str] | None = None) -> str:
    """"Veterans attacking Infantry" or "Patrol against Horde": from the inputs, or from the
    two names a listing read from them (`selectors.estimates_of`) with the sides its inputs
    mark as reference targets (`references`, else the inputs'). A reference target is named in
    the reader's language and marked as one; the reference set's name says what it is."""
    inputs = inputs or {}
    marked = reference_roles(inputs) if references is None else frozenset(references)
    if kind == Estimate.Kind.LIST_VS_LIST:
        a = names[0] or _name(inputs.get("list_a"), _("list A"))
        b = shown_target(names[1] or _name(inputs.get("list_b"), _("list B")), reference="list_b" in marked)
        return _("%(a)s against %(b)s") % {"a": a, "b": b}
    attacker = target_text(names[0] or _name(inputs.get("attacker"), _("the attacker")),
                           reference="attacker" in marked)
    defender = target_text(names[1] or _name(inputs.get("defender"), _("the defender")),
                           reference="defender" in marked)
    return _("%(attacker)s attacking %(defender)s") % {"attacker": attacker, "defender": defender}


def listing_titles(estimates: Sequence[Any]) -> list[str]:
    """The titles of a page of "Your estimates" (rows of `selectors.estimates_of`, with the names
    it reads from the inputs), each as its result page names it: a bundled unit in the reader's
    language (`bundled_factions`, one query a system), a reference target translated and
    marked, a player's unit or list as written."""
    unit_rows = [row for row in estimates if row.kind == Estimate.Kind.UNIT_VS_UNIT]
    factions = {system: bundled_factions(system, [name for row in unit_rows if row.system == system
                                                  for name in (row.attacker_name, row.defender_name)])
                for system in {row.system for row in unit_rows}}
    titles = []
    for row in estimates:
        marked = reference_roles({REFERENCES: row.references})
        if row.kind == Estimate.Kind.LIST_VS_LIST:
            names = (row.list_a_name, row.list_b_name)
        else:
            sides = (("attacker", row.attacker_name), ("defender", row.defender_name))
            names = tuple(name if role in marked else reader_name(name, factions[row.system])
                          for role, name in sides)
        titles.append(estimate_title(kind=row.kind, names=names, references=marked))
    return titles


def shown_matrix_result(result: Mapping[str, Any], inputs: Any, system: str) -> Mapping[str, Any]:
    """A list-vs-list result as its page shows it: against the reference set (marked in its
    inputs), list B's name and its units' translated (`shown_target`); any other unit of a
    bundled army in the reader's language (`bundled_factions`), as the unit-vs-unit page
    names it; a list's name, and a unit no bundled army has, as the player wrote it."""
    marked = reference_roles(inputs)
    sides = [side for side in ("list_a", "list_b") if isinstance(result.get(side), Mapping)]
    factions = bundled_factions(system, [str(name) for side in sides if side not in marked
                                         for name in result[side].get("units") or ()])
    shown = dict(result)
    for side in sides:
        data = result[side]
        if side in marked:
            shown[side] = {**data, "name": shown_target(str(data.get("name") or ""), reference=True),
                           "units": [shown_target(str(name), reference=True) for name in data["units"]]}
        elif factions:
            shown[side] = {**data, "units": [reader_name(str(name), factions) for name in data["units"]]}
    return shown


def shown_not_used(result: Mapping[str, Any], inputs: Any) -> list[Mapping[str, Any]]:
    """A unit-vs-unit result's "not used by this estimate" lines as its page shows them: a side
    its inputs mark as a reference target named in the reader's language (`shown_target`, as
    the title names it), a player's unit as stored (the page reads it in its faction's
    language where the bundled catalogue has it)."""
    marked = reference_roles(inputs)
    lines = result.get("not_used") if isinstance(result, Mapping) else None
    return [{**line, "unit": shown_target(str(line.get("unit") or ""), reference=line.get("role") in marked)}
            for line in lines or () if isinstance(line, Mapping)]


def _value_text(spec: Mapping[str, Any], value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return f"{value:g}"
    labels = spec.get("x-enum-labels", {})
    return _(labels[value]) if isinstance(value, str) and value in labels else str(value)


def _applies(spec: Mapping[str, Any], situation: Mapping[str, Any]) -> bool:
    """`x-text-when` ({field: value or [values]}): the field matters only when the others are so
    (a list: any of its values)."""
    return all(
        situation.get(name) in wanted if isinstance(wanted, list) else situation.get(name) == wanted
        for name, wanted in spec.get("x-text-when", {}).items()
    )


def situation_text(situation: Mapping[str, Any] | None, *, system_key: str) -> str:
    """"Shooting at 12″, the defender is in cover": the situation in words, from its schema.

    Each field in schema order: an enum by its value's label, a number or integer by its
    `x-text` ("at %(value)s″") or as "title: value" (left out at its default), a boolean only when true by its
    `x-text` or its title. `x-text-joined` glues a part to the previous one with a space;
    `x-text-when` leaves out a field that does not matter (the range of a melee attack).
    """
    if not situation:
        return ""
    try:
        properties = get_system(system_key).situation_schema.get("properties", {})
    except KeyError:
        return ""
    parts: list[str] = []
    for name, spec in properties.items():
        if name not in situation or not _applies(spec, situation):
            continue
        value = situation[name]
        words = spec.get("x-text")
        if spec.get("type") == "boolean":
            if not value:
                continue
            text = _(words) if words else _lower_first(_(spec.get("title", name)))
        elif words:
            text = _(words) % {"value": _value_text(spec, value)}
        elif "enum" in spec:
            text = _lower_first(_value_text(spec, value))
        elif value == spec.get("default"):
            continue  # a number nobody changed says nothing about this attack
        else:
            text = f"{_lower_first(_(spec.get('title', name)))}: {_value_text(spec, value)}"
        if spec.get("x-text-joined") and parts:
            parts[-1] = f"{parts[-1]} {text}"
        else:
            parts.append(text)
    text = ", ".join(parts)
    return text[:1].upper() + text[1:]


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def system_name(key: str) -> str:
    """The registered system's name, or its key for a system no longer installed."""
    try:
        return _(get_system(key).name)
    except KeyError:
        return key


def estimate_subtitle(*, estimate: Estimate) -> str:
    """What the question is about, in one line: the kind of estimate and its game system."""
    if estimate.kind == Estimate.Kind.LIST_VS_LIST:
        return _("Every unit of each list against every unit of the other · %(system)s") % {
            "system": system_name(estimate.system)}
    return _("Expected damage of one attack · %(system)s") % {"system": system_name(estimate.system)}


def bundled_factions(system: str, names: Iterable[str]) -> dict[str, Faction]:
    """The bundled faction, among the system's that carry translations, of each of `names` that
    names one of its units (the first faction by name), one query for them all: the faction
    whose reader-language names (`Faction.in_reader_language`) a page shows that unit's in. An
    imported or homebrew faction's names are the player's own words, and a name no bundled unit
    has is left out: it shows as written."""
    wanted = {name for name in names if name}
    if not wanted:
        return {}
    found: dict[str, Faction] = {}
    factions: dict[int, Faction] = {}
    units = (UnitTemplate.objects
             .filter(faction__system__key=system, faction__owner__isnull=True, name__in=wanted)
             .exclude(faction__translations={}).select_related("faction").order_by("faction__name", "pk"))
    for unit in units:
        # one object per faction
        found.setdefault(unit.name, factions.setdefault(unit.faction_id, unit.faction))
    return found


def reader_factions(*, estimate: Estimate) -> dict[str, Faction | None]:
    """The bundled faction of each side of a unit-vs-unit estimate, `{"attacker", "defender"}`,
    whose reader-language names the result page shows its units', models' and weapons' names
    in: the job stores them as the engine reads them, in English. A side is found by its unit's
    name (`bundled_factions`); none found is None, and the names show as written."""
    found: dict[str, Faction | None] = {"attacker": None, "defender": None}
    if estimate.kind != Estimate.Kind.UNIT_VS_UNIT or not isinstance(estimate.inputs, Mapping):
        return found
    # A reference target is the system's, named through gettext (`estimate_title`).
    marked = reference_roles(estimate.inputs)
    names = {role: _name(estimate.inputs.get(role), "") for role in found if role not in marked}
    by_name = bundled_factions(estimate.system, names.values())
    return {**found, **{role: by_name.get(name) for role, name in names.items()}}


def reader_name(name: str | None, factions: Mapping[str, Faction]) -> str | None:
    """A unit's stored name as the reader reads it: through its bundled faction
    (`bundled_factions`), else as written."""
    faction = factions.get(name) if name else None
    return faction.in_reader_language(name) if faction is not None and name else name
