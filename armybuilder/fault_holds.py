"""A pause at a named point of a background job, for the fault tests only: they kill the worker
at exactly that point. Every kind of job (estimates, their fan-out rows, the durable jobs)
calls it; unset in production, it returns at once.
"""

from __future__ import annotations

import time
from pathlib import Path

from django.conf import settings


def hold_for_tests(stage: str) -> None:
    """Fault tests only (`ESTIMATE_TEST_HOLD_FILE` names a file; never set in production):
    at the stage `ESTIMATE_TEST_HOLD_AT` names ("start": the job has just started; "fanned_out":
    its fan-out marker is set and no row is sent yet; "row": a row is about to compute), write
    `<file>.reached`, then wait while `<file>` exists, so a test can kill the worker at that
    very point. Bounded by the soft time limit."""
    hold = settings.ESTIMATE_TEST_HOLD_FILE
    if not hold or stage != settings.ESTIMATE_TEST_HOLD_AT:
        return
    Path(f"{hold}.reached").write_text("running")
    while Path(hold).exists():
        time.sleep(0.05)
