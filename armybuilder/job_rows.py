"""The rows of a background job (`armybuilder.jobs`): the job, its input and its output files.

A Postgres row per job, not a job-cache entry: a Redis restart lost every import's state and
input (404s, jobs "queued" for good), and uploads of up to 64 MB sat in Redis. The input is
kept in `JobInput` rows until the job ends; a file the job makes (a roster's PDF) is a
`JobOutput` row kept as long as the job; the broker's message holds only the job's id.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class BackgroundJob(models.Model):
    """One job of any kind (`kind`: `estimate`, `list_import`, `catalogue_import`, `roster_pdf`,
    `gauntlet`, `gauntlet_part`), its owner (none for a PDF asked through a share link), its state, what
    was asked (`request`: small parameters; the input itself is in `JobInput`), what it makes
    (`key`: the PDF or gauntlet it is for, so a request finds it), its outcome (`result` and
    `JobOutput` files, or `errors` and `reason`) and where it runs."""

    class State(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    id = models.CharField(primary_key=True, max_length=32, editable=False)
    kind = models.CharField(max_length=32)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
                              related_name="background_jobs")
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    language = models.CharField(max_length=16, blank=True)
    request = models.JSONField(default=dict)
    result = models.JSONField(null=True, blank=True)
    errors = models.JSONField(default=list)
    #: How far the job is, from 0 to 1 (written by jobs that can tell: an estimate's matchups).
    progress = models.FloatField(default=0.0)
    #: Why the job failed when no error of its input says it (the worker lost, never started).
    reason = models.TextField(blank=True)
    #: What the job makes, for a request that looks for it (the PDF's variant, the gauntlet's
    #: content); "" for a job only its id names (an import).
    key = models.CharField(max_length=255, blank=True, db_index=True)
    #: At most one unfinished job holds a lock (a constraint): one PDF render per list, one
    #: gauntlet job per list and content. "" holds none.
    lock = models.CharField(max_length=255, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    #: The Celery worker (node name) that started the latest attempt: its heartbeat tells
    #: whether the job is still running (`armybuilder.worker_heartbeat`).
    worker = models.CharField(max_length=255, blank=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    #: When the job was last seen alive (sent, started, held by a worker).
    touched = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "background job"
        indexes = [models.Index(fields=["state", "kind"], name="background_job_state_kind")]
        constraints = [
            models.UniqueConstraint(
                fields=["lock"], condition=models.Q(state__in=["queued", "running"]) & ~models.Q(lock=""),
                name="background_job_one_unfinished_per_lock"),
            models.CheckConstraint(condition=models.Q(progress__gte=0) & models.Q(progress__lte=1),
                                   name="background_job_progress_between_0_and_1"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.id} ({self.state})"

    @property
    def finished_state(self) -> bool:
        return self.state in (self.State.DONE, self.State.FAILED)


class JobInput(models.Model):
    """One uploaded file (or pasted text) of a job, kept until the job ends."""

    job = models.ForeignKey(BackgroundJob, on_delete=models.CASCADE, related_name="inputs")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=255)
    data = models.BinaryField(null=True)
    text = models.TextField(blank=True)

    class Meta:
        verbose_name = "job input"
        ordering = ["position"]
        constraints = [models.UniqueConstraint(fields=["job", "position"], name="job_input_position_once")]

    def __str__(self) -> str:
        return f"{self.name} of job {self.job_id}"


class JobOutput(models.Model):
    """A file a job made (a roster's PDF), kept as long as its job."""

    job = models.ForeignKey(BackgroundJob, on_delete=models.CASCADE, related_name="outputs")
    name = models.CharField(max_length=255)
    data = models.BinaryField()

    class Meta:
        verbose_name = "job output"
        constraints = [models.UniqueConstraint(fields=["job", "name"], name="job_output_name_once")]

    def __str__(self) -> str:
        return f"{self.name} of job {self.job_id}"
