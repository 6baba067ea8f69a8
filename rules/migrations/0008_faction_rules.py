from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rules', '0007_import_receipt'),
    ]

    operations = [
        migrations.AddField(
            model_name='faction',
            name='rules',
            field=models.JSONField(blank=True, default=list, verbose_name='army rules'),
        ),
    ]
