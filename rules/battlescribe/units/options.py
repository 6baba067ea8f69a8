"""A unit's options: optional entries as upgrades with their limits, a group's alternatives as
replacements of its default, prices taken as BattleScribe adds them (per model where they scale
with the unit's size), and the entries a unit always carries.

A part of `UnitMapper` (`mapper`): its methods read the mapper's data and mapping, and the
engine's selection of the unit (`smallest.UnitSelection`).
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import closing
from fractions import Fraction
from typing import Any

from rules.battlescribe.catalogue import shown
from rules.battlescribe.engine.model import Option
from rules.battlescribe.units.data import Node
from rules.battlescribe.units.limits import (
    MAX_OPTION_COUNT,
    PER_MODEL_PROBES,
    STATIC_CONDITIONS,
    limits_nothing,
)
from rules.battlescribe.units.values import slug


class OptionReading:
    """A unit's options of a unit being mapped (a part of `UnitMapper`)."""

    def fix_replacements(
        self, models: list[dict[str, Any]], options: list[dict[str, Any]], where: str
    ) -> None:
        """A "replace the default" option whose weapon the named model does not carry at the
        smallest selection (the default sits on another model of the unit, or deeper than the
        unit's minimum reaches): pointed at the model that carries it, else offered as an added
        weapon, with a warning; so one such option does not cost the unit."""
        for option in options:
            if option.get("kind") != "replace_weapon":
                continue
            old = option["payload"].get("replace")
            named = [m for m in models if not option.get("applies_to") or m["name"] == option["applies_to"]]
            if any(any(w.get("name") == old for w in m.get("weapons") or []) for m in named):
                continue
            carrier = next(
                (m for m in models if any(w.get("name") == old for w in m.get("weapons") or [])), None
            )
            if carrier is not None:
                option["applies_to"] = carrier["name"]
                continue
            new = option["payload"].get("with")
            weapons = [new] if isinstance(new, Mapping) else list(new or [])
            self.warn(
                where,
                f"{option.get('label')}: replaces {old!r}, which no model carries at the smallest "
                "selection; offered as an added weapon",
            )
            payload = {k: v for k, v in option["payload"].items() if k not in ("replace", "with")}
            if len(weapons) == 1:
                option.update(kind="add_weapon", payload={**payload, "weapon": weapons[0]})
            else:
                option.update(
                    kind="add_item",
                    payload={**payload, "item": {"name": str(option.get("label"))[:120], "kind": "mundane"}},
                )

    def mandatory(self, node: Node, model: dict[str, Any], abilities, notes, where: str) -> None:
        """A default or required selection: its weapons and items go onto the model."""
        entry = node.entry
        weapons, extra = self.entry_weapons(entry, where)
        model.setdefault("weapons", []).extend(weapons)
        notes += extra
        items = self.mapping.item_field
        if not weapons and items and items in self.properties and entry.type != "model":
            model.setdefault(items, []).append({"name": self.data.name(entry)[:120], "kind": "mundane"})
        self.collect_text(entry, abilities, notes)
        for rule_name, text in self.rules_of(entry):
            self.add_rule([], model, rule_name, text, abilities)
        for child in node.children:
            self.mandatory(child, model, abilities, notes, where)

    def option(
        self,
        entry: Option,
        parent: Node,
        root: Node,
        applies_to,
        group: str,
        cost: Fraction,
        high: int,
        replaces: str | None,
    ) -> dict[str, Any]:
        """`entry` as an option taken at most `high` times; on a model entry `high` is per
        model (`payload.max_per_model`), so the limit follows the unit's size."""
        option: dict[str, Any] = {
            "key": f"opt-{slug(self.data.unit_id(entry), 60)}",
            "label": self.data.name(entry)[:200] or "Option",
            "group": group[:120],
            "applies_to": applies_to or "",
            "max": max(1, min(high, MAX_OPTION_COUNT)),
        }
        if self.catalogue_points:
            option["cost"] = self.integer(cost, self.data.path(entry))
        built = self.entry_weapons(entry, self.data.path(entry))[0]
        if replaces and built:
            option.update(kind="replace_weapon", payload={"replace": replaces, "with": built})
        elif len(built) == 1:
            option.update(kind="add_weapon", payload={"weapon": built[0]})
        elif self.mapping.item_field and self.mapping.item_field in self.properties:
            option.update(
                kind="add_item", payload={"item": {"name": self.data.name(entry)[:120], "kind": "mundane"}}
            )
            if len(built) > 1:
                self.warn(
                    self.data.path(entry), f"{len(built)} weapon profiles in one option; taken as an item"
                )
        else:
            return {}
        if applies_to is None:
            option["payload"]["all"] = True
        models = self._model_max.get(id(parent))
        if models is not None:
            option["payload"]["max_per_model"] = high
            option["max"] = max(1, min(high * models, MAX_OPTION_COUNT))
        if (
            applies_to is not None
            and high > 1
            and option["kind"] in ("add_item", "add_weapon", "replace_weapon")
        ):
            # One model taking it several times: runes (up to 3 of one rune on a weapon),
            # a Tyrant's two Sword Gnoblars, a War Walker's two heavy weapons
            # (`rules.options`, "Stacking").
            option["payload"]["stacks"] = True
        return option

    def per_model_option(
        self,
        option: dict[str, Any],
        entry: Option,
        default: Option | None,
        cost: Fraction,
        node: Node,
        root: Node,
    ) -> None:
        """Make `option` a per-model one (`payload.per_model`, see `rules.options`) when
        BattleScribe's price for it grows with the unit's size.

        Community WHFB data writes "+2 pts per model" as an upgrade of the unit costing 0 with
        `increment 2` repeated per `selections` of `model` in `parent`; other data repeats per
        a named model entry. Whatever the construct, the option is priced in the unit at its
        minimum and at larger sizes (`PER_MODEL_PROBES`): if the price is the same number of
        points for each model counted (every model of the unit, or the models of the profile
        that grows), that number is the option's per-model cost, so a list pays it for as many
        models as the unit has. A price that changes with size some other way ("+5 per 5
        models") stays the minimum size's, with a warning.
        """
        if node is not root or "cost" not in option or not self._growth or self._unit_entry is None:
            return
        self._per_model.append((option, entry, default, cost))

    def settle_per_model(self) -> None:
        """Decide each option `per_model_option` set aside: its prices at the larger sizes are
        taken in one trial of the unit per size (`UnitSelection.sizes`), all options at once."""
        pending, self._per_model = self._per_model, []
        if not pending:
            return
        grown, high = self._growth[0]
        sizes = [grown.count + step for step in PER_MODEL_PROBES if grown.count + step <= high]
        later: list[dict[int, Fraction]] = [{} for _ in pending]
        with closing(self._selection.sizes(grown, sizes)) as steps:
            for n in steps:
                for prices, (_option, entry, default, _cost) in zip(later, pending, strict=True):
                    price = self._selection.price(entry, self._selection.root, self.points_id)
                    if default is not None:
                        price -= self._selection.price(default, self._selection.root, self.points_id)
                    prices[n] = price
        for prices, (option, entry, _default, cost) in zip(later, pending, strict=True):
            self._decide_per_model(option, entry, cost, grown, prices)

    def _decide_per_model(
        self, option: dict[str, Any], entry: Option, cost: Fraction, grown: Node, later: dict[int, Fraction]
    ) -> None:
        root = self._selection.root
        if all(value == cost for value in later.values()):
            return
        models_at_min = sum(child.count for child in root.children if child.entry.type == "model")
        counters = (
            (self._names[id(grown)], 0),
            ("", models_at_min - grown.count),  # every model: the others stay at their minimum
        )
        for applies_to, others in counters:
            each = cost / (grown.count + others)
            if each and each.denominator == 1 and all(v == each * (n + others) for n, v in later.items()):
                option["cost"] = int(each)
                option["applies_to"] = applies_to
                option["payload"]["per_model"] = True
                return
        self.warn(
            self.data.path(entry),
            f"its price changes with the unit's size ({cost} at {grown.count}, "
            + ", ".join(f"{v} at {n}" for n, v in later.items())
            + ") but not per model; priced at the minimum size only",
        )

    #: Options whose price may be per model, decided by `settle_per_model`.
    _per_model: list[tuple[dict[str, Any], Option, Option | None, Fraction]] = []

    @staticmethod
    def _static(m) -> bool:
        """A modifier whose conditions only ask what the unit *is* (`instanceOf` a category or
        entry), never what it holds: the same for every list, so it can be applied at import."""

        def group_static(g) -> bool:
            return all(c.type in STATIC_CONDITIONS for c in g.conditions) and all(
                group_static(sub) for sub in g.groups
            )

        conditions = [c for own, _groups in m.guards for c in own]
        groups = [g for _own, own_groups in m.guards for g in own_groups]
        return (
            bool(conditions or groups)
            and not m.repeats
            and all(c.type in STATIC_CONDITIONS for c in conditions)
            and all(group_static(g) for g in groups)
        )

    def offered(self, entry: Option, node: Node | None = None, root: Node | None = None) -> bool:
        """Whether BattleScribe can show `entry` in this unit. `hidden` and the `set hidden`
        modifiers that only ask what the unit is (community data hides "Arcane Items" from
        non-wizards with `notInstanceOf Wizard`) are applied; an entry that other modifiers may
        show or hide is offered always, with a warning (their conditions depend on the list)."""
        hidden = entry.hidden
        dynamic = []
        for m in entry.modifiers:
            if m.field != "hidden" or m.type != "set":
                continue
            if node is not None and root is not None and self._static(m):
                if self._selection.holds(m, node):
                    hidden = m.value.strip().lower() == "true"
            else:
                dynamic.append(m)
        unhide = [m for m in dynamic if m.value.strip().lower() == "false"]
        if hidden and not unhide:
            self.warn(self.data.path(entry), "hidden in BattleScribe for this unit; not offered")
            return False
        if hidden:
            self.warn(
                self.data.path(entry), "hidden in BattleScribe unless its conditions hold; offered always"
            )
        elif any(m.value.strip().lower() == "true" for m in dynamic):
            self.warn(
                self.data.path(entry), "hidden in BattleScribe when its conditions hold; offered always"
            )
        return True

    def cost_limits(self, entry: Option, notes: list) -> None:
        """Limits on a cost (e.g. "at most 50 pts of magic items") have no place in the unit
        format: kept as text and reported."""
        for c in entry.constraints:
            if c.field in self.data.cost_types and not limits_nothing(c.type, c.value):
                name = self.data.cost_types[c.field]
                notes.append(
                    f"{self.data.name(entry)}: {c.type} {shown(c.value)} {name.strip()} per {c.scope}"
                )
                limit = f"{c.type} {shown(c.value)} {name.strip()} per {c.scope}"
                self.warn(self.data.path(entry), f"limit {limit} is kept as text")

    def options_for(
        self, entry: Option, node: Node, root: Node, applies_to, options: list, notes: list, group: str = ""
    ) -> None:
        """Upgrade options of `entry` (a model, the unit, or an optional container such as
        "Magic Items"): optional entries, group alternatives, and what optional entries hold."""
        taken = {self.data.entry_id(child.entry) for child in node.children}
        for child in self.data.children(entry):
            if child.type == "model":
                continue
            if child.is_group:
                self.group_options(child, node, root, applies_to, options, notes)
                continue
            if (self._selection.limit(child, "min", node) or 0) > 0 or self.data.entry_id(child) in taken:
                continue
            if not self.offered(child, node, root):
                continue
            self.cost_limits(child, notes)
            high = self._selection.limit(child, "max", node)
            if high is None:
                high = 1
                self.warn(self.data.path(child), "optional entry without a maximum; offered once per model")
            cost = self._selection.price(child, node, self.points_id)
            container = (
                self.data.has_children(child) and not self.entry_weapons(child, self.data.path(child))[0]
            )
            if not (container and cost == 0):  # a free container ("Magic Items") is only its contents
                option = self.option(child, node, root, applies_to, group, cost, high, None)
                if option:
                    if group:  # the selections of one entry: each has its own limit, none in all
                        option["payload"]["group_max"] = None
                    self.per_model_option(option, child, None, cost, node, root)
                    options.append(option)
                else:
                    notes.append(f"option not mapped: {self.data.name(child)}")
                    self.warn(
                        self.data.path(child),
                        "an option with no weapon cannot be offered in this system; kept as text",
                    )
            if self.data.has_children(child):
                self.nested_options(child, node, root, applies_to, options, notes)

    def nested_options(
        self, entry: Option, node: Node, root: Node, applies_to, options: list, notes: list
    ) -> None:
        """The selections inside an optional entry, offered as options of the unit (grouped under
        the entry's name) and priced as if the entry were taken; that they need the entry is
        kept as text."""
        before = len(options)
        with self._selection.holding(entry, node) as holder:
            self.options_for(entry, holder, root, applies_to, options, notes, group=self.data.name(entry))
        if len(options) > before:
            notes.append(f"options under {self.data.name(entry)!r} need {self.data.name(entry)!r} taken")
            self.warn(
                self.data.path(entry),
                "its selections are offered as options of the unit; that they "
                "need this entry is kept as text",
            )

    def group_options(
        self,
        group: Option,
        node: Node,
        root: Node,
        applies_to,
        options: list,
        notes: list,
        depth: int = 0,
    ) -> None:
        """The members of a selection-entry group as options sharing its name. The group's own
        maximum becomes the option group's cap (`payload.group_max`, see `rules.options`);
        a group without one caps nothing, so BattleScribe's "Command" (champion, standard,
        musician) or "Equipment" (shields and light armour) members combine."""
        members = self.data.children(group)
        if not self.offered(group, node, root):
            return
        self.cost_limits(group, notes)
        group_min = self._selection.limit(group, "min", node) or 0
        group_max = self.group_cap(group, node, root, notes)
        if group_max == 0:
            self.warn(self.data.path(group), "at most 0 of it for this unit; not offered")
            return
        default = self._selection.default_member(group, members, node) if group_min > 0 else None
        default_cost = self._selection.price(default, node, self.points_id) if default else Fraction(0)
        replaced = None
        if default is not None:
            weapons = self.entry_weapons(default, self.data.path(default))[0]
            replaced = weapons[0]["name"] if weapons else None
        if group_max is not None and any(m.is_group for m in members):
            self.warn(
                self.data.path(group),
                f"at most {group_max} across its inner groups is not enforced; kept as text",
            )
            notes.append(f"{self.data.name(group)}: at most {group_max} in all")
        for member in members:
            if member.is_group:  # "Magic Items" holding "Magic Weapons", "Talismans"...
                if depth < 8:
                    self.group_options(member, node, root, applies_to, options, notes, depth + 1)
                continue
            if member is default or member.type == "model":
                continue
            if not self.offered(member, node, root):
                continue
            high = self._selection.limit(member, "max", node) or group_max or 1
            if group_max is not None:
                high = min(high, group_max)
            cost = self._selection.price(member, node, self.points_id) - default_cost
            if default is not None and replaced is None:
                self.warn(
                    self.data.path(member),
                    "replaces a default that is not a weapon; offered as an extra item",
                )
            option = self.option(member, node, root, applies_to, self.data.name(group), cost, high, replaced)
            if option:
                # On a model entry the cap is per model: at most the largest unit's worth here;
                # `_split` in `rules.options` keeps a cap of 1 exact (each model one member).
                option["payload"]["group_max"] = (
                    None if group_max is None else group_max * self._model_max.get(id(node), 1)
                )
                self.per_model_option(option, member, default, cost, node, root)
                options.append(option)
            else:
                self.warn(
                    self.data.path(member),
                    "an option with no weapon cannot be offered in this system; kept as text",
                )
            if self.data.has_children(member):
                self.nested_options(member, node, root, applies_to, options, notes)

    def group_cap(self, group: Option, node: Node, root: Node, notes: list) -> int | None:
        """The group's maximum at the unit's smallest selection, or, where modifiers raise it
        when other selections are made (community WHFB data: "Arcane Items" at most 0, +1 when
        the Plague Priest is a wizard, +1 per Dispel Scroll), the most those modifiers can give,
        with a note that BattleScribe's limit depends on the list."""
        now = self._selection.limit(group, "max", node)
        ceiling = self._selection.ceiling(group, "max", node)
        if now is None or ceiling is None or ceiling <= now:
            return now
        notes.append(
            f"{self.data.name(group)}: at most {now}, up to {ceiling} with the selections that raise it"
        )
        self.warn(
            self.data.path(group),
            f"at most {now} at the smallest selection and up to {ceiling} when other selections "
            "raise it; offered up to the higher limit",
        )
        return ceiling
