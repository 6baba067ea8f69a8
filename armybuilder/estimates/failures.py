"""Why an estimate job failed, as stored on its row: English texts marked for translation and
translated when shown (`{% translate estimate.error %}`), and how often a lost job is tried.

The task that runs a job (`tasks`), the fan-out of its rows (`fanout`) and the reconciliation
that finds lost ones (`reconciliation`) all write them; they sit apart so that none of those
modules imports another for a constant.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

MAX_ATTEMPTS = 3
#: Errors stored in English and translated when shown (`{% translate estimate.error %}`).
GAVE_UP = gettext_noop("The job was given up: the worker running it was lost on every attempt.")
TOO_LONG = gettext_noop("The computation took longer than the time limit.")
#: A job that runs out of the worker's memory limit fails once, visibly, not retried.
OUT_OF_MEMORY = gettext_noop("The computation needed more memory than a worker may use; it was not retried. "
                             "Estimate smaller units or lists.")
#: A job past its CPU seconds (`ESTIMATE_CPU_SECONDS`) fails once, visibly, not retried.
CPU_TOO_LONG = gettext_noop("The computation used more CPU time than a job may use; it was not retried. "
                             "Estimate smaller units or lists.")
