"""Import jobs that save once, however often they are delivered.

The import jobs (`rules.battlescribe_jobs`, `armybuilder.lists.import_jobs`) are `acks_late`
with `reject_on_worker_lost`: a worker that dies mid-job hands the message back, and another
delivery runs it again. A worker that died after the import was committed but before the job's
outcome reached the job cache made the rerun import a second copy of the list. So the saving
part of a job runs in one transaction that ends by writing a receipt (`ImportReceipt`, keyed by
the job's kind and id, holding the outcome the job would store):

- a rerun that finds the receipt finishes from it and saves nothing (`receipt_of`);
- two deliveries saving at once cannot both commit: the receipt's unique key refuses the
  second, its transaction rolls back with everything it saved, and it finishes from the first's
  receipt (`saved_once`).

Receipts are kept as long as a job is (`KEEP_SECONDS`); the periodic reconciliation prunes
older ones (`import_receipts_prune`), when no job that could be redelivered needs them.
"""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import IntegrityError
from django.utils import timezone

from rules.models import ImportReceipt

logger = logging.getLogger(__name__)

#: A receipt is kept this long: at least as long as the job cache keeps a job's state
#: (`JOB_SECONDS` of both job modules); after that a redelivered job is skipped anyway.
KEEP_SECONDS = 3600
#: The kinds of job that keep receipts.
LIST_IMPORT = "list"
CATALOGUE_IMPORT = "catalogue"


def receipt_of(*, kind: str, job_id: str) -> dict[str, Any] | None:
    """The outcome a delivery of this job committed, or None when none did."""
    found = ImportReceipt.objects.filter(kind=kind, job_id=job_id).values_list("result", flat=True).first()
    return found


def receipt_record(*, kind: str, job_id: str, result: dict[str, Any]) -> None:
    """Write the job's receipt. Call it last inside the transaction that saves the job's work, so
    the receipt commits, or rolls back, with it. `result` is plain JSON data."""
    ImportReceipt.objects.create(kind=kind, job_id=job_id, result=result)


def saved_once(*, kind: str, job_id: str, save: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """`save()`'s outcome, or the one another delivery of the job committed first.

    `save` saves the job's work and calls `receipt_record` in one transaction (and returns what
    it recorded). When the receipt collides with one committed meanwhile, that transaction has
    rolled back and nothing of this delivery is kept."""
    try:
        result = save()
    except IntegrityError:
        kept = receipt_of(kind=kind, job_id=job_id)
        if kept is None:
            raise  # another constraint refused the work: a real failure
        logger.warning("%s import %s was saved by another delivery; this one rolled back", kind, job_id)
        return kept
    die_after_commit_for_tests()
    return result


def import_receipts_prune(*, now: datetime | None = None) -> int:
    """Delete the receipts older than `KEEP_SECONDS`; how many were deleted."""
    limit = (now or timezone.now()) - timedelta(seconds=KEEP_SECONDS)
    deleted, _ = ImportReceipt.objects.filter(created__lt=limit).delete()
    return deleted


def die_after_commit_for_tests() -> None:
    """Fault tests only (`IMPORT_TEST_DIE_FILE` names a file; empty, the default, in production;
    it is read from the worker's environment at start, so no request can set it): when the file
    exists, delete it and SIGKILL this process right after an import committed and before its
    outcome is stored, the window a redelivery must survive. Deleting it first makes it the
    first delivery's death only."""
    marker = settings.IMPORT_TEST_DIE_FILE
    if not marker:
        return
    path = Path(marker)
    try:
        path.unlink()
    except FileNotFoundError:
        return
    os.kill(os.getpid(), signal.SIGKILL)


__all__ = ["CATALOGUE_IMPORT", "KEEP_SECONDS", "LIST_IMPORT", "import_receipts_prune", "receipt_of",
           "receipt_record", "saved_once"]
