"""Forms of the list pages. They read and check request data; the services do the rest.

A list's structure rules depend on its game system, so the create and settings forms add
one checkbox per optional rule that the system declares in the registry
(`GameSystem.structure_options`), named `structure-<key>`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from armybuilder.lists import backends
from armybuilder.lists.errors import ArmyListError
from armybuilder.lists.option_consequences import pick_one_groups
from armybuilder.models import LIST_NAME_MAX_LENGTH, POINTS_LIMIT_MAX, POINTS_LIMIT_MIN, ArmyList
from rules.list_settings import enum_labels, settings_defaults, settings_properties
from rules.models import Faction, GameSystem
from rules.selectors import factions_visible_to
from rules.systems.registry import get_system

STRUCTURE_PREFIX = "structure-"
#: The radio buttons of a pick-one option group post `pick-<digest of the group name>` = the
#: key of the option taken ("" for none of them); see `pick_input_name`.
PICK_PREFIX = "pick-"
SETTING_PREFIX = "setting-"
OPTION_PREFIX = "option-"
#: Largest count a request may ask for one option (the option's own maximum is checked later).
OPTION_COUNT_MAX = 1000


def registered_systems() -> list[GameSystem]:
    """Game systems that have a catalogue row and are registered (a list needs both)."""
    systems = []
    for system in GameSystem.objects.all():
        try:
            get_system(system.key)
        except KeyError:
            continue
        systems.append(system)
    return systems


def faction_label(faction: Faction) -> str:
    return _("%(name)s (homebrew)") % {"name": faction.name} if faction.owner_id else faction.shown_name


def import_faction_label(faction: Faction) -> str:
    return f"{faction_label(faction)} · {_(faction.system.name)}"


class StructureOptionsMixin:
    """One checkbox per optional structure rule of the list's game system, and one field per
    parameter of its `list_settings_schema` (named `setting-<key>`)."""

    def add_structure_fields(self, *, system_key: str, current: Mapping[str, bool] | None) -> None:
        self.structure_keys = list(get_system(system_key).structure_options)
        for key, label in get_system(system_key).structure_options.items():
            self.fields[STRUCTURE_PREFIX + key] = forms.BooleanField(
                label=_(label), required=False,
                initial=True if current is None else bool(current.get(key, True)),
            )

    def structure_options(self) -> dict[str, bool]:
        """The rules switched off (`{key: False}`); as in the interchange format, the rest are on."""
        return {
            key: False for key in self.structure_keys if not self.cleaned_data.get(STRUCTURE_PREFIX + key)
        }

    def structure_fields(self) -> list[forms.BoundField]:
        return [self[STRUCTURE_PREFIX + key] for key in self.structure_keys]

    def add_setting_fields(self, *, system_key: str, current: Mapping[str, Any] | None) -> None:
        """One field per parameter of the system's `list_settings_schema`, built from the schema."""
        schema = get_system(system_key).list_settings_schema
        self.setting_keys = list(settings_properties(schema))
        values = {**settings_defaults(schema), **(current or {})}
        for key, prop in settings_properties(schema).items():
            self.fields[SETTING_PREFIX + key] = setting_field(prop, initial=values.get(key))

    def list_settings(self) -> dict[str, Any]:
        """The parameters as typed values (the services check them against the schema)."""
        return {key: self.cleaned_data.get(SETTING_PREFIX + key) for key in self.setting_keys}

    def setting_fields(self) -> list[forms.BoundField]:
        return [self[SETTING_PREFIX + key] for key in self.setting_keys]


def setting_field(prop: Mapping[str, Any], *, initial: Any) -> forms.Field:
    """The form field of one list parameter: a choice, a checkbox or a bounded number."""
    label = gettext_lazy(str(prop.get("title", "")))
    help_text = str(prop.get("description", ""))
    if "enum" in prop:
        choices = [(value, gettext_lazy(label_text)) for value, label_text in enum_labels(prop)]
        return forms.TypedChoiceField(
            label=label, choices=choices, initial=initial, help_text=help_text, coerce=str, required=True
        )
    if prop.get("type") == "boolean":
        return forms.BooleanField(label=label, required=False, initial=bool(initial), help_text=help_text)
    if prop.get("type") == "integer":
        return forms.IntegerField(
            label=label,
            initial=initial,
            min_value=prop.get("minimum"),
            max_value=prop.get("maximum"),
            help_text=help_text,
        )
    return forms.CharField(label=label, initial=initial, max_length=200, help_text=help_text, required=False)


class ArmyListCreateForm(StructureOptionsMixin, forms.Form):
    """A new list of the chosen system: faction, name, points limit and structure rules."""

    faction = forms.ModelChoiceField(
        queryset=Faction.objects.none(), label=gettext_lazy("Faction"), empty_label=None
    )
    #: Optional: a newcomer need not invent a name before seeing a unit; left empty, the list
    #: is named after its faction and size (`clean_name`), and can be renamed at any time.
    name = forms.CharField(label=gettext_lazy("Name"), max_length=LIST_NAME_MAX_LENGTH, strip=True,
                           required=False)
    points_limit = forms.IntegerField(
        label=gettext_lazy("Points limit"),
        min_value=POINTS_LIMIT_MIN,
        max_value=POINTS_LIMIT_MAX,
    )
    is_public = forms.BooleanField(label=gettext_lazy("Show it in the public gallery"), required=False)

    def __init__(self, *args: Any, user: AbstractBaseUser, system: GameSystem, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")  # checkbox labels stand after their boxes: no colons
        super().__init__(*args, **kwargs)
        self.system = system
        # The system's own first game size (`GameSystem.default_points_limit`): WHFB's chart
        # allows no Lord below 2,000 pts, so a newcomer's first Lord is legal from the start.
        self.fields["points_limit"].initial = get_system(system.key).default_points_limit
        self.fields["name"].help_text = _("Optional: left empty, the list is named after its faction.")
        self.fields["faction"].queryset = (
            factions_visible_to(user=user)
            .filter(system=system, is_reference=False)  # a rulebook's example profiles carry no points
            .order_by(F("owner_id").asc(nulls_first=True), "name")
        )
        self.fields["faction"].label_from_instance = faction_label
        if not get_system(system.key).points_sized:  # AoS: sized by models (its settings), not points
            del self.fields["points_limit"]
        self.add_structure_fields(system_key=system.key, current=None)
        self.add_setting_fields(system_key=system.key, current=None)

    def clean(self) -> dict[str, Any]:
        """A list left unnamed is named after its faction and size ("Ashen Concord, 1000 pts")."""
        cleaned = super().clean()
        faction = cleaned.get("faction")
        if not cleaned.get("name") and faction is not None:
            points = cleaned.get("points_limit")
            name = (_("%(faction)s, %(points)s pts") % {"faction": faction.shown_name, "points": points}
                    if points is not None else faction.shown_name)
            cleaned["name"] = name[:LIST_NAME_MAX_LENGTH]
        return cleaned


class ArmyListSettingsForm(StructureOptionsMixin, forms.Form):
    """Name, points limit, structure rules and gallery visibility of an existing list."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=LIST_NAME_MAX_LENGTH, strip=True)
    points_limit = forms.IntegerField(
        label=gettext_lazy("Points limit"), min_value=POINTS_LIMIT_MIN, max_value=POINTS_LIMIT_MAX
    )
    is_public = forms.BooleanField(label=gettext_lazy("Show it in the public gallery"), required=False)

    def __init__(self, *args: Any, army_list: ArmyList, **kwargs: Any) -> None:
        kwargs.setdefault(
            "initial",
            {
                "name": army_list.name,
                "points_limit": army_list.points_limit,
                "is_public": army_list.is_public,
            },
        )
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        if not army_list.points_sized:
            del self.fields["points_limit"]
        self.add_structure_fields(system_key=army_list.system.key, current=army_list.structure_options)
        self.add_setting_fields(system_key=army_list.system.key, current=army_list.settings)
        # What the roster's configuration decides (a battle size) is changed there, not here.
        # (Only a system whose roster decides a setting reads the list's units for it.)
        decided = backends.decided_settings(army_list)
        for key, value in decided.items():
            if SETTING_PREFIX + key in self.fields:
                field = self.fields[SETTING_PREFIX + key]
                field.initial, field.disabled = value, True
                field.help_text = _("Chosen in the roster's configuration, above the units.")


class RosterForceForm(forms.Form):
    """The force (detachment) a list of a faction imported with its BattleScribe catalogue is
    built in: one of the catalogue's forces (`choices`, from `backends.force_choices`)."""

    roster_force = forms.ChoiceField(
        label=gettext_lazy("Force"),
        help_text=gettext_lazy(
            "The detachment your units are built in; its rules decide what the list needs."
        ),
    )

    def __init__(self, *args: Any, choices: Sequence[tuple[str, str]], current: str, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"roster_force": current})
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields["roster_force"].choices = list(choices)
        self.fields["roster_force"].error_messages["invalid_choice"] = _(
            "Choose one of the forces of this catalogue."
        )


class ImportForm(forms.Form):
    """A list to import, pasted or uploaded (a file wins over the text box): our JSON file, an
    Army Forge list or army book, a BattleScribe or New Recruit roster, a text list, or an Army
    Forge share link (`armybuilder.lists.importers`)."""

    MAX_BYTES = 1024 * 1024
    FORMAT_LABELS = {
        "auto": gettext_lazy("Detect it"),
        "json": gettext_lazy("Army Builder list file (JSON)"),
        "new_recruit": gettext_lazy("New Recruit roster (JSON)"),
        "army_forge_book": gettext_lazy("Army Forge army book (JSON)"),
        "army_forge_list": gettext_lazy("Army Forge list (share JSON)"),
        "army_forge_save": gettext_lazy("Army Forge save file (JSON, or a .zip with its army books)"),
        "battlescribe": gettext_lazy("BattleScribe roster (.ros, .rosz)"),
        "text": gettext_lazy("Text (ours, BattleScribe, Army Forge)"),
    }

    text = forms.CharField(
        label=gettext_lazy("List, text or Army Forge share link"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
        max_length=MAX_BYTES,
    )
    file = forms.FileField(label=gettext_lazy("or a file"), required=False)
    format = forms.ChoiceField(label=gettext_lazy("Format"), required=False, initial="auto")
    system = forms.ChoiceField(label=gettext_lazy("Game system"), required=False,
                               help_text=gettext_lazy("Leave empty to find it from the list."))
    faction = forms.ModelChoiceField(
        queryset=Faction.objects.none(),
        required=False,
        label=gettext_lazy("Faction to add more units from (optional)"),
        help_text=gettext_lazy("The file does not name one; pick a faction of the list's game system."),
    )

    def __init__(self, *args: Any, user: AbstractBaseUser, **kwargs: Any) -> None:
        from armybuilder.lists.importers import FORMATS

        super().__init__(*args, **kwargs)
        factions = factions_visible_to(user=user).select_related("system")
        self.fields["faction"].queryset = factions.order_by("system__position", "owner_id", "name")
        self.fields["faction"].label_from_instance = import_faction_label
        self.fields["format"].choices = [(key, self.FORMAT_LABELS.get(key, key)) for key in FORMATS]
        self.fields["system"].choices = [("", "—")] + [
            (row.key, _(row.name)) for row in GameSystem.objects.order_by("position", "name")]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        upload = cleaned.get("file")
        cleaned["data"] = None
        if upload is not None:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError(_("The file is larger than 1 MB."))
            cleaned["data"] = upload.read()
            cleaned["name"] = upload.name or "upload"
            try:
                cleaned["text"] = cleaned["data"].decode("utf-8-sig")
            except UnicodeDecodeError:
                cleaned["text"] = ""  # a zipped roster: read as bytes by its importer
        if cleaned["data"] is None and not cleaned.get("text", "").strip():
            raise forms.ValidationError(_("Paste a list or choose a file."))
        return cleaned


def parse_version(raw: str | None) -> int:
    """The list version a form or htmx request was made from (`version` field or header)."""
    try:
        version = int(raw or "")
    except ValueError:
        raise ArmyListError([("version", _("Missing or malformed list version; reload the page."))]) from None
    if version < 1:
        raise ArmyListError([("version", _("Missing or malformed list version; reload the page."))])
    return version


def parse_int(raw: str | None, *, field: str, minimum: int = 0, maximum: int = 10**6) -> int:
    try:
        value = int((raw or "").strip())
    except ValueError:
        raise ArmyListError([(field, _("Must be a whole number."))]) from None
    if not minimum <= value <= maximum:
        raise ArmyListError(
            [(field, _("Must be between %(min)d and %(max)d.") % {"min": minimum, "max": maximum})]
        )
    return value


def pick_input_name(group: str) -> str:
    """The name of the radio buttons of a pick-one option group (any text is a group name, so
    the input is named by a digest of it)."""
    return PICK_PREFIX + hashlib.sha256(group.encode()).hexdigest()[:12]


def parse_option_counts(data: Mapping[str, Any], *, menu: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """`{option key: count}` from the upgrade form of a unit.

    An option that may be taken once is a checkbox (absent: not taken); others are number
    fields (empty: 0). Every malformed field is reported, named `options.<key>`.
    """
    counts: dict[str, int] = {}
    errors: list[tuple[str, str]] = []
    pick_one = pick_one_groups(menu)
    for option in menu:
        key = option["key"]
        raw = data.get(OPTION_PREFIX + key)
        group = str(option.get("group") or "")
        if raw is None and group in pick_one and pick_input_name(group) in data:
            raw = "1" if data.get(pick_input_name(group)) == key else None
        if int(option.get("max_count") or 0) <= 1 and raw in (None, "on", "1", "0", ""):
            counts[key] = 1 if raw in ("on", "1") else 0
            continue
        try:
            counts[key] = parse_int(raw or "0", field=f"options.{key}", maximum=OPTION_COUNT_MAX)
        except ArmyListError as exc:
            errors += exc.errors
    if errors:
        raise ArmyListError(errors)
    return counts
