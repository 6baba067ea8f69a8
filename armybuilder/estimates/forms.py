"""The estimate form: which target, and in what situation.

What attacks (a catalogue unit, a unit of a list, a whole list) comes from the page's URL,
not from the form, so the form only offers targets the view found for that source; the view
resolves the chosen key again (`sources`), so a tampered value is a form error, never a
look at something hidden. The situation is checked by `inputs.situation_clean`, the same
check the API makes.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from armybuilder.estimates.inputs import (
    DEFAULT_RANGE_INCHES,
    MAX_RANGE_INCHES,
    SITUATION_FLAGS,
    EstimateRequestError,
    situation_clean,
)
from armybuilder.estimates.sources import Choices

SITUATION_FIELDS = ("mode", "range_inches", *SITUATION_FLAGS)


class EstimateForm(forms.Form):
    """Target and situation (`shared/spec/opr-combat.md`, "Inputs") of one estimate."""

    target = forms.ChoiceField(label=_("Target"))
    mode = forms.ChoiceField(label=_("Attack"), initial="shooting", widget=forms.RadioSelect,
                             choices=[("shooting", _("Shooting")), ("melee", _("Melee"))])
    range_inches = forms.FloatField(
        label=_("Range (inches)"), initial=DEFAULT_RANGE_INCHES, min_value=0, max_value=MAX_RANGE_INCHES,
        help_text=_("Distance to the target: decides which weapons reach it and range-dependent rules."))
    charging = forms.BooleanField(label=_("The attacker charged (melee only)"), required=False)
    attacker_moved = forms.BooleanField(label=_("The attacker moved this activation"), required=False)
    defender_in_cover = forms.BooleanField(label=_("The defender is in cover"), required=False)
    defender_activated = forms.BooleanField(label=_("The defender has already activated this round"),
                                            required=False)
    enemies_within_12 = forms.BooleanField(label=_("Another enemy is within 12″ of the attacker"),
                                           required=False)

    def __init__(self, *args: Any, target_choices: Choices, target_label: str | None = None,
                 **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields["target"].choices = target_choices
        if target_label:
            self.fields["target"].label = target_label

    def situation_fields(self) -> list[forms.BoundField]:
        """The fields of the situation, in the order the fieldset shows them."""
        return [self[name] for name in SITUATION_FIELDS]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if not any(name in self.errors for name in SITUATION_FIELDS):
            try:
                cleaned["situation"] = situation_clean({name: cleaned.get(name) for name in SITUATION_FIELDS})
            except EstimateRequestError as exc:
                self.add_request_errors(exc)
        return cleaned

    def add_request_errors(self, exc: EstimateRequestError) -> None:
        """Put each error of a refused request next to its field; the units' own problems
        (`attacker.models[0].quality`) go above the form with their path."""
        for path, messages in exc.errors.items():
            name = path.removeprefix("situation.")
            for message in messages:
                if name in SITUATION_FIELDS:
                    self.add_error(name, message)
                elif path in {"defender", "list_b"} or path.startswith(("defender.system", "list_b.")):
                    self.add_error("target", message)
                else:
                    self.add_error(None, f"{path}: {message}" if path else message)
