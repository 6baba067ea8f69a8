"""The rules reference of a game: every special rule, ability and item the two armies use, with
its text, for the table and for print.

Texts come from where the data keeps them: a special rule's from the catalogue
(`rules.SpecialRule`, in the reader's language where the system's source language is theirs),
an ability's from the unit itself (the rules text an imported catalogue carries:
`abilities: [{name, text}]`), an item's from the catalogue's equipment and magic items
(`rules.Equipment`) or the item's own `text`. Each entry lists the units that use it.

Entries are grouped by the phase they matter in where the data says so: the game system's play
declaration (`GameSystem.play`, through the registry) gives each phase the words of a rule's
English text that tie it there ("Fight phase", "charge"); an entry goes under the phase its
text names most (and says which others it names too), and under "Any phase" when it names
none. Within a phase, entries are grouped by kind. The printed roster's glossary page is the
same reference of one list (`rules_reference`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from django.utils.translation import gettext as _

from armybuilder.games.models import Game
from rules.models import Equipment
from rules.models import GameSystem as GameSystemRow
from rules.selectors import rule_base_name, rule_lookup_key, special_rule_for, special_rules_by_name
from rules.source_language import rule_display_name, rule_text, rule_text_language
from rules.systems.registry import get_system


def _units(game: Game) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for army in game.armies:
        for entry in army["units"]:
            yield entry["name"], entry["unit"]


def _models(unit: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    for model in unit.get("models") or ():
        if isinstance(model, Mapping):
            yield model


def _add(
    found: dict[str, dict[str, Any]], key: str, name: str, text: str, lang: str, unit: str, english: str = ""
) -> None:
    """One use of an entry by `unit`; `english` is the text the phase is read from (the
    catalogue's English text where `text` is the reader's source-language one)."""
    entry = found.setdefault(key, {"name": name, "text": text, "lang": lang, "units": [], "english": ""})
    if not entry["text"] and text:
        entry.update(text=text, lang=lang)
    if not entry["english"]:
        entry["english"] = english or (text if not lang or lang == "en" else "")
    if unit not in entry["units"]:
        entry["units"].append(unit)


def _add_abilities(found: dict[str, dict[str, Any]], abilities: Any, unit: str) -> None:
    """A unit's or model's abilities (name and their own text) into `found`."""
    for ability in abilities or ():
        if isinstance(ability, Mapping) and ability.get("name"):
            name = str(ability["name"])
            _add(found, rule_lookup_key(name), name, str(ability.get("text") or ""), "", unit)


def game_rules_reference(*, game: Game) -> list[dict[str, Any]]:
    """The rules reference of the two armies of a game (`rules_reference`)."""
    return rules_reference(system_key=game.system, units=_units(game))


def rules_reference(
    *, system_key: str, units: Iterable[tuple[str, Mapping[str, Any]]]
) -> list[dict[str, Any]]:
    """Phase sections (`phase`: its key, "" for any phase; `title`; `kinds`: sections of `kind`,
    `title`, `entries` of `name`, `text`, `lang`, `units`, `also`: the other phases its text
    names) of the rules `units` (name, unit dict) use, entries sorted by name; the phases in
    turn order, then any phase; what has no entry is left out. Three queries."""
    system = GameSystemRow.objects.filter(key=system_key).first()
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
    for unit_name, unit in units:
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
                    english=f"{rule.name}\n{rule.text}" if rule else rule_base_name(name),
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
    kinds = [
        ("rules", _("Special rules"), rules),
        ("abilities", _("Abilities"), abilities),
        ("items", _("Items and equipment"), gear),
    ]
    return _by_phase(system_key, kinds)


def _by_phase(
    system_key: str, kinds: list[tuple[str, str, dict[str, dict[str, Any]]]]
) -> list[dict[str, Any]]:
    """The entries of each kind placed under the phase their English text names most."""
    play = get_system(system_key).play
    phases = list(play.phases)
    labels = {phase.key: _(phase.label) for phase in phases}
    placed: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for kind, _title, found in kinds:
        for entry in found.values():
            named = play.phases_of(entry["name"], entry.pop("english"))
            entry["also"] = [labels[key] for key in named[1:]]
            placed.setdefault(named[0] if named else "", {}).setdefault(kind, []).append(entry)
    sections = []
    for key, title in [*((p.key, labels[p.key]) for p in phases), ("", _("Any phase"))]:
        if key not in placed:
            continue
        sections.append({
            "phase": key,
            "title": title,
            "kinds": [
                {"kind": kind, "title": kind_title,
                 "entries": sorted(placed[key][kind], key=lambda e: e["name"].casefold())}
                for kind, kind_title, _found in kinds
                if placed[key].get(kind)
            ],
        })
    return sections
