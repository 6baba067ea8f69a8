"""Admin pages for army lists: for support staff to find and inspect lists, not to edit them
(changes go through the services, which keep versions and cached totals right)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from armybuilder.models import ArmyList, ListUnit


class ListUnitInline(admin.TabularInline):
    model = ListUnit
    fields = ("position", "name", "points", "catalogue_ref", "chosen_options")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("position",)

    def has_add_permission(self, request: HttpRequest, obj: ArmyList | None = None) -> bool:
        return False


@admin.register(ArmyList)
class ArmyListAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "owner",
        "system",
        "faction",
        "total_points",
        "points_limit",
        "is_valid",
        "is_public",
        "updated",
    )
    list_filter = ("system", "is_public", "is_valid")
    search_fields = ("name", "owner__username")
    list_select_related = ("owner", "system", "faction")
    readonly_fields = [field.name for field in ArmyList._meta.fields]
    inlines = [ListUnitInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: ArmyList | None = None) -> bool:
        return False
