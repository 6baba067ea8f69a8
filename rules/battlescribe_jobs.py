"""BattleScribe catalogue imports run by a Celery worker, not in the upload request.

A 1 MB catalogue of 10,000 entries took 8–11 s of a web thread to parse, map, price and
write; a few players uploading at once slowed every page. Now the upload request only
stores the files and queues one job:

- `queue_import` counts the upload against the account's `battlescribe_import` rate (in the
  shared throttle cache, like every other rate), stores the files and the job's state in the
  job cache (Redis, `PDF_CACHE`, beside the PDFs) for `JOB_SECONDS`, and queues `run_import`
  on the `pdf` queue, the worker for file work (never in front of estimates);
- `run_import` (the worker) imports through `rules.battlescribe_import.import_files`, the same
  service the admin command uses, bounded in entries (`MAX_IMPORT_ENTRIES`) and time, and
  stores the summary (units, report, warnings) or the errors, each naming file and element;
- `import_state` is what the upload page polls (htmx) and the API answers (202 with
  `Location` and `Retry-After` while queued or running). A job is only ever shown to the
  account that uploaded it.

A worker lost mid-import hands the job back to the queue (`acks_late`). Importing the same files
again would update the same rows (no duplicate), but a redelivery after the commit would parse
the files again and write them over whatever the account imported since; so the import and its
receipt commit together (`rules.import_receipts`), and a delivery that finds the receipt
finishes from it. With the queue or its cache down the caller gets `ImportUnavailable` (a 503),
never a hung request.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.cache import BaseCache, caches
from django.utils import translation
from django.utils.translation import gettext_noop

from rules.battlescribe.xml_reader import BattleScribeError, SourceFile
from rules.catalogue_files import CatalogueFileError
from rules.import_queue import ImportThrottled, ImportUnavailable, wait_before
from rules.import_receipts import CATALOGUE_IMPORT, receipt_of, receipt_record, saved_once

logger = logging.getLogger(__name__)

#: How long a job's files and result are kept (the page and the API can show it until then).
JOB_SECONDS = 3600
#: Seconds a client waits between polls.
RETRY_AFTER = 2
#: Stored in English, translated when shown.
TOO_LONG = gettext_noop("The import took too long; try fewer catalogues at a time.")
FAILED = gettext_noop("The import failed; nothing was imported.")
FILES_GONE = gettext_noop("The uploaded files are no longer kept; upload them again.")


@dataclass(frozen=True)
class ImportJob:
    """One import as its uploader sees it.

    `state` is `queued`, `running`, `done` (with `summary`: `ImportResult.summary()`) or
    `failed` (with `errors`, each in plain words naming the file and element).
    """

    id: str
    state: str
    system: str
    summary: dict[str, Any] | None = None
    errors: list[str] = field(default_factory=list)
    elapsed: float = 0.0

    @property
    def finished(self) -> bool:
        return self.state in ("done", "failed")


def cache() -> BaseCache:
    return caches[settings.PDF_CACHE]


def _state_key(job_id: str) -> str:
    return f"bs-import:{job_id}"


def _files_key(job_id: str) -> str:
    return f"bs-import:{job_id}:files"




def queue_import(*, system_key: str, files: list[SourceFile], owner_id: int, language: str) -> ImportJob:
    """Store `files` and queue their import into `owner_id`'s own factions; the job, queued.

    Raises `ImportThrottled` past the account's rate, `ImportUnavailable` with the queue down.
    """
    try:
        wait = wait_before("battlescribe_import", owner_id)
    except Exception as exc:
        raise ImportUnavailable(str(exc)) from exc
    if wait is not None:
        raise ImportThrottled(wait)
    job_id = uuid.uuid4().hex
    state = {"state": "queued", "owner": owner_id, "system": system_key, "since": time.time(),
             "language": language}
    store = cache()
    try:
        store.set_many({_files_key(job_id): [(f.name, f.data) for f in files], _state_key(job_id): state},
                       timeout=JOB_SECONDS)
        run_import.apply_async((job_id,), retry=False)
    except Exception as exc:
        logger.warning("could not queue the import %s: %s", job_id, exc)
        try:
            store.delete_many([_files_key(job_id), _state_key(job_id)])
        except Exception:  # the cache is down too; the entries expire on their own
            logger.warning("could not clear the import job %s", job_id)
        raise ImportUnavailable(str(exc)) from exc
    found = import_state(job_id=job_id, owner_id=owner_id)  # eager mode (tests) ran it already
    return found if found is not None else ImportJob(id=job_id, state="queued", system=system_key)


def import_state(*, job_id: str, owner_id: int) -> ImportJob | None:
    """The job as its owner sees it; None when it is unknown, expired or someone else's.

    Raises `ImportUnavailable` with the cache down."""
    try:
        state = cache().get(_state_key(job_id))
    except Exception as exc:
        logger.warning("could not read the import %s: %s", job_id, exc)
        raise ImportUnavailable(str(exc)) from exc
    if not isinstance(state, dict) or state.get("owner") != owner_id:
        return None
    since = state.get("since")
    elapsed = max(0.0, time.time() - since) if isinstance(since, int | float) else 0.0
    return ImportJob(id=job_id, state=state.get("state", "queued"), system=state.get("system", ""),
                     summary=state.get("summary"), errors=list(state.get("errors") or []),
                     elapsed=round(elapsed, 1))


@shared_task(name="rules.import_battlescribe", acks_late=True, reject_on_worker_lost=True, ignore_result=True,
             time_limit=settings.BATTLESCRIBE_IMPORT_TIME_LIMIT + 10,
             soft_time_limit=settings.BATTLESCRIBE_IMPORT_TIME_LIMIT)
def run_import(job_id: str) -> str:
    """Import the job's files (on the worker); "done", "failed" or "skipped" (the job expired)."""
    from django.contrib.auth import get_user_model

    store = cache()
    state = store.get(_state_key(job_id))
    if not isinstance(state, dict):
        return "skipped"
    if state.get("state") in ("done", "failed"):
        return "skipped"  # redelivered after it finished
    saved = receipt_of(kind=CATALOGUE_IMPORT, job_id=job_id)
    if saved is not None:  # a delivery before this one imported it and died before storing the outcome
        return _finish(job_id, state, summary=saved)
    stored = store.get(_files_key(job_id))
    if stored is None:
        return _finish(job_id, state, errors=[FILES_GONE])
    store.set(_state_key(job_id), {**state, "state": "running"}, timeout=JOB_SECONDS)
    owner = get_user_model().objects.filter(pk=state["owner"]).first()
    if owner is None:
        return _finish(job_id, state, errors=[FAILED])
    files = [SourceFile(name, data) for name, data in stored]
    with translation.override(state.get("language") or settings.LANGUAGE_CODE):
        try:
            summary = saved_once(kind=CATALOGUE_IMPORT, job_id=job_id,
                                 save=lambda: _import_with_receipt(job_id, state["system"], files, owner))
        except (BattleScribeError, CatalogueFileError) as exc:
            return _finish(job_id, state, errors=[str(error) for error in exc.errors])
        except SoftTimeLimitExceeded:
            return _finish(job_id, state, errors=[TOO_LONG])
        except Exception:
            logger.exception("BattleScribe import %s failed", job_id)
            return _finish(job_id, state, errors=[FAILED])
    return _finish(job_id, state, summary=summary)


def _import_with_receipt(job_id: str, system_key: str, files: list[SourceFile], owner: Any) -> dict[str, Any]:
    """Import the files; their summary, recorded as the job's receipt in the import's transaction."""
    from rules.battlescribe_import import import_files

    kept: dict[str, Any] = {}

    def receipt(result: Any) -> None:
        # Plain JSON data: the report's lines are `str` subclasses that do not unpickle.
        kept["summary"] = json.loads(json.dumps(result.summary()))
        receipt_record(kind=CATALOGUE_IMPORT, job_id=job_id, result=kept["summary"])

    import_files(system_key=system_key, files=files, owner=owner, within=receipt)
    return kept["summary"]


def _finish(job_id: str, state: dict[str, Any], *, summary: dict[str, Any] | None = None,
            errors: list[str] | None = None) -> str:
    """Store the outcome and drop the files (nothing else reads them)."""
    outcome = "failed" if errors else "done"
    store = cache()
    store.set(_state_key(job_id), {**state, "state": outcome, "summary": summary, "errors": errors or []},
              timeout=JOB_SECONDS)
    store.delete(_files_key(job_id))
    return outcome


__all__ = ["ImportJob", "ImportThrottled", "ImportUnavailable", "import_state", "queue_import", "run_import"]
