"""A unit's costs: whole points, the system's other unit costs (40k's Power) at the smallest size and
at each size where they change, and the check that the unit's price in the system equals
BattleScribe's.

A part of `UnitMapper` (`mapper`): its methods read the mapper's data and mapping, and the
engine's selection of the unit (`smallest.UnitSelection`).
"""

from __future__ import annotations

from contextlib import closing
from fractions import Fraction
from typing import Any

from rules.battlescribe.engine.model import Option
from rules.battlescribe.units.data import Node
from rules.battlescribe.units.limits import (
    MAX_SIZE_SWEEP,
)


class CostReading:
    """A unit's costs of a unit being mapped (a part of `UnitMapper`)."""

    def power(
        self,
        entry: Option,
        root: Node,
        unit: dict[str, Any],
        growth: list[tuple[Node, int]],
        options: list[dict[str, Any]],
    ) -> None:
        """The system's other unit costs (40k Power) at the minimum and the size steps where
        they change; points checked per size: where BattleScribe's price of a larger size is
        not the per-model one (AoS chariots priced on the unit, a modifier adding the price of
        each model), `price_sizes` moves the model's price onto its add-models option."""
        for cost, type_id in self.unit_costs:
            unit[cost.field] = self.integer(self._selection.total(type_id), self.data.path(entry))
        if not growth:
            return
        if len(growth) > 1 and self.unit_costs:
            self.warn(
                self.data.path(entry), "several model profiles can grow; cost steps follow the first only"
            )
        node, high = growth[0]
        base_models = sum(m["count"] for m in unit["models"])
        base_points = self._selection.total(self.points_id)
        per_model = self._selection.total(self.points_id, below=node) / node.count
        steps: dict[str, list[dict[str, Any]]] = {c.field: [] for c, _t in self.unit_costs}
        last = {c.field: unit.get(c.field) for c, _t in self.unit_costs}
        sizes = range(node.count + 1, min(high, node.count + MAX_SIZE_SWEEP) + 1)
        swept = [t for c, t in self.unit_costs if c.steps_field]
        if self.catalogue_points:
            swept.append(self.points_id)
        # The unit's points at each size swept: once they leave the per-model line (`off`), the
        # sizes `price_sizes` prices are read in the same sweep, up to the last it needs.
        points_at: dict[int, Fraction] = {}
        off: tuple[int, Fraction] | None = None
        last_priced: int | None = None
        with closing(self._selection.sizes(node, sizes)) as sized:
            for n in sized:
                values = self._selection.costs(swept)
                if off is not None:
                    points_at[n] = values[self.points_id]
                    if last_priced is None or n >= last_priced:
                        break
                    continue
                for cost, type_id in self.unit_costs:
                    if not cost.steps_field:
                        continue
                    value = self.integer(values[type_id], self.data.path(entry))
                    if value != last[cost.field]:
                        steps[cost.field].append(
                            {cost.steps_models_key: base_models + n - node.count, cost.steps_key: value}
                        )
                        last[cost.field] = value
                if self.catalogue_points:
                    points = points_at[n] = values[self.points_id]
                    if points != base_points + per_model * (n - node.count):
                        off = (n, points)
                        last_priced = self.last_size_priced(unit, node, high, options)
                        if last_priced is None or n >= last_priced:
                            break
        if off is not None and not self.price_sizes(entry, root, unit, node, high, options, points_at):
            n, points = off
            self.warn(
                self.data.path(entry),
                f"at {n} {self.data.name(node.entry)} BattleScribe prices {points}, not the per-model "
                f"{base_points + per_model * (n - node.count)}; only the minimum size is exact",
            )
        for cost, _type_id in self.unit_costs:
            if cost.steps_field and steps[cost.field]:
                unit[cost.steps_field] = steps[cost.field]

    def integer(self, value: Fraction, where: str) -> int:
        if value.denominator != 1:
            self.warn(
                where, f"cost {float(value)} rounded to {round(value)} (options and fixed costs are whole)"
            )
        return round(value)

    def checked(self, unit: dict[str, Any], expected: Fraction | None, where: str) -> dict[str, Any] | None:
        data = {k: v for k, v in unit.items() if k not in ("slug", "role", "options")}
        data.update({"format": 1, "system": self.system_key})
        try:
            breakdown = self.price(data)
        except Exception as exc:  # the system's own validation: report, never half-import
            problems = getattr(exc, "errors", None) or [exc]
            text = "; ".join(f"{getattr(p, 'path', '')}: {getattr(p, 'message', p)}" for p in problems)
            self.warn(where, f"does not fit the system's unit format ({text}); not imported")
            return None
        if expected is not None and Fraction(breakdown["exact"]) != expected:
            self.warn(
                where, f"priced {breakdown['exact']} here but {expected} by BattleScribe at minimum size"
            )
        return unit

    def unmapped_modifiers(self, root: Node) -> list[str]:
        """Warn about modifiers that change what the unit format cannot hold (names, visibility...)."""
        kept: list[str] = []
        for node in root.walk():
            entries = [node.entry, *self.data.children(node.entry)]
            for entry in entries:
                constraint_ids = {c.id for c in entry.constraints}
                for m in entry.modifiers:
                    if m.field not in self.data.cost_types and m.field not in constraint_ids:
                        kept.append(f"{self.data.name(entry)}: modifier {m.type} {m.field} {m.value!r}")
                        self.warn(
                            f"{self.data.path(entry)}/modifier",
                            f"a {m.type!r} modifier of {m.field!r} ({m.value!r}) is not applied; "
                            "kept as text",
                        )
        return kept
