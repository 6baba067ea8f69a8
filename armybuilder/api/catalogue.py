"""The catalogue, read-only: game systems, factions, units and special rules.

Anyone may read it. Factions and units come from the same selectors as the catalogue
pages (`rules.selectors`), so a player's homebrew factions are visible to that player (and
to everyone once shared) and to nobody else. Collections are paginated and filter by
`system` (key), `faction` (id) and `search` (part of the name).
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet, Sum
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import permissions, viewsets
from rest_framework.request import Request
from rest_framework.response import Response

from armybuilder.api.filters import QueryFilter, QueryFilterBackend
from armybuilder.api.serializers import (
    FactionSerializer,
    GameSystemSerializer,
    SpecialRuleSerializer,
    UnitDetailSerializer,
    UnitSummarySerializer,
)
from rules.models import SpecialRule
from rules.option_labels import option_label
from rules.selectors import factions_visible_to, game_systems, special_rules_by_name, units_visible_to
from rules.unit_cards import option_dicts, unit_card

SYSTEM = QueryFilter("system", "system__key", str, "Only this game system (its key, e.g. `opr`).")
SEARCH = QueryFilter("search", "name__icontains", str, "Only names containing this text (any case).")
ID_PATTERN = r"[0-9]{1,18}"


class CatalogueViewSet(viewsets.ReadOnlyModelViewSet):
    """Shared policy of the catalogue: public, filterable, ids as path keys."""

    permission_classes = [permissions.AllowAny]
    filter_backends = [QueryFilterBackend]
    query_filters: tuple[QueryFilter, ...] = ()
    lookup_value_regex = ID_PATTERN


@extend_schema_view(
    list=extend_schema(tags=["catalogue"], summary="List game systems"),
    retrieve=extend_schema(tags=["catalogue"], summary="Get a game system"),
)
class GameSystemViewSet(CatalogueViewSet):
    """Game systems, by key (`/api/v1/systems/opr`)."""

    serializer_class = GameSystemSerializer
    lookup_field = "key"
    lookup_value_regex = r"[-a-zA-Z0-9_]{1,32}"
    pagination_class = None  # a handful of rows

    def get_queryset(self) -> QuerySet:
        return game_systems()


@extend_schema_view(
    list=extend_schema(tags=["catalogue"], summary="List factions"),
    retrieve=extend_schema(tags=["catalogue"], summary="Get a faction"),
)
class FactionViewSet(CatalogueViewSet):
    """Army books: the official ones and the homebrew ones you may see."""

    serializer_class = FactionSerializer
    query_filters = (SYSTEM, SEARCH)

    def get_queryset(self) -> QuerySet:
        return factions_visible_to(user=self.request.user).select_related("system").order_by(
            "system__position", "name", "pk")


@extend_schema_view(
    list=extend_schema(tags=["catalogue"], summary="List units"),
    retrieve=extend_schema(tags=["catalogue"], summary="Get a unit with its options and rules"),
)
class UnitViewSet(CatalogueViewSet):
    """Units you may field: profiles, points, and (one at a time) options and rules."""

    query_filters = (
        QueryFilter("system", "faction__system__key", str, "Only this game system (its key)."),
        QueryFilter("faction", "faction_id", int, "Only this faction (its id)."),
        QueryFilter("role", "role", str, "Only this battlefield role (`hero`, `infantry`, …)."),
        SEARCH,
    )

    def get_serializer_class(self) -> type:
        return UnitDetailSerializer if self.action == "retrieve" else UnitSummarySerializer

    def get_queryset(self) -> QuerySet:
        units = units_visible_to(user=self.request.user).select_related("faction__system").order_by(
            "faction__system__position", "faction__name", "position", "name", "pk")
        if self.action == "retrieve":
            units = units.prefetch_related("options")
        return units

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """A page of units, served from this process's cache while the units it is built from
        are unchanged (the collection was among the slowest API calls under load).

        The key is a stamp of the filtered set (one aggregate query: how many units, the
        newest change to a unit or its faction, the points' sum, the last id) with the page
        asked for and its absolute URL (the page links carry it); a player who sees homebrew
        units of their own gets entries of their own. Any save of a unit or faction moves
        the stamp, so a stale page is never served.
        """
        units = self.filter_queryset(self.get_queryset())
        user = request.user
        figures: dict[str, Any] = {
            "stamp_n": Count("pk"), "stamp_unit": Max("updated"), "stamp_faction": Max("faction__updated"),
            "stamp_points": Sum("points"), "stamp_last": Max("pk")}
        if user.is_authenticated:
            figures["stamp_own"] = Count("pk", filter=Q(faction__owner=user))
        stamp = units.order_by().aggregate(**figures)
        owner = user.pk if stamp.get("stamp_own") else None
        key = "api-units:" + hashlib.sha256(repr((sorted(stamp.items()), owner,
                                                  request.build_absolute_uri())).encode()).hexdigest()
        data = cache.get(key)
        if data is None:
            data = super().list(request, *args, **kwargs).data
            cache.set(key, data, timeout=600)
        return Response(data)

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """The unit page's card (`rules.unit_cards.unit_card`), as JSON: same prices, same rules."""
        unit = self.get_object()
        system = unit.faction.system
        card = unit_card(unit, system_key=system.key, known_rules=special_rules_by_name(system=system))
        deltas = {option.key: option.delta for option in card.options}
        rules = {ref.rule.pk: ref.rule for row in (*card.models, *card.weapons) for ref in row.rules
                 if ref.rule is not None}
        # A label the importer generated in the request's language (`rules.option_labels`).
        options = [
            {**option, "label": option_label(option), "points": deltas.get(option["key"])}
            for option in option_dicts(unit)
        ]
        context = {"rules": list(rules.values()), "options": options}
        return Response(UnitDetailSerializer(unit, context=context).data)


@extend_schema_view(
    list=extend_schema(tags=["catalogue"], summary="List special rules"),
    retrieve=extend_schema(tags=["catalogue"], summary="Get a special rule"),
)
class SpecialRuleViewSet(CatalogueViewSet):
    """The special rules of each system, with their text and accepted names."""

    serializer_class = SpecialRuleSerializer
    queryset = SpecialRule.objects.select_related("system").order_by("system__position", "name", "pk")
    query_filters = (SYSTEM, SEARCH)
