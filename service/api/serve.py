"""``make serve`` and ``pyramide serve``: the API on ``HOST``:``PORT`` (127.0.0.1:8000 by default).

Debian's nginx in front (``_proxy.py``: a configuration generated at each start, no root needed)
reads every request whole before it reaches stock gunicorn, so that slow, idle, half-open or
never-closing clients cost nginx a connection, never a thread of ours, and answers the refusals
that come before the app (408, 413, 414, 431, 400, 501) in problem+json itself. gunicorn, with
its threaded worker as it comes, listens on a Unix socket that only nginx reaches:
``WEB_CONCURRENCY`` processes (default: one per core, the work being CPU-bound) of
``PYRAMIDE_THREADS`` threads (default 16). The solver endpoints take one of the worker's
``PYRAMIDE_SOLVER_SLOTS`` (default 1) or get ``503`` at once, and stop after
``PYRAMIDE_SOLVE_SECONDS`` (``_limits.py``). A worker whose memory has grown past
``PYRAMIDE_MAX_RSS_MB`` (default 200) is replaced after its request, and every worker after
``PYRAMIDE_MAX_REQUESTS`` requests (default 20,000, plus up to 10 % jitter). The access log is
JSON lines on stderr (``PYRAMIDE_ACCESS_LOG``: ``off``, or a file).

Without nginx (not installed, or ``PYRAMIDE_NGINX=off``), gunicorn listens on ``HOST``:``PORT``
itself, after a warning: it works, but a few slow clients can then stall it (docs/server.md has
the measurements). ``PYRAMIDE_NGINX`` may also name the nginx program to run.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import socket
import sys
import tempfile
from pathlib import Path

from gunicorn.app.base import BaseApplication

from .. import __version__
from ..engine import core_compiled

from . import create_app
from ._limits import shared
from ._proxy import Proxy, find_nginx
from ._server import HEAD_LIMIT, Logger, Worker, recycle_when_large

NO_NGINX = (
    "pyramide serve: nginx not found ({why}): serving with gunicorn alone, which slow or hostile clients "
    "can stall (docs/server.md). Install it (Debian: apt-get install nginx-light), or name it with PYRAMIDE_NGINX."
)


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


def _address() -> tuple[str, int]:
    return os.environ.get("HOST", "127.0.0.1"), int(os.environ.get("PORT", "8000"))


def _announce() -> None:
    host, port = _address()
    base = f"http://{host}:{port}"
    core = "compiled" if core_compiled() else "interpreted (make compiled: the same answers, faster)"
    print(f"Pyramide API {__version__} listening on {base}  —  web client: {base}/  —  docs explorer: {base}/docs  —  solver core: {core}", flush=True)


def port_in_use(host: str, port: int) -> str | None:
    """What to say when ``host``:``port`` is taken (another server on it), before anything starts
    (nginx would otherwise print its bind errors again and again), or None."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # (as servers bind: a port in TIME_WAIT is free)
        try:
            probe.bind((host, port))
        except OSError as error:
            if error.errno != errno.EADDRINUSE:
                return None  # (another problem, the server's own start says it)
            return (
                f"pyramide serve: {host}:{port} is in use (another server is listening there): stop it, "
                f"or serve on another port: PORT={port + 1} make serve (pyramide serve --port {port + 1})"
            )
    return None


def _worker_started(worker) -> None:
    """In each worker: a thread waiting for the GIL gets it after ``PYRAMIDE_SWITCH_MS`` (default
    1 ms, Python's is 5) rather than after a whole slice of a solver thread; its replay processes
    are started (``_limits``)."""
    sys.setswitchinterval(float(os.environ.get("PYRAMIDE_SWITCH_MS", "1")) / 1000)
    from ._limits import start_replay_pool

    start_replay_pool()


def options(bind: str | None = None) -> dict:
    """gunicorn's settings: on ``bind`` (``unix:PATH`` behind nginx; ``HOST:PORT`` alone)."""
    host, port = _address()
    workers = int(os.environ.get("WEB_CONCURRENCY", os.cpu_count() or 1))
    max_requests = int(os.environ.get("PYRAMIDE_MAX_REQUESTS", "20000"))
    return {
        "bind": bind or f"{host}:{port}",
        "workers": workers,
        "worker_class": Worker,  # (gthread, its refusals in problem+json)
        "threads": int(os.environ.get("PYRAMIDE_THREADS", "16")),
        "worker_connections": 1000,
        "keepalive": 10,  # longer than nginx keeps its idle connections to gunicorn (4 s)
        "timeout": 30,  # a worker whose main loop is silent this long is killed and replaced
        "graceful_timeout": 10,
        "max_requests": max_requests,
        "max_requests_jitter": max_requests // 10,
        "post_request": recycle_when_large(float(os.environ.get("PYRAMIDE_MAX_RSS_MB", "200"))),
        "post_worker_init": _worker_started,
        "preload_app": True,
        "when_ready": lambda arbiter: _announce(),
        "logger_class": Logger,
        "loglevel": "warning",
        # nginx's limits are lower (8 KiB a line): these are not reached behind it.
        "limit_request_line": HEAD_LIMIT,
        "limit_request_fields": 32768,
        "limit_request_field_size": HEAD_LIMIT,
    }


def main(app=None) -> None:
    """Serve ``app`` (the API unless another WSGI app is given: the benchmark's echo).

    The server's own directory (``/tmp/pyramide-…``: nginx's configuration and sockets, the
    places its workers share, ``_limits.Places``) is made here and removed by this process alone,
    when it stops: a worker is a fork of this process and leaves through the same stack when it
    exits (recycled, reloaded), so every cleanup here checks whose it is."""
    host, port = _address()
    taken = port_in_use(host, port) if port else None
    if taken is not None:
        print(taken, file=sys.stderr, flush=True)
        sys.exit(1)
    nginx = find_nginx()
    directory = Path(tempfile.mkdtemp(prefix="pyramide-"))
    owner = os.getpid()
    settings = options(bind=None if nginx is None else f"unix:{directory / 'app.sock'}")
    shared.place(str(directory), settings["workers"])
    if nginx is None:
        why = "PYRAMIDE_NGINX=off" if os.environ.get("PYRAMIDE_NGINX") else "not on the PATH nor in /usr/sbin"
        print(NO_NGINX.format(why=why), file=sys.stderr, flush=True)
        try:
            Server(settings, app).run()
        finally:
            if os.getpid() == owner:
                shutil.rmtree(directory, ignore_errors=True)
        return
    proxy = Proxy(nginx, directory, host, port, lines=Logger.lines if Logger.enabled else None, app_workers=settings["workers"])
    Logger.enabled = False  # (nginx logs every request, its own refusals included)

    def ready(arbiter) -> None:
        try:
            proxy.start()
        except (OSError, RuntimeError) as error:
            proxy.stop()
            raise SystemExit(f"pyramide serve: {error}") from None
        proxy.on_exit = lambda: os.kill(os.getpid(), signal.SIGTERM)
        _announce()

    settings["when_ready"] = ready
    settings["on_exit"] = lambda arbiter: proxy.stop()
    try:
        Server(settings, app).run()
    finally:
        if os.getpid() == owner:  # (``Proxy.stop`` checks the same)
            proxy.stop()
            if proxy.failed:  # (nginx stopped on its own: gunicorn was stopped after it)
                sys.exit(1)


if __name__ == "__main__":
    main()
