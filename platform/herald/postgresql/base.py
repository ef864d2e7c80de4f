"""Django's PostgreSQL backend, with a persistent connection's health checked on its socket.

With ``conn_health_checks``, Django checks a persistent connection before each request's first
query by running ``SELECT 1``: a round trip to PostgreSQL on every request, about a twentieth
of a move's CPU in the web process, and a statement for PostgreSQL to run. This backend asks
the connection's socket instead. An idle connection has nothing to read, so anything readable
means PostgreSQL closed it (a restart, ``pg_terminate_backend``, an idle timeout: the server
sends its reason, then closes) or sent something unasked; either way the connection is
dropped and the request opens a new one. A connection psycopg already knows is closed or
broken is unusable too. What a socket cannot tell, a peer gone without a word, ``SELECT 1``
would only have found after the network's own timeout.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base


class DatabaseWrapper(base.DatabaseWrapper):
    """PostgreSQL, as Django's backend, with :meth:`is_usable` answered by the socket."""

    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        try:
            poller = select.poll()
            poller.register(connection.fileno(), select.POLLIN)
            return not poller.poll(0)
        except (OSError, ValueError):
            return False
