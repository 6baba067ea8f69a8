"""Django admin for the catalogue: every model editable, searchable and filterable.

Options are edited inline on their unit, special rules and equipment inline on their
system, weapons and units listed inline on their faction, so a data editor can fix a
typo or add an upgrade without opening a dozen pages. A unit's cached `points` is
read-only here: the loader and the services compute it with the system's engine.
"""

from __future__ import annotations

from django.contrib import admin

from rules.models import (
    Equipment,
    Faction,
    GameSystem,
    SpecialRule,
    UnitTemplate,
    UpgradeOption,
    WeaponProfile,
)


class SpecialRuleInline(admin.TabularInline):
    model = SpecialRule
    fields = ("key", "name", "source_name", "scope", "has_value", "not_in_source")
    extra = 0
    show_change_link = True


class EquipmentInline(admin.TabularInline):
    model = Equipment
    fields = ("slug", "name", "kind", "points", "faction")
    extra = 0
    show_change_link = True


@admin.register(GameSystem)
class GameSystemAdmin(admin.ModelAdmin):
    list_display = ("name", "key", "source_language", "position")
    search_fields = ("name", "key")
    ordering = ("position",)
    inlines = [SpecialRuleInline, EquipmentInline]


class WeaponProfileInline(admin.TabularInline):
    model = WeaponProfile
    fields = ("slug", "name", "data")
    extra = 0


class UnitTemplateInline(admin.TabularInline):
    model = UnitTemplate
    fields = ("name", "slug", "role", "points", "position")
    readonly_fields = ("points",)
    extra = 0
    show_change_link = True


@admin.register(Faction)
class FactionAdmin(admin.ModelAdmin):
    list_display = ("name", "system", "slug", "owner", "is_shared", "updated")
    list_filter = ("system", "is_shared", ("owner", admin.EmptyFieldListFilter))
    search_fields = ("name", "slug", "owner__username")
    list_select_related = ("system", "owner")
    raw_id_fields = ("owner",)
    inlines = [WeaponProfileInline, UnitTemplateInline]


@admin.register(SpecialRule)
class SpecialRuleAdmin(admin.ModelAdmin):
    list_display = ("name", "source_name", "system", "scope", "has_value", "not_in_source")
    list_filter = ("system", "scope", "has_value", "not_in_source")
    search_fields = ("name", "source_name", "key", "text")
    list_select_related = ("system",)


@admin.register(WeaponProfile)
class WeaponProfileAdmin(admin.ModelAdmin):
    list_display = ("name", "faction", "slug")
    list_filter = ("faction__system",)
    search_fields = ("name", "slug", "faction__name")
    list_select_related = ("faction",)


class UpgradeOptionInline(admin.StackedInline):
    model = UpgradeOption
    fields = (
        ("key", "group", "position"),
        "label",
        ("kind", "applies_to"),
        "payload",
        ("min_count", "max_count", "cost"),
    )
    extra = 0


@admin.register(UnitTemplate)
class UnitTemplateAdmin(admin.ModelAdmin):
    list_display = ("name", "faction", "role", "points", "updated")
    list_filter = ("faction__system", "role", ("faction__owner", admin.EmptyFieldListFilter), "faction")
    search_fields = ("name", "slug", "faction__name")
    list_select_related = ("faction",)
    readonly_fields = ("points",)
    inlines = [UpgradeOptionInline]


@admin.register(UpgradeOption)
class UpgradeOptionAdmin(admin.ModelAdmin):
    list_display = ("label", "unit", "kind", "group", "min_count", "max_count", "cost")
    list_filter = ("kind", "unit__faction__system")
    search_fields = ("label", "key", "unit__name")
    list_select_related = ("unit",)


@admin.register(Equipment)
class EquipmentAdmin(admin.ModelAdmin):
    list_display = ("name", "source_name", "system", "kind", "points", "faction")
    list_filter = ("system", "kind")
    search_fields = ("name", "source_name", "slug", "text")
    list_select_related = ("system", "faction")
