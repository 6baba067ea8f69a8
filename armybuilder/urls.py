"""Top-level URLs. Each feature app contributes its own `urls.py`, included here."""

from django.contrib import admin
from django.urls import include, path

from armybuilder import health, offline, pages
from armybuilder.accounts import language

urlpatterns = [
    path("", pages.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    # Browsers and feed readers ask for /favicon.ico whatever the page says: send them the icon.
    path("favicon.ico", pages.favicon, name="favicon"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("i18n/setlang/", language.set_language, name="set_language"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("armybuilder.api.urls")),
    path("accounts/", include("armybuilder.accounts.urls")),
    path("lists/", include("armybuilder.lists.urls")),
    path("estimates/", include("armybuilder.estimates.urls")),
    path("games/", include("armybuilder.games.urls")),
    path("catalogue/", include("rules.urls")),
]

handler400 = "armybuilder.api.exceptions.bad_request"
handler500 = "armybuilder.api.exceptions.server_error"
