"""Army lists: what a player saved, and the units in it.

A list row keeps what the lists page and the gallery show without re-pricing anything
(total, valid or not, how many violations), refreshed by every service that changes the
list, and an integer `version` that every change checks and bumps, so that two browser
tabs editing one list cannot silently overwrite each other (`armybuilder/lists/services.py`).

A unit of a list is a snapshot: the catalogue unit as it was when it was added (its
models and its menu of upgrade options), the options the player chose, and the unit those
options produce. The list therefore keeps its meaning and its points when the catalogue
changes or a homebrew unit is deleted; the link to the template is kept only to say where
the unit came from.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from armybuilder.accounts.models import PlayerProfile  # noqa: F401  (registers the model)
from armybuilder.json_columns import DocumentJSONField
from rules.models import Faction

#: Bounds every request is checked against, so any input costs bounded time and memory; the
#: database enforces them too.
LIST_NAME_MAX_LENGTH = 100
UNIT_NAME_MAX_LENGTH = 120
POINTS_LIMIT_MIN = 1
POINTS_LIMIT_MAX = 100_000
MAX_UNITS_PER_LIST = 200
SHARE_TOKEN_MAX_LENGTH = 64
UNIT_NOTES_MAX_LENGTH = 1000
UNIT_GROUP_MAX_LENGTH = 60


class ArmyList(models.Model):
    """A player's army list for one game system (and usually one faction)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="army_lists", verbose_name=_("owner")
    )
    system = models.ForeignKey(
        "rules.GameSystem", on_delete=models.PROTECT, related_name="army_lists", verbose_name=_("game system")
    )
    # SET_NULL: deleting a homebrew faction must not delete other players' lists built from it.
    faction = models.ForeignKey(
        "rules.Faction",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="army_lists",
        verbose_name=_("faction"),
    )
    name = models.CharField(_("name"), max_length=LIST_NAME_MAX_LENGTH)
    points_limit = models.PositiveIntegerField(_("points limit"))
    structure_options = models.JSONField(
        _("army structure rules"),
        default=dict,
        blank=True,
        help_text=_("Which optional structure rules of the game system apply, by key: {key: true/false}."),
    )
    settings = models.JSONField(
        _("list settings"),
        default=dict,
        blank=True,
        help_text=_("The game system's own list parameters (battle size, allegiance…), by key."),
    )
    # The kind of each named unit group, for systems with group kinds (40k: detachments,
    # `GameSystem.group_kinds`): {group name: kind key}. Groups without a kind are free.
    group_kinds = models.JSONField(
        _("kinds of unit groups"),
        default=dict,
        blank=True,
        help_text=_("For systems with kinds of groups (detachments): {group name: kind}."),
    )
    version = models.PositiveIntegerField(_("version"), default=1)
    is_public = models.BooleanField(_("shown in the public gallery"), default=False)
    share_token = models.CharField(
        _("share token"), max_length=SHARE_TOKEN_MAX_LENGTH, null=True, blank=True, unique=True
    )
    forked_from = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="forks",
        verbose_name=_("forked from"),
    )
    # A locked version ("Lock and share"): a frozen, read-only copy of the list as it was at
    # `locked_at`, reachable only through its own share link (`armybuilder/lists/locks.py`).
    # Editing the source never changes it; `fingerprint` lets an opponent check the list played.
    locked_from = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="locks",
        verbose_name=_("locked version of"),
    )
    locked_at = models.DateTimeField(_("locked at"), null=True, blank=True)
    fingerprint = models.CharField(_("fingerprint"), max_length=24, blank=True)
    # The opponents the list is measured against while it is built (`armybuilder.estimates.gauntlet_live`):
    # {"reference": bool, "lists": [list ids], "locks": [share tokens]}; {} means the default
    # (the system's reference targets).
    gauntlet = models.JSONField(_("gauntlet"), default=dict, blank=True)
    # The last change that can be undone (a removed unit, cleared options), or {} (services).
    undo = models.JSONField(_("last change that can be undone"), default=dict, blank=True)
    # Lists of a faction imported from BattleScribe are rosters of the roster engine: the id of
    # the force entry (detachment) their units are in ("" for other lists, or the first one).
    roster_force = models.CharField(_("roster force"), max_length=64, blank=True)
    # Cached evaluation, written by the services in the same transaction as the change.
    total_points = models.PositiveIntegerField(_("total points"), default=0)
    unit_count = models.PositiveSmallIntegerField(_("units"), default=0)
    violations = models.JSONField(_("violations"), default=list, blank=True)
    violation_count = models.PositiveIntegerField(_("violations"), default=0)
    is_valid = models.BooleanField(_("valid"), default=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("last change"), auto_now=True)

    class Meta:
        ordering = ["-updated", "-id"]
        verbose_name = _("army list")
        verbose_name_plural = _("army lists")
        indexes = [
            models.Index(fields=["owner", "-updated"], name="armylist_owner_updated"),
            models.Index(fields=["-updated"], condition=Q(is_public=True), name="armylist_public_updated"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(points_limit__gte=POINTS_LIMIT_MIN, points_limit__lte=POINTS_LIMIT_MAX),
                name="armylist_points_limit_in_range",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="armylist_name_not_empty"),
            models.CheckConstraint(
                condition=Q(unit_count__lte=MAX_UNITS_PER_LIST), name="armylist_unit_count_max"
            ),
            models.CheckConstraint(
                condition=Q(is_valid=True, violation_count=0) | Q(is_valid=False, violation_count__gt=0),
                name="armylist_valid_iff_no_violations",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def points_sized(self) -> bool:
        """Whether the list's system sizes lists by points (`GameSystem.points_sized`); when
        not (AoS 1st), pages and exports show the system's `army_summary` instead of a limit."""
        from rules.systems.registry import get_system  # the registry imports no Django models

        return get_system(self.system.key).points_sized

    @property
    def is_locked(self) -> bool:
        """A locked version: read-only for everyone, its owner included."""
        return self.locked_at is not None

    @property
    def formula_priced(self) -> bool:
        """Whether the list's system prices units by a published formula, so the points audit
        applies (`GameSystem.formula_priced`)."""
        from rules.systems.registry import get_system

        return get_system(self.system.key).formula_priced

    @property
    def army_forge_export(self) -> bool:
        """Whether the list downloads as Army Forge's share JSON (its system writes Army Forge units)."""
        from rules.systems.registry import get_system

        return "army_forge" in get_system(self.system.key).foreign_units

    @property
    def points_left(self) -> int:
        """Negative when the list is over its limit (shown as such, never clamped)."""
        return self.points_limit - self.total_points

    @property
    def points_over(self) -> int:
        """How far the list is over its limit (0 when it is not)."""
        return max(0, self.total_points - self.points_limit)


class ListUnit(models.Model):
    """One unit of a list: a snapshot of the catalogue unit, the chosen options, the result.

    - `base_data`: the unit before options (the template's `data` when it was added);
    - `available_options`: the template's upgrade options at that time, as plain dicts;
    - `chosen_options`: `{option key: count}` the player picked;
    - `data`: the unit those options produce, in the interchange format — what is priced,
      validated, printed and exported;
    - `option_points`: `{option key: points it adds}` for the option picker, cached so that
      rendering a 200-unit list prices nothing.
    """

    army_list = models.ForeignKey(
        ArmyList, on_delete=models.CASCADE, related_name="units", verbose_name=_("army list")
    )
    template = models.ForeignKey(
        "rules.UnitTemplate",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("catalogue unit"),
    )
    catalogue_ref = models.CharField(
        _("catalogue reference"),
        max_length=170,
        blank=True,
        help_text=_("<faction-slug>/<unit-slug> of the catalogue unit it was added from."),
    )
    name = models.CharField(_("name"), max_length=UNIT_NAME_MAX_LENGTH)
    base_data = DocumentJSONField(_("unit before options"), default=dict)
    available_options = DocumentJSONField(_("upgrade options"), default=list, blank=True)
    chosen_options = DocumentJSONField(_("chosen options"), default=dict, blank=True)
    data = DocumentJSONField(_("unit (interchange format)"), default=dict)
    option_points = DocumentJSONField(_("points of each option"), default=dict, blank=True)
    position = models.PositiveSmallIntegerField(_("position"))
    points = models.PositiveIntegerField(_("points"), default=0)
    # For a unit of a faction imported from BattleScribe: its selection as the roster engine
    # keeps it ({"entry", "number", "children": [...]}); {} for units in our unit format.
    selection = models.JSONField(_("roster selection"), default=dict, blank=True)
    # The player's own words: a name for this unit ("Red squad"), notes, and a group
    # (a detachment, a regiment, or any grouping the player likes). Printed and exported.
    custom_name = models.CharField(_("custom name"), max_length=UNIT_NAME_MAX_LENGTH, blank=True)
    notes = models.TextField(_("notes"), max_length=UNIT_NOTES_MAX_LENGTH, blank=True)
    group = models.CharField(_("group"), max_length=UNIT_GROUP_MAX_LENGTH, blank=True)

    class Meta:
        ordering = ["army_list", "position"]
        verbose_name = _("unit of a list")
        verbose_name_plural = _("units of lists")
        constraints = [
            # Deferred, so that reordering can shift positions inside one transaction.
            models.UniqueConstraint(
                fields=["army_list", "position"],
                name="listunit_unique_position",
                deferrable=models.Deferrable.DEFERRED,
            ),
            # Positions are kept 0..n-1, so with the uniqueness above this caps a list at 200 units.
            models.CheckConstraint(
                condition=Q(position__lt=MAX_UNITS_PER_LIST), name="listunit_position_max"
            ),
            models.CheckConstraint(condition=~Q(name=""), name="listunit_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        """The player's name for the unit when they gave one, else the catalogue's."""
        return self.custom_name or self.catalogue_name

    @property
    def catalogue_name(self) -> str:
        """The catalogue's name of the unit in the reader's language where its bundled faction
        translates it (`Faction.in_reader_language`); `name` keeps the English one. Only a
        list and faction already loaded are asked (never a query per unit)."""
        faction = self.loaded_faction()
        return faction.in_reader_language(self.name) if faction is not None else self.name

    def option_text(self, text: str) -> str:
        """An option's label or group in the reader's language (as `catalogue_name`)."""
        faction = self.loaded_faction()
        return faction.in_reader_language(text) if faction is not None and text else text

    def loaded_faction(self) -> Faction | None:
        """The list's faction when the list and its faction are loaded already, else None."""
        if not ListUnit.army_list.is_cached(self):
            return None
        army_list = self.army_list
        return army_list.faction if ArmyList.faction.is_cached(army_list) else None


# The background jobs' rows live in their own module (`armybuilder.jobs` reads and writes them).
from armybuilder.job_rows import BackgroundJob, JobInput, JobOutput  # noqa: E402, F401


class ListApiDocument(models.Model):
    """The API's JSON of one version of a list, in one language, stored as the bytes sent.

    Reading a list through the API (`GET /api/v1/lists/{id}`) was mostly building and
    encoding this document again from the list's and its units' rows; stored, a read is one
    statement that checks the document still belongs to the list as it is now and returns it
    (`armybuilder/api/list_documents.py`). The document is split around the share token (shown
    to the owner only): `head` ends with `"share_token":`, `tail` starts after its value.

    A document is current only while everything it was built from is unchanged, which the read
    compares in the same statement: the list's `version` and `updated` (every change of the list
    or its units moves them), its faction's name, its owner's username, its faction's
    BattleScribe source (the forces offered) and the code's `format` (a fingerprint of the code and
    messages that made it). A deleted catalogue unit
    (its list units lose `template`) deletes the documents of the lists using it. A document
    that is not current is never sent: the list is serialized again and the document rewritten.
    """

    army_list = models.ForeignKey(ArmyList, on_delete=models.CASCADE, related_name="+",
                                  verbose_name=_("army list"))
    language = models.CharField(_("language"), max_length=16)
    format = models.CharField(_("format"), max_length=80)
    list_version = models.PositiveIntegerField(_("list version"))
    list_updated = models.DateTimeField(_("list last change"))
    faction_name = models.CharField(_("faction name"), max_length=120, null=True)
    owner_name = models.CharField(_("owner name"), max_length=150)
    source_digest = models.CharField(_("BattleScribe source digest"), max_length=64, null=True)
    head = models.TextField(_("JSON before the share token"))
    tail = models.TextField(_("JSON after the share token"))

    class Meta:
        verbose_name = _("stored API document of a list")
        verbose_name_plural = _("stored API documents of lists")
        constraints = [
            models.UniqueConstraint(fields=["army_list", "language"],
                                    name="listapidocument_one_per_language"),
        ]

    def __str__(self) -> str:
        return f"{self.army_list_id} v{self.list_version} ({self.language})"
