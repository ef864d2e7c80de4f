from django.db import migrations, models


class Migration(migrations.Migration):
    """Outbox entries record when their task reported done; the sweeper sends again entries
    dispatched long ago and not done (their worker died). Entries dispatched before this
    migration are taken as done: their tasks ran under the old rule, and sending every one of
    them again would replay the whole history."""

    dependencies = [("events", "0006_stream_guards")]

    operations = [
        migrations.AddField(
            model_name="outboxentry",
            name="done_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunSQL(
            "UPDATE events_outboxentry SET done_at = dispatched_at WHERE dispatched_at IS NOT NULL",
            reverse_sql=migrations.RunSQL.noop,
        ),
        migrations.AddIndex(
            model_name="outboxentry",
            index=models.Index(
                condition=models.Q(("done_at__isnull", True)),
                fields=["dispatched_at"],
                name="events_outbox_undone",
            ),
        ),
    ]
