"""Estimate pages, mounted under `estimates/` (namespace `estimates`)."""

from django.urls import path

from armybuilder.estimates import views

app_name = "estimates"

urlpatterns = [
    path("", views.estimate_list, name="list"),
    path("new/", views.new, name="new"),
    path("<uuid:estimate_id>/", views.detail, name="detail"),
    path("<uuid:estimate_id>/status/", views.status, name="status"),
    path("<uuid:estimate_id>/retry/", views.retry, name="retry"),
]
