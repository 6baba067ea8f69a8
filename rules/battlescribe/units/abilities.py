"""A unit's rules and abilities: the entries' rules and info links, kept as text or read into the
model's fields and structured abilities by the system's mapping (`ability_reader`).

A part of `UnitMapper` (`mapper`): its methods read the mapper's data and mapping, and the
engine's selection of the unit (`smallest.UnitSelection`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from jsonschema import Draft202012Validator

from rules.battlescribe.catalogue import shown
from rules.battlescribe.engine.model import Option
from rules.battlescribe.units.data import hidden
from rules.battlescribe.units.limits import limits_nothing


class AbilityReading:
    """A unit's rules and abilities of a unit being mapped (a part of `UnitMapper`)."""

    def rules_of(self, entry: Option) -> list[tuple[str, str]]:
        info_links = [
            (str(link.get("name", "")), str(link.get("targetId", "")), str(link.get("type", "")))
            for link in self.data.info_links(entry)
        ]
        linked = [
            self.data.rules[target]
            for _name, target, kind in info_links
            if kind == "rule" and target in self.data.rules
        ]
        for name, _target, kind in info_links:
            if kind not in ("rule", "profile"):
                self.warn(self.data.path(entry), f"info link {name!r} of type {kind!r} is not imported")
        missing = [
            name
            for name, target, kind in info_links
            if target not in self.data.rules
            and target not in self.data.profiles
            and kind in ("rule", "profile")
        ]
        for name in missing:
            self.warn(self.data.path(entry), f"info link {name!r} points at nothing in the uploaded files")
        return [
            (str(r.get("name", "")), str(r.get("description", "") or ""))
            for r in [*self.data.own_rules(entry), *linked]
            if not hidden(r)
        ]

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

    def collect_text(self, entry: Option, abilities: list, notes: list) -> None:
        for profile in self.profiles_of(entry):
            if profile.type_id in self.model_types or profile.type_id in self.weapon_types:
                continue
            text = "; ".join(f"{n}: {v}" if n else v for n, _t, v in profile.characteristics if v)
            if profile.type_id in self.table_types:  # a damage or crew table's row: no ability
                notes.append(f"{self.data.profile_types[profile.type_id][0]} {profile.name}: {text}")
                continue
            abilities.append({"name": profile.name, "text": text})
        for c in entry.constraints:
            if c.scope not in ("parent",) and c.field == "selections" and not limits_nothing(c.type, c.value):
                notes.append(f"{self.data.name(entry)}: {c.type} {shown(c.value)} per {c.scope}")
                self.warn(
                    self.data.path(entry), f"limit {c.type} {shown(c.value)} per {c.scope} is kept as text"
                )

    def add_rule(self, models, model, name: str, text: str, abilities: list) -> None:
        if self.known_rule(name):
            for target in [model] if model is not None else models:
                if name not in target.setdefault("rules", []):
                    target["rules"].append(name)
        elif not any(a["name"] == name for a in abilities):
            abilities.append({"name": name, "text": text})
            self.warn(self._where, f"rule {name!r} is not a rule of this system; kept as text")
