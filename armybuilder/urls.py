"""Top-level URLs. Each feature app contributes its own `urls.py`, included here."""

from django.contrib import admin
from django.urls import include, path

from armybuilder import health, pages

urlpatterns = [
    path("", pages.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/v1/", include("armybuilder.api.urls")),
    path("accounts/", include("armybuilder.accounts.urls")),
    path("lists/", include("armybuilder.lists.urls")),
    path("estimates/", include("armybuilder.estimates.urls")),
    path("catalogue/", include("rules.urls")),
]
