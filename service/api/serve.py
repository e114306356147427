"""``make serve``: the API under gunicorn, on ``HOST``:``PORT`` (127.0.0.1:8000 by default).

gunicorn with its threaded worker, hardened in ``_server.py``: ``WEB_CONCURRENCY`` processes
(default: one per core, the work being CPU-bound), each with a poller that reads every request
whole before one of its ``PYRAMIDE_THREADS`` threads (default 16) answers it, so that slow, idle
or half-open clients never hold a thread; a request has ``PYRAMIDE_READ_TIMEOUT`` seconds from
its first byte to arrive. The solver endpoints take one of the worker's
``PYRAMIDE_SOLVER_SLOTS`` (default 1) or get ``503`` at once, and stop after
``PYRAMIDE_SOLVE_SECONDS`` (``_limits.py``). A worker whose memory has grown past
``PYRAMIDE_MAX_RSS_MB`` (default 200) is replaced after its request, and every worker after
``PYRAMIDE_MAX_REQUESTS`` requests (default 20,000, plus up to 10 % jitter). The access log is
JSON lines on stderr (``PYRAMIDE_ACCESS_LOG``: ``off``, or a file). ``docs/server.md`` has the
reasons and the measurements.
"""

from __future__ import annotations

import os
import sys

from gunicorn.app.base import BaseApplication

from .. import __version__

from . import create_app
from ._server import Logger, Worker, recycle_when_large


class Server(BaseApplication):
    """gunicorn running ``app`` (the Pyramide API unless another WSGI app is given)."""

    def __init__(self, options: dict, app=None) -> None:
        self.options = options
        self.app = app
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self):
        return self.app or create_app()


def _ready(server) -> None:
    host, port = server.cfg.bind[0].rsplit(":", 1)
    base = f"http://{host}:{port}"
    print(f"Pyramide API {__version__} listening on {base}  —  docs explorer: {base}/docs", flush=True)


def _worker_started(worker) -> None:
    """In each worker: a thread waiting for the GIL gets it after ``PYRAMIDE_SWITCH_MS`` (default
    1 ms, Python's is 5) rather than after a whole slice of a solver thread."""
    sys.setswitchinterval(float(os.environ.get("PYRAMIDE_SWITCH_MS", "1")) / 1000)


def options() -> dict:
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "8000"))
    workers = int(os.environ.get("WEB_CONCURRENCY", os.cpu_count() or 1))
    max_requests = int(os.environ.get("PYRAMIDE_MAX_REQUESTS", "20000"))
    return {
        "bind": f"{host}:{port}",
        "workers": workers,
        "worker_class": Worker,
        "threads": int(os.environ.get("PYRAMIDE_THREADS", "16")),
        "worker_connections": 1000,
        "keepalive": 5,
        "timeout": 30,  # a worker whose main loop is silent this long is killed and replaced
        "graceful_timeout": 10,
        "max_requests": max_requests,
        "max_requests_jitter": max_requests // 10,
        "post_request": recycle_when_large(float(os.environ.get("PYRAMIDE_MAX_RSS_MB", "200"))),
        "post_worker_init": _worker_started,
        "preload_app": True,
        "when_ready": _ready,
        "logger_class": Logger,
        "loglevel": "warning",
        # gunicorn's limits, above the app's (4 KiB target, 8 KiB of headers), so that the app
        # answers most oversized requests in the client's language; past these, the worker
        # answers (problem+json too, in English when it could not read the headers).
        "limit_request_line": 8190,
        "limit_request_fields": 100,
        "limit_request_field_size": 8190,
    }


def main() -> None:
    Server(options()).run()


if __name__ == "__main__":
    main()
