"""Append-only for real: PostgreSQL refuses UPDATE, DELETE and TRUNCATE on events_event.

TRUNCATE has one escape hatch: a session (or a database, with ``ALTER DATABASE ... SET``)
whose ``herald.allow_event_truncate`` setting is ``on``. Django's test runner empties tables
with TRUNCATE between transactional tests, so tests/conftest.py sets it on the throw-away test
database only. Rows are never updated or deleted, whatever the setting.
On SQLite (the embedded default) this migration does nothing; the model refuses changes.
"""

from django.db import migrations

CREATE = r"""
CREATE OR REPLACE FUNCTION events_event_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE'
       AND coalesce(current_setting('herald.allow_event_truncate', true), '') = 'on' THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'events are append-only: % on % is refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$;
CREATE TRIGGER events_event_append_only
    BEFORE UPDATE OR DELETE ON events_event
    FOR EACH ROW EXECUTE FUNCTION events_event_refuse_change();
CREATE TRIGGER events_event_no_truncate
    BEFORE TRUNCATE ON events_event
    FOR EACH STATEMENT EXECUTE FUNCTION events_event_refuse_change();
"""

DROP = r"""
DROP TRIGGER IF EXISTS events_event_no_truncate ON events_event;
DROP TRIGGER IF EXISTS events_event_append_only ON events_event;
DROP FUNCTION IF EXISTS events_event_refuse_change();
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("events", "0001_initial")]

    operations = [migrations.RunPython(install, remove)]
