"""Request and response bodies of the API, one section per resource.

Response serializers only read what the models and selectors already hold (cached points,
the unit in the interchange format); request serializers only check the shape and bounds
of input before it is handed to a service, which owns every rule about what is allowed.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from armybuilder.api.filters import MAX_ID
from armybuilder.lists.backends import current_force
from armybuilder.lists.backends import force_choices as roster_force_choices
from armybuilder.lists.evaluation import army_summary, group_kinds_of, list_settings, unit_summary
from armybuilder.lists.unit_options import option_points_now
from armybuilder.models import (
    LIST_NAME_MAX_LENGTH,
    MAX_UNITS_PER_LIST,
    POINTS_LIMIT_MAX,
    POINTS_LIMIT_MIN,
    UNIT_GROUP_MAX_LENGTH,
    UNIT_NAME_MAX_LENGTH,
    UNIT_NOTES_MAX_LENGTH,
)
from points.catalogue.i18n import translated_again
from rules.source_language import decimal_text
from rules.systems.registry import get_system

#: Bounds an option count in a request before a service checks it against the unit's menu.
MAX_OPTION_COUNT = 1000

# --- Authentication ----------------------------------------------------------------------


class CredentialsSerializer(serializers.Serializer):
    """A username and password to exchange for the account's API token."""

    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False, style={"input_type": "password"})

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        request = self.context.get("request")
        user = authenticate(request, username=attrs["username"], password=attrs["password"])
        if user is None or not user.is_active:
            raise serializers.ValidationError(_("Unable to log in with the username and password given."),
                                              code="authorization")
        attrs["user"] = user
        return attrs


class TokenSerializer(serializers.Serializer):
    """The token to send as `Authorization: Token <token>`, and whose it is."""

    token = serializers.CharField()
    user_id = serializers.IntegerField()
    username = serializers.CharField()


# --- Catalogue ---------------------------------------------------------------------------


class GameSystemSerializer(serializers.Serializer):
    """A game system: its profile schema (the fields of a model) and optional structure rules."""

    key = serializers.SlugField(help_text="The system's key, e.g. `opr`; units and lists name it in `system`")
    name = serializers.CharField()
    source_language = serializers.CharField()
    description = serializers.CharField()
    profile_schema = serializers.JSONField(help_text="JSON Schema of one model's profile in the unit format.")
    structure_options = serializers.SerializerMethodField(
        help_text="Optional army-structure rules (key → label), for a list's `structure_options`.")

    list_settings_schema = serializers.SerializerMethodField(
        help_text="JSON Schema of the system's own list parameters (a list's `settings`), with defaults.")
    points_sized = serializers.SerializerMethodField(
        help_text="Whether lists are sized by a points limit (false: AoS 1st, sized by its settings).")
    group_kinds = serializers.SerializerMethodField(
        help_text="Kinds a group of units can be (key → label; 40k: detachments); empty: groups are free.")

    @extend_schema_field(serializers.BooleanField())
    def get_points_sized(self, system: Any) -> bool:
        try:
            return get_system(system.key).points_sized
        except KeyError:
            return True

    @extend_schema_field(serializers.DictField(child=serializers.CharField()))
    def get_group_kinds(self, system: Any) -> dict[str, str]:
        try:
            return {key: gettext(label) for key, label in get_system(system.key).group_kinds.items()}
        except KeyError:
            return {}

    @extend_schema_field(serializers.DictField(child=serializers.CharField()))
    def get_structure_options(self, system: Any) -> dict[str, str]:
        try:
            return {key: gettext(label) for key, label in get_system(system.key).structure_options.items()}
        except KeyError:  # a catalogue row whose system package is not installed
            return {}

    @extend_schema_field(serializers.JSONField())
    def get_list_settings_schema(self, system: Any) -> dict[str, Any]:
        try:
            return dict(get_system(system.key).list_settings_schema)
        except KeyError:
            return {}


class FactionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    slug = serializers.SlugField()
    name = serializers.CharField()
    system = serializers.SlugField(source="system.key", help_text="The game system's key.")
    version = serializers.CharField()
    description = serializers.CharField()
    is_homebrew = serializers.BooleanField(help_text="Made by a player (yours, or shared with everyone).")


class SpecialRuleSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    system = serializers.SlugField(source="system.key")
    key = serializers.SlugField()
    name = serializers.CharField(help_text="The English name, as written in units (`Fear`, `Blast`).")
    source_name = serializers.CharField(help_text="The name in the system's source language.")
    aliases = serializers.ListField(child=serializers.CharField(), help_text="Other accepted names.")
    text = serializers.CharField()
    has_value = serializers.BooleanField(help_text="Written with a value, `Name(X)`.")
    not_in_source = serializers.BooleanField()


class UpgradeOptionSerializer(serializers.Serializer):
    """One choice on a unit; `points` is what taking it once adds (or removes) from the unit."""

    key = serializers.SlugField(help_text="Name it in a list unit's `options` to take it.")
    group = serializers.CharField()
    label = serializers.CharField(
        help_text="As the catalogue writes it; one the importer wrote (Add 5 Boyz (up to 30)) in the "
                  "request's language.")
    kind = serializers.CharField(help_text="replace_weapon, add_weapon, add_rule, add_models or add_item.")
    applies_to = serializers.CharField(help_text="The model profile it changes.")
    payload = serializers.JSONField(help_text="What it does: a weapon in unit format, a rule, a model count…")
    min_count = serializers.IntegerField()
    max_count = serializers.IntegerField()
    points = serializers.IntegerField(allow_null=True, help_text="Points it adds when taken once.")


class UnitSummarySerializer(serializers.Serializer):
    """A unit of the catalogue as collections list it: enough to pick it and see its cost."""

    id = serializers.IntegerField()
    slug = serializers.SlugField()
    name = serializers.CharField()
    role = serializers.CharField()
    faction = serializers.IntegerField(source="faction_id")
    faction_slug = serializers.SlugField(source="faction.slug")
    system = serializers.SlugField(source="faction.system.key")
    reference = serializers.SerializerMethodField(
        help_text="`<faction-slug>/<unit-slug>`, as a list file's `catalogue_unit`.")
    points = serializers.IntegerField(help_text="The unit's points with no options taken.")
    models = serializers.SerializerMethodField(help_text="Model profiles (unit format `models`).")

    def get_reference(self, unit: Any) -> str:
        return f"{unit.faction.slug}/{unit.slug}"

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_models(self, unit: Any) -> list[dict[str, Any]]:
        return list(unit.data.get("models", [])) if isinstance(unit.data, dict) else []


class UnitDetailSerializer(UnitSummarySerializer):
    """A unit with everything a client needs to show and configure it.

    Built by `UnitViewSet.retrieve` from the unit page's card (`rules.unit_cards`), which
    passes in the context `options` (the option menu, each with the points taking it adds)
    and `rules` (the `SpecialRule`s the unit's rule names refer to).
    """

    description = serializers.CharField()
    unit = serializers.JSONField(source="data", help_text="The whole unit in the interchange format.")
    options = serializers.SerializerMethodField()
    rules = serializers.SerializerMethodField(help_text="The special rules its models and weapons carry.")

    @extend_schema_field(UpgradeOptionSerializer(many=True))
    def get_options(self, unit: Any) -> list[dict[str, Any]]:
        return UpgradeOptionSerializer(self.context.get("options", []), many=True).data

    @extend_schema_field(SpecialRuleSerializer(many=True))
    def get_rules(self, unit: Any) -> list[dict[str, Any]]:
        return SpecialRuleSerializer(self.context.get("rules", []), many=True).data


# --- Points ------------------------------------------------------------------------------


class PriceBreakdownSerializer(serializers.Serializer):
    """The system's full breakdown of a unit's cost; the fields beyond these depend on the system.

    For the OPR-style system: the exact value, the rounded points, and per model the base,
    weapon and ability terms with warrior/shooter classification (`docs/rules/opr-points.md`).
    """

    points = serializers.IntegerField(help_text="The unit's points, rounded once.")
    exact = serializers.CharField(help_text="The exact value before rounding (a fraction or decimal).")


# --- Army lists --------------------------------------------------------------------------


class ViolationSerializer(serializers.Serializer):
    """A broken army-composition rule, exactly as the list's game system reports it.

    Every system gives `rule`, `unit` and `message`; a system may add its own details
    (OPR: `check`, `model`, `value`, `limit`), which are passed through unchanged.
    """

    rule = serializers.CharField(help_text="Which rule (a key of the system's structure rules).")
    unit = serializers.CharField(allow_null=True, help_text="The unit at fault, or null for the whole list.")
    message = serializers.CharField()

    def to_representation(self, violation: Any) -> dict[str, Any]:
        # The message in the request's language; the stored original stays internal.
        shown = {key: value for key, value in violation.items() if not key.startswith("message_")}
        shown["message"] = translated_again(violation, number=decimal_text)
        return shown


class ListUnitSerializer(serializers.Serializer):
    """A unit of a list: the catalogue unit it came from, the options taken, the result."""

    id = serializers.IntegerField()
    position = serializers.IntegerField(help_text="0 is the first unit of the list.")
    name = serializers.CharField()
    catalogue_unit = serializers.CharField(source="catalogue_ref",
                                           help_text="`<faction-slug>/<unit-slug>` it was added from.")
    template = serializers.IntegerField(source="template_id", allow_null=True,
                                        help_text="The catalogue unit's id (null once it is deleted).")
    points = serializers.IntegerField()
    options = serializers.DictField(child=serializers.IntegerField(), source="chosen_options",
                                    help_text="Options taken: option key → count.")
    option_points = serializers.DictField(child=serializers.IntegerField(),
                                          help_text="Option key → points one more of it adds now (an option "
                                                    "priced by count, `payload.costs`, at the count taken).")
    available_options = serializers.ListField(
        child=serializers.DictField(), help_text="The unit's option menu (as a catalogue unit's `options`).")
    unit = serializers.JSONField(source="data", help_text="The unit with its options, in unit format.")
    custom_name = serializers.CharField(help_text="The player's own name for the unit (empty: none).")
    notes = serializers.CharField(help_text="The player's notes on the unit.")
    group = serializers.CharField(help_text="The unit's group (detachment, regiment, or the player's own).")
    summary = serializers.SerializerMethodField(
        help_text="The system's own figures of the unit besides points (WHFB: each character's magic "
                  "item points used / allowed): [{key, label, model?, value, limit?, over}].")

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_summary(self, unit: Any) -> list[dict[str, Any]]:
        return unit_summary(army_list=unit.army_list, unit=unit)

    def to_representation(self, unit: Any) -> dict[str, Any]:
        """The fields above, read straight from the row.

        The JSON columns already hold JSON-ready values, so DRF's per-item conversion of
        them (a field object per dict entry) would only cost time — most of the time of
        reading a 25-unit list. `test_api_lists` checks this matches the declared fields.
        """
        return {
            "id": unit.pk, "position": unit.position, "name": unit.name, "catalogue_unit": unit.catalogue_ref,
            "template": unit.template_id, "points": unit.points, "options": unit.chosen_options,
            "option_points": option_points_now(unit.available_options or [], unit.chosen_options or {},
                                               unit.option_points or {}),
            "available_options": unit.available_options,
            "unit": unit.data, "custom_name": unit.custom_name, "notes": unit.notes, "group": unit.group,
            "summary": self.get_summary(unit),
        }


class RosterForceSerializer(serializers.Serializer):
    """A force (detachment) of a BattleScribe catalogue a list can be built in."""

    id = serializers.CharField()
    name = serializers.CharField()


class ArmyListSummarySerializer(serializers.Serializer):
    """A list as the collection shows it: no units, the cached totals."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    system = serializers.SlugField(source="system.key")
    faction = serializers.IntegerField(source="faction_id", allow_null=True)
    points_sized = serializers.BooleanField(
        help_text="Whether the system sizes lists by points; when false (AoS 1st) `points_limit` and "
                  "`points_left` are null and the list's `summary` says what sizes it.")
    points_limit = serializers.IntegerField(allow_null=True)
    total_points = serializers.IntegerField()
    points_left = serializers.IntegerField(
        allow_null=True, help_text="Negative when the list is over its limit.")
    unit_count = serializers.IntegerField()
    is_valid = serializers.BooleanField()
    violation_count = serializers.IntegerField()
    is_public = serializers.BooleanField(help_text="Shown in the public gallery.")
    is_shared = serializers.SerializerMethodField(help_text="A share link exists.")
    version = serializers.IntegerField(help_text="Bumped by every change; the ETag.")
    updated = serializers.DateTimeField()

    @extend_schema_field(serializers.BooleanField())
    def get_is_shared(self, army_list: Any) -> bool:
        return bool(army_list.share_token)

    def to_representation(self, army_list: Any) -> dict[str, Any]:
        shown = super().to_representation(army_list)
        if not shown["points_sized"]:  # no points limit to show for a system without points
            shown["points_limit"] = shown["points_left"] = None
        return shown


class ArmyListSerializer(ArmyListSummarySerializer):
    """A whole list: settings, cached evaluation and units, as stored (nothing is re-priced).

    `share_token` is shown to the owner only.
    """

    faction_name = serializers.CharField(source="faction.name", allow_null=True, default=None)
    owner = serializers.CharField(source="owner.get_username")
    structure_options = serializers.DictField(child=serializers.BooleanField())
    settings = serializers.SerializerMethodField(
        help_text="The system's own list parameters (see its `list_settings_schema`), defaults filled in.")
    summary = serializers.SerializerMethodField(
        help_text="Army-wide figures besides points (40k: Power Level): [{key, label, value}].")
    groups = serializers.SerializerMethodField(
        help_text="The kinds of the list's groups ({group name: kind}), for systems whose groups have kinds "
                  "(40k detachments); empty elsewhere.")
    violations = ViolationSerializer(many=True)
    share_token = serializers.SerializerMethodField(help_text="The share link's token (owner only).")
    forked_from = serializers.IntegerField(source="forked_from_id", allow_null=True)
    locked_at = serializers.DateTimeField(
        allow_null=True, help_text="When this locked version was made (null: a list that can change).")
    fingerprint = serializers.CharField(
        allow_blank=True,
        help_text="A locked version's content fingerprint (empty for a list that can change).")
    created = serializers.DateTimeField()
    roster_force = serializers.SerializerMethodField(
        help_text="The force (detachment) the list is built in (lists of a faction imported with its "
                  "BattleScribe catalogue: one of `roster_forces`); empty for other lists.")
    roster_forces = serializers.SerializerMethodField(
        help_text="The forces the list can be built in ([{id, name}]); empty for other lists.")
    units = serializers.SerializerMethodField()

    def _force_choices(self, army_list: Any) -> list[tuple[str, str]]:
        """The list's forces, looked up once for both fields below (each lookup is a query)."""
        found = getattr(self, "_forces_of", None)
        if found is None or found[0] is not army_list:
            found = self._forces_of = (army_list, roster_force_choices(army_list))
        return found[1]

    @extend_schema_field(serializers.CharField(allow_blank=True))
    def get_roster_force(self, army_list: Any) -> str:
        return current_force(army_list, self._force_choices(army_list))

    @extend_schema_field(RosterForceSerializer(many=True))
    def get_roster_forces(self, army_list: Any) -> list[dict[str, str]]:
        return [{"id": entry_id, "name": name} for entry_id, name in self._force_choices(army_list)]

    @extend_schema_field(serializers.DictField())
    def get_settings(self, army_list: Any) -> dict[str, Any]:
        return list_settings(army_list)

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_summary(self, army_list: Any) -> list[dict[str, Any]]:
        # The view passes the units it has read (`list_units`): reading them again was a second
        # units query on every list read; without it, they are read here.
        units = self.context.get("list_units")
        if units is None:
            units = list(army_list.units.order_by("position"))
        rows = army_summary(army_list=army_list, units=units)
        return [{**row, "label": str(row.get("label", ""))} for row in rows]

    @extend_schema_field(serializers.DictField(child=serializers.CharField()))
    def get_groups(self, army_list: Any) -> dict[str, str]:
        in_use = {unit["group"] for unit in self.context.get("units", [])}
        return {name: kind for name, kind in group_kinds_of(army_list).items() if name in in_use}

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_share_token(self, army_list: Any) -> str | None:
        """Filled in per request by `lists.list_response` (only the owner sees it)."""
        return None

    @extend_schema_field(ListUnitSerializer(many=True))
    def get_units(self, army_list: Any) -> list[dict[str, Any]]:
        """The units as `ListUnitSerializer` gives them, passed in by the view (it may have them cached)."""
        return self.context["units"]

    def to_representation(self, army_list: Any) -> dict[str, Any]:
        """The fields above, read straight from the row.

        Building DRF's field objects for one list (a deep copy of some thirty fields, each
        converting its value) cost about as much as the rest of an uncached read of a 50-unit
        list together; the values here are the same. `test_api_lists` checks this matches
        the generic rendering, field for field and in order.
        """
        sized = bool(army_list.points_sized)
        violations, structure = army_list.violations, army_list.structure_options
        return {
            "id": army_list.pk, "name": str(army_list.name), "system": str(army_list.system.key),
            "faction": army_list.faction_id, "points_sized": sized,
            "points_limit": army_list.points_limit if sized else None, "total_points": army_list.total_points,
            "points_left": army_list.points_left if sized else None, "unit_count": army_list.unit_count,
            "is_valid": bool(army_list.is_valid), "violation_count": army_list.violation_count,
            "is_public": bool(army_list.is_public), "is_shared": self.get_is_shared(army_list),
            "version": army_list.version, "updated": _DATETIME.to_representation(army_list.updated),
            "faction_name": army_list.faction.name if army_list.faction_id else None,
            "owner": str(army_list.owner.get_username()),
            "structure_options": (None if structure is None
                                  else {str(key): bool(value) for key, value in structure.items()}),
            "settings": self.get_settings(army_list), "summary": self.get_summary(army_list),
            "groups": self.get_groups(army_list),
            "violations": (None if violations is None
                           else [_VIOLATION.to_representation(violation) for violation in violations]),
            "share_token": self.get_share_token(army_list), "forked_from": army_list.forked_from_id,
            "locked_at": _DATETIME.to_representation(army_list.locked_at) if army_list.locked_at else None,
            "fingerprint": str(army_list.fingerprint),
            "created": _DATETIME.to_representation(army_list.created),
            "roster_force": self.get_roster_force(army_list),
            "roster_forces": self.get_roster_forces(army_list),
            "units": self.get_units(army_list),
        }


#: Field objects `ArmyListSerializer.to_representation` converts with (made once: they hold no state).
_DATETIME = serializers.DateTimeField()
_VIOLATION = ViolationSerializer()


class ArmyListWriteSerializer(serializers.Serializer):
    """The settings of a list a player may change (all of them for PUT, some for PATCH)."""

    name = serializers.CharField(max_length=LIST_NAME_MAX_LENGTH, trim_whitespace=True)
    points_limit = serializers.IntegerField(
        min_value=POINTS_LIMIT_MIN, max_value=POINTS_LIMIT_MAX, required=False,
        help_text="Required for a system sized by points; a system without points (AoS 1st) ignores it.")
    structure_options = serializers.DictField(
        child=serializers.BooleanField(), required=False,
        help_text="Optional structure rules of the system (see the system's `structure_options`), on or off; "
                  "those not named are on.")
    is_public = serializers.BooleanField(required=False, help_text="Show the list in the public gallery.")
    settings = serializers.DictField(
        required=False,
        help_text="The system's own list parameters (see the system's `list_settings_schema`); "
                  "those not named keep their value (a new list: the default).")
    roster_force = serializers.CharField(
        max_length=64, required=False,
        help_text="The force (detachment) the list is built in, one of the list's `roster_forces` (lists of "
                  "a faction imported with its BattleScribe catalogue); every unit is rebuilt in it.")


class ArmyListCreateSerializer(ArmyListWriteSerializer):
    """A new list: its game system and (optionally) faction, then its settings."""

    system = serializers.SlugField(max_length=32, help_text="The game system's key.")
    faction = serializers.IntegerField(min_value=1, max_value=MAX_ID, allow_null=True, required=False,
                                       help_text="The faction's id (of the same system).")


class ListUnitAddSerializer(serializers.Serializer):
    """Add a catalogue (or your homebrew) unit of the list's system, with options taken."""

    unit = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="The catalogue unit's id.")
    options = serializers.DictField(child=serializers.IntegerField(min_value=0, max_value=MAX_OPTION_COUNT),
                                    required=False,
                                    help_text="Option key → count; options not named start at their minimum.")


class ListUnitChangeSerializer(serializers.Serializer):
    """Change a unit's options (all of them: those not named are not taken) and/or its place."""

    options = serializers.DictField(child=serializers.IntegerField(min_value=0, max_value=MAX_OPTION_COUNT),
                                    required=False, help_text="Option key → count, replacing the choice.")
    position = serializers.IntegerField(min_value=0, max_value=MAX_UNITS_PER_LIST - 1, required=False,
                                        help_text="Move the unit here (0 is first).")
    custom_name = serializers.CharField(max_length=UNIT_NAME_MAX_LENGTH, required=False, allow_blank=True,
                                        help_text="The player's own name for the unit.")
    notes = serializers.CharField(max_length=UNIT_NOTES_MAX_LENGTH, required=False, allow_blank=True,
                                  trim_whitespace=False, help_text="Notes on the unit.")
    group = serializers.CharField(max_length=UNIT_GROUP_MAX_LENGTH, required=False, allow_blank=True,
                                  help_text="The unit's group.")
    group_kind = serializers.CharField(max_length=32, required=False, allow_blank=True,
                                       help_text="The kind of the unit's group where groups have kinds "
                                                 "(the system's `group_kinds`: 40k detachments); "
                                                 "empty for a free group.")


class EvaluationSerializer(serializers.Serializer):
    """A fresh evaluation: every unit re-priced, the army re-validated by its system."""

    total_points = serializers.IntegerField()
    points_limit = serializers.IntegerField(allow_null=True, help_text="Null for a system without points.")
    points_left = serializers.IntegerField(allow_null=True, help_text="Null for a system without points.")
    is_valid = serializers.BooleanField()
    unit_points = serializers.DictField(child=serializers.IntegerField(), help_text="Unit id → points.")
    violations = ViolationSerializer(many=True)


class AuditUnitSerializer(serializers.Serializer):
    """One unit of the points audit: its book price beside the formula's."""

    id = serializers.IntegerField(source="ref.pk", help_text="The list unit's id.")
    name = serializers.CharField()
    models = serializers.IntegerField()
    book = serializers.FloatField(source="book_number", allow_null=True,
                                  help_text="The price its source printed (an Army Forge book or list); "
                                            "null for a unit made here.")
    formula = serializers.IntegerField(help_text="The published formula's price.")
    gap = serializers.FloatField(source="gap_number", allow_null=True, help_text="formula − book.")
    unpriced = serializers.ListField(child=serializers.CharField(),
                                     help_text="The unit's rules the formula does not price (kept on it as "
                                               "text): `formula` is its price without them.")


class AuditTotalSerializer(serializers.Serializer):
    book = serializers.FloatField(source="book_number", help_text="The units with a book price, summed.")
    formula = serializers.IntegerField(help_text="The same units' formula prices, summed.")
    gap = serializers.FloatField(source="gap_number")
    audited = serializers.IntegerField(help_text="Units with a book price.")
    units = serializers.IntegerField()


class ListAuditSerializer(serializers.Serializer):
    """The points audit of a list priced by a published formula: each unit's book price beside
    the formula's and the rules the formula did not price, so the gap is explained."""

    units = AuditUnitSerializer(many=True, source="rows")
    total = AuditTotalSerializer()
    unpriced_rules = serializers.ListField(child=serializers.CharField(), source="unpriced",
                                           help_text="Every rule the formula does not price, by name, once.")


class LockSerializer(serializers.Serializer):
    """A locked version of a list: frozen as it was at `locked_at`, read at `url` by anyone with it."""

    token = serializers.CharField(source="share_token", help_text="The locked version's share token.")
    url = serializers.SerializerMethodField(help_text="The API address of the locked version.")
    page_url = serializers.SerializerMethodField(help_text="The page an opponent opens.")
    locked_at = serializers.DateTimeField()
    fingerprint = serializers.CharField(
        help_text="A short hash of the list's content, to compare at the table.")
    total_points = serializers.IntegerField()
    unit_count = serializers.IntegerField()

    @extend_schema_field(serializers.URLField())
    def get_url(self, locked: Any) -> str:
        return reverse("api:shared-list", kwargs={"token": locked.share_token},
                       request=self.context.get("request"))

    @extend_schema_field(serializers.URLField())
    def get_page_url(self, locked: Any) -> str:
        return reverse("lists:shared", kwargs={"token": locked.share_token},
                       request=self.context.get("request"))


class ShareSerializer(serializers.Serializer):
    """A list's share link: anyone with the token reads it at `/api/v1/shared/{token}`."""

    token = serializers.CharField()
    url = serializers.URLField(help_text="The API address of the shared list.")


class GauntletChanceSerializer(serializers.Serializer):
    """A chance of a unit's fights its system reports (WHFB: wins the combat; AoS: holds)."""

    key = serializers.CharField()
    label = serializers.CharField(help_text="In the request's language.")
    side = serializers.ChoiceField(
        choices=["attacking", "attacked"],
        help_text="From the unit's own melee attacks, or from the gauntlet's melee attacks on it.")
    value = serializers.FloatField(help_text="The chance, averaged over the gauntlet's units by their worth.")


class GauntletUnitSerializer(serializers.Serializer):
    """One unit of the list measured against its gauntlet (`armybuilder.estimates.gauntlet`)."""

    name = serializers.CharField()
    points = serializers.FloatField(help_text="Its worth: points, or models for a system without points.")
    offence_per_point = serializers.FloatField(help_text="Enemy worth destroyed per turn per own worth.")
    offence_by_mode = serializers.DictField(child=serializers.FloatField())
    durability_per_point = serializers.FloatField(
        allow_null=True, help_text="Worth of the gauntlet's attacks needed to destroy it, per own worth.")
    best_target = serializers.CharField(
        allow_null=True,
        help_text="The enemy unit it destroys most of per own worth: a reference target's name in the "
                  "request's language, a list's unit's as its player named it.")
    best_target_reference = serializers.BooleanField(
        help_text="Whether the best target is one of the system's reference targets.")
    worst_target = serializers.CharField(
        allow_null=True, help_text="As `best_target`, the enemy unit it destroys least of.")
    worst_target_reference = serializers.BooleanField(
        help_text="Whether the worst target is one of the system's reference targets.")
    melee_chances = serializers.ListField(
        child=serializers.DictField(),
        help_text="Every one-figure chance of its own melee attacks, [{key, label, value}], "
                  "averaged over the gauntlet (`combat_chances` holds the ones the system reports).")
    unit_id = serializers.IntegerField(help_text="The list unit these figures are of.")
    offence_per_wound = serializers.FloatField(
        allow_null=True, help_text="Enemy wounds inflicted per turn per own wound (a system counting "
                                   "wounds and no points: AoS); null otherwise.")
    durability_per_wound = serializers.FloatField(
        allow_null=True, help_text="Wounds of the gauntlet's attackers needed to destroy it, per own wound.")
    combat_chances = GauntletChanceSerializer(many=True)
    explanation = serializers.ListField(
        child=serializers.CharField(),
        help_text="Each figure in one sentence a player reads, in the request's language.")


class GauntletOpponentSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="Empty for the system's reference targets.")
    points = serializers.FloatField()
    points_destroyed_per_turn = serializers.FloatField()
    points_lost_per_turn = serializers.FloatField()
    ahead_by = serializers.FloatField()


class GauntletSettingsSerializer(serializers.Serializer):
    """Who a list is measured against: reference targets, up to three lists, locked links."""

    reference = serializers.BooleanField()
    lists = serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=3, default=list)
    locks = serializers.ListField(child=serializers.CharField(max_length=64), max_length=3, default=list)


class GauntletSerializer(serializers.Serializer):
    """The list's gauntlet: `computing` (ask again after `Retry-After`) or `ready` with the figures."""

    state = serializers.ChoiceField(choices=["ready", "computing", "too_large"])
    done = serializers.IntegerField(help_text="Matchups computed so far.")
    total = serializers.IntegerField(help_text="Matchups the gauntlet needs.")
    worth_unit = serializers.ChoiceField(choices=["points", "models"], allow_null=True)
    settings = GauntletSettingsSerializer()
    units = GauntletUnitSerializer(many=True)
    opponents = GauntletOpponentSerializer(many=True)
