"""Production settings: the defaults of ``herald.settings`` with the safety catches on.

Refuses to start without a real ``SECRET_KEY`` (set, long, random-looking, not the development
key). ``manage.py check --deploy`` passes with the defaults: HTTPS redirect, HSTS and secure
cookies, which a club serving plain HTTP on its LAN turns off by environment (see
docs/operations.md).
"""

import math
from collections import Counter

import environ
from django.core.exceptions import ImproperlyConfigured

from herald.settings import *  # noqa: F403
from herald.settings import DEV_SECRET_KEY, MIDDLEWARE, SECRET_KEY

MIN_SECRET_KEY_LENGTH = 50
MIN_SECRET_KEY_CHARACTERS = 5
# Bits per character of the key's own character frequencies. A key from
# ``django.core.management.utils.get_random_secret_key`` or ``secrets.token_urlsafe`` has about
# 5 to 6; 'abcde' * 11 has log2(5) = 2.3 and fails, like any key of few repeated characters.
MIN_SECRET_KEY_ENTROPY = 3.5

env = environ.Env()


def shannon_entropy(text: str) -> float:
    """Bits per character of ``text``, estimated from its own character frequencies."""
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


def _require_real_secret_key(key: str) -> str:
    """Return ``key`` if it is fit for production, or explain why not."""
    if key == DEV_SECRET_KEY or key.startswith("django-insecure"):
        raise ImproperlyConfigured("SECRET_KEY is not set: production needs a real secret key.")
    if (
        len(key) < MIN_SECRET_KEY_LENGTH
        or len(set(key)) < MIN_SECRET_KEY_CHARACTERS
        or shannon_entropy(key) < MIN_SECRET_KEY_ENTROPY
    ):
        raise ImproperlyConfigured(
            f"SECRET_KEY is too weak: use at least {MIN_SECRET_KEY_LENGTH} random characters "
            "(python -c 'import secrets; print(secrets.token_urlsafe(50))')."
        )
    return key


SECRET_KEY = _require_real_secret_key(SECRET_KEY)
DEBUG = env.bool("DEBUG", default=False)
SESSION_COOKIE_SECURE = env.bool("SECURE_COOKIES", default=True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_CONTENT_TYPE_NOSNIFF = True
# HTTPS: redirect plain HTTP and tell browsers to use HTTPS only (HSTS, a year by default).
# Behind a TLS proxy that sends X-Forwarded-Proto, set SECURE_PROXY_SSL_HEADER=true so Django
# knows the request came over HTTPS (otherwise the redirect would loop). A club serving plain
# HTTP on its LAN sets SECURE_SSL_REDIRECT=false, SECURE_HSTS_SECONDS=0, SECURE_COOKIES=false.
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
# Asking browsers' preload lists to include the domain is the operator's decision, not a default.
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
if env.bool("SECURE_PROXY_SSL_HEADER", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# /healthz answers plain HTTP: docker's healthcheck and load balancers probe it without TLS.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
# WhiteNoise serves the collected static files (the admin's, the site's stylesheet) from gunicorn.
MIDDLEWARE = [MIDDLEWARE[0], "whitenoise.middleware.WhiteNoiseMiddleware", *MIDDLEWARE[1:]]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
