from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("armybuilder", "0004_player_profile_language"),
    ]

    operations = [
        migrations.AddField(
            model_name="armylist",
            name="group_kinds",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text="For systems with kinds of groups (detachments): {group name: kind}.",
                verbose_name="kinds of unit groups",
            ),
        ),
    ]
