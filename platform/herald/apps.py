from django.apps import AppConfig
from django.core import checks
from django.utils.translation import gettext_lazy as _


class HeraldConfig(AppConfig):
    """The project's own small app: health checks, the worker heartbeat, API tokens."""

    name = "herald"
    verbose_name = _("Herald platform")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Register the platform's tasks in every process, as the other apps do.
        from herald import schema, signals, tasks  # noqa: F401
        from herald.checks import channel_layer_is_shared, password_change_revokes_tokens

        checks.register(password_change_revokes_tokens, checks.Tags.security)
        checks.register(channel_layer_is_shared, checks.Tags.compatibility, deploy=True)
        from django.db.models.signals import post_migrate

        from herald.roles import arbiters_group_ensure

        # After every app's migrations (each app's permissions are made by its own
        # post_migrate): whatever of the arbiters' permissions exist by then is granted.
        post_migrate.connect(arbiters_group_ensure, dispatch_uid="herald-arbiters-group")
