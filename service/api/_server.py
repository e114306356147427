"""The server's own parts around stock gunicorn: the JSON access log (``Logger``, and ``_Lines``,
which nginx's log lines go through too: ``_proxy.py``) and the replacement of a worker grown too
large. ``serve.py`` puts them together.
"""

from __future__ import annotations

import json
import os
import stat
import threading
from datetime import datetime, timezone

from gunicorn import glogging


# -- The access log ------------------------------------------------------------------------------


_ACCESS_LOG = os.environ.get("PYRAMIDE_ACCESS_LOG", "on").strip()
_OFF = ("off", "0", "false", "no", "none")
_STDERR = ("", "on", "1", "true", "yes", "-", "stderr")


class _Lines:
    """One ``write`` a line, to a non-blocking copy of stderr (or to the file ``target``, appended):
    a line is written whole or not at all (pipes write up to 4 KiB atomically, and lines are kept
    shorter), and when the log's reader lags so far that the pipe is full, the line is dropped and
    counted (``dropped`` in the next line) rather than the request waiting."""

    def __init__(self, target: str | None = None) -> None:
        self.target = target
        self.fd: int | None = None
        self.pid = 0
        self.dropped = 0
        self.lock = threading.Lock()

    def _open(self) -> int:
        if self.target:
            return os.open(self.target, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            if stat.S_ISFIFO(os.fstat(2).st_mode):  # a new open file description: its own O_NONBLOCK
                return os.open("/proc/self/fd/2", os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError:
            pass
        return 2

    def write(self, record: dict) -> None:
        with self.lock:
            if self.fd is None or self.pid != os.getpid():
                self.fd, self.pid = self._open(), os.getpid()
            if self.dropped:
                record["dropped"] = self.dropped
            line = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
            try:
                os.write(self.fd, line)
                self.dropped = 0
            except OSError:
                self.dropped += 1


class Logger(glogging.Logger):
    """gunicorn's logger, with the access log as JSON lines: on stderr by default; in a file with
    ``PYRAMIDE_ACCESS_LOG=/path``; none with ``PYRAMIDE_ACCESS_LOG=off``. A line has the time,
    method, path, status, bytes (of the body sent), duration in milliseconds, remote address."""

    enabled = _ACCESS_LOG.lower() not in _OFF
    lines = _Lines(None if _ACCESS_LOG.lower() in _STDERR else _ACCESS_LOG)

    def access(self, resp, req, environ, request_time) -> None:
        status = resp.status_code if getattr(resp, "status_code", None) else resp.status
        self.record(
            environ.get("REQUEST_METHOD"),
            environ.get("PATH_INFO"),
            status,
            getattr(resp, "sent", None),
            request_time.total_seconds(),
            (environ.get("REMOTE_ADDR"), environ.get("REMOTE_PORT")),
        )

    def record(self, method, path, status, sent, seconds: float, remote) -> None:
        if not self.enabled:
            return
        if isinstance(status, str):
            status = int(status.split()[0]) if status[:3].isdigit() else status
        self.lines.write({
            "time": datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
            "method": method,
            "path": path if path is None or len(path) <= 512 else path[:512] + "…",
            "status": status,
            "bytes": sent,
            "duration_ms": round(seconds * 1000, 2),
            "remote": remote[0] if isinstance(remote, tuple) and remote else remote,
        })  # fmt: skip


def rss_mb() -> float | None:
    """This process's resident memory, in MiB (Linux; None elsewhere)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return None


def recycle_when_large(limit_mb: float):
    """A ``post_request`` hook: a worker whose memory has grown past ``limit_mb`` finishes its
    requests and is replaced by a fresh one (gunicorn's own ``max_requests`` mechanism)."""

    def post_request(worker, req, environ, resp) -> None:
        size = rss_mb()
        if size is not None and size > limit_mb and worker.alive:
            worker.log.warning("worker %s at %.0f MiB (over %.0f): replaced after its requests", worker.pid, size, limit_mb)
            worker.alive = False

    return post_request
