"""``make serve``: the API under gunicorn, on ``HOST``:``PORT`` (127.0.0.1:8000 by default).

Why gunicorn: the requests are short and CPU-bound (parse, check, play, render) with no I/O to
wait on, which is what a pre-fork pool of synchronous workers does best; it is the most widely
deployed Python WSGI server, pure Python (nothing to compile on a fresh machine), and restarts a
worker that dies. ``WEB_CONCURRENCY`` sets the number of workers; the default is one per core,
since the work is CPU-bound (measured with ``make bench``: 2 workers on 2 cores serve more than 5).
"""

from __future__ import annotations

import os

from gunicorn.app.base import BaseApplication

import service

from . import create_app


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
    print(f"Pyramide API {service.__version__} listening on {base}  —  docs explorer: {base}/docs", flush=True)


def options() -> dict:
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "8000"))
    workers = int(os.environ.get("WEB_CONCURRENCY", os.cpu_count() or 1))
    return {
        "bind": f"{host}:{port}",
        "workers": workers,
        "worker_class": "sync",
        "preload_app": True,
        "when_ready": _ready,
        "accesslog": os.environ.get("ACCESS_LOG") or None,
        "loglevel": "warning",
        "limit_request_line": 4094,
    }


def main() -> None:
    Server(options()).run()


if __name__ == "__main__":
    main()
