"""Every estimate's state moves onto a background job of kind `estimate` (id: the estimate's UUID
without dashes): state, progress, attempts, times and the error (the job's `reason`). The
estimate keeps its id, its question and its answer, so its URLs and API ids stay the same."""

import django.db.models.deletion
from django.db import migrations, models

STATE_FIELDS = ("status", "progress", "error", "attempts", "started", "finished", "touched")
BATCH = 500


def estimates_to_jobs(apps, schema_editor):
    Estimate = apps.get_model("estimates", "Estimate")
    BackgroundJob = apps.get_model("armybuilder", "BackgroundJob")
    rows = Estimate.objects.filter(job__isnull=True).only("pk", "owner_id", "created", *STATE_FIELDS)
    for estimate in rows.iterator(chunk_size=BATCH):
        job_id = estimate.pk.hex
        BackgroundJob.objects.update_or_create(id=job_id, defaults={
            "kind": "estimate", "owner_id": estimate.owner_id, "state": estimate.status,
            "progress": min(1.0, max(0.0, estimate.progress)), "reason": estimate.error,
            "attempts": estimate.attempts, "started": estimate.started, "finished": estimate.finished,
            "touched": estimate.touched or estimate.created, "request": {"estimate": str(estimate.pk)}})
        BackgroundJob.objects.filter(pk=job_id).update(created=estimate.created)  # not now (auto_now_add)
        Estimate.objects.filter(pk=estimate.pk).update(job_id=job_id)
    _checked_now(schema_editor)


def jobs_to_estimates(apps, schema_editor):
    Estimate = apps.get_model("estimates", "Estimate")
    BackgroundJob = apps.get_model("armybuilder", "BackgroundJob")
    for job in BackgroundJob.objects.filter(kind="estimate").iterator(chunk_size=BATCH):
        Estimate.objects.filter(job_id=job.pk).update(
            status=job.state, progress=job.progress, error=job.reason, attempts=job.attempts,
            started=job.started, finished=job.finished, touched=job.touched)
    # The jobs go (the estimates first let go of them, or deleting them would delete the estimates).
    Estimate.objects.update(job=None)
    BackgroundJob.objects.filter(kind="estimate").delete()
    _checked_now(schema_editor)


def _checked_now(schema_editor):
    """The deferred foreign-key checks of the rows written, run now: Postgres alters no table
    with checks pending (the columns change next, in this migration's transaction)."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


class Migration(migrations.Migration):

    dependencies = [
        ("estimates", "0003_estimate_touched"),
        ("armybuilder", "0012_background_job_progress"),
    ]

    operations = [
        migrations.AddField(
            model_name="estimate",
            name="job",
            field=models.OneToOneField(null=True, on_delete=django.db.models.deletion.CASCADE,
                                       related_name="estimate", to="armybuilder.backgroundjob",
                                       verbose_name="job"),
        ),
        migrations.RunPython(estimates_to_jobs, jobs_to_estimates),
    ]
