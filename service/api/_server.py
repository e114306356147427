"""The server's own parts around stock gunicorn: the JSON access log (``Logger``, and ``_Lines``,
which nginx's log lines go through too: ``_proxy.py``), the replacement of a worker grown too
large, and gunicorn's own refusals in problem+json (``Worker``). ``serve.py`` puts them together.
"""

from __future__ import annotations

import json
import os
import stat
import threading
from datetime import datetime, timezone
from http import HTTPStatus

from gunicorn import glogging
from gunicorn.http import errors as http_errors
from gunicorn.workers.gthread import ThreadWorker
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from ..locales import DEFAULT_LANGUAGE, LANGUAGES

from ._http import REFUSAL_HEADERS
from ._problems import MEDIA_TYPE, problem_body


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


# -- gunicorn's own refusals -----------------------------------------------------------------------


#: What gunicorn refuses before the app sees the request, as our code and status; any other
#: parse error is a ``400 malformed_request`` (a head nginx let through that gunicorn will not
#: read: a method of 1–2 or 21+ letters, raw non-ASCII bytes in the target, a control byte in a
#: header value, two ``Content-Type`` headers…), and anything else a ``500 internal_error``.
_REFUSED: tuple[tuple[type, str, int], ...] = (
    # the app's own faults first (a header it tried to send; gunicorn misconfigured): a 500, as stock gunicorn's
    (http_errors.InvalidResponseHeader, "internal_error", 500),
    (http_errors.InvalidResponseHeaderName, "internal_error", 500),
    (http_errors.ConfigurationProblem, "internal_error", 500),
    (http_errors.LimitRequestLine, "uri_too_long", 414),
    (http_errors.LimitRequestHeaders, "headers_too_large", 431),
    (http_errors.ExpectationFailed, "expectation_failed", 417),
    (http_errors.UnsupportedTransferCoding, "unsupported_transfer_coding", 501),
    (http_errors.ParseException, "malformed_request", 400),
)
#: gunicorn's limits on a request line and on a header line (``serve.options``): nginx's (8 KiB) and
#: the app's are lower, so behind nginx they are not reached.
HEAD_LIMIT = 8190


def refused_as(exc: BaseException) -> tuple[str, int]:
    """Our code and status for what gunicorn refused with ``exc``."""
    return next(((code, status) for kind, code, status in _REFUSED if isinstance(exc, kind)), ("internal_error", 500))


def refusal(exc: BaseException, headers: list | None) -> bytes:
    """The whole answer (head and body) to a request gunicorn refused with ``exc``, in the language
    its ``Accept-Language`` asks for when gunicorn had read its headers (``headers``), else ours."""
    code, status = refused_as(exc)
    accept = next((value for name, value in headers or () if name.upper() == "ACCEPT-LANGUAGE"), None)
    language = parse_accept_header(accept, LanguageAccept).best_match(LANGUAGES, default=DEFAULT_LANGUAGE) if accept else DEFAULT_LANGUAGE
    body = problem_body(code, status, language, limit=HEAD_LIMIT)
    head = {
        "Content-Type": MEDIA_TYPE,
        "Content-Length": str(len(body)),
        "Content-Language": language,
        "Connection": "close",
        **REFUSAL_HEADERS,
    }
    lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}"] + [f"{name}: {value}" for name, value in head.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


class Worker(ThreadWorker):
    """gunicorn's threaded worker as it comes, but for its refusals: a request it will not parse is
    answered as the app answers, in problem+json with our code, ``Content-Language``, the security
    headers and ``Cache-Control: no-store``, not in gunicorn's HTML page. Behind nginx these are the
    heads nginx accepts and gunicorn does not; alone, every refusal of gunicorn's."""

    def handle_error(self, req, client, addr, exc) -> None:
        req = req or getattr(exc, "req", None)  # (a header refused: gunicorn keeps the request on it)
        answer, (_, status) = refusal(exc, getattr(req, "headers", None)), refused_as(exc)
        if status < 500:
            self.log.warning("Invalid request from ip=%s: %s", (addr or ("",))[0], exc)
        else:
            self.log.exception("Error handling request")
        record = getattr(self.log, "record", None)  # (our Logger: the access log's line, as the app's requests have)
        if record is not None:
            record(getattr(req, "method", None), getattr(req, "path", None), status, len(answer.partition(b"\r\n\r\n")[2]), 0.0, addr)
        try:
            client.sendall(answer)
        except OSError:
            self.log.debug("Failed to send the refusal.")
