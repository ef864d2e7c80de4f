"""The rating history (``ratings_ratingchange``) is append-only on PostgreSQL.

A change row records one player's rating before and after one game. The only UPDATE the app
makes is the recompute's rewind (``ratings.services._rewind``): it marks current rows
superseded, ``current`` true → false, every other column unchanged. So the trigger allows
exactly that, and refuses any other UPDATE, every DELETE (a pool, game or player with a
history cannot be deleted: the history stays) and TRUNCATE, which is allowed only where the
events' TRUNCATE is (events/migrations/0006: a ``test_…`` database where
``herald.allow_event_truncate`` is on; the condition is written out here so that this app keeps
migrating without the events app).

On SQLite (the embedded default) this migration does nothing.
"""

from django.db import migrations

CREATE = r"""
CREATE OR REPLACE FUNCTION ratings_change_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        IF left(current_database(), 5) = 'test_'
           AND coalesce(current_setting('herald.allow_event_truncate', true), '') = 'on' THEN
            RETURN NULL;
        END IF;
    ELSIF TG_OP = 'UPDATE' THEN
        IF OLD.current AND NOT NEW.current
           AND to_jsonb(NEW) - 'current' = to_jsonb(OLD) - 'current' THEN
            RETURN NEW;  -- a recompute supersedes the change; nothing else about it changes
        END IF;
    END IF;
    RAISE EXCEPTION 'the rating history is append-only: % on % is refused (a recompute only '
        'marks current changes superseded)', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$;
CREATE TRIGGER ratings_change_append_only
    BEFORE UPDATE OR DELETE ON ratings_ratingchange
    FOR EACH ROW EXECUTE FUNCTION ratings_change_guard();
CREATE TRIGGER ratings_change_no_truncate
    BEFORE TRUNCATE ON ratings_ratingchange
    FOR EACH STATEMENT EXECUTE FUNCTION ratings_change_guard();
"""

DROP = r"""
DROP TRIGGER IF EXISTS ratings_change_no_truncate ON ratings_ratingchange;
DROP TRIGGER IF EXISTS ratings_change_append_only ON ratings_ratingchange;
DROP FUNCTION IF EXISTS ratings_change_guard();
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)


class Migration(migrations.Migration):
    dependencies = [("ratings", "0002_dispute_recompute")]

    operations = [migrations.RunPython(install, remove)]
