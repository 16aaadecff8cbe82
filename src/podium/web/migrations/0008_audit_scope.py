# Entries written before scopes existed keep "" (every table of the event): the safe reading.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('podium', '0007_division_message'),
    ]

    operations = [
        migrations.AddField(
            model_name='auditentry',
            name='scope',
            field=models.CharField(blank=True, default='', max_length=60),
        ),
        migrations.AddIndex(
            model_name='auditentry',
            index=models.Index(fields=['event', 'scope', 'id'], name='audit_scope'),
        ),
    ]
