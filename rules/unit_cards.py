"""What a unit card shows: profile table, weapons table, rules with their text, points, options.

This module is the one card renderer: the catalogue card, the roster, the printed roster
and the PDF all take their columns, headings and cells from it. Cards are built from the
unit's data and its system's profile schema only: the columns are the schema's `x-profile`
(or its non-envelope properties) and the weapon schema's `x-columns` (or the keys the
weapons carry), headed by each property's `title` (the heading the books print, "WS") with
its `x-long` as the full name ("Weapon Skill"); a `format: roll-target` value prints with its
"+". So one renderer shows an OPR squad, a 40k datasheet and a WHFB chariot alike, and the
points always come from the system's engine through the registry, never from a cached column.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from points.shared_format import UnitFormatError
from rules.models import Faction, SpecialRule, UnitTemplate
from rules.option_labels import option_label
from rules.options import option_point_deltas
from rules.points_audit import unpriced_rules
from rules.selectors import special_rule_for
from rules.systems.profile_fields import ENVELOPE_FIELDS, UNIT_FORMAT_WEAPON_FIELDS
from rules.systems.registry import get_system

#: Keys of a weapon that are not table columns (the name, its rules, alternative profiles).
_WEAPON_NOT_COLUMNS = ("name", "rules", "profiles")
#: Keys of a model that are not profile columns when the schema names none (own parts of the card).
_MODEL_NOT_COLUMNS = (*ENVELOPE_FIELDS, "auras", "orders", "parts")


@dataclass(frozen=True)
class Column:
    """A table column: the field, its heading as printed ("WS"), its full name ("Weapon
    Skill", for `<abbr title>`; the heading again when the schema gives none)."""

    key: str
    short: str
    title: str
    roll_target: bool = False


@dataclass(frozen=True)
class RuleRef:
    """A rule as written on the unit ("Fear(2)") and the catalogue rule it refers to."""

    written: str
    rule: SpecialRule | None
    uid: str = ""


@dataclass
class CardRow:
    name: str
    cells: list[str]
    rules: list[RuleRef] = field(default_factory=list)
    count: int | None = None
    sub: bool = False


@dataclass
class CardOption:
    key: str
    label: str
    group: str
    min_count: int
    max_count: int
    delta: int | None
    cost: int | None


@dataclass
class UnitCard:
    unit: UnitTemplate
    points: int | None
    figures: list[tuple[str, Any]]
    profile_columns: list[Column]
    models: list[CardRow]
    weapon_columns: list[Column]
    weapons: list[CardRow]
    options: list[CardOption]
    errors: list[str]
    #: The data says its source prints no points (`points_in_source: false`): 0 is not "free".
    points_missing: bool = False
    #: The data says its source gives it no profile (`profile_in_source: false`, a BattleScribe
    #: import of a warscroll without characteristics): shown, priced, never estimated.
    profile_missing: bool = False
    #: Its abilities kept as text ({name, text}: an import's warscroll abilities and rules).
    abilities: list[tuple[str, str]] = field(default_factory=list)
    #: Its rules kept as text because the formula does not price them (an Army Forge import's).
    text_rules: tuple[str, ...] = ()

    @property
    def model_count(self) -> int:
        return sum(row.count or 0 for row in self.models)

    @property
    def profile_rows(self) -> list[CardRow]:
        """The profile table's rows, by the name every variant of the card template reads."""
        return self.models


def profile_columns(schema: Mapping[str, Any], models: Sequence[Mapping[str, Any]]) -> list[Column]:
    properties = dict(schema.get("properties") or {})
    keys = list(schema.get("x-profile") or [k for k in properties if k not in ENVELOPE_FIELDS])
    if not keys:
        keys = sorted(
            k for k in _keys_in_order(models, exclude=_MODEL_NOT_COLUMNS)
            if not any(isinstance(m.get(k), (list, dict)) for m in models)
        )
    return [_column(k, properties.get(k, {})) for k in keys]


def weapon_columns(schema: Mapping[str, Any], weapons: Iterable[Mapping[str, Any]]) -> list[Column]:
    """The weapon table's columns that these weapons use, in the schema's order."""
    weapon_schema = (schema.get("$defs") or {}).get("weapon") or {}
    properties = dict(weapon_schema.get("properties") or UNIT_FORMAT_WEAPON_FIELDS)
    preferred = list(weapon_schema.get("x-columns") or properties)
    present = _keys_in_order(list(weapons), exclude=_WEAPON_NOT_COLUMNS)
    keys = [k for k in preferred if k in present] + sorted(k for k in present if k not in preferred)
    return [_column(k, properties.get(k, {})) for k in keys]


#: The context of a column's heading where a language abbreviates it: its word for Range, Hit,
#: Rend, Ward or Abilities ("Дистанция", "Пробивание", "Особый спасбросок") stretched a card
#: past the screen, in a sideways scroller nobody saw. The full word stays the heading's title.
HEADING_CONTEXT = "column heading"
#: The headings abbreviated in some language (marked here for `makemessages`).
ABBREVIATED_HEADINGS = (
    pgettext_lazy("column heading", "Range"),
    pgettext_lazy("column heading", "Hit"),
    pgettext_lazy("column heading", "Rend"),
    pgettext_lazy("column heading", "Ward"),
    pgettext_lazy("column heading", "Abilities"),
)


def column_heading(title: str) -> str:
    """A column's heading in the reader's language: its abbreviation where the language has one
    (`HEADING_CONTEXT`), else the title's own translation."""
    shown = pgettext(HEADING_CONTEXT, title)
    return shown if shown != title else _(title)


def _column(key: str, schema: Mapping[str, Any]) -> Column:
    title = str(schema.get("title") or key.replace("_", " ").title())  # runtime: titles are schema data
    long = _(str(schema["x-long"])) if schema.get("x-long") else _(title)
    return Column(key, column_heading(title), long, schema.get("format") == "roll-target")


def _keys_in_order(rows: Sequence[Mapping[str, Any]], *, exclude: Sequence[str]) -> list[str]:
    keys: list[str] = []
    for row in rows:
        keys += [k for k in row if k not in exclude and k not in keys]
    return keys


#: The words a characteristic may hold instead of a number, as the reader's language prints them
#: (a fantasy weapon's strength "user": the wielder's own).
VALUE_WORDS = {"user": pgettext_lazy("characteristic value", "user")}


def cell(value: Any, column: Column) -> str:
    """A characteristic as the books print it: "3+" for roll targets, "-" for none, "Melee" for
    range 0, a word (`VALUE_WORDS`) in the reader's language."""
    if value is None or value == "":
        return "-"
    if isinstance(value, str) and value in VALUE_WORDS:
        return str(VALUE_WORDS[value])
    if column.key == "range" and value == 0:
        return _("Melee")
    if column.roll_target and isinstance(value, int):
        return f"{value}+"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        # A mapping in a list is an effect written for the engines beside its text (a 40k
        # weapon's `{type: extra_attacks, value: 1}`), not something a player reads.
        return ", ".join(str(v) for v in value if not isinstance(v, Mapping))
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return str(value)


def weapon_lines(models: Sequence[Mapping[str, Any]]) -> list[tuple[Mapping[str, Any], int, bool]]:
    """The weapon table's lines: each distinct weapon once with how many models carry it (a
    knife on the troopers and on the sergeant is one line), a weapon with alternative
    profiles followed by one sub-line per profile: `(weapon or profile, count, is_sub)`."""
    lines: list[tuple[Mapping[str, Any], int, bool]] = []
    index: dict[str, int] = {}
    for model in models:
        count = int(model.get("count") or 0)
        for weapon in model.get("weapons") or []:
            if not isinstance(weapon, Mapping):
                continue
            profiles = [p for p in weapon.get("profiles") or [] if isinstance(p, Mapping)]
            key = json.dumps(weapon, sort_keys=True, default=str)
            if not profiles and key in index:
                found, total, sub = lines[index[key]]
                lines[index[key]] = (found, total + count, sub)
                continue
            index.setdefault(key, len(lines))
            lines.append((weapon, count, False))
            lines += [(profile, count, True) for profile in profiles]
    return lines


def all_weapons(models: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Every weapon and alternative weapon profile of the models (what the columns must cover)."""
    weapons = [w for m in models for w in m.get("weapons") or [] if isinstance(w, Mapping)]
    return [*weapons, *[p for w in weapons for p in w.get("profiles") or [] if isinstance(p, Mapping)]]


def _rules(written: Iterable[Any], known: Mapping[str, SpecialRule], prefix: str) -> list[RuleRef]:
    """The rules as written, each linked to its catalogue rule, with an id for its tooltip."""
    return [
        RuleRef(str(w), special_rule_for(str(w), known), f"{prefix}-{i}") for i, w in enumerate(written or [])
    ]


def option_dicts(unit: UnitTemplate) -> list[dict[str, Any]]:
    """The unit's options as `rules.options` wants them (uses the prefetched `options`)."""
    return [
        {
            "key": o.key,
            "group": o.group,
            "label": o.label,
            "kind": o.kind,
            "applies_to": o.applies_to,
            "payload": o.payload,
            "min_count": o.min_count,
            "max_count": o.max_count,
            "cost": o.cost,
        }
        for o in unit.options.all()
    ]


#: Option point deltas by content (system, unit, options): pricing every option of every unit
#: was half the server time of a faction page. Bounded; per process.
_DELTAS: dict[str, dict[str, int]] = {}
_DELTAS_MAX = 4096


def _option_deltas(system_key: str, data: Mapping[str, Any], options: list[dict[str, Any]]) -> dict[str, int]:
    """`option_point_deltas`, memoised on the exact content it prices (so never stale)."""
    key = json.dumps([system_key, data, options], sort_keys=True, default=str, separators=(",", ":"))
    found = _DELTAS.get(key)
    if found is None:
        found = option_point_deltas(system_key, data, options)
        if len(_DELTAS) >= _DELTAS_MAX:
            _DELTAS.clear()
        _DELTAS[key] = found
    return dict(found)


def unit_card(
    unit: UnitTemplate,
    *,
    system_key: str,
    known_rules: Mapping[str, SpecialRule],
    faction: Faction | None = None,
) -> UnitCard:
    """The card of `unit`, priced by its system (`system_key` from the unit's faction). Given
    the unit's `faction`, its models and weapons are named in the reader's language where the
    bundled faction translates them (the catalogue's pages; the API keeps the data's names)."""
    shown = faction.in_reader_language if faction is not None else str
    system = get_system(system_key)
    data = unit.data or {}
    models = [m for m in data.get("models") or [] if isinstance(m, Mapping)]
    columns = profile_columns(system.profile_schema, models)
    w_columns = weapon_columns(system.profile_schema, all_weapons(models))
    errors: list[str] = []
    try:
        breakdown = system.price(data)
    except UnitFormatError as exc:
        breakdown = None
        errors = [str(e) for e in exc.errors]
    options = option_dicts(unit)
    deltas = _option_deltas(system_key, data, options) if breakdown is not None and options else {}
    weapon_rows = [
        CardRow(
            ("– " if sub else "") + shown(str(weapon.get("name"))),
            [cell(weapon.get(c.key), c) for c in w_columns],
            [] if sub else _rules(weapon.get("rules"), known_rules, f"rt-{unit.pk}-w{i}"),
            count=None if sub else count,
            sub=sub,
        )
        for i, (weapon, count, sub) in enumerate(weapon_lines(models))
    ]
    return UnitCard(
        unit=unit,
        points=int(breakdown["points"]) if breakdown is not None else None,
        figures=[
            (_(label), breakdown[key])
            for key, label in system.price_figures.items()
            if breakdown is not None and breakdown.get(key) is not None
        ],
        profile_columns=columns,
        models=[
            CardRow(
                shown(str(m.get("name"))),
                [cell(m.get(c.key), c) for c in columns],
                _rules(m.get("rules"), known_rules, f"rt-{unit.pk}-m{i}"),
                count=int(m.get("count", 1)),
            )
            for i, m in enumerate(models)
        ],
        weapon_columns=w_columns,
        weapons=weapon_rows,
        options=[
            CardOption(
                o["key"],
                option_label(o),
                o["group"],
                o["min_count"],
                o["max_count"],
                deltas.get(o["key"]),
                o["cost"],
            )
            for o in options
        ],
        errors=errors,
        points_missing=data.get("points_in_source") is False,
        profile_missing=data.get("profile_in_source") is False,
        abilities=[
            (str(a.get("name") or ""), str(a.get("text") or ""))
            for a in data.get("abilities") or ()
            if isinstance(a, Mapping) and a.get("name") and "text" in a
        ],
        text_rules=unpriced_rules(data),
    )
