"""The console's setup part (issue #18): a join link, a check-in window and a player cap on
each tournament, a waitlist mark on each registration.

Existing tournaments get a join token of their own, so their join links work at once.
"""

import secrets

from django.db import migrations, models


def give_join_tokens(apps, schema_editor):  # type: ignore[no-untyped-def]
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.filter(join_token="").only("pk"):
        tournament.join_token = secrets.token_urlsafe(16)
        tournament.save(update_fields=["join_token"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_tournament_spectator_delay"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="join_token",
            field=models.CharField(blank=True, max_length=43, verbose_name="join link token"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="check_in_opens_at",
            field=models.DateTimeField(
                blank=True,
                help_text="From then on players check themselves in from their phone (empty: now).",
                null=True,
                verbose_name="check-in opens at",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="check_in_closes_at",
            field=models.DateTimeField(
                blank=True,
                help_text="Players check themselves in until then (empty: until the end).",
                null=True,
                verbose_name="check-in closes at",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="player_cap",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="Registrations beyond it go on the waitlist, in order (empty: no cap).",
                null=True,
                verbose_name="player cap",
            ),
        ),
        migrations.AddField(
            model_name="registration",
            name="waitlisted",
            field=models.BooleanField(default=False, verbose_name="waitlisted"),
        ),
        migrations.RunPython(give_join_tokens, migrations.RunPython.noop),
    ]
