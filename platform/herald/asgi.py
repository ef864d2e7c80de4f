"""ASGI entry point: HTTP through Django, WebSockets through Channels (the game sockets: the
event store's version-only one and the table page's, events.routing and play.routing; the
tournament pages' socket, tournaments.routing).

Sockets are authenticated by the session cookie (AuthMiddlewareStack) and accepted only from
pages of this site: the Origin must be one of ALLOWED_HOSTS (a page elsewhere cannot open a
socket with the visitor's cookie). ``HERALD_SERVE_STATIC=true`` serves /static/ from the
apps' folders, for a server process without WhiteNoise or runserver (the browser tests').
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "herald.settings")

# Django first: the routes below import models.
django_application = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler  # noqa: E402

from events.routing import websocket_urlpatterns as stream_sockets  # noqa: E402
from herald.warmup import warm_up  # noqa: E402
from play.consumers import start_drawing_processes  # noqa: E402
from play.routing import websocket_urlpatterns as table_sockets  # noqa: E402
from tournaments.routing import websocket_urlpatterns as tournament_sockets  # noqa: E402

http_application = (
    ASGIStaticFilesHandler(django_application)
    if os.environ.get("HERALD_SERVE_STATIC", "").lower() in {"1", "true", "yes"}
    else django_application
)

application = ProtocolTypeRouter(
    {
        "http": http_application,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter([*stream_sockets, *table_sockets, *tournament_sockets]))
        ),
    }
)

warm_up()
start_drawing_processes()
