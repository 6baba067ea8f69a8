from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("armybuilder", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="armylist",
            name="settings",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="The game system's own list parameters (battle size, allegiance…), by key.",
                verbose_name="list settings",
            ),
        ),
    ]
