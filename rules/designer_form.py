"""The custom-unit designer's form: HTML field names ⇄ a unit in the interchange format.

The designer edits a nested, growing structure (models, each with weapons, each with
rules), which Django's flat forms and formsets express badly; this module does the
translation explicitly instead. Which inputs exist comes from the game system's profile
schema (`rules/systems/registry.py`), never from its name, so every registered system
gets a designer:

- a model's characteristics are the schema's `x-profile` fields (else its non-envelope
  properties), its extra flags the remaining properties, `points` when the system is
  priced from the catalogue;
- a weapon's fields are `$defs.weapon` of the schema (`x-columns` order), or the unit
  format's common `range`, `attacks`, `ap` when the schema does not describe weapons;
- unit-level inputs (a 40k Power Rating, a Warhammer Fantasy army slot and unit size) are
  the schema's `x-unit-fields`, named `u-{field}`;
- rules are checkboxes of the system's special rules (model rules beside the profile,
  weapon rules beside each weapon), a value box for rules written `Name(X)`, and a text
  box for anything else.

Field names: `name`, `role`, `m{i}-{field}`, `m{i}-rules` (+ `m{i}-rulevalue-{key}`,
`m{i}-rules-other`), `m{i}-w{j}-{field}`, `m{i}-w{j}-rules` (and the same extras).
`field_for_path` maps an engine error path (`models[0].weapons[1].ap`) onto them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils.translation import gettext as _

from points.shared_format import FORMAT_VERSION, FieldError
from rules.models import SpecialRule, UnitTemplate
from rules.selectors import rule_base_name, rule_lookup_key
from rules.systems.profile_fields import ENVELOPE_FIELDS, UNIT_FORMAT_WEAPON_FIELDS

#: Designer bounds, so a request cannot ask for a thousand inputs.
MAX_MODELS = 10
MAX_WEAPONS = 10
#: Decision: a new field starts in the middle of a small range (Quality 2–6 → 4), else at
#: its minimum (never below 1, except `range`, where 0 is the unit format's melee weapon).
SMALL_RANGE = 10
MELEE_RANGE_FIELD = "range"
_NOT_WEAPON_FIELDS = ("name", "rules", "profiles")
#: Unit-level keys the designer edits itself (or drops: catalogue upgrade records).
_UNIT_FORM_KEYS = ("format", "system", "name", "models", "upgrades")
_PATH = re.compile(r"^models\[(\d+)\](?:\.weapons\[(\d+)\])?(?:\.([a-z_]+))?")


@dataclass(frozen=True)
class FieldSpec:
    """One input: its unit-format key, label, and how its text becomes JSON."""

    key: str
    label: str
    kind: str  # "int", "number", "text", "choice", "bool"
    minimum: int | float | None = None
    maximum: int | float | None = None
    nullable: bool = False
    choices: tuple[str, ...] = ()
    suffix: str = ""
    help: str = ""
    #: For a "list" field: "strings" (typed comma-separated, e.g. keywords), "array" (a JSON
    #: list; plain text becomes a one-item list), "text-or-array" (plain text stays text).
    shape: str = ""
    #: A number or text field (40k's M, A: an integer or "D6") starts at its integer minimum
    #: (at least 1), so a new model is not born with "is required" errors.
    start: int | None = None
    #: The schema's `x-prefill`: a unit field the price needs, so a blank unit starts with a value
    #: (40k's Power Rating) rather than empty like an optional unit size.
    prefill: bool = False
    #: The field's name in a player's words (the schema's `x-long`: "Quality" for Q), or "".
    long_label: str = ""
    #: The anchor of the system's points-formula page that explains how the field is priced
    #: (the schema's `x-formula`), or "".
    formula_anchor: str = ""

    @property
    def name(self) -> str:
        """How errors name the field: its long name ("Quality"), else its label ("Q")."""
        return self.long_label or self.label

    @property
    def roll_target(self) -> bool:
        """Entered and shown as "3+" (stored as 3); "3" is accepted too."""
        return self.suffix == "+"

    @property
    def example(self) -> str:
        """A roll target in the middle of the field's range ("4+"), for hints and messages."""
        low, high = self.minimum or 2, self.maximum or 6
        return f"{(low + high + 1) // 2}+"

    def shown(self, value: Any) -> Any:
        """The value as the input shows it: a roll target with its "+" ("3" → "3+")."""
        digits = str(value).strip().removesuffix("+").strip()
        if self.roll_target and value is not None and digits.isdigit():
            return f"{digits}+"
        return value

    @classmethod
    def from_schema(cls, key: str, schema: Mapping[str, Any]) -> FieldSpec:
        types = schema.get("type", [])
        types = types if isinstance(types, list) else [types]
        label = _(
            str(schema.get("title") or key.replace("_", " ").title())
        )  # runtime: titles are schema data
        common = {
            "key": key,
            "label": label,
            "nullable": "null" in types or "oneOf" in schema,
            "help": _(str(schema["description"])) if schema.get("description") else "",
            "suffix": "+" if schema.get("format") == "roll-target" else "",
            "prefill": bool(schema.get("x-prefill")),
            "long_label": _(str(schema["x-long"])) if schema.get("x-long") else "",
            "formula_anchor": str(schema.get("x-formula") or ""),
        }
        if "enum" in schema:
            return cls(kind="choice", choices=tuple(str(c) for c in schema["enum"]), **common)
        alternatives = [t for option in schema.get("oneOf", ()) for t in _types(option)]
        if "array" in types or "array" in alternatives:
            items = schema.get("items") or {}
            if "array" in types and items.get("type") == "string":
                return cls(kind="list", shape="strings", **common)
            return cls(kind="list", shape="array" if "array" in types else "text-or-array", **common)
        if "boolean" in types:
            return cls(kind="bool", **common)
        if "integer" in types:
            return cls(kind="int", minimum=schema.get("minimum"), maximum=schema.get("maximum"), **common)
        if "number" in types:
            return cls(kind="number", minimum=schema.get("minimum"), maximum=schema.get("maximum"), **common)
        integers = [alt for alt in schema.get("oneOf") or () if alt.get("type") == "integer"]
        start = max(int(integers[0].get("minimum") or 0), 1) if integers else None
        return cls(kind="text", start=start, **common)

    def starting_value(self) -> Any:
        """What a new model or weapon starts with (see SMALL_RANGE)."""
        if self.kind == "text" and self.start is not None:
            return self.start
        if self.kind in ("bool", "text") or (self.kind == "choice" and not self.choices):
            return None
        if self.kind == "choice":
            return self.choices[0]
        if self.key == MELEE_RANGE_FIELD:
            return 0
        low = self.minimum if self.minimum is not None else 0
        if self.maximum is not None and self.maximum - low <= SMALL_RANGE:
            return int((low + self.maximum + 1) // 2)
        return max(low, 1)

    def parse(self, text: str | None) -> tuple[Any, str | None]:
        """(JSON value or None when empty, error message or None)."""
        text = (text or "").strip()
        if self.kind == "bool":
            return (True if text else None), None
        if text == "":
            return None, None
        if self.roll_target:
            return self._parse_roll_target(text)
        if self.kind == "int":
            try:
                return int(text), None
            except ValueError:
                return None, _("Enter a whole number.")
        if self.kind == "number":
            try:
                number = float(text)
            except ValueError:
                return None, _("Enter a number.")
            return (int(number) if number.is_integer() else number), None
        if self.kind == "list":
            return self._parse_list(text)
        if self.kind == "choice" and text not in self.choices:
            return None, _("Choose one of the listed values.")
        return (int(text) if text.lstrip("-").isdigit() else text), None

    def _parse_roll_target(self, text: str) -> tuple[Any, str | None]:
        """"3+" or "3" → 3; anything else, or a roll outside the field's range, is refused
        with a message that names the field ("Quality: enter a roll from 2+ to 6+, e.g. 4+.")."""
        if text in ("-", "—") and self.nullable:  # "no save"
            return None, None
        digits = text.removesuffix("+").strip()
        low, high = self.minimum, self.maximum
        if digits.isdigit() and (low is None or int(digits) >= low) and (high is None or int(digits) <= high):
            return int(digits), None
        if low is not None and high is not None:
            message = _("%(field)s: enter a roll from %(low)s+ to %(high)s+, e.g. %(example)s.") % {
                "field": self.name, "low": low, "high": high, "example": self.example,
            }
        else:
            message = _("%(field)s: enter a roll such as %(example)s.") % {
                "field": self.name, "example": self.example,
            }
        return None, message

    def _parse_list(self, text: str) -> tuple[Any, str | None]:
        """Keywords typed "INFANTRY, PRIMARIS"; abilities as a JSON list (rules as data)."""
        if self.shape == "strings":
            return [part.strip() for part in text.split(",") if part.strip()], None
        if text.startswith(("[", "{")):
            try:
                value = json.loads(text)
            except ValueError:
                return None, _("Enter a JSON list, e.g. [{\"type\": \"feel_no_pain\", \"target\": 5}].")
            return (value if isinstance(value, list) else [value]), None
        return ([text] if self.shape == "array" else text), None


def _types(schema: Mapping[str, Any]) -> list[str]:
    types = schema.get("type", [])
    return types if isinstance(types, list) else [types]




def _with_anchors(specs: list[FieldSpec], anchors: Mapping[str, str]) -> list[FieldSpec]:
    """`specs` with the formula page's section of each field that has one."""
    return [
        replace(spec, formula_anchor=anchors[spec.key]) if spec.key in anchors else spec for spec in specs
    ]


def _model_schema_fields(profile_schema: Mapping[str, Any]) -> tuple[list[FieldSpec], list[FieldSpec]]:
    properties = dict(profile_schema.get("properties") or {})
    profile_keys = list(
        profile_schema.get("x-profile") or [k for k in properties if k not in ENVELOPE_FIELDS]
    )
    profile = [FieldSpec.from_schema(k, properties[k]) for k in profile_keys if k in properties]
    extra_keys = [k for k in properties if k not in profile_keys and k not in ENVELOPE_FIELDS]
    if "points" in properties:
        extra_keys.insert(0, "points")
    extra = [FieldSpec.from_schema(k, properties[k]) for k in extra_keys]
    return profile, extra


def _weapon_schema_fields(profile_schema: Mapping[str, Any]) -> list[FieldSpec]:
    weapon = (profile_schema.get("$defs") or {}).get("weapon")
    properties = dict(weapon.get("properties") or {}) if weapon else UNIT_FORMAT_WEAPON_FIELDS
    order = list((weapon or {}).get("x-columns") or properties)
    order += [k for k in properties if k not in order]
    return [FieldSpec.from_schema(k, properties[k]) for k in order if k not in _NOT_WEAPON_FIELDS]


@dataclass
class RuleChoices:
    """The system's rules a model or weapon may tick, each with the written form's parts."""

    rules: Sequence[SpecialRule]

    def split(self, written: Sequence[str]) -> tuple[dict[str, str], list[str]]:
        """({rule key: value or ""} for ticked rules, [rules that are not checkboxes])."""
        by_name = {rule_lookup_key(r.name): r for r in self.rules}
        by_name.update({rule_lookup_key(r.source_name): r for r in self.rules if r.source_name})
        ticked: dict[str, str] = {}
        other: list[str] = []
        for text in written:
            rule = by_name.get(rule_lookup_key(rule_base_name(str(text))))
            if rule is None:
                other.append(str(text))
                continue
            value = str(text).strip()[len(rule_base_name(str(text))) :].strip()
            ticked[rule.key] = value[1:-1].strip() if value.startswith("(") and value.endswith(")") else ""
        return ticked, other


@dataclass
class WeaponForm:
    values: dict[str, Any]
    rules: dict[str, str] = field(default_factory=dict)
    other_rules: str = ""
    #: Fields the form has no input for (a 40k weapon's alternative profiles), carried unchanged.
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class ModelForm:
    values: dict[str, Any]
    rules: dict[str, str] = field(default_factory=dict)
    other_rules: str = ""
    weapons: list[WeaponForm] = field(default_factory=list)
    #: Fields the form has no input for (OPR auras, orders, Massive parts), carried unchanged.
    extra: dict[str, Any] = field(default_factory=dict)


def field_for_path(path: str) -> str:
    """The input an engine error path belongs to: `models[0].weapons[1].ap` → `m0-w1-ap`.

    Errors inside a rules list go to that rules group; anything else unmapped to "".
    """
    if path in ("name", "role"):
        return path
    match = _PATH.match(path)
    if not match:
        return ""
    model, weapon, key = match.groups()
    prefix = f"m{model}" + (f"-w{weapon}" if weapon is not None else "")
    return f"{prefix}-{key}" if key else prefix


class DesignerForm:
    """The designer's state: a unit being edited, its field errors, and the inputs to show."""

    def __init__(
        self,
        *,
        system_key: str,
        profile_schema: Mapping[str, Any],
        model_rules: Sequence[SpecialRule],
        weapon_rules: Sequence[SpecialRule],
        formula_anchors: Mapping[str, str] | None = None,
    ):
        self.system_key = system_key
        anchors = formula_anchors or {}
        profile_fields, extra_fields = _model_schema_fields(profile_schema)
        self.profile_fields = _with_anchors(profile_fields, anchors)
        self.extra_fields = _with_anchors(extra_fields, anchors)
        self.weapon_fields = _with_anchors(_weapon_schema_fields(profile_schema), anchors)
        unit_fields = profile_schema.get("x-unit-fields") or {}
        self.unit_fields = [FieldSpec.from_schema(key, prop) for key, prop in unit_fields.items()]
        self.unit_values: dict[str, Any] = {}
        self.model_rules = RuleChoices(model_rules)
        self.weapon_rules = RuleChoices(weapon_rules)
        self.name = ""
        self.role = UnitTemplate.Role.OTHER.value
        self.models: list[ModelForm] = []
        #: Unit-level fields without an input (a datasheet's Power Rating, keywords), carried unchanged.
        self.unit_extra: dict[str, Any] = {}
        self.errors: dict[str, list[str]] = {}
        self.non_field_errors: list[str] = []

    # ------------------------------------------------------------------ building

    def new_weapon(self) -> WeaponForm:
        return WeaponForm(
            values={"name": _("Weapon"), **{f.key: f.starting_value() for f in self.weapon_fields}}
        )

    def new_model(self) -> ModelForm:
        values = {"name": _("Model"), "count": 1}
        values.update({f.key: f.starting_value() for f in (*self.profile_fields, *self.extra_fields)})
        return ModelForm(values=values, weapons=[self.new_weapon()])

    def start_blank(self) -> None:
        self.name = _("My unit")
        self.models = [self.new_model()]
        # Optional unit fields (a unit size) start empty; choices and fields the price needs at their start.
        self.unit_values = {
            f.key: (f.starting_value() if f.kind == "choice" or f.prefill else None)
            for f in self.unit_fields
        }

    def load_unit(self, data: Mapping[str, Any], *, role: str | None = None) -> None:
        """Fill the form from a unit-format dict (a saved or catalogue unit).

        Fields without an input (unit-level Power Rating or keywords, a model's auras, a
        weapon's alternative profiles) are kept as they are and written back on save.
        """
        self.name = str(data.get("name") or "")
        self.role = role or self.role
        unit_keys = {f.key for f in self.unit_fields}
        self.unit_values = {k: data.get(k) for k in unit_keys}
        self.unit_extra = {
            k: v for k, v in data.items() if k not in _UNIT_FORM_KEYS and k not in unit_keys
        }
        model_keys = {
            "name",
            "count",
            "rules",
            "weapons",
            *(f.key for f in (*self.profile_fields, *self.extra_fields)),
        }
        weapon_keys = {"name", "rules", *(f.key for f in self.weapon_fields)}
        self.models = []
        for model in (data.get("models") or [])[:MAX_MODELS]:
            ticked, other = self.model_rules.split(model.get("rules") or [])
            weapons = []
            for weapon in (model.get("weapons") or [])[:MAX_WEAPONS]:
                w_ticked, w_other = self.weapon_rules.split(weapon.get("rules") or [])
                weapons.append(
                    WeaponForm(
                        values={k: v for k, v in weapon.items() if k in weapon_keys and k != "rules"},
                        rules=w_ticked,
                        other_rules=", ".join(w_other),
                        extra={k: v for k, v in weapon.items() if k not in weapon_keys},
                    )
                )
            self.models.append(
                ModelForm(
                    values={
                        k: v for k, v in model.items() if k in model_keys and k not in ("rules", "weapons")
                    },
                    rules=ticked,
                    other_rules=", ".join(other),
                    weapons=weapons,
                    extra={k: v for k, v in model.items() if k not in model_keys},
                )
            )
        if not self.models:
            self.models = [self.new_model()]

    def load_post(self, post: Mapping[str, Any]) -> None:
        """Fill the form from submitted inputs (`request.POST`), keeping the text as typed."""
        self.name = str(post.get("name", "")).strip()
        self.role = str(post.get("role", self.role))
        self.unit_extra = _json_object(post.get("unit-extra"))
        self.unit_values = {f.key: post.get(f"u-{f.key}", "") for f in self.unit_fields}
        self.models = []
        for i in range(min(_count(post, "models-total"), MAX_MODELS)):
            prefix = f"m{i}"
            values = {"name": post.get(f"{prefix}-name", ""), "count": post.get(f"{prefix}-count", "")}
            values.update(
                {f.key: post.get(f"{prefix}-{f.key}", "") for f in (*self.profile_fields, *self.extra_fields)}
            )
            weapons = []
            for j in range(min(_count(post, f"{prefix}-weapons-total"), MAX_WEAPONS)):
                wp = f"{prefix}-w{j}"
                weapons.append(
                    WeaponForm(
                        values={
                            "name": post.get(f"{wp}-name", ""),
                            **{f.key: post.get(f"{wp}-{f.key}", "") for f in self.weapon_fields},
                        },
                        rules=_ticked(post, wp, self.weapon_rules),
                        other_rules=str(post.get(f"{wp}-rules-other", "")),
                        extra=_json_object(post.get(f"{wp}-extra")),
                    )
                )
            self.models.append(
                ModelForm(
                    values=values,
                    rules=_ticked(post, prefix, self.model_rules),
                    other_rules=str(post.get(f"{prefix}-rules-other", "")),
                    weapons=weapons,
                    extra=_json_object(post.get(f"{prefix}-extra")),
                )
            )
        if not self.models:
            self.models = [self.new_model()]

    def apply_action(self, action: str) -> bool:
        """Add or remove a model or weapon; True when the form's structure changed."""
        parts = action.split("-")
        if action == "add-model" and len(self.models) < MAX_MODELS:
            self.models.append(self.new_model())
        elif parts[:2] == ["remove", "model"] and len(parts) == 3 and len(self.models) > 1:
            index = _index(parts[2], len(self.models))
            if index is None:
                return False
            del self.models[index]
        elif parts[:2] == ["add", "weapon"] and len(parts) == 3:
            index = _index(parts[2], len(self.models))
            if index is None or len(self.models[index].weapons) >= MAX_WEAPONS:
                return False
            self.models[index].weapons.append(self.new_weapon())
        elif parts[:2] == ["remove", "weapon"] and len(parts) == 4:
            model = _index(parts[2], len(self.models))
            weapon = None if model is None else _index(parts[3], len(self.models[model].weapons))
            if weapon is None:
                return False
            del self.models[model].weapons[weapon]
        else:
            return False
        return True

    # ------------------------------------------------------------------ reading

    def add_error(self, name: str, message: str) -> None:
        if name:
            self.errors.setdefault(name, []).append(message)
        else:
            self.non_field_errors.append(message)

    def add_engine_errors(self, errors: Sequence[FieldError]) -> None:
        """Put each engine error beside its input (unless that input already has a typing error)."""
        typed = set(self.errors)
        unit_keys = {f.key for f in self.unit_fields}
        for error in errors:
            name = f"u-{error.path}" if error.path in unit_keys else field_for_path(error.path)
            if name in typed:
                continue
            if name and not self._has_input(name):
                self.add_error("", f"{error.path}: {error.message}")
            else:
                self.add_error(name, error.message if name else f"{error.path}: {error.message}")

    def _has_input(self, name: str) -> bool:
        return name in set(self.field_names())

    def unit_data(self) -> dict[str, Any]:
        """The unit the inputs describe (typing errors are recorded, their fields left out)."""
        self.errors, self.non_field_errors = {}, []
        if not self.name:
            self.add_error("name", _("Give the unit a name."))
        models = []
        for i, model in enumerate(self.models):
            prefix = f"m{i}"
            data: dict[str, Any] = {**model.extra, "name": str(model.values.get("name") or "").strip()}
            count, error = FieldSpec("count", "", "int").parse(str(model.values.get("count", "")))
            if error:
                self.add_error(f"{prefix}-count", error)
            data["count"] = count
            for spec in (*self.profile_fields, *self.extra_fields):
                value, error = spec.parse(_text(model.values.get(spec.key)))
                if error:
                    self.add_error(f"{prefix}-{spec.key}", error)
                elif value is not None:
                    data[spec.key] = value
            data["rules"] = self._written_rules(prefix, model.rules, model.other_rules, self.model_rules)
            data["weapons"] = []
            for j, weapon in enumerate(model.weapons):
                wp = f"{prefix}-w{j}"
                written: dict[str, Any] = {
                    **weapon.extra,
                    "name": str(weapon.values.get("name") or "").strip(),
                }
                for spec in self.weapon_fields:
                    value, error = spec.parse(_text(weapon.values.get(spec.key)))
                    if error:
                        self.add_error(f"{wp}-{spec.key}", error)
                    elif value is not None:
                        written[spec.key] = value
                written["rules"] = self._written_rules(
                    wp, weapon.rules, weapon.other_rules, self.weapon_rules
                )
                data["weapons"].append(written)
            models.append({k: v for k, v in data.items() if v is not None})
        unit: dict[str, Any] = {**self.unit_extra}
        for spec in self.unit_fields:
            value, error = spec.parse(_text(self.unit_values.get(spec.key)))
            if error:
                self.add_error(f"u-{spec.key}", error)
            elif value is not None:
                unit[spec.key] = value
        return {
            **unit,
            "format": FORMAT_VERSION,
            "system": self.system_key,
            "name": self.name,
            "models": models,
        }

    def _written_rules(
        self, prefix: str, ticked: Mapping[str, str], other: str, choices: RuleChoices
    ) -> list[str]:
        written = []
        for rule in choices.rules:
            if rule.key not in ticked:
                continue
            value = ticked[rule.key].strip()
            if rule.has_value and not value:
                self.add_error(f"{prefix}-rules", _("“%(rule)s” needs a value (X).") % {"rule": rule.name})
                continue
            written.append(f"{rule.name}({value})" if rule.has_value else rule.name)
        written += [part.strip() for part in other.split(",") if part.strip()]
        return written

    # ------------------------------------------------------------------ rendering

    def field_names(self) -> list[str]:
        """Every input that can carry an error (the page renders an error slot for each)."""
        names = ["name", *(f"u-{f.key}" for f in self.unit_fields)]
        for i, model in enumerate(self.models):
            names += [f"m{i}-name", f"m{i}-count", f"m{i}-rules"]
            names += [f"m{i}-{f.key}" for f in (*self.profile_fields, *self.extra_fields)]
            for j, _weapon in enumerate(model.weapons):
                names += [f"m{i}-w{j}-name", f"m{i}-w{j}-rules"] + [
                    f"m{i}-w{j}-{f.key}" for f in self.weapon_fields
                ]
        return names

    def bound(self, name: str, spec: FieldSpec, value: Any) -> dict[str, Any]:
        return {
            "name": name,
            "id": f"id-{name}",
            "spec": spec,
            "value": (
                "" if value is None else _text(value) if isinstance(value, list | dict) else spec.shown(value)
            ),
            "errors": self.errors.get(name, []),
        }

    def unit_fields_for_template(self) -> list[dict[str, Any]]:
        """The unit-level inputs (`x-unit-fields`) with their values and errors."""
        return [self.bound(f"u-{f.key}", f, self.unit_values.get(f.key)) for f in self.unit_fields]

    def models_for_template(self) -> list[dict[str, Any]]:
        """Everything the template needs per model and weapon, with names, values and errors."""
        out = []
        for i, model in enumerate(self.models):
            prefix = f"m{i}"
            out.append(
                {
                    "index": i,
                    "prefix": prefix,
                    "name": self.bound(
                        f"{prefix}-name", FieldSpec("name", _("Model name"), "text"), model.values.get("name")
                    ),
                    "count": self.bound(
                        f"{prefix}-count",
                        FieldSpec("count", _("Models"), "int", minimum=1),
                        model.values.get("count"),
                    ),
                    "profile": [
                        self.bound(f"{prefix}-{f.key}", f, model.values.get(f.key))
                        for f in self.profile_fields
                    ],
                    "extra": [
                        self.bound(f"{prefix}-{f.key}", f, model.values.get(f.key)) for f in self.extra_fields
                    ],
                    "rules": self._rule_inputs(prefix, model.rules, self.model_rules),
                    "rules_other": {"name": f"{prefix}-rules-other", "value": model.other_rules},
                    "rule_errors": self.errors.get(f"{prefix}-rules", []),
                    "rules_open": bool(
                        model.rules or model.other_rules or self.errors.get(f"{prefix}-rules")
                    ),
                    "extra_json": json.dumps(model.extra) if model.extra else "",
                    "weapons": [
                        {
                            "index": j,
                            "prefix": f"{prefix}-w{j}",
                            "name": self.bound(
                                f"{prefix}-w{j}-name",
                                FieldSpec("name", _("Weapon name"), "text"),
                                weapon.values.get("name"),
                            ),
                            "fields": [
                                self.bound(f"{prefix}-w{j}-{f.key}", f, weapon.values.get(f.key))
                                for f in self.weapon_fields
                            ],
                            "rules": self._rule_inputs(f"{prefix}-w{j}", weapon.rules, self.weapon_rules),
                            "rules_other": {
                                "name": f"{prefix}-w{j}-rules-other",
                                "value": weapon.other_rules,
                            },
                            "rule_errors": self.errors.get(f"{prefix}-w{j}-rules", []),
                            "extra_json": json.dumps(weapon.extra) if weapon.extra else "",
                            "rules_open": bool(
                                weapon.rules or weapon.other_rules or self.errors.get(f"{prefix}-w{j}-rules")
                            ),
                        }
                        for j, weapon in enumerate(model.weapons)
                    ],
                }
            )
        return out

    @staticmethod
    def _rule_inputs(prefix: str, ticked: Mapping[str, str], choices: RuleChoices) -> list[dict[str, Any]]:
        return [
            {
                "rule": rule,
                "id": f"id-{prefix}-rule-{rule.key}",
                "checked": rule.key in ticked,
                "value_name": f"{prefix}-rulevalue-{rule.key}",
                "value": ticked.get(rule.key, ""),
            }
            for rule in choices.rules
        ]


def _json_object(text: Any) -> dict[str, Any]:
    """A hidden input's JSON object (fields carried unchanged); anything else is ignored."""
    try:
        value = json.loads(str(text or "") or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "on" if value else ""
    if isinstance(value, list) and all(isinstance(v, str) and "," not in v for v in value):
        return ", ".join(value)
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _count(post: Mapping[str, Any], key: str) -> int:
    try:
        return max(0, int(str(post.get(key, "0"))))
    except ValueError:
        return 0


def _index(text: str, length: int) -> int | None:
    return int(text) if text.isdigit() and int(text) < length else None


def _ticked(post: Any, prefix: str, choices: RuleChoices) -> dict[str, str]:
    chosen = (
        set(post.getlist(f"{prefix}-rules"))
        if hasattr(post, "getlist")
        else set(post.get(f"{prefix}-rules", []))
    )
    return {
        rule.key: str(post.get(f"{prefix}-rulevalue-{rule.key}", ""))
        for rule in choices.rules
        if rule.key in chosen
    }
