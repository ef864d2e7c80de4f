"""Production settings: the defaults of ``herald.settings`` with the safety catches on.

Refuses to start without a real ``SECRET_KEY`` (set, long, not the development key).
"""

import environ
from django.core.exceptions import ImproperlyConfigured

from herald.settings import *  # noqa: F403
from herald.settings import DEV_SECRET_KEY, MIDDLEWARE, SECRET_KEY

MIN_SECRET_KEY_LENGTH = 50


def _require_real_secret_key(key: str) -> str:
    """Return ``key`` if it is fit for production, or explain why not."""
    if key == DEV_SECRET_KEY or key.startswith("django-insecure"):
        raise ImproperlyConfigured("SECRET_KEY is not set: production needs a real secret key.")
    if len(key) < MIN_SECRET_KEY_LENGTH or len(set(key)) < 5:
        raise ImproperlyConfigured(
            f"SECRET_KEY is too weak: use at least {MIN_SECRET_KEY_LENGTH} random characters."
        )
    return key


SECRET_KEY = _require_real_secret_key(SECRET_KEY)
DEBUG = environ.Env().bool("DEBUG", default=False)
SESSION_COOKIE_SECURE = environ.Env().bool("SECURE_COOKIES", default=True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_CONTENT_TYPE_NOSNIFF = True
# WhiteNoise serves the collected static files (the admin's, the print CSS) from gunicorn.
MIDDLEWARE = [MIDDLEWARE[0], "whitenoise.middleware.WhiteNoiseMiddleware", *MIDDLEWARE[1:]]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
