"""The model's and its weapons' profiles: which profile types are a model's and a weapon's, their
characteristics converted to the system's fields, and the damage and crew tables whose healthiest
row a model reads.

A part of `UnitMapper` (`mapper`): its methods read the mapper's data and mapping, and the
engine's selection of the unit (`smallest.UnitSelection`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rules.battlescribe.engine.model import Option, Profile
from rules.battlescribe.mapping import norm, random_average
from rules.battlescribe.units.values import ABSENT, DASHES, convert


class ProfileReading:
    """The model's and its weapons' profiles of a unit being mapped (a part of `UnitMapper`)."""

    def _profile_types(self) -> tuple[str | None, set[str]]:
        """The profile type that is a model's profile, and those that are weapons: those the
        system's mapping names, else by best match of their characteristics."""
        self._seen = set()
        named_model = [
            t for t, (name, _c) in self.data.profile_types.items() if self.mapping.is_model_type(name)
        ]
        named_weapons = {
            t for t, (name, _c) in self.data.profile_types.items() if self.mapping.is_weapon_type(name)
        }
        model_type, best = None, 1
        weapons: set[str] = set()
        for type_id, (_name, chars) in self.data.profile_types.items():
            as_model = sum(norm(c) in self.model_fields for c in chars)
            as_weapon = sum(norm(c) in self.weapon_fields for c in chars)
            if as_model > best and as_model >= as_weapon:
                model_type, best = type_id, as_model
            elif as_weapon >= 2 and as_weapon > as_model:
                weapons.add(type_id)
        return (named_model[0] if named_model else model_type), (named_weapons or weapons)

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
            key = fields.get(norm(name))
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
                if ok and value is not ABSENT:
                    kept.append(f"{name}: {text} (the average, {average}, used)")
                    values[key] = value
                    continue
            if fields is self.model_fields and key in self.mapping.dash_values and text.strip() in DASHES:
                values[key] = self.mapping.dash_values[key]
                continue
            if key == "range" and text.strip().lower() == "melee":
                text = "0"  # the unit format's melee weapon (`docs/unit-format.md`)
            ok, value = convert(text, properties[key])
            if ok and value is not ABSENT:
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
        column = next((i for i, n in enumerate(names) if n and norm(n) == norm(name)), None)
        if column is None:
            column = nth + 1
        if column >= len(row):
            return None
        text = row[column]
        if random and (average := random_average(text)) is not None:
            text = str(average)
        ok, value = convert(text, schema)
        return value if ok and value is not ABSENT and value is not None else None

    def table_row(self, entry: Option) -> tuple[list[str], list[str]] | None:
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
            # one entry or link as written is read once (an option per place it is reached)
            key = (id(here.defn), id(here.link))
            if key in seen:
                continue
            seen.add(key)
            found += self.profiles_of(here)
            if depth < 2:
                # a group written here is passed over; a link to one is read (as it always was)
                stack += [
                    (c, depth + 1) for c in self.data.children(here) if not (c.is_group and c.link is None)
                ]
        profiles = [p for p in found if p.type_id in self.table_types and p.characteristics]
        if not profiles:
            known = set(self.model_fields)
            profiles = [
                p
                for p in found
                if p.type_id not in self.model_types
                and p.type_id not in self.weapon_types
                and any(norm(n) in known for n, _t, _v in p.characteristics)
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

        crew = any(self.mapping.is_crew_table(self.data.profile_types.get(p.type_id, ("",))[0]) for p in rows)
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
        column = next((i for i, n in enumerate(names) if n and norm(n) == norm(profile.name)), None)
        key = self.weapon_fields.get(norm(starred[0]))
        if column is None or column >= len(row) or key is None or key in values:
            return
        ok, value = convert(row[column], self.weapon_properties[key])
        if ok and value is not ABSENT:
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

    def entry_weapons(self, entry: Option, where: str) -> tuple[list[dict[str, Any]], list[str]]:
        """The weapons an entry brings. Several weapon profiles on one entry (a gun with two
        firing modes) become one weapon with `profiles` where the system's weapon schema has
        that field and accepts the result; otherwise one weapon per profile."""
        built, notes = [], []
        for profile in (p for p in self.profiles_of(entry) if p.type_id in self.weapon_types):
            weapon, extra = self.weapon(profile, where)
            built.append(weapon)
            notes += extra
        if len(built) > 1 and "profiles" in self.weapon_properties:
            combined = {
                **built[0],
                "name": self.data.name(entry)[:120] or built[0]["name"],
                "profiles": built,
            }
            if self.weapon_validator.is_valid(combined):
                return [combined], notes
        return built, notes

    def profiles_of(self, entry: Option) -> list[Profile]:
        linked = [
            found
            for link in self.data.info_links(entry)
            if link.get("type") == "profile"
            and (found := self.data.linked_profile(str(link.get("targetId", "")))) is not None
        ]
        return [p for p in [*self.data.profiles_of(entry), *linked] if not p.hidden]
