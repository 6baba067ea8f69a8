"""The estimate's own state columns go: its background job holds them (0004 moved them there)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("estimates", "0004_estimate_state_on_background_job"),
    ]

    operations = [
        migrations.AlterField(
            model_name="estimate",
            name="job",
            field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name="estimate",
                                       to="armybuilder.backgroundjob", verbose_name="job"),
        ),
        migrations.RemoveIndex(model_name="estimate", name="estimate_hash_status"),
        migrations.RemoveConstraint(model_name="estimate", name="estimate_progress_between_0_and_1"),
        migrations.RemoveField(model_name="estimate", name="status"),
        migrations.RemoveField(model_name="estimate", name="progress"),
        migrations.RemoveField(model_name="estimate", name="error"),
        migrations.RemoveField(model_name="estimate", name="attempts"),
        migrations.RemoveField(model_name="estimate", name="started"),
        migrations.RemoveField(model_name="estimate", name="finished"),
        migrations.RemoveField(model_name="estimate", name="touched"),
    ]
