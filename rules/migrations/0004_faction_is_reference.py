# A catalogue faction can be marked as reference profiles (a rulebook's example units
# without points): the catalogue shows them, new lists are not offered them.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rules', '0003_special_rule_source_text'),
    ]

    operations = [
        migrations.AddField(
            model_name='faction',
            name='is_reference',
            field=models.BooleanField(default=False, help_text='The profiles a rulebook prints as examples, without points: shown in the catalogue, not offered for new lists.', verbose_name='reference profiles'),
        ),
    ]
