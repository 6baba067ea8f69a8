"""Routes of `/api/v1/` (included from `armybuilder/urls.py` under the namespace `api`).

Paths have no trailing slash (`/api/v1/lists/7`), except the schema and its docs. Any
other path below `/api/v1/` is a JSON 404 in the API's error shape, not an HTML page.
"""

from __future__ import annotations

from csp.decorators import csp_update
from django.urls import include, path, re_path
from django.utils.translation import gettext as _
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerSplitView
from rest_framework import permissions
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.routers import SimpleRouter
from rest_framework.views import APIView

from armybuilder.api import battlescribe, estimates
from armybuilder.api.auth import TokenView
from armybuilder.api.catalogue import FactionViewSet, GameSystemViewSet, SpecialRuleViewSet, UnitViewSet
from armybuilder.api.exports import (
    ListExportViewSet,
    ListImportJobView,
    ListImportViewSet,
    SharedExportViewSet,
)
from armybuilder.api.list_units import ListUnitViewSet
from armybuilder.api.lists import ArmyListViewSet
from armybuilder.api.points import PriceView
from armybuilder.api.shared import TOKEN_PATTERN, SharedListViewSet

app_name = "api"

catalogue = SimpleRouter(trailing_slash=False)
catalogue.register("systems", GameSystemViewSet, basename="system")
catalogue.register("factions", FactionViewSet, basename="faction")
catalogue.register("units", UnitViewSet, basename="unit")
catalogue.register("special-rules", SpecialRuleViewSet, basename="special-rule")

lists = ArmyListViewSet.as_view
units = ListUnitViewSet.as_view
shared = SharedListViewSet.as_view
exports = ListExportViewSet.as_view


class UnknownEndpoint(APIView):
    """Any path under `/api/v1/` that names no endpoint: 404 in the error shape."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    throttle_classes: list = []
    schema = None

    def dispatch_not_found(self, request: Request, *args: object, **kwargs: object) -> None:
        raise NotFound(_("No such endpoint."))

    get = post = put = patch = delete = head = options = dispatch_not_found


urlpatterns = [
    path("auth/token", TokenView.as_view(), name="auth-token"),
    path("points/price", PriceView.as_view(), name="points-price"),
    path("", include(catalogue.urls)),
    path("lists", lists({"get": "list", "post": "create"}), name="list-list"),
    path("lists/import", ListImportViewSet.as_view({"post": "create"}), name="list-import"),
    path("lists/imports/<slug:job_id>", ListImportJobView.as_view(), name="list-import-job"),
    path("lists/<int:list_id>", lists({"get": "retrieve", "put": "update", "patch": "partial_update",
                                       "delete": "destroy"}), name="list-detail"),
    path("lists/<int:list_id>/validate", lists({"get": "validate"}), name="list-validate"),
    path("lists/<int:list_id>/audit", lists({"get": "audit"}), name="list-audit"),
    path("lists/<int:list_id>/fork", lists({"post": "fork"}), name="list-fork"),
    path("lists/<int:list_id>/share", lists({"post": "share", "delete": "unshare"}), name="list-share"),
    path("lists/<int:list_id>/locks", lists({"get": "locks", "post": "lock"}), name="list-locks"),
    path("lists/<int:list_id>/gauntlet", lists({"get": "gauntlet", "put": "set_gauntlet"}),
         name="list-gauntlet"),
    path("lists/<int:list_id>/units", units({"get": "list", "post": "create"}), name="list-unit-list"),
    path("lists/<int:list_id>/units/<int:unit_id>",
         units({"get": "retrieve", "patch": "partial_update", "delete": "destroy"}), name="list-unit-detail"),
    path("lists/<int:list_id>/units/<int:unit_id>/duplicate", units({"post": "duplicate"}),
         name="list-unit-duplicate"),
    path("lists/<int:list_id>/export/pdf", exports({"get": "pdf"}), name="list-export-pdf"),
    path("lists/<int:list_id>/export/text", exports({"get": "text"}), name="list-export-text"),
    path("lists/<int:list_id>/export/json", exports({"get": "json"}), name="list-export-json"),
    path("lists/<int:list_id>/export/card", exports({"get": "card"}), name="list-export-card"),
    path("lists/<int:list_id>/export/army-forge", exports({"get": "army_forge"}),
         name="list-export-army-forge"),
    re_path(rf"^shared/(?P<token>{TOKEN_PATTERN})$", shared({"get": "retrieve"}), name="shared-list"),
    re_path(rf"^shared/(?P<token>{TOKEN_PATTERN})/fork$", shared({"post": "fork"}), name="shared-list-fork"),
    re_path(rf"^shared/(?P<token>{TOKEN_PATTERN})/export/pdf$", SharedExportViewSet.as_view({"get": "pdf"}),
            name="shared-export-pdf"),
    re_path(rf"^shared/(?P<token>{TOKEN_PATTERN})/export/text$", SharedExportViewSet.as_view({"get": "text"}),
            name="shared-export-text"),
    re_path(rf"^shared/(?P<token>{TOKEN_PATTERN})/export/json$", SharedExportViewSet.as_view({"get": "json"}),
            name="shared-export-json"),
    re_path(rf"^shared/(?P<token>{TOKEN_PATTERN})/export/card$", SharedExportViewSet.as_view({"get": "card"}),
            name="shared-export-card"),
    re_path(rf"^shared/(?P<token>{TOKEN_PATTERN})/export/army-forge$",
            SharedExportViewSet.as_view({"get": "army_forge"}), name="shared-export-army-forge"),
    re_path(rf"^shared/(?P<token>{TOKEN_PATTERN})/export/rosz$", SharedExportViewSet.as_view({"get": "rosz"}),
            name="shared-export-rosz"),
    path("", include(estimates.urlpatterns)),
    path("", include(battlescribe.urlpatterns)),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # Both viewers from our static files (drf-spectacular-sidecar, pinned). Swagger UI
    # runs under the site's Content-Security-Policy (its start-up script is a separate request);
    # Redoc styles itself with inline <style> elements and runs a worker from a blob: that
    # alone is added to the policy for its page.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema",
                                                      template_name="api/swagger_ui.html"), name="docs"),
    path("docs/redoc/", csp_update({"style-src": ["'unsafe-inline'"], "worker-src": ["blob:"]})(
        SpectacularRedocView.as_view(url_name="api:schema", template_name="api/redoc.html")), name="redoc"),
    re_path(r"^[\s\S]*$", UnknownEndpoint.as_view(), name="unknown-endpoint"),  # newlines too
]
