from django.db import migrations, models


class Migration(migrations.Migration):
    """Streams stored before this migration were hashed over their full payloads (format 1);
    new streams commit to hidden parts with salted commitments (format 2)."""

    dependencies = [("events", "0004_order_by_stream_id")]

    operations = [
        migrations.AddField(
            model_name="stream",
            name="hash_format",
            field=models.PositiveSmallIntegerField(default=1, editable=False),
        ),
        migrations.AlterField(
            model_name="stream",
            name="hash_format",
            field=models.PositiveSmallIntegerField(default=2, editable=False),
        ),
    ]
