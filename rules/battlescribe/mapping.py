"""How one game system's BattleScribe data maps onto its unit format (`BattleScribeMapping`).

Each system declares its own in its package (`rules/systems/<key>/battlescribe.py`) and its
registry entry carries it (`GameSystem.battlescribe`), so the importer (`units`) names no
system and no system's field: it asks the mapping which profile types are a model's profile
and which are weapons, what each characteristic is called in that system's data (community
files spell "Movement", "Mv" and "M" for one field), which cost type is the points and which
other cost types a unit reports (40k's Power Level, "PL"), where an army slot and mundane
items go, and how a characteristic that varies with wounds ("*", see the damage table) or a
random one ("2D6\"") is read.

A system without a mapping is imported by best match alone: characteristics matched to its
profile schema's field keys, titles and descriptions (`units.values.field_names`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any


def norm(text: str) -> str:
    """A name as the mapping compares it: lower-case letters and digits only ("To Hit" = "tohit")."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


@dataclass(frozen=True)
class UnitCost:
    """A cost type besides points that a unit reports as a unit field (40k: PL -> Power Rating).

    `field` takes the cost at the unit's smallest size; `steps_field` (optional) the sizes at
    which it changes (`[{"<steps_models_key>": n, "<steps_key>": value}]`: from n models on,
    the cost is value)."""

    names: tuple[str, ...]
    field: str
    #: The key of the system's price breakdown reporting it (a roster export writes the cost
    #: type of that key, `battlescribe_cost_types`).
    key: str = ""
    steps_field: str = ""
    steps_key: str = ""
    #: The key of a step's model count (`steps_field`).
    steps_models_key: str = ""


#: Names of the cost type that is the points in any system's data ("pts"; Polish "pkt", Czech
#: "body"): the one list both the catalogue import and a roster's reader ask (`is_points`), so
#: a file whose points are named otherwise is not read as costing 0 by one of them. A system
#: declares its own narrower list in its mapping (`points_cost_types`).
POINTS_COST_TYPES: tuple[str, ...] = ("pts", "points", "pt", "point", "pkt", "body")

#: Names whose rule (`BattleScribeMapping.rule_of_selection`) one mapping remembers.
RULE_MEMO_SIZE = 20_000


@dataclass(frozen=True)
class BattleScribeMapping:
    #: Names of the profile types that are a model's profile ("Unit", "Profile", "Model").
    model_profile_types: tuple[str, ...] = ()
    #: Names of the profile types that are weapons ("Weapon").
    weapon_profile_types: tuple[str, ...] = ()
    #: Characteristic name as the data writes it -> field of the model profile.
    characteristics: Mapping[str, str] = field(default_factory=dict)
    #: Characteristic name -> field of a weapon.
    weapon_characteristics: Mapping[str, str] = field(default_factory=dict)
    #: Names of the cost type that is the points ("pts").
    points_cost_types: tuple[str, ...] = POINTS_COST_TYPES
    #: Other cost types a unit reports.
    unit_costs: tuple[UnitCost, ...] = ()
    #: The unit field taking the army slot named by the entry's primary category ("" none).
    slot_field: str = ""
    #: The model field listing equipment taken as items (the unit format's `items`; "" none:
    #: such selections stay text).
    item_field: str = "items"
    #: Profile types holding a table of characteristics that change as the model is wounded
    #: (AoS "Damage Table"): a characteristic written "*" reads the table's first row.
    varying_tables: tuple[str, ...] = ()
    #: Which row of such a table is the unwounded model's: "lowest" first value (AoS: wounds
    #: suffered "0-3") or "highest" (40k: wounds remaining "6-11+").
    table_healthiest: str = "lowest"
    #: Profile types of tables counted by the crew left beside a war machine (AoS "Crew Table",
    #: "Crew within 1\""): whatever `table_healthiest` says, their healthiest row is the one with
    #: the most crew, the row starting highest ("4 models" before "1 model").
    crew_tables: tuple[str, ...] = ()
    #: Model fields a dash ("-") means a number for (40k: A "-" is no attacks, 0).
    dash_values: Mapping[str, int] = field(default_factory=dict)
    #: Model fields whose value may be random ("2D6\""): the average, rounded down, is used
    #: and the written value kept as text.
    random_fields: tuple[str, ...] = ()
    #: Whether a selection named "<N> <name>" stands for N models (AoS 1st data sizes its units
    #: this way: "Bestigors" takes 1-3 of "10 Bestigors"); see `units.sizes.SizeReading.size_by_name`.
    sized_by_name: bool = False
    #: Names of selections or categories that stand for a rule of the same name on the model
    #: that carries them (40k: "Warlord", an upgrade and a category of the game system's data),
    #: so the system's own army rules see what a roster of the engine selected
    #: (`rules.battlescribe_lists.selection_rules`).
    rule_selections: tuple[str, ...] = ()
    #: List settings a roster's configuration decides (40k: the battle size): setting key ->
    #: {words a selection's name holds, case-insensitive: the setting's value}. In a list built
    #: by the roster engine the configuration is the one source of the setting
    #: (`roster_setting_values`); the list's form does not offer it there.
    roster_settings: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: `read(name, text)` -> (model fields, structured abilities) that an ability's text says
    #: about the model itself (40k: "a 4+ invulnerable save"); None: abilities stay text.
    ability_reader: Callable[[str, str], tuple[dict[str, Any], list[dict[str, Any]]]] | None = None
    #: The system's optional army rules (structure option keys) that the BattleScribe data states
    #: itself as constraints (WHFB 6th: "slot_chart", the game system's Lords/Core/Special/Rare
    #: limits by points): off on a list the roster engine builds, so one limit is reported
    #: once, in the data's own figures (`rules.battlescribe_lists.data_stated_rules`).
    data_rules: tuple[str, ...] = ()
    #: The reverse: whether the system's own army rules judge how much of the army's points
    #: each category may take (the Russian house rules: the 8th-edition percentage chart, with
    #: the book's limits, which BSData's 8th-edition game system does not all have). On a list
    #: the roster engine builds, the data's percentage-of-the-points-limit constraints on
    #: categories then give no errors of their own: one broken limit, one message, the
    #: system's, which names the percentage (`rules.battlescribe_lists.list_roster`).
    system_point_shares: bool = False
    #: The editions of BattleScribe game systems this system's rules are for (keys of
    #: `rules.battlescribe.editions.EDITIONS`): data of another known edition is refused by the
    #: import, with the reason; a game system of no known edition is imported as before.
    editions: tuple[str, ...] = ()

    def is_model_type(self, name: str) -> bool:
        return norm(name) in {norm(n) for n in self.model_profile_types}

    def is_weapon_type(self, name: str) -> bool:
        return norm(name) in {norm(n) for n in self.weapon_profile_types}

    def is_table_type(self, name: str) -> bool:
        key = norm(name)
        return any(norm(n) in key for n in self.varying_tables)

    def is_crew_table(self, name: str) -> bool:
        key = norm(name)
        return any(norm(n) in key for n in self.crew_tables)

    def is_points(self, cost_type_name: str) -> bool:
        """Whether a cost type of this name is the points (`points_cost_types`, or the common
        `POINTS_COST_TYPES` when the system names none)."""
        return norm(cost_type_name) in {norm(n) for n in self.points_cost_types or POINTS_COST_TYPES}

    def points_type(self, cost_types: Mapping[str, str]) -> str | None:
        """The id of the points cost type among `cost_types` ({id: name}, in the data's order),
        else None."""
        return next((type_id for type_id, name in cost_types.items() if self.is_points(name)), None)

    def rule_of_selection(self, name: str) -> str | None:
        """The rule a selection or category of this name stands for (`rule_selections`), else None.

        Asked for every selection of a roster at each change, so answers are remembered by name
        (the names are the catalogues'; the memo is emptied past `RULE_MEMO_SIZE`)."""
        if not self.rule_selections:
            return None
        memo: dict[str, str | None] = self.__dict__.setdefault("_rule_memo", {})
        if name not in memo:
            if len(memo) >= RULE_MEMO_SIZE:
                memo.clear()
            key = norm(name)
            memo[name] = next((rule for rule in self.rule_selections if norm(rule) == key), None)
        return memo[name]

    def roster_setting_values(self, names: Iterable[str]) -> dict[str, str]:
        """The list settings (`roster_settings`) that selections of these names decide: for each
        setting, the value of the first of its words found in a name ("3. Strike Force (101-200
        Total PL / 1001-2000 Points)" holds "strike force")."""
        found: dict[str, str] = {}
        lowered = [name.casefold() for name in names]
        for key, table in self.roster_settings.items():
            for words, value in table.items():
                if any(words.casefold() in name for name in lowered):
                    found[key] = value
                    break
        return found

    def cost_type_name(self, key: str) -> str:
        """The cost type name a roster file writes for the price key `key`: the points
        ("points") are the first of `points_cost_types` ("pts"), another cost is the first name
        of the unit cost reporting it (40k's "power": "PL"); an unknown key is itself."""
        if key == "points":
            return (self.points_cost_types or POINTS_COST_TYPES)[0]
        cost = next((c for c in self.unit_costs if key in (c.key, c.field)), None)
        return cost.names[0] if cost is not None and cost.names else key

    def unit_cost(self, cost_type_name: str) -> UnitCost | None:
        key = norm(cost_type_name)
        return next((c for c in self.unit_costs if key in {norm(n) for n in c.names}), None)


#: What a system without a declared mapping gets: best match by its schema alone.
DEFAULT = BattleScribeMapping()


def random_average(text: str) -> int | None:
    """The average of a dice expression ("2D6\"" -> 7, "D3+1" -> 3), rounded down; None if
    `text` is not one."""
    found = re.fullmatch(r"\s*(\d*)\s*[dD](3|6)\s*(?:\+\s*(\d+))?\s*(?:\"|''|”|in)?\s*", text)
    if not found:
        return None
    dice = int(found.group(1) or 1)
    sides = int(found.group(2))
    return int(dice * (sides + 1) / 2) + int(found.group(3) or 0)
