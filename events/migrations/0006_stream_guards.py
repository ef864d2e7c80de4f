"""The stream row joins the record on PostgreSQL; TRUNCATE no longer opens by a session's SET.

Before: any session could ``SET LOCAL herald.allow_event_truncate = on`` and TRUNCATE the events,
and nothing guarded ``events_stream``. Now:

- TRUNCATE of ``events_event`` (and ``events_stream``) is allowed only in a database whose name
  starts with ``test_`` (pytest-django's throw-away test database) *and* where
  ``herald.allow_event_truncate`` is ``on`` (tests/conftest.py sets it on that database). A
  production database is not named ``test_…``, and a session cannot rename the database it is
  connected to, so no SET switches TRUNCATE on there.
- ``events_stream`` rows are never deleted, and an UPDATE may change only what the event
  store's own writes change (events/services.py, events/states.py): the head (``version`` and
  ``head_hash``, together, ``version`` only upwards), the snapshot cache (``snapshot``,
  ``snapshot_version``, ``snapshot_engine``), the finish (``status`` live → finished with
  ``result`` and ``finished_at``, in the append of ``GameEnded``) and ``created_by`` (set to
  NULL when that user is deleted). A finished stream stays finished with its result. Every
  other column (``id``, ``game``, ``edition``, ``engine_version``, ``options``, ``players``,
  ``hash_format``, ``seed``, ``seed_commitment``, ``public``, ``context``, ``created_at``) is
  the game's setup and never changes: a migration that adds a column the app updates must say
  so here.

On SQLite (the embedded default) this migration does nothing; the models refuse deletes.
"""

from django.db import migrations

TRUNCATE_ALLOWED = r"""
CREATE OR REPLACE FUNCTION herald_truncate_allowed() RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT left(current_database(), 5) = 'test_'
       AND coalesce(current_setting('herald.allow_event_truncate', true), '') = 'on'
$$;
"""

EVENT_GUARD = r"""
CREATE OR REPLACE FUNCTION events_event_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' AND herald_truncate_allowed() THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'events are append-only: % on % is refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END
$$;
"""

# 0002's version, put back when this migration is reversed.
EVENT_GUARD_0002 = r"""
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
"""

STREAM_GUARD = r"""
CREATE OR REPLACE FUNCTION events_stream_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        IF herald_truncate_allowed() THEN
            RETURN NULL;
        END IF;
        RAISE EXCEPTION 'streams are part of the record: TRUNCATE on events_stream is refused'
            USING ERRCODE = 'restrict_violation';
    END IF;
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'streams are part of the record: DELETE of stream % is refused', OLD.id
            USING ERRCODE = 'restrict_violation';
    END IF;
    IF NEW.id IS DISTINCT FROM OLD.id
       OR NEW.game IS DISTINCT FROM OLD.game
       OR NEW.edition IS DISTINCT FROM OLD.edition
       OR NEW.engine_version IS DISTINCT FROM OLD.engine_version
       OR NEW.options IS DISTINCT FROM OLD.options
       OR NEW.players IS DISTINCT FROM OLD.players
       OR NEW.hash_format IS DISTINCT FROM OLD.hash_format
       OR NEW.seed IS DISTINCT FROM OLD.seed
       OR NEW.seed_commitment IS DISTINCT FROM OLD.seed_commitment
       OR NEW.public IS DISTINCT FROM OLD.public
       OR NEW.context IS DISTINCT FROM OLD.context
       OR NEW.created_at IS DISTINCT FROM OLD.created_at THEN
        RAISE EXCEPTION 'the setup of stream % never changes (id, game, edition, engine '
            'version, options, players, hash format, seed, seed commitment, public, context, '
            'created at)', OLD.id USING ERRCODE = 'restrict_violation';
    END IF;
    IF NEW.created_by_id IS NOT NULL AND NEW.created_by_id IS DISTINCT FROM OLD.created_by_id THEN
        RAISE EXCEPTION 'the creator of stream % never changes (it is only cleared when that '
            'user is deleted)', OLD.id USING ERRCODE = 'restrict_violation';
    END IF;
    IF NEW.version < OLD.version THEN
        RAISE EXCEPTION 'the version of stream % never goes back (% to %)',
            OLD.id, OLD.version, NEW.version USING ERRCODE = 'restrict_violation';
    END IF;
    IF (NEW.version = OLD.version) <> (NEW.head_hash = OLD.head_hash) THEN
        RAISE EXCEPTION 'the head hash of stream % changes only with its version, which an '
            'appended event raises', OLD.id USING ERRCODE = 'restrict_violation';
    END IF;
    IF OLD.status = 'finished' AND (
           NEW.status IS DISTINCT FROM OLD.status
           OR NEW.result IS DISTINCT FROM OLD.result
           OR NEW.finished_at IS DISTINCT FROM OLD.finished_at) THEN
        RAISE EXCEPTION 'stream % is finished: its status, result and end time never change',
            OLD.id USING ERRCODE = 'restrict_violation';
    END IF;
    IF NEW.status IS DISTINCT FROM OLD.status AND NEW.version = OLD.version THEN
        RAISE EXCEPTION 'stream % finishes only with the event that ends it', OLD.id
            USING ERRCODE = 'restrict_violation';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER events_stream_guard
    BEFORE UPDATE OR DELETE ON events_stream
    FOR EACH ROW EXECUTE FUNCTION events_stream_guard();
CREATE TRIGGER events_stream_no_truncate
    BEFORE TRUNCATE ON events_stream
    FOR EACH STATEMENT EXECUTE FUNCTION events_stream_guard();
"""

DROP = r"""
DROP TRIGGER IF EXISTS events_stream_no_truncate ON events_stream;
DROP TRIGGER IF EXISTS events_stream_guard ON events_stream;
DROP FUNCTION IF EXISTS events_stream_guard();
"""


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(TRUNCATE_ALLOWED, params=None)
        schema_editor.execute(EVENT_GUARD, params=None)
        schema_editor.execute(STREAM_GUARD, params=None)


def remove(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP, params=None)
        schema_editor.execute(EVENT_GUARD_0002, params=None)
        schema_editor.execute("DROP FUNCTION IF EXISTS herald_truncate_allowed();", params=None)


class Migration(migrations.Migration):
    dependencies = [("events", "0005_stream_hash_format")]

    operations = [migrations.RunPython(install, remove)]
