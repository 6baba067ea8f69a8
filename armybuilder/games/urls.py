"""Play-mode pages, mounted under `games/` (namespace `games`)."""

from django.urls import path

from armybuilder.games import views

app_name = "games"

urlpatterns = [
    path("", views.game_list, name="list"),
    path("new/", views.start, name="start"),
    path("<uuid:game_id>/", views.play, name="play"),
    path("<uuid:game_id>/act/", views.act, name="act"),
    path("<uuid:game_id>/odds/", views.odds, name="odds"),
    path("<uuid:game_id>/odds/<uuid:estimate_id>/", views.odds_job, name="odds_job"),
    path("<uuid:game_id>/finish/", views.finish, name="finish"),
    path("<uuid:game_id>/log.txt", views.log_text, name="log_text"),
    path("<uuid:game_id>/rules/", views.rules_reference, name="rules"),
]
