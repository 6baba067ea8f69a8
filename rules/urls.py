"""Catalogue URLs, mounted under `catalogue/` (namespace `rules`)."""

from django.urls import include, path

from rules import views

app_name = "rules"

urlpatterns = [
    path("", views.systems_index, name="systems"),
    # The designer comes before the `<system_key>/` patterns: "designer" is never a system key.
    path("designer/", views.designer, name="designer"),
    path("designer/<int:pk>/", views.designer, name="designer_edit"),
    path("designer/<int:pk>/delete/", views.homebrew_unit_delete, name="homebrew_unit_delete"),
    path("homebrew/<int:pk>/share/", views.homebrew_share, name="homebrew_share"),
    path("battlescribe/", include("rules.battlescribe_urls")),
    path("<slug:system_key>/", views.system_detail, name="system"),
    # Before the faction pattern: "points-formula" is never a faction's slug.
    path("<slug:system_key>/points-formula/", views.points_formula, name="points_formula"),
    path("<slug:system_key>/<slug:faction_slug>/", views.faction_detail, name="faction"),
    path("<slug:system_key>/<slug:faction_slug>/<slug:unit_slug>/", views.unit_detail, name="unit"),
]
