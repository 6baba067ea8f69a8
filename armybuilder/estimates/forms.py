"""The estimate form: which target, and in what situation.

What attacks (a catalogue unit, a unit of a list, a whole list) comes from the page's URL,
not from the form, so the form only offers targets the view found for that source; the view
resolves the chosen key again (`sources`), so a tampered value is a form error, never a
look at something hidden. The situation's fields are generated from the game system's
`situation_schema` (the registry): a checkbox for a boolean, a number box with its bounds
for an integer or a number, radio buttons (a select for long lists) for an enum, each
labelled with the schema's translated `title`. They are checked by
`inputs.situation_clean`, the same check the API makes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from armybuilder.estimates.inputs import situation_clean, situation_properties
from armybuilder.estimates.request_errors import EstimateRequestError
from armybuilder.estimates.sources import Choices
from rules.systems.registry import GameSystem

#: An enum with at most this many values is radio buttons; a longer one a select.
MAX_RADIO_CHOICES = 4


def situation_field(spec: Mapping[str, Any]) -> forms.Field:
    """The form field of one situation property of a JSON Schema."""
    label = _(spec.get("title", ""))
    help_text = _(spec["description"]) if spec.get("description") else ""
    default = spec.get("default")
    kind = spec.get("type")
    if kind == "boolean":  # a checkbox's help would print before its label: a tooltip instead
        widget = forms.CheckboxInput(attrs={"title": help_text} if help_text else None)
        return forms.BooleanField(label=label, required=False, initial=bool(default), widget=widget)
    if kind in ("integer", "number"):
        field_class = forms.IntegerField if kind == "integer" else forms.FloatField
        return field_class(label=label, help_text=help_text, initial=default, required=False,
                           min_value=spec.get("minimum"), max_value=spec.get("maximum"))
    labels = spec.get("x-enum-labels", {})
    choices = [(value, _(labels[value]) if value in labels else value) for value in spec.get("enum", [])]
    widget = forms.RadioSelect if len(choices) <= MAX_RADIO_CHOICES else forms.Select
    return forms.ChoiceField(label=label, help_text=help_text, initial=default, choices=choices,
                             widget=widget, required=False)


class EstimateForm(forms.Form):
    """Target and situation (the system's `situation_schema`) of one estimate."""

    target = forms.ChoiceField(label=_("Target"))

    def __init__(self, *args: Any, target_choices: Choices, system: GameSystem,
                 target_label: str | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields["target"].choices = target_choices
        if target_label:
            self.fields["target"].label = target_label
        self.system = system
        self.situation_names = [name for name in situation_properties(system) if name != "target"]
        for name in self.situation_names:
            self.fields[name] = situation_field(situation_properties(system)[name])

    def situation_fields(self) -> list[forms.BoundField]:
        """The fields of the situation, in the order the fieldset shows them."""
        return [self[name] for name in self.situation_names]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if not any(name in self.errors for name in self.situation_names):
            values = {}
            for name in self.situation_names:
                value = cleaned.get(name)
                if value is not None and value != "":  # an empty box or no choice: the default
                    values[name] = value
            try:
                cleaned["situation"] = situation_clean(values, system=self.system)
            except EstimateRequestError as exc:
                self.add_request_errors(exc)
        return cleaned

    def add_request_errors(self, exc: EstimateRequestError) -> None:
        """Put each error of a refused request next to its field; the units' own problems
        (`attacker.models[0].quality`) go above the form with their path."""
        for path, messages in exc.errors.items():
            name = path.removeprefix("situation.")
            for message in messages:
                if name in self.situation_names:
                    self.add_error(name, message)
                elif path in {"defender", "list_b"} or path.startswith(("defender.system", "list_b.")):
                    self.add_error("target", message)
                else:
                    self.add_error(None, f"{path}: {message}" if path else message)
