"""BattleScribe catalogue imports run by a Celery worker, not in the upload request.

A 1 MB catalogue of 10,000 entries took 8–11 s of a web thread to parse, map, price and
write; a few players uploading at once slowed every page. Now the upload request only
stores the files and queues one job:

- `queue_import` counts the upload against the account's `battlescribe_import` rate (in the
  shared throttle cache, like every other rate) and stores the files and the job as a durable
  job (`rules.import_queue.durable_jobs`, which `armybuilder.jobs` provides: a Postgres row, a
  row per file, a broker message holding only the job's id), queued on the `pdf` queue, the
  worker for file work (never in front of estimates);
- `run_catalogue_import` (the worker) imports through `rules.battlescribe_import.import_files`, the same
  service the admin command uses, bounded in entries (`MAX_IMPORT_ENTRIES`) and time, and
  stores the summary (units, report, warnings) or the errors, each naming file and element;
- `import_state` is what the upload page polls (htmx) and the API answers (202 with
  `Location` and `Retry-After` while queued or running). A job is only ever shown to the
  account that uploaded it.

A worker lost mid-import hands the job back to the queue (`acks_late`). Importing the same files
again would update the same rows (no duplicate), but a redelivery after the commit would parse
the files again and write them over whatever the account imported since; so the import and its
receipt commit together (`rules.import_receipts`), and a delivery that finds the receipt
finishes from it. With the database or the queue down the caller gets `ImportUnavailable` (a
503), never a hung request; a database error on the worker is retried, and a lost message or
worker is sent again by the durable jobs' reconciliation.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import timezone, translation
from django.utils.translation import gettext_noop

from rules.battlescribe.xml_reader import BattleScribeError, SourceFile
from rules.catalogue_files import CatalogueFileError
from rules.import_queue import ImportThrottled, ImportUnavailable, JobFailed, durable_jobs, wait_before
from rules.import_receipts import CATALOGUE_IMPORT, receipt_of, receipt_record, saved_once

logger = logging.getLogger(__name__)

#: The kind of durable job a catalogue import is.
KIND = "catalogue_import"
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


def queue_import(*, system_key: str, files: list[SourceFile], owner_id: int, language: str) -> ImportJob:
    """Store `files` and queue their import into `owner_id`'s own factions as a durable job
    (`rules.import_queue.durable_jobs`: a Postgres row and a row per file; the broker's message
    holds only the job's id); the job, queued.

    Raises `ImportThrottled` past the account's rate, `ImportUnavailable` with the database or
    the queue down (nothing was stored then).
    """
    try:
        wait = wait_before("battlescribe_import", owner_id)
    except Exception as exc:
        raise ImportUnavailable(str(exc)) from exc
    if wait is not None:
        raise ImportThrottled(wait)
    job = durable_jobs().create(kind=KIND, owner_id=owner_id, language=language,
                                request={"system": system_key}, files=[(f.name, f.data) for f in files])
    return _as_import(job)


def import_state(*, job_id: str, owner_id: int) -> ImportJob | None:
    """The job as its owner sees it; None when it is unknown, deleted or someone else's.

    Raises `ImportUnavailable` with the database down."""
    job = durable_jobs().of(job_id=job_id, owner_id=owner_id, kind=KIND)
    return None if job is None else _as_import(job)


def _as_import(job: Any) -> ImportJob:
    errors = [str(error) for error in job.errors or []]
    if job.state == "failed" and not errors:
        errors = [job.reason or FAILED]
    end = job.finished or timezone.now()
    return ImportJob(id=job.id, state=job.state, system=job.request.get("system", ""),
                     summary=job.result if job.state == "done" else None, errors=errors,
                     elapsed=round(max(0.0, (end - job.created).total_seconds()), 1))


def run_catalogue_import(job: Any, inputs: list[Any]) -> dict[str, Any]:
    """Import the job's files (on the worker, the durable jobs' task): the summary, or
    `JobFailed` with the errors, each naming its file and element. A database error is left to
    the task, which retries the job."""
    saved = receipt_of(kind=CATALOGUE_IMPORT, job_id=job.id)
    if saved is not None:  # a delivery before this one imported it and died before storing the outcome
        return saved
    if not inputs:
        raise JobFailed([FILES_GONE])
    files = [SourceFile(row.name, bytes(row.data)) for row in inputs]
    system_key = job.request["system"]
    with translation.override(job.language or settings.LANGUAGE_CODE):
        try:
            return saved_once(kind=CATALOGUE_IMPORT, job_id=job.id,
                              save=lambda: _import_with_receipt(job.id, system_key, files, job.owner))
        except (BattleScribeError, CatalogueFileError) as exc:
            raise JobFailed([str(error) for error in exc.errors]) from None
        except SoftTimeLimitExceeded:
            raise JobFailed([TOO_LONG]) from None
        except (OperationalError, InterfaceError):
            raise  # the database went away: the task retries the job
        except Exception:
            logger.exception("BattleScribe import %s failed", job.id)
            raise JobFailed([FAILED]) from None


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


__all__ = ["ImportJob", "ImportThrottled", "ImportUnavailable", "import_state", "queue_import",
           "run_catalogue_import"]
