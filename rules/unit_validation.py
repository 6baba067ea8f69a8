"""Is this unit valid, and what does it cost? One answer for the designer, services and loader.

A unit is checked by its system's `price` from the registry (profile ranges, weapons, and
for OPR the rule vocabulary of the engine) and, for every system, its rule names are checked
against the special rules stored for that system, so a catalogue-priced unit cannot carry
a misspelt rule either. Problems come back as `points.shared_format.FieldError`s with the
path of each field (`models[0].weapons[1].rules[0]`), which forms map onto their inputs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from points.catalogue.i18n import _
from points.shared_format import FieldError, UnitFormatError
from rules.models import GameSystem
from rules.selectors import special_rule_for, special_rules_by_name
from rules.systems.registry import get_system


@dataclass(frozen=True)
class UnitEvaluation:
    """The system's breakdown of a valid unit, or every problem of an invalid one."""

    breakdown: Mapping[str, Any] | None
    errors: list[FieldError] = field(default_factory=list)

    @property
    def is_valid(self) -> bool:
        return self.breakdown is not None and not self.errors

    @property
    def points(self) -> int | None:
        return int(self.breakdown["points"]) if self.breakdown is not None else None


def unknown_rule_errors(data: Mapping[str, Any], known: Mapping[str, Any]) -> list[FieldError]:
    """A FieldError for every model or weapon rule that is not one of the system's rules."""
    errors: list[FieldError] = []
    for m, model in enumerate(data.get("models") or []):
        if not isinstance(model, Mapping):
            continue
        places = [(f"models[{m}].rules", model.get("rules"))]
        places += [
            (f"models[{m}].weapons[{w}].rules", weapon.get("rules"))
            for w, weapon in enumerate(model.get("weapons") or [])
            if isinstance(weapon, Mapping)
        ]
        for path, rules in places:
            for r, rule in enumerate(rules if isinstance(rules, list) else []):
                if isinstance(rule, str) and special_rule_for(rule, known) is None:
                    errors.append(FieldError(f"{path}[{r}]", _("unknown rule “%(rule)s”") % {"rule": rule}))
    return errors


def unit_evaluate(*, system: GameSystem, data: Mapping[str, Any]) -> UnitEvaluation:
    """Price `data` with its system and check its rule names (one query for the rules)."""
    errors = unknown_rule_errors(data, special_rules_by_name(system=system))
    try:
        breakdown = get_system(system.key).price(data)
    except UnitFormatError as exc:
        return UnitEvaluation(None, sorted({*exc.errors, *errors}))
    return UnitEvaluation(None if errors else breakdown, errors)


def unit_checked_points(*, system: GameSystem, data: Mapping[str, Any]) -> int:
    """The points of a valid unit; raises `UnitFormatError` listing every problem otherwise."""
    evaluation = unit_evaluate(system=system, data=data)
    if not evaluation.is_valid:
        raise UnitFormatError(evaluation.errors)
    return int(evaluation.points or 0)
