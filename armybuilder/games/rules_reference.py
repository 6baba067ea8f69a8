"""The rules reference of a game: every special rule, ability and item the two armies use, with
its text, for the table and for print.

Texts come from where the data keeps them: a special rule's from the catalogue
(`rules.SpecialRule`, in the reader's language where the system's source language is theirs),
an ability's from the unit itself (the rules text an imported catalogue carries:
`abilities: [{name, text}]`), an item's from the catalogue's equipment and magic items
(`rules.Equipment`) or the item's own `text`. Each entry lists the units that use it. The data
names no phase a rule matters in, so entries are grouped by kind, not by phase.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from django.utils.translation import gettext as _

from armybuilder.games.models import Game
from rules.models import Equipment
from rules.models import GameSystem as GameSystemRow
from rules.selectors import rule_base_name, rule_lookup_key, special_rule_for, special_rules_by_name
from rules.source_language import rule_display_name, rule_text, rule_text_language


def _units(game: Game) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for army in game.armies:
        for entry in army["units"]:
            yield entry["name"], entry["unit"]


def _models(unit: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    for model in unit.get("models") or ():
        if isinstance(model, Mapping):
            yield model


def _add(found: dict[str, dict[str, Any]], key: str, name: str, text: str, lang: str, unit: str) -> None:
    entry = found.setdefault(key, {"name": name, "text": text, "lang": lang, "units": []})
    if not entry["text"] and text:
        entry.update(text=text, lang=lang)
    if unit not in entry["units"]:
        entry["units"].append(unit)


def _add_abilities(found: dict[str, dict[str, Any]], abilities: Any, unit: str) -> None:
    """A unit's or model's abilities (name and their own text) into `found`."""
    for ability in abilities or ():
        if isinstance(ability, Mapping) and ability.get("name"):
            name = str(ability["name"])
            _add(found, rule_lookup_key(name), name, str(ability.get("text") or ""), "", unit)


def game_rules_reference(*, game: Game) -> list[dict[str, Any]]:
    """Sections (`kind`, `title`, `entries` of `name`, `text`, `lang`, `units`) of the rules the
    two armies use, each sorted by name; a section with no entry is left out. Three queries."""
    system = GameSystemRow.objects.filter(key=game.system).first()
    known = special_rules_by_name(system=system) if system else {}
    source_language = system.source_language if system else "en"
    items = {}
    if system:
        for item in Equipment.objects.filter(system=system).only("name", "source_name", "text"):
            for name in (item.name, item.source_name):
                if name:
                    items.setdefault(rule_lookup_key(name), item)
    rules: dict[str, dict[str, Any]] = {}
    abilities: dict[str, dict[str, Any]] = {}
    gear: dict[str, dict[str, Any]] = {}
    for unit_name, unit in _units(game):
        _add_abilities(abilities, unit.get("abilities"), unit_name)
        for model in _models(unit):
            written = [str(r) for r in model.get("rules") or ()]
            written += [
                str(r)
                for w in model.get("weapons") or ()
                if isinstance(w, Mapping)
                for r in w.get("rules") or ()
            ]
            for name in written:
                rule = special_rule_for(name, known)
                key = rule_lookup_key(rule.name if rule else rule_base_name(name))
                shown = rule_display_name(rule_base_name(name), rule, source_language=source_language)
                _add(
                    rules,
                    key,
                    shown,
                    rule_text(rule) if rule else "",
                    rule_text_language(rule) if rule else "",
                    unit_name,
                )
            _add_abilities(abilities, model.get("abilities"), unit_name)
            for item in model.get("items") or ():
                if not isinstance(item, Mapping) or not item.get("name"):
                    continue
                row = items.get(rule_lookup_key(str(item["name"])))
                _add(
                    gear,
                    rule_lookup_key(str(item["name"])),
                    str(item["name"]),
                    (row.text if row else "") or str(item.get("text") or ""),
                    "",
                    unit_name,
                )
    sections = [
        ("rules", _("Special rules"), rules),
        ("abilities", _("Abilities"), abilities),
        ("items", _("Items and equipment"), gear),
    ]
    return [
        {"kind": kind, "title": title, "entries": sorted(found.values(), key=lambda e: e["name"].casefold())}
        for kind, title, found in sections
        if found
    ]
