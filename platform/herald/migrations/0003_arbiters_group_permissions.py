"""The "arbiters" group and the admin permissions it needs (issue #14).

An arbiter reads streams, their events and replay, verifications and ratings in the admin, and
reads and rules on disputes; without these permissions the admin told them "You don't have
permission to view or edit anything". The ruling itself is checked by the service
(``ratings.disputes.check_may_rule``); the "change dispute" permission opens its admin page.
Staff status (needed to enter the admin at all) is given per person, not by the group.
The list is frozen here; ``herald.roles.ARBITER_PERMISSIONS`` is the live one, which a
post_migrate handler keeps granted (after a ``flush`` too).
"""

from django.db import migrations

#: (app label, model, actions): what an arbiter opens in the admin.
ARBITER_PERMISSIONS = [
    ("events", "stream", ("view",)),
    ("events", "event", ("view",)),
    ("ratings", "verification", ("view",)),
    ("ratings", "rating", ("view",)),
    ("ratings", "ratingchange", ("view",)),
    ("ratings", "ratedgame", ("view",)),
    ("ratings", "ratingpool", ("view",)),
    ("ratings", "recomputejob", ("view",)),
    ("ratings", "dispute", ("view", "change")),
    ("tournaments", "tournament", ("view",)),
    ("tournaments", "round", ("view",)),
    ("tournaments", "table", ("view",)),
    ("tournaments", "result", ("view",)),
]


def _create_permissions(apps):
    """Permissions are made by post_migrate, after every migration: make them now."""
    from django.contrib.auth.management import create_permissions

    for label in {"events", "ratings", "tournaments"}:
        config = apps.get_app_config(label)
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None


def grant(apps, schema_editor):
    _create_permissions(apps)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name="arbiters")
    for app_label, model, actions in ARBITER_PERMISSIONS:
        codenames = [f"{action}_{model}" for action in actions]
        group.permissions.add(
            *Permission.objects.filter(content_type__app_label=app_label, codename__in=codenames)
        )


def revoke(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group = Group.objects.filter(name="arbiters").first()
    if group is None:
        return
    for app_label, model, actions in ARBITER_PERMISSIONS:
        codenames = [f"{action}_{model}" for action in actions]
        group.permissions.remove(
            *Permission.objects.filter(content_type__app_label=app_label, codename__in=codenames)
        )


class Migration(migrations.Migration):
    dependencies = [
        ("herald", "0002_invitation"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("events", "0007_outbox_done_at"),
        ("ratings", "0004_verification_reverified_at"),
        ("tournaments", "0005_club_allow_signup"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
