from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArmybuilderConfig(AppConfig):
    name = "armybuilder"
    verbose_name = _("Army builder")

    def ready(self) -> None:
        # `language` connects the login signal that restores a player's saved interface language.
        from armybuilder import job_kinds, jobs
        from armybuilder.accounts import language  # noqa: F401

        # A faction's BattleScribe data re-imported: its lists are re-priced once, with a report.
        from armybuilder.lists.data_updates import reprice_faction_lists
        from rules.signals import source_updated

        source_updated.connect(reprice_faction_lists, dispatch_uid="reprice-faction-lists")
        # A deleted catalogue unit changes the lists made from it without a new version: their
        # stored API documents go (`armybuilder.api.list_documents`).
        from django.db.models.signals import pre_delete

        from armybuilder.api.list_documents import forget_lists_using_template, refresh
        from armybuilder.lists.signals import list_saved
        from rules.models import UnitTemplate

        pre_delete.connect(forget_lists_using_template, sender=UnitTemplate,
                           dispatch_uid="list-documents-forget-template")
        # A change of a list committed: its stored API documents are rewritten, after the
        # response when a request made it (`armybuilder.after_response`).
        list_saved.connect(refresh, dispatch_uid="list-documents-refresh")
        from django.core.signals import request_finished, request_started

        from armybuilder import after_response

        request_started.connect(after_response.request_started, dispatch_uid="after-response-start")
        request_finished.connect(after_response.request_finished, dispatch_uid="after-response-run")
        from rules.import_queue import provide_durable_jobs

        # The durable background jobs: every kind's runner, and the store the catalogue imports
        # of the `rules` layer keep their jobs in.
        job_kinds.register_kinds()
        provide_durable_jobs(jobs.Store())
