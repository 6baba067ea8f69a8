from django.db import migrations, models


class Migration(migrations.Migration):
    """A job's progress on its row (an estimate's, which moves its state onto its background job)."""

    dependencies = [
        ('armybuilder', '0011_background_job_outputs'),
    ]

    operations = [
        migrations.AddField(
            model_name='backgroundjob',
            name='progress',
            field=models.FloatField(default=0.0),
        ),
        migrations.AddConstraint(
            model_name='backgroundjob',
            constraint=models.CheckConstraint(condition=models.Q(('progress__gte', 0), ('progress__lte', 1)),
                                              name='background_job_progress_between_0_and_1'),
        ),
    ]
