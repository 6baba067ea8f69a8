"""Registering a system whose points come from its books rather than from a formula.

WHFB 6th, 40k 9th, AoS 1st and the Russian WHFB house rules differ in their profile
schema, their composition rules and what else a unit's price reports (40k: Power Rating);
pricing itself is the same catalogue sum (`points.catalogue.pricing`). This builder wires
those parts into one `GameSystem` for the registry, so each system package only states
what is its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from points.catalogue.pricing import price_from_catalogue
from points.shared_format import FieldError, UnitFormatError
from rules.systems.registry import GameSystem, register
from rules.systems.unit_schema import unit_errors


def register_catalogue_system(
    *,
    key: str,
    name: str,
    source_language: str,
    description: str,
    profile_schema: Mapping[str, Any],
    validate: Callable[[Mapping[str, Any], Callable], list[Mapping[str, Any]]],
    structure_options: Mapping[str, str],
    extras: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None,
    list_settings_schema: Mapping[str, Any] | None = None,
    army_summary: Callable[[Mapping[str, Any]], list[Mapping[str, Any]]] | None = None,
    unit_summary: Callable[[Mapping[str, Any], Mapping[str, Any]], list[Mapping[str, Any]]] | None = None,
    points_sized: bool = True,
    group_kinds: Mapping[str, str] | None = None,
    group_kind_title: str = "",
    **estimates: Any,
) -> GameSystem:
    """Register a catalogue-priced system; `validate(army, price)` gets the system's own price.

    `estimates` are the system's other `GameSystem` fields (its damage-estimate fields
    `attack`, `situation_schema`, `situation_errors`, `reference_targets`; its `order`,
    `price_figures`, ...), passed through as given.
    """
    price = partial(_checked_price, system_key=key, profile_schema=profile_schema, extras=extras)
    return register(
        GameSystem(
            key=key,
            name=name,
            source_language=source_language,
            profile_schema=profile_schema,
            price=price,
            check_unit=partial(check_catalogue_unit, system_key=key, profile_schema=profile_schema),
            validate=partial(_validate_with, validate, price),
            description=description,
            structure_options=dict(structure_options),
            list_settings_schema=dict(list_settings_schema or {}),
            army_summary=army_summary,
            unit_summary=unit_summary,
            points_sized=points_sized,
            group_kinds=dict(group_kinds or {}),
            group_kind_title=group_kind_title,
            **estimates,
        )
    )


def check_catalogue_unit(unit: Mapping[str, Any], *, system_key: str, profile_schema: Mapping[str, Any]
                         ) -> None:
    """Raise a `UnitFormatError` listing every field of `unit` that breaks the system's schema.

    The price checks with this before it sums; a check that throws the price away (an estimate
    request) calls it alone and need not spend the exact arithmetic."""
    errors = unit_errors(unit, profile_schema=profile_schema, system_key=system_key)
    if errors:
        raise UnitFormatError([FieldError(path, message) for path, message in errors])


def _checked_price(unit: Mapping[str, Any], *, system_key: str, profile_schema: Mapping[str, Any],
                   extras: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None) -> dict[str, Any]:
    """The catalogue price of `unit` after its schema check: the pure sum in `points` trusts its
    input, so the untrusted document is checked here, where JSON is read."""
    check_catalogue_unit(unit, system_key=system_key, profile_schema=profile_schema)
    return price_from_catalogue(unit, system_key=system_key, extras=extras)


def _validate_with(validate: Callable, price: Callable, army: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return validate(army, price)
