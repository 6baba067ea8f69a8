"""The previous releases' task names, still run after a deploy.

A deploy replaces the workers while messages sent by the old release wait in the broker: a
message whose task name the new workers do not know is dropped with an "unregistered task"
error, and its job strands (an import "queued" for good, its input expiring in the job cache).
Every task this release renamed or folded into the durable jobs (`armybuilder.jobs`) keeps
its old name here, taking the old message's arguments and turning them into the durable job
the new release runs:

- `lists.import_list(job_id)` and `rules.import_battlescribe(job_id)` (imports before they
  were durable jobs): the old job's state and input are read from the job cache where the old
  release stored them, and stored as a durable job *with the same id*, so the page or API
  client polling that id follows it, and the import receipts (`rules.import_receipts`, keyed
  by the id) keep a job the old release already saved from saving twice;
- `roster.render_pdf(list_id, version, paper, language, options)`: a render job of that list;
- `gauntlet.measure(list_id)`, `gauntlet.measure_part(list_id, keys, prices)`: the gauntlet's
  job, or a part job with those matchups.

Each alias is idempotent (a message delivered twice finds the job made by the first), so it is
acknowledged only once it has run: a worker killed in it hands the message back.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.cache import caches

import armybuilder.celery  # noqa: F401  (the app these tasks bind to)
from armybuilder import jobs
from armybuilder.models import ArmyList, BackgroundJob

logger = logging.getLogger(__name__)


def _old_job(prefix: str, job_id: str, input_suffix: str) -> tuple[dict[str, Any], Any] | None:
    """The old release's job state and input in the job cache, or None (expired, finished)."""
    store = caches[settings.PDF_CACHE]
    found = store.get_many([f"{prefix}:{job_id}", f"{prefix}:{job_id}:{input_suffix}"])
    state, given = found.get(f"{prefix}:{job_id}"), found.get(f"{prefix}:{job_id}:{input_suffix}")
    if not isinstance(state, dict) or state.get("state") in ("done", "failed") or given is None:
        return None
    return state, given


def _adopt(job_id: str, *, kind: str, state: dict[str, Any], request: dict[str, Any],
           inputs: list[jobs.Upload], prefix: str, input_suffix: str) -> str:
    if BackgroundJob.objects.filter(pk=job_id).exists():
        return "skipped"  # delivered again: the first delivery made the job
    jobs.job_create(job_id=job_id, kind=kind, owner_id=state.get("owner"),
                    language=state.get("language") or "", request=request, inputs=inputs)
    caches[settings.PDF_CACHE].delete_many([f"{prefix}:{job_id}", f"{prefix}:{job_id}:{input_suffix}"])
    return job_id


@shared_task(name="lists.import_list", ignore_result=True, acks_late=True, reject_on_worker_lost=True)
def old_list_import(job_id: str) -> str:
    """A list import queued by the release before the durable jobs: the same import, as one."""
    from armybuilder.lists.import_jobs import KIND

    old = _old_job("list-import", job_id, "input")
    if old is None:
        return "skipped"
    state, given = old
    upload = jobs.Upload(name=str(given.get("name") or "text"), data=given.get("data"),
                         text=str(given.get("text") or ""))
    return _adopt(job_id, kind=KIND, state=state, request={"mode": state["mode"], "asked": state["request"]},
                  inputs=[upload], prefix="list-import", input_suffix="input")


@shared_task(name="rules.import_battlescribe", ignore_result=True, acks_late=True, reject_on_worker_lost=True)
def old_catalogue_import(job_id: str) -> str:
    """A catalogue import queued by the release before the durable jobs: the same import, as one."""
    from rules.battlescribe_jobs import KIND

    old = _old_job("bs-import", job_id, "files")
    if old is None:
        return "skipped"
    state, files = old
    return _adopt(job_id, kind=KIND, state=state, request={"system": state["system"]},
                  inputs=[jobs.Upload(name=name, data=data) for name, data in files],
                  prefix="bs-import", input_suffix="files")


@shared_task(name="roster.render_pdf", ignore_result=True, acks_late=True, reject_on_worker_lost=True)
def old_render_pdf(list_id: int, version: int, paper: str, language: str,
                   options: Mapping[str, str] | None = None) -> str:
    """A render by its arguments (the release before PDFs were durable jobs): the render job of
    that list, unless one of it runs; the job's id, or "skipped"."""
    from armybuilder.roster.pdf_jobs import KIND, list_lock_key, pdf_key

    army_list = ArmyList.objects.filter(pk=list_id).first()
    if army_list is None:
        return "skipped"
    options = dict(options or {})
    try:
        job = jobs.job_create(
            kind=KIND, owner_id=army_list.owner_id, language=language,
            key=pdf_key(army_list=army_list, paper=paper, language=language, options=options),
            lock=list_lock_key(army_list=army_list),
            request={"list": army_list.pk, "version": army_list.version, "paper": paper, "options": options,
                     "requester": ""})
    except jobs.JobBusy:
        return "skipped"
    return job.pk


@shared_task(name="gauntlet.measure", ignore_result=True, acks_late=True, reject_on_worker_lost=True)
def old_measure_gauntlet(list_id: int) -> str:
    """A list's gauntlet (the release before it was a durable job): its job; the id, or "skipped"."""
    from armybuilder.estimates.gauntlet_live import gauntlet_inputs, job_key
    from armybuilder.estimates.gauntlet_tasks import gauntlet_queue

    army_list = ArmyList.objects.select_related("system").filter(pk=list_id).first()
    if army_list is None:
        return "skipped"
    return gauntlet_queue(army_list, job_key(army_list, gauntlet_inputs(army_list))) or "skipped"


@shared_task(name="gauntlet.measure_part", ignore_result=True, acks_late=True, reject_on_worker_lost=True)
def old_measure_gauntlet_part(list_id: int, keys: list[str], prices: dict[str, float | None]) -> str:
    """One part of a gauntlet (the release before it was a durable job): a part job with those
    matchups and prices; its id, or "skipped"."""
    from armybuilder.estimates.gauntlet_live import gauntlet_inputs, job_key
    from armybuilder.estimates.gauntlet_tasks import PART

    army_list = ArmyList.objects.select_related("system").filter(pk=list_id).first()
    if army_list is None:
        return "skipped"
    key = job_key(army_list, gauntlet_inputs(army_list))
    return jobs.job_create(kind=PART, owner_id=army_list.owner_id, language="", key=key,
                           request={"list": list_id, "keys": list(keys), "prices": dict(prices)}).pk
