from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("estimates", "0002_result_written_with_orjson"),
    ]

    operations = [
        migrations.AddField(
            model_name="estimate",
            name="touched",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
