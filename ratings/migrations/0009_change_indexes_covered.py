"""Drop the rating history's two indexes that no query uses.

- ``player_id``: ``change_history`` (player, pool, current, sequence) starts with the player, so
  it serves every lookup by player, and the cascade when a user is deleted.
- ``stream_id``: changes are found through their game; the admin's search by stream is a text
  match, which a btree index does not serve.

Every change written, and every change a recompute marks superseded, paid for both.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0008_change_guard_row_compare"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterField(
            model_name="ratingchange",
            name="player",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rating_changes",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AlterField(
            model_name="ratingchange",
            name="stream_id",
            field=models.UUIDField(),
        ),
    ]
