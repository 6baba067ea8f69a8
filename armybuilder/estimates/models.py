"""An estimate: what was asked and the stored answer. Its state is its background job's.

An estimate is a `BackgroundJob` of kind `estimate` (`armybuilder.jobs`): the job row holds its
state, progress, attempts, times and the reason it failed, written by the one state machine of
every kind of job and watched by the one reconciliation; this row holds what only an estimate
has — the question (`kind`, `system`, `inputs` and their hash, by which an identical question
finds the stored answer) and the answer (`result`, `compute_ms`). The job's id is the
estimate's UUID without dashes (`job_id_of`), so an estimate's URL and its job name one thing.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from armybuilder.estimates.result_json import ResultEncoder
from armybuilder.job_rows import BackgroundJob

#: The kind of an estimate's background job.
JOB_KIND = "estimate"


def job_id_of(estimate_id: Any) -> str:
    """The id of the background job of the estimate `estimate_id` (its UUID, without dashes)."""
    return (estimate_id if isinstance(estimate_id, uuid.UUID) else uuid.UUID(str(estimate_id))).hex


class Estimate(models.Model):
    """One expected-damage computation, run by a Celery worker.

    `inputs_hash` is the SHA-256 of the canonical JSON of `kind` and `inputs`, so an
    identical request finds the stored result instead of computing it again.
    """

    class Kind(models.TextChoices):
        UNIT_VS_UNIT = "unit_vs_unit", _("Unit against unit")
        LIST_VS_LIST = "list_vs_list", _("List against list")

    class Status(models.TextChoices):
        """The states of its job (`BackgroundJob.State`), as the pages name them."""

        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    #: Its job: state, progress, attempts, times, and why it failed (`reason`).
    job = models.OneToOneField(BackgroundJob, on_delete=models.CASCADE, related_name="estimate",
                               verbose_name=_("job"))
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    system = models.CharField(_("game system"), max_length=32)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="estimates")
    inputs = models.JSONField(_("inputs"))
    inputs_hash = models.CharField(_("hash of the inputs"), max_length=64, db_index=True)
    #: Written with orjson (`jsontext`): a result is mostly floats, and storing it is part of every job.
    result = models.JSONField(_("result"), null=True, blank=True, encoder=ResultEncoder)
    created = models.DateTimeField(auto_now_add=True)
    compute_ms = models.FloatField(_("computation time (ms)"), null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("estimate")
        verbose_name_plural = _("estimates")

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.id} ({self.status})"

    def refresh_from_db(self, using: str | None = None, fields: Any = None,
                        from_queryset: Any = None) -> None:
        """Read the estimate and its job again in one query, so the two are one snapshot.

        Django's own refresh drops the cached job and reads it later, in a second query: a worker
        finishing in between gave a "done" estimate without its result (its state is the job's,
        its result the estimate's; seen under load in the Redis fault run)."""
        if fields is None and from_queryset is None:
            from_queryset = type(self)._base_manager.select_related("job")
        super().refresh_from_db(using=using, fields=fields, from_queryset=from_queryset)

    # What the pages, the API and the tests read of the job, under the names they always had.
    @property
    def status(self) -> str:
        return self.job.state

    def get_status_display(self) -> str:
        return str(self.Status(self.job.state).label)

    @property
    def progress(self) -> float:
        return self.job.progress

    @property
    def error(self) -> str:
        return self.job.reason

    @property
    def attempts(self) -> int:
        return self.job.attempts

    @property
    def started(self) -> Any:
        return self.job.started

    @property
    def finished(self) -> Any:
        return self.job.finished

    @property
    def touched(self) -> Any:
        return self.job.touched

    @property
    def points_sized(self) -> bool:
        """Whether the system costs units in points (`GameSystem.points_sized`): a system sized by
        models (AoS) has no points to destroy, so its answer shows no points rows."""
        from rules.systems.registry import get_system

        try:
            return get_system(self.system).points_sized
        except KeyError:
            return True

    @property
    def is_finished(self) -> bool:
        return self.job.finished_state
