"""The append-only guard of the rating history (0003) checks an UPDATE by comparing rows.

Same rule as 0003: the only UPDATE allowed marks a current change superseded (``current`` true →
false, every other column unchanged); every other UPDATE, every DELETE and TRUNCATE (outside a
``test_…`` database with ``herald.allow_event_truncate`` on) is refused. 0003 compared
``to_jsonb(NEW) - 'current'`` with ``to_jsonb(OLD) - 'current'``: building two JSON documents
per row made superseding 40,000 changes (a 10,000-game recompute) take about 4 s more than the
UPDATE itself. This version copies NEW with ``current`` put back and compares the records
(``IS NOT DISTINCT FROM``, column by column, nulls equal): about a quarter of that, and still
every column, including ones added later.

On SQLite (the embedded default) this migration does nothing.
"""

from django.db import migrations

GUARD = r"""
CREATE OR REPLACE FUNCTION ratings_change_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    probe ratings_ratingchange;
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        IF left(current_database(), 5) = 'test_'
           AND coalesce(current_setting('herald.allow_event_truncate', true), '') = 'on' THEN
            RETURN NULL;
        END IF;
    ELSIF TG_OP = 'UPDATE' THEN
        IF OLD.current AND NOT NEW.current THEN
            probe := NEW;
            probe.current := OLD.current;
            IF probe IS NOT DISTINCT FROM OLD THEN
                RETURN NEW;  -- a recompute supersedes the change; nothing else about it changes
            END IF;
        END IF;
    END IF;
    RAISE EXCEPTION 'the rating history is append-only: % on % is refused (a recompute only '
        'marks current changes superseded)', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$;
"""

# 0003's function, put back when this migration is reversed.
GUARD_0003 = r"""
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
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(GUARD, params=None)


def restore(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(GUARD_0003, params=None)


class Migration(migrations.Migration):
    dependencies = [("ratings", "0007_reported_games")]

    operations = [migrations.RunPython(install, restore)]
