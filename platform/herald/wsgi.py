"""WSGI entry point (gunicorn ``herald.wsgi``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "herald.settings")

application = get_wsgi_application()

from herald.warmup import warm_up  # noqa: E402  (after Django's set-up)

warm_up()
