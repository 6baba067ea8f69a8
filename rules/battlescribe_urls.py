"""BattleScribe pages, included under `catalogue/battlescribe/` (namespace `rules`)."""

from django.urls import path

from rules import battlescribe_views

urlpatterns = [
    path("", battlescribe_views.battlescribe_upload, name="battlescribe_upload"),
    path("jobs/<str:job_id>/", battlescribe_views.battlescribe_job, name="battlescribe_job"),
]
