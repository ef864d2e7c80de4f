"""Herald: the Django project package (settings, URLs, the Celery app, WSGI/ASGI).

Importing the package loads the Celery app so that ``shared_task`` decorators in the apps bind
to it, as Celery's Django guide recommends.
"""

from herald.celery import app as celery_app

__all__ = ["celery_app"]
