"""A unit's models and sizes: each model at its smallest legal count, the models a unit can add (per
model or by a numbered selection, "10 Bestigors"), and the price of each size where BattleScribe's
is not per model.

A part of `UnitMapper` (`mapper`): its methods read the mapper's data and mapping, and the
engine's selection of the unit (`smallest.UnitSelection`).
"""

from __future__ import annotations

import re
from contextlib import closing
from fractions import Fraction
from typing import Any

from rules.battlescribe.engine.model import Option
from rules.battlescribe.units.data import Node
from rules.battlescribe.units.limits import (
    MAX_OPTION_COUNT,
    MAX_SIZE_PRICES,
    UNBOUNDED_GROWTH,
)
from rules.battlescribe.units.values import slug
from rules.option_labels import LABEL_PARTS, generated_label_parts


class SizeReading:
    """A unit's models and sizes of a unit being mapped (a part of `UnitMapper`)."""

    def size_by_name(
        self,
        entry: Option,
        root: Node,
        models: list[dict[str, Any]],
        holders: list[Node],
        options: list[dict[str, Any]],
    ) -> tuple[dict[str, tuple[int, str]], Fraction | None]:
        """Unit sizes of data whose models are counted in the name of a selection (AoS 1st:
        "Bestigors" takes 1 to 3 of "10 Bestigors", an upgrade; "Gutter Runners" 1 to 4 of
        "5 Gutter Runners", a model entry). The rule (`mapping.sized_by_name`): the first
        selection of the unit, a model or an upgrade taken at least once at the smallest size,
        whose name starts with a number N stands for N models per selection. Its model (the
        entry itself, or the unit's only model when it is an upgrade) then has N x the
        selections taken at the minimum as its count, and an add-models option adding N models
        per take, up to the entry's maximum.

        Prices follow BattleScribe's, wherever the data puts them (on the unit, raised by a
        modifier per selection, or on the numbered entry): one more selection costs `step`
        (BattleScribe's price one selection up, less the smallest unit's), so a model costs
        step / N and the rest of the smallest unit's price is the unit's fixed part. A step that
        is no whole number of points per model (3 models for 160) keeps the models at 0 and
        prices the option itself (`cost`: the step per take). A unit whose larger sizes do not
        cost a step each (AoS 1st: the largest is cheaper, Bestigors 30 are 360, not 3 x 140,
        whether a modifier takes points off the unit or off each numbered selection when the
        count reaches its maximum) keeps its models at 0 and its option carries BattleScribe's
        price of every size (`payload.costs`, `rules.options` "Prices by count"); only one whose
        sizes cannot be priced so (a fraction of a point, more than `MAX_SIZE_PRICES` sizes) is
        exact up to its first irregular size, with a warning. Returns {model name: (N, the size
        entry's id)} of the models resized, and the unit's fixed points (None: unchanged)."""
        where = self.data.path(entry)
        found: tuple[Node, int, str] | None = None
        for node in root.children:
            named = re.match(r"\s*(\d+)\s*x?\s+(\S.*)$", self.data.name(node.entry))
            sizing = node.entry.type in ("model", "upgrade") and node.count >= 1
            if named and sizing and int(named.group(1)) >= 1:
                found = (node, int(named.group(1)), named.group(2).strip())
                break
        if found is None:
            return {}, None
        node, per, rest = found
        if node in holders:
            index = holders.index(node)
        elif len(models) == 1 and holders == [root]:
            index = 0
        else:
            return {}, None
        model = models[index]
        old_name = model["name"]
        selections = node.count
        model["count"] = per * selections
        name = rest[:120] if node in holders else old_name
        base = self._selection.total(self.points_id)
        high = self._selection.room(node, root)
        grows = high is not None and high > selections
        step = base / selections
        # What each size costs over the smallest (BattleScribe's price at that many selections)
        steps: list[Fraction] = []
        if grows:
            top = min(high, selections + MAX_SIZE_PRICES)
            with closing(self._selection.sizes(node, range(selections + 1, top + 1))) as sized:
                steps = [self._selection.cost(self.points_id) - base for _n in sized]
            step = steps[0]
        by_count = any(s != step * k for k, s in enumerate(steps, 1))
        unpriceable = high is not None and high > selections + MAX_SIZE_PRICES
        if by_count and (unpriceable or any(s.denominator != 1 for s in steps) or not self.catalogue_points):
            k, off = next((k, s) for k, s in enumerate(steps, 1) if s != step * k)
            self.warn(
                where,
                f"{per * (selections + k)} {name} cost {base + off} in BattleScribe, not {base + k * step}; "
                f"only the sizes up to {per * (selections + k - 1)} are exact",
            )
            by_count = False
        others = sum((m.get("points", 0) or 0) * m["count"] for m in models if m is not model)
        each = step / per
        option_cost: int | None = None
        fixed: Fraction | None = None
        if self.catalogue_points:
            if by_count:  # a size priced apart (cheaper at the largest): the option carries it
                model["points"] = 0
                fixed = base - Fraction(str(others))
                option_cost = int(step)
            elif each.denominator == 1 or Fraction(str(float(each))) == each:
                model["points"] = self.per_model(each, where)
                fixed = base - each * model["count"] - Fraction(str(others))
            else:
                model["points"] = 0
                fixed = base - Fraction(str(others))
                if step.denominator == 1:
                    option_cost = int(step)
        options[:] = [
            o for o in options if not (o.get("kind") == "add_models" and o.get("applies_to") == old_name)
        ]
        for option in options:
            if option.get("applies_to") == old_name:
                option["applies_to"] = name
        model["name"] = name
        if model.get(self.mapping.item_field or "items"):  # the size selection is no equipment
            kept = [
                i for i in model[self.mapping.item_field] if i.get("name") != self.data.name(node.entry)[:120]
            ]
            if kept:
                model[self.mapping.item_field] = kept
            else:
                del model[self.mapping.item_field]
        self._growth[:] = [g for g in self._growth if g[0] is not node]
        if grows:
            grow: dict[str, Any] = {
                "key": f"more-{slug(name, 70)}",
                "label": f"Add {per} {name} (up to {per * high})",
                "kind": "add_models",
                "applies_to": name,
                "payload": {"count": per, LABEL_PARTS: generated_label_parts(name, per * high, per)},
                "max": min(high - selections, MAX_OPTION_COUNT),
            }
            if option_cost is not None:
                grow["cost"] = option_cost
            if by_count:
                grow["payload"]["costs"] = [int(s) for s in steps]
            options.append(grow)
        self.warn(
            where,
            f"{self.data.name(node.entry)!r} counts {per} models per selection: {model['count']} models "
            f"at the smallest size" + (f", up to {per * high}" if high else ""),
        )
        return {name: (per, self.data.unit_id(node.entry))}, fixed

    def model(self, node, root, unit_profiles, abilities, notes, options, growth) -> dict[str, Any] | None:
        entry = node.entry
        where = self.data.path(entry)
        own = [p for p in self.profiles_of(entry) if p.type_id in self.model_types]
        inherited = [p for p in unit_profiles if p.type_id in self.model_types]
        profiles = own or inherited
        if len(profiles) > 1 and all(re.search(r"\[(\d+)\]", p.name) for p in profiles):
            # 40k wound brackets as profiles, "Rhino [1] (6+ wounds remaining)", "Rhino [2] ...":
            # the unwounded one first
            profiles = sorted(profiles, key=lambda p: int(re.search(r"\[(\d+)\]", p.name).group(1)))
        if not profiles and node is root:
            # A war machine written as a unit whose profiles sit on its required upgrade
            # ("Hobgoblin Bolt Thrower": machine and crew on a min-1 child): take them from there.
            profiles = [
                p
                for child in list(node.walk())[1:]
                for p in self.profiles_of(child.entry)
                if p.type_id in self.model_types
            ]
        if not profiles:
            # Points-only catalogues (many community WHFB lists) and some AoS warscrolls carry
            # no profile at all: the model is imported without characteristics and the unit
            # is marked as having none (`profile_in_source: false`), so it is listed, priced
            # and shown with its rules, but never estimated.
            self.warn(where, "no profile of the system's model type; imported without characteristics")
            self._unprofiled.append(self.data.name(entry))
        if len(profiles) > 1:
            self.warn(where, f"{len(profiles)} model profiles; the first is used, the others kept as text")
            for extra in profiles[1:]:
                abilities.append(
                    {"name": extra.name, "text": "; ".join(f"{n}: {v}" for n, _t, v in extra.characteristics)}
                )
        values: dict[str, Any] = {}
        if profiles:
            table = self.table_row(entry) or (self.table_row(self._unit_entry) if self._unit_entry else None)
            self._table = table
            values, kept = self._characteristics(
                profiles[0], self.model_fields, self.properties, where, table
            )
            if kept:
                notes.append(f"{profiles[0].name}: " + "; ".join(kept))
            lacking = [k for k in self.required if values.get(k) is None]
            if lacking:
                self.warn(
                    where,
                    f"{profiles[0].name}: no {', '.join(lacking)} in the data; imported without "
                    "a complete profile",
                )
                self._unprofiled.append(self.data.name(entry))
        count = node.count if node is not root else 1
        model: dict[str, Any] = {
            "name": (self.data.name(entry) if node is not root or not profiles else profiles[0].name)[:120]
            or "Model"
        }
        model["count"] = count
        model.update(values)
        if self.catalogue_points:
            below = (
                self._selection.total(self.points_id, below=node)
                if node is not root
                else (self._selection.total(self.points_id))
            )
            model["points"] = self.per_model(below / count, where)
        model["weapons"] = []
        self.collect_text(entry, abilities, notes)
        for profile in self.profiles_of(entry):
            if profile.type_id in self.weapon_types:
                weapon, extra = self.weapon(profile, where)
                model["weapons"].append(weapon)
                notes += extra
        for rule_name, text in self.rules_of(entry):
            self.add_rule([], model, rule_name, text, abilities)
        for child in node.children:
            self.mandatory(child, model, abilities, notes, where)
        if node is not root:
            low = self._selection.limit(entry, "min", root) or node.count
            high = self._selection.room(node, root)
            if "min_count" in self.properties:
                model["min_count"] = low
            if high is not None and "max_count" in self.properties and high >= 1:
                model["max_count"] = max(high, low)
            if high is None:
                high = node.count + UNBOUNDED_GROWTH
                self.warn(where, f"the model has no maximum; the unit is offered up to {high} of them")
            if high > node.count:
                growth.append((node, high))
                options.append(
                    {
                        "key": f"more-{slug(model['name'], 70)}",
                        "label": f"Add {model['name']} (up to {high})",
                        "kind": "add_models",
                        "applies_to": model["name"],
                        "payload": {"count": 1, LABEL_PARTS: generated_label_parts(model["name"], high)},
                        "max": min(high - node.count, MAX_OPTION_COUNT),
                    }
                )
            self._model_max[id(node)] = max(high, node.count)
        self.options_for(entry, node, root, model["name"], options, notes)
        return model

    def per_model(self, value: Fraction, where: str) -> int | float:
        if value.denominator == 1:
            return int(value)
        as_float = float(value)
        if Fraction(str(as_float)) != value:
            self.warn(where, f"per-model cost {value} is not a terminating decimal; stored as {as_float}")
        return as_float

    def _size_option(
        self, unit: dict[str, Any], node: Node, high: int, options: list[dict[str, Any]]
    ) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The model of `node` and its add-models option, when `price_sizes` can price the unit's
        sizes on that option (at most `MAX_SIZE_PRICES` of them, the option not priced yet)."""
        name = self._names.get(id(node))
        model = next((m for m in unit["models"] if m["name"] == name), None)
        grow = next(
            (
                o
                for o in options
                if o.get("kind") == "add_models"
                and o.get("applies_to") == name
                and (o.get("payload") or {}).get("count") == 1
                and "model" not in (o.get("payload") or {})
            ),
            None,
        )
        if model is None or grow is None or grow.get("cost") is not None:
            return None
        if high - node.count > MAX_SIZE_PRICES:
            return None
        return model, grow

    def last_size_priced(
        self, unit: dict[str, Any], node: Node, high: int, options: list[dict[str, Any]]
    ) -> int | None:
        """The largest size `price_sizes` reads (None: it reads none)."""
        found = self._size_option(unit, node, high, options)
        return None if found is None else node.count + int(found[1]["max"])

    def price_sizes(
        self,
        entry: Option,
        root: Node,
        unit: dict[str, Any],
        node: Node,
        high: int,
        options: list[dict[str, Any]],
        points_at: dict[int, Fraction] | None = None,
    ) -> bool:
        """Price every size of a unit growing by `node`'s model as BattleScribe does, when its
        price is not the model's per-model one: the model costs 0, its points at the smallest
        size join the unit's fixed part, and its add-models option costs each size's price over
        the smallest (`cost`, and `payload.costs` when the steps differ, `rules.options`
        "Prices by count"). False (nothing changed) when the sizes cannot be priced so: more
        than `MAX_SIZE_PRICES` of them, a fraction of a point, or no such option. `points_at`:
        the unit's points at sizes already swept (`CostReading.power`); the others are read
        here (`UnitSelection.sizes`)."""
        found = self._size_option(unit, node, high, options)
        if found is None:
            return False
        model, grow = found
        base = self._selection.total(self.points_id)
        top = node.count + int(grow["max"])
        wanted = range(node.count + 1, top + 1)
        points_at = points_at or {}
        if any(n not in points_at for n in wanted):
            with closing(self._selection.sizes(node, wanted)) as sized:
                points_at = {n: self._selection.cost(self.points_id) for n in sized}
        steps = [points_at[n] - base for n in wanted]
        if any(s.denominator != 1 for s in steps):
            return False
        fixed = Fraction(str(model.get("points", 0) or 0)) * model["count"]
        if fixed.denominator != 1:
            return False
        model["points"] = 0
        upgrades = unit.setdefault("upgrades", [])
        record = next((u for u in upgrades if u["key"] == "unit"), None)
        if record is None:
            upgrades.append({"key": "unit", "label": "Unit", "count": 1, "cost": int(fixed)})
        else:
            record["cost"] += int(fixed)
        grow["cost"] = int(steps[0])
        if any(s != steps[0] * k for k, s in enumerate(steps, 1)):
            grow["payload"]["costs"] = [int(s) for s in steps]
        return True
