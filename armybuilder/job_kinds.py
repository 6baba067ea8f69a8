"""Every kind of durable background job with its runner: registered with `armybuilder.jobs` when
the Django apps are ready (`armybuilder.apps`), in the web process and on every worker alike.
The job model knows no kind itself, so a kind's module may use it without a circular import.
"""

from __future__ import annotations

from django.conf import settings

from armybuilder import jobs


def register_kinds() -> None:
    """Register the estimates (`armybuilder.estimates.reconciliation`: their own tasks, watched by
    their own pass of the reconciliation), the list imports (`armybuilder.lists.import_jobs`), the
    gauntlet's measurements (`armybuilder.estimates.gauntlet_tasks`) and the roster PDFs
    (`armybuilder.roster.pdf_jobs`), each on import, and the catalogue imports of the `rules`
    layer (`rules.battlescribe_jobs`)."""
    import armybuilder.estimates.gauntlet_tasks
    import armybuilder.lists.import_jobs
    import armybuilder.roster.pdf_jobs  # noqa: F401  (registers the roster PDFs)
    from armybuilder.broker_tasks import WORK_QUEUES
    from armybuilder.estimates import reconciliation
    from armybuilder.estimates.models import JOB_KIND
    from rules import battlescribe_jobs

    jobs.watch(JOB_KIND, reconciliation.watched, queue=WORK_QUEUES[0])
    jobs.register(battlescribe_jobs.KIND, battlescribe_jobs.run_catalogue_import,
                  soft_time_limit=settings.BATTLESCRIBE_IMPORT_TIME_LIMIT)
