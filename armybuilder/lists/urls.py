"""List URLs, mounted under `lists/` with the namespace `lists`.

A list is addressed by id (its owner, or anyone when it is public) or by its share token
(`shared/<token>/`, read-only). Roster and export URLs exist for both.
"""

from django.urls import path

from armybuilder.lists import army_forge_export, audit, gauntlet_views, views
from armybuilder.roster import battlescribe as battlescribe_roster
from armybuilder.roster import views as roster

app_name = "lists"

urlpatterns = [
    path("", views.my_lists, name="mine"),
    path("new/", views.create, name="create"),
    path("import/", views.import_list, name="import"),
    path("import/jobs/<slug:job_id>/", views.import_job, name="import_job"),
    path("import/battlescribe/", battlescribe_roster.roster_upload, name="import_rosz"),
    path("gallery/", views.gallery, name="gallery"),
    path("compare/", views.compare, name="compare"),
    path("<int:list_id>/", views.detail, name="detail"),
    path("<int:list_id>/settings/", views.update, name="update"),
    path("<int:list_id>/force/", views.roster_force, name="roster_force"),
    path("<int:list_id>/delete/", views.delete, name="delete"),
    path("<int:list_id>/fork/", views.fork, name="fork"),
    path("<int:list_id>/share/", views.share, name="share"),
    path("<int:list_id>/unshare/", views.unshare, name="unshare"),
    path("<int:list_id>/lock/", views.lock, name="lock"),
    path("<int:list_id>/card.png", roster.share_card, name="card"),
    path("<int:list_id>/units/add/", views.unit_add, name="unit_add"),
    path("<int:list_id>/units/<int:unit_id>/options/", views.unit_options, name="unit_options"),
    path("<int:list_id>/units/<int:unit_id>/duplicate/", views.unit_duplicate, name="unit_duplicate"),
    path("<int:list_id>/units/<int:unit_id>/move/", views.unit_move, name="unit_move"),
    path("<int:list_id>/units/<int:unit_id>/remove/", views.unit_remove, name="unit_remove"),
    path("<int:list_id>/units/<int:unit_id>/details/", views.unit_details, name="unit_details"),
    path("<int:list_id>/units/<int:unit_id>/clear/", views.unit_clear_options, name="unit_clear_options"),
    path("<int:list_id>/undo/", views.undo, name="undo"),
    path("<int:list_id>/gauntlet/", gauntlet_views.gauntlet_panel, name="gauntlet"),
    path("<int:list_id>/roster/", roster.roster_page, name="roster"),
    path("<int:list_id>/audit/", audit.list_audit, name="audit"),
    path("<int:list_id>/audit/<int:unit_id>/", audit.list_unit_breakdown, name="audit_unit"),
    path("<int:list_id>/roster.pdf", roster.roster_pdf, name="roster_pdf"),
    path("<int:list_id>/roster.txt", roster.roster_text, name="roster_text"),
    path("<int:list_id>/list.json", roster.list_json, name="export_json"),
    path("<int:list_id>/roster.rosz", battlescribe_roster.list_rosz, name="export_rosz"),
    path("<int:list_id>/army-forge.json", army_forge_export.list_army_forge, name="export_army_forge"),
    path("shared/<str:token>/", views.shared, name="shared"),
    path("shared/<str:token>/fork/", views.fork, name="shared_fork"),
    path("shared/<str:token>/roster/", roster.roster_page, name="shared_roster"),
    path("shared/<str:token>/roster.pdf", roster.roster_pdf, name="shared_roster_pdf"),
    path("shared/<str:token>/roster.txt", roster.roster_text, name="shared_roster_text"),
    path("shared/<str:token>/list.json", roster.list_json, name="shared_export_json"),
    path("shared/<str:token>/roster.rosz", battlescribe_roster.list_rosz, name="shared_export_rosz"),
    path("shared/<str:token>/card.png", roster.share_card, name="shared_card"),
    path("shared/<str:token>/army-forge.json", army_forge_export.list_army_forge,
         name="shared_export_army_forge"),
]
