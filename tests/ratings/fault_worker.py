"""A Celery worker whose broker hands unacknowledged tasks out again within seconds.

Fault tests run it (``python -m tests.ratings.fault_worker <worker options>``) so that a task
whose worker was killed is redelivered to the next worker quickly, instead of after the
production visibility timeout of an hour.
"""

from __future__ import annotations

import os
import sys

from herald.celery import app


def main() -> None:
    app.conf.broker_transport_options = {
        "visibility_timeout": float(os.environ.get("FAULT_VISIBILITY_TIMEOUT", "5")),
        "unacked_restore_interval": 1,
        "unacked_restore_throttle": 1,
    }
    app.worker_main(["worker", *sys.argv[1:]])


if __name__ == "__main__":
    main()
