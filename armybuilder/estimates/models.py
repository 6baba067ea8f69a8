"""An estimate job: what was asked, its state while it runs, and the stored answer."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from armybuilder.estimates.result_json import ResultEncoder


class Estimate(models.Model):
    """One expected-damage computation, run by a Celery worker.

    `inputs_hash` is the SHA-256 of the canonical JSON of `kind` and `inputs`, so an
    identical request finds the stored result instead of computing it again.
    """

    class Kind(models.TextChoices):
        UNIT_VS_UNIT = "unit_vs_unit", _("Unit against unit")
        LIST_VS_LIST = "list_vs_list", _("List against list")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    system = models.CharField(_("game system"), max_length=32)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                              related_name="estimates")
    inputs = models.JSONField(_("inputs"))
    inputs_hash = models.CharField(_("hash of the inputs"), max_length=64, db_index=True)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.QUEUED)
    progress = models.FloatField(_("progress"), default=0.0)
    #: Written with orjson (`jsontext`): a result is mostly floats, and storing it is part of every job.
    result = models.JSONField(_("result"), null=True, blank=True, encoder=ResultEncoder)
    error = models.TextField(_("error"), blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    #: When the job was last seen alive (a row finished, progress written, or the
    #: reconciliation found its work queued or held by a live worker). The time bounds of a
    #: queued or running job count from here, so a job waiting behind a backlog is not failed.
    touched = models.DateTimeField(null=True, blank=True)
    compute_ms = models.FloatField(_("computation time (ms)"), null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("estimate")
        verbose_name_plural = _("estimates")
        constraints = [
            models.CheckConstraint(condition=models.Q(progress__gte=0) & models.Q(progress__lte=1),
                                   name="estimate_progress_between_0_and_1"),
        ]
        indexes = [models.Index(fields=["inputs_hash", "status"], name="estimate_hash_status")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.id} ({self.status})"

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
        return self.status in {self.Status.DONE, self.Status.FAILED}
