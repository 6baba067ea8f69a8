"""The catalogue in Postgres: game systems, factions, unit templates and their options.

A unit template stores its models in the interchange format of
`docs/unit-format.md` (`data`, a JSON object validated against the system's profile
schema when it is loaded or saved through a service), because that one shape is what the
points engine, the dice engine, list export and the API consume. Relational columns are
kept for what is queried, filtered or constrained: slugs, names, ownership, points.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext_lazy as _


class GameSystem(models.Model):
    """A row per system registered in `rules.systems.registry` (the key joins the two)."""

    key = models.SlugField(_("key"), max_length=32, unique=True)
    name = models.CharField(_("name"), max_length=100)
    source_language = models.CharField(_("source language"), max_length=8, default="en")
    description = models.TextField(_("description"), blank=True)
    profile_schema = models.JSONField(_("profile schema"), default=dict, blank=True)
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        ordering = ["position", "name"]
        verbose_name = _("game system")
        verbose_name_plural = _("game systems")

    def __str__(self) -> str:
        return self.name


class Faction(models.Model):
    """An army book. Homebrew factions belong to one user and hold their custom units."""

    system = models.ForeignKey(
        GameSystem, on_delete=models.PROTECT, related_name="factions", verbose_name=_("game system")
    )
    slug = models.SlugField(_("slug"), max_length=80)
    name = models.CharField(_("name"), max_length=120)
    version = models.CharField(_("version"), max_length=32, blank=True)
    description = models.TextField(_("description"), blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="homebrew_factions",
        verbose_name=_("owner"),
    )
    is_shared = models.BooleanField(_("shared with everyone"), default=False)
    is_reference = models.BooleanField(
        _("reference profiles"),
        default=False,
        help_text=_(
            "The profiles a rulebook prints as examples, without points: shown in the catalogue, "
            "not offered for new lists."
        ),
    )
    #: The bundled armies' texts in other languages: English text as written in the faction's
    #: file (its name, a unit's name, an option's label or group) → {language: text}. Lists
    #: store the English text, so saved lists, exports and imports never depend on these.
    translations = models.JSONField(_("translations"), default=dict, blank=True)
    #: The army's own rules as its source writes them, `[{"name", "text"}]`: those the system's
    #: price does not count (an Army Forge book's army rules), kept so a player can read what
    #: the units' rules written as text mean. The system's own rules are `SpecialRule`s.
    rules = models.JSONField(_("army rules"), default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["system__position", "name"]
        verbose_name = _("faction")
        verbose_name_plural = _("factions")
        constraints = [
            models.UniqueConstraint(
                fields=["system", "slug"],
                condition=Q(owner__isnull=True),
                name="faction_unique_slug_per_system",
            ),
            models.UniqueConstraint(
                fields=["system", "owner", "slug"],
                condition=Q(owner__isnull=False),
                name="homebrew_faction_unique_slug_per_owner",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.system.key})"

    @property
    def is_homebrew(self) -> bool:
        return self.owner_id is not None

    def in_reader_language(self, text: str) -> str:
        """`text` (this faction's name, a unit's name, an option's label or group, a model's,
        weapon's or item's name, as its file writes it) in the current request's language where
        the bundled catalogue translates it; else as written (imported and homebrew factions
        are the player's own words). A profile an option split off is named after the upgrade,
        "Ashguard (Rotary Autogun)": each part is translated on its own."""
        table = self.translations or {}
        if not table or not text:
            return text
        language = (translation.get_language() or "").split("-")[0]
        found = table.get(text, {}).get(language)
        if found:
            return str(found)
        upgraded = _UPGRADED_PROFILE.fullmatch(text)
        if upgraded is None:
            return text
        head, parts = upgraded.group(1), upgraded.group(2).split(", ")
        return f"{self.in_reader_language(head)} ({', '.join(self.in_reader_language(p) for p in parts)})"

    @property
    def shown_name(self) -> str:
        """The faction's name in the reader's language (`in_reader_language`)."""
        return self.in_reader_language(self.name)


#: A model profile an option split off (`rules.options._split`): "Warden (Slag Lance)".
_UPGRADED_PROFILE = re.compile(r"(.+?) \((.+)\)")


class SpecialRule(models.Model):
    """A special rule of a system: a machine key, names in English and the source language.

    `scope` says what carries the rule, so the designer offers model rules beside a model's
    profile and weapon rules beside each weapon.
    """

    class Scope(models.TextChoices):
        MODEL = "model", _("Model or unit")
        WEAPON = "weapon", _("Weapon")
        OTHER = "other", _("Army, terrain or game rule")

    system = models.ForeignKey(
        GameSystem, on_delete=models.CASCADE, related_name="special_rules", verbose_name=_("game system")
    )
    key = models.SlugField(_("key"), max_length=64)
    name = models.CharField(_("English name"), max_length=100)
    source_name = models.CharField(_("name in the source language"), max_length=100, blank=True)
    aliases = models.JSONField(_("other accepted names"), default=list, blank=True)
    text = models.TextField(_("rules text"), blank=True)
    source_text = models.TextField(
        _("rules text in the source language"),
        blank=True,
        help_text=_("Shown instead of the English text to players who read the source language."),
    )
    has_value = models.BooleanField(_("takes a value (X)"), default=False)
    scope = models.CharField(_("carried by"), max_length=8, choices=Scope.choices, default=Scope.MODEL)
    not_in_source = models.BooleanField(
        _("not in the source"),
        default=False,
        help_text=_("Marked [EXTERNAL] or [NOT IN SOURCE] in the seed summary."),
    )

    class Meta:
        ordering = ["system", "name"]
        verbose_name = _("special rule")
        verbose_name_plural = _("special rules")
        constraints = [models.UniqueConstraint(fields=["system", "key"], name="rule_unique_key_per_system")]

    def __str__(self) -> str:
        return self.name


class WeaponProfile(models.Model):
    """A named weapon of a faction, referenced by upgrade options (`data` in unit format)."""

    faction = models.ForeignKey(
        Faction, on_delete=models.CASCADE, related_name="weapons", verbose_name=_("faction")
    )
    slug = models.SlugField(_("slug"), max_length=80)
    name = models.CharField(_("name"), max_length=120)
    data = models.JSONField(_("profile"), default=dict)

    class Meta:
        ordering = ["faction", "name"]
        verbose_name = _("weapon profile")
        verbose_name_plural = _("weapon profiles")
        constraints = [
            models.UniqueConstraint(fields=["faction", "slug"], name="weapon_unique_slug_per_faction")
        ]

    def __str__(self) -> str:
        return self.name


class UnitTemplate(models.Model):
    """A unit a faction can field: models, profiles, weapons and rules in unit format.

    `points` is the system's price of the unit as written (no options), cached when the
    unit is loaded or saved so that lists of units sort and display without re-pricing;
    the engine stays the source of truth and tests check the two agree.
    """

    class Role(models.TextChoices):
        HERO = "hero", _("Hero")
        INFANTRY = "infantry", _("Infantry")
        ELITE = "elite", _("Elite")
        CAVALRY = "cavalry", _("Cavalry")
        MONSTER = "monster", _("Monster")
        VEHICLE = "vehicle", _("Vehicle")
        TRANSPORT = "transport", _("Transport")
        AIRCRAFT = "aircraft", _("Aircraft")
        ARTILLERY = "artillery", _("Artillery")
        OTHER = "other", _("Other")

    faction = models.ForeignKey(
        Faction, on_delete=models.CASCADE, related_name="units", verbose_name=_("faction")
    )
    slug = models.SlugField(_("slug"), max_length=80)
    name = models.CharField(_("name"), max_length=120)
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.INFANTRY)
    description = models.TextField(_("description"), blank=True)
    data = models.JSONField(_("unit (interchange format)"), default=dict)
    points = models.PositiveIntegerField(_("points"), default=0)
    position = models.PositiveSmallIntegerField(_("position"), default=0)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["faction", "position", "name"]
        verbose_name = _("unit")
        verbose_name_plural = _("units")
        constraints = [
            models.UniqueConstraint(fields=["faction", "slug"], name="unit_unique_slug_per_faction")
        ]

    def __str__(self) -> str:
        return self.name


class UpgradeOption(models.Model):
    """A choice on a unit: replace a weapon, add a weapon, add a rule, add models, take an item.

    `payload` says what the option does (a weapon in unit format, a rule name, a number of
    models, an equipment slug); `applies_to` names the model profile it changes. Options of
    one `group` share its min/max (e.g. "take up to 2 of: ...").
    """

    class Kind(models.TextChoices):
        REPLACE_WEAPON = "replace_weapon", _("Replace a weapon")
        ADD_WEAPON = "add_weapon", _("Add a weapon")
        ADD_RULE = "add_rule", _("Add a rule")
        ADD_MODELS = "add_models", _("Add models")
        ADD_ITEM = "add_item", _("Take equipment or a magic item")

    unit = models.ForeignKey(
        UnitTemplate, on_delete=models.CASCADE, related_name="options", verbose_name=_("unit")
    )
    key = models.SlugField(_("key"), max_length=80)
    group = models.CharField(_("group"), max_length=120, blank=True)
    label = models.CharField(_("label"), max_length=200)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    applies_to = models.CharField(_("model it applies to"), max_length=120, blank=True)
    payload = models.JSONField(_("payload"), default=dict, blank=True)
    min_count = models.PositiveSmallIntegerField(_("minimum"), default=0)
    max_count = models.PositiveSmallIntegerField(_("maximum"), default=1)
    cost = models.IntegerField(
        _("catalogue cost"),
        null=True,
        blank=True,
        help_text=_("Only for systems priced from the catalogue; OPR options are priced by the formula."),
    )
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        ordering = ["unit", "position", "key"]
        verbose_name = _("upgrade option")
        verbose_name_plural = _("upgrade options")
        constraints = [
            models.UniqueConstraint(fields=["unit", "key"], name="option_unique_key_per_unit"),
            models.CheckConstraint(
                condition=Q(max_count__gte=models.F("min_count")), name="option_max_gte_min"
            ),
        ]

    def __str__(self) -> str:
        return self.label


class Equipment(models.Model):
    """Equipment and magic items of the Warhammer Fantasy style systems (points from the book)."""

    class Kind(models.TextChoices):
        WEAPON = "weapon", _("Magic weapon")
        ARMOUR = "armour", _("Magic armour")
        TALISMAN = "talisman", _("Talisman")
        ARCANE = "arcane", _("Arcane item")
        ENCHANTED = "enchanted", _("Enchanted item")
        BANNER = "banner", _("Magic banner")
        MUNDANE = "mundane", _("Mundane equipment")

    system = models.ForeignKey(
        GameSystem, on_delete=models.CASCADE, related_name="equipment", verbose_name=_("game system")
    )
    faction = models.ForeignKey(
        Faction,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="equipment",
        verbose_name=_("faction (empty: common)"),
    )
    slug = models.SlugField(_("slug"), max_length=80)
    name = models.CharField(_("name"), max_length=120)
    source_name = models.CharField(_("name in the source language"), max_length=120, blank=True)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    points = models.PositiveIntegerField(_("points"), default=0)
    text = models.TextField(_("rules text"), blank=True)
    data = models.JSONField(_("effects"), default=dict, blank=True)

    class Meta:
        ordering = ["system", "kind", "name"]
        verbose_name = _("equipment or magic item")
        verbose_name_plural = _("equipment and magic items")
        constraints = [
            models.UniqueConstraint(fields=["system", "slug"], name="equipment_unique_slug_per_system")
        ]

    def __str__(self) -> str:
        return self.name


class BattleScribeSource(models.Model):
    """The BattleScribe data an imported faction was made from (game system and catalogues in
    the roster engine's dict shape, `rules.battlescribe.engine.xmlform`).

    The unit format keeps a unit at its smallest size; the catalogue's own rules (options shown
    only when another is taken, limits across the army, costs that step) need the source, so
    lists of the faction are built by the roster engine from it (`rules.battlescribe_lists`).
    Kept in its own table so that reading a faction never loads megabytes of catalogue.
    """

    faction = models.OneToOneField(
        Faction, on_delete=models.CASCADE, related_name="battlescribe_source", verbose_name=_("faction")
    )
    catalogue_id = models.CharField(_("catalogue id"), max_length=64)
    game_system = models.JSONField(_("game system"), default=dict)
    catalogues = models.JSONField(_("catalogues"), default=list)
    #: A hash of the content: engines loaded in memory are keyed by it, so a re-import is seen.
    digest = models.CharField(_("digest"), max_length=64)

    class Meta:
        verbose_name = _("BattleScribe source")
        verbose_name_plural = _("BattleScribe sources")

    def __str__(self) -> str:
        return f"{self.faction} ({self.catalogue_id})"


class ArmyForgeBook(models.Model):
    """The Army Forge army book an imported faction was made from, as Army Forge published it.

    Army Forge's own save file names each unit only by its id in the book and each upgrade by
    the uids of its section and option; reading it needs the book (its units' base gear and its
    upgrade packages), which the faction's units alone do not keep. Matched by the book's `uid`
    and Army Forge's game system (the same book differs per system: Firefight's units are
    single models). Kept in its own table so that reading a faction never loads the book.
    """

    faction = models.OneToOneField(
        Faction, on_delete=models.CASCADE, related_name="army_forge_book", verbose_name=_("faction")
    )
    uid = models.CharField(_("army book id"), max_length=64, db_index=True)
    #: Army Forge's key of the book's game system (gf, gff, aof, aofs, …); empty when unknown.
    game_system = models.CharField(_("Army Forge game system"), max_length=16, blank=True)
    version = models.CharField(_("version"), max_length=32, blank=True)
    book = models.JSONField(_("army book"), default=dict)

    class Meta:
        verbose_name = _("Army Forge army book")
        verbose_name_plural = _("Army Forge army books")

    def __str__(self) -> str:
        return f"{self.faction} ({self.uid} {self.version})"


class ImportReceipt(models.Model):
    """What an import job saved, written in the same transaction as the rows it saved
    (`rules.import_receipts`).

    Import jobs are delivered again when their worker dies (`acks_late`): a worker that died
    after the list was committed but before the job's outcome was stored would otherwise
    import a second copy. The rerun finds the receipt and finishes from it. Kept for a job's
    lifetime, then pruned by the periodic reconciliation.
    """

    kind = models.CharField(_("kind"), max_length=16)
    job_id = models.CharField(_("job id"), max_length=64)
    result = models.JSONField(_("result"), default=dict)
    created = models.DateTimeField(_("created"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("import receipt")
        verbose_name_plural = _("import receipts")
        constraints = [models.UniqueConstraint(fields=["kind", "job_id"], name="import_receipt_once_per_job")]

    def __str__(self) -> str:
        return f"{self.kind} {self.job_id}"
