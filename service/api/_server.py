"""gunicorn's threaded worker, hardened for clients that are slow, half-open or hostile, and a JSON
access log. ``serve.py`` puts them together.

- **No thread for a connection until its request is whole.** The worker's poller (its main
  thread) reads each request as it arrives, without blocking, and hands it to a thread only when
  it is whole (head, and body up to 64 KiB); gunicorn's own ``gthread`` gives every new
  connection a thread at once, for up to 5 s, and reads the request in it. So idle, half-open
  and slow connections cost a file descriptor and a small buffer, never a thread: they cannot
  take the threads that answer the others. Idle connections are closed after ``keepalive``
  seconds.
- **A deadline for each request.** From its first byte, a request has ``PYRAMIDE_READ_TIMEOUT``
  seconds (default 10) to arrive whole, however it trickles in; then its thread answers
  ``408 request_timeout`` (the worker when the head is not whole, the app when the body is
  not: ``_http.BufferedBody``). Answers have ``PYRAMIDE_WRITE_TIMEOUT`` seconds (default 30) to
  be sent.
- **problem+json for gunicorn's own errors** (a request line or headers over its limits, broken
  HTTP), in the language of the request's ``Accept-Language``.
- **A JSON access log** (``Logger``): one line a request on stderr, never blocking a request.
"""

from __future__ import annotations

import errno
import json
import os
import re
import selectors
import socket
import stat
import threading
import time
from datetime import datetime, timezone
from functools import partial

from gunicorn import glogging
from gunicorn.http import errors as http_errors
from gunicorn.workers.gthread import TConn, ThreadWorker
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from ..locales import DEFAULT_LANGUAGE, LANGUAGES

from ._http import _API_CSP, _SECURITY, READ_TIMEOUT
from ._problems import MEDIA_TYPE, problem_body

WRITE_TIMEOUT = float(os.environ.get("PYRAMIDE_WRITE_TIMEOUT", "30"))
#: The most the poller holds of a request's head, and of its body, before handing it to a thread
#: anyway (whose parser and app then refuse it: 414, 431, 413).
_MAX_HEAD = 16 * 1024
_MAX_BODY = 64 * 1024
_CONTENT_LENGTH = re.compile(rb"\r\ncontent-length:[ \t]*(\d+)")
_TRANSFER_ENCODING = re.compile(rb"\r\ntransfer-encoding:([^\r\n]*)")
_EXPECT = re.compile(rb"\r\nexpect:([^\r\n]*)")
_ACCEPT_LANGUAGE = re.compile(rb"\r\naccept-language:[ \t]*([^\r\n]{1,200})", re.IGNORECASE)
_REASONS = {400: "Bad Request", 408: "Request Timeout", 414: "URI Too Long", 417: "Expectation Failed",
            431: "Request Header Fields Too Large", 500: "Internal Server Error", 501: "Not Implemented"}  # fmt: skip


class RequestTimeout(Exception):
    """The request did not arrive whole within ``READ_TIMEOUT`` seconds of its first byte."""


class _Socket(socket.socket):
    """A client socket with the bytes of its request that the poller read ahead (``buffer``,
    served first), whose reads stop at ``deadline`` (``time.monotonic()``), and whose writes have
    ``WRITE_TIMEOUT`` seconds."""

    deadline: float | None = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.buffer = bytearray()
        self.head = b""  # the start of the request handed to a thread (for its language)
        self.restart()

    def restart(self) -> None:
        """A new request starts at the buffer's start."""
        self.head_end = -1  # where the request's head ends, once seen
        self.scanned = 0  # how far the buffer was searched for it
        self.wanted: int | None = None  # the whole request's length, once known (None: chunked)
        self.chunk_at = 0  # chunked: where the next chunk's size line starts
        self.refusal: Exception | None = None  # raised by the reads past the buffer
        self.continued = False  # ``100 Continue`` was sent from the poller

    def recv(self, size: int, flags: int = 0) -> bytes:
        if self.buffer:
            data = bytes(self.buffer[:size])
            del self.buffer[:size]
            return data
        if self.refusal is not None:
            raise self.refusal
        if self.deadline is not None:
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("the request did not arrive in time")
            self.settimeout(remaining)
        return super().recv(size, flags)

    def sendall(self, data, flags: int = 0) -> None:
        self.settimeout(WRITE_TIMEOUT)
        return super().sendall(data, flags)

    def send(self, data, flags: int = 0) -> int:
        self.settimeout(WRITE_TIMEOUT)
        return super().send(data, flags)

    def sendfile(self, file, offset: int = 0, count: int | None = None) -> int:
        self.settimeout(WRITE_TIMEOUT)
        return super().sendfile(file, offset, count)

    def complete(self) -> bool:
        """Whether the buffer holds a whole request: its head, and its body by its
        ``Content-Length`` or to its last chunk. Or whether it is to be handed to a thread anyway,
        for the parser or the app to refuse it at once: its head over ``_MAX_HEAD`` (431, nothing
        more read), its body announced or found over ``_MAX_BODY`` (413), its framing broken (400).
        Each byte is searched once."""
        buffer = self.buffer
        if self.head_end < 0:
            found = buffer.find(b"\r\n\r\n", max(0, self.scanned - 3))
            if found < 0:
                self.scanned = len(buffer)
                if len(buffer) > _MAX_HEAD:
                    self.refusal = http_errors.LimitRequestHeaders("the request head is too large")
                    return True
                return False
            self.head_end = self.chunk_at = found + 4
            head = bytes(buffer[:found]).lower()
            codings = [c.strip(b" \t") for value in _TRANSFER_ENCODING.findall(head) for c in value.split(b",")]
            length = _CONTENT_LENGTH.search(head)
            if codings and (codings[-1] != b"chunked" or length):
                return True  # refused by the parser
            self.wanted = None if codings else self.head_end + (int(length.group(1)) if length else 0)
            if self.wanted is not None and self.wanted - self.head_end > _MAX_BODY:
                return True  # refused by the app without reading the body
            expect = _EXPECT.search(head)
            if expect:
                body_coming = self.wanted is None or self.wanted > self.head_end
                if expect.group(1).strip() != b"100-continue" or not body_coming or not head.split(b"\r\n", 1)[0].endswith(b"http/1.1"):
                    return True  # refused by the parser, or nothing to wait for
                try:  # the client waits for this before sending its body
                    socket.socket.send(self, b"HTTP/1.1 100 Continue\r\n\r\n")
                    self.continued = True
                except OSError:
                    return True
        if self.wanted is not None:
            return len(buffer) >= self.wanted
        return self.chunked_complete()

    def chunked_complete(self) -> bool:
        buffer = self.buffer
        while True:
            if len(buffer) - self.head_end > _MAX_BODY + 1024:
                return True  # over the limit: refused by the app, from the buffer
            line_end = buffer.find(b"\r\n", self.chunk_at)
            if line_end < 0:
                return len(buffer) - self.chunk_at > 1024  # (a size line that long is refused)
            try:
                size = int(bytes(buffer[self.chunk_at : line_end]).split(b";", 1)[0].strip(b" \t"), 16)
            except ValueError:
                return True  # refused by the parser
            if size == 0:  # the last chunk: then trailers, up to an empty line
                return buffer.find(b"\r\n\r\n", line_end) >= 0 or len(buffer) - line_end > _MAX_HEAD
            after = line_end + 2 + size + 2
            if len(buffer) < after:
                return False
            self.chunk_at = after


class _Parser:
    """gunicorn's request parser, its read timeouts raised as ``RequestTimeout`` (so that the
    worker answers them) rather than as socket errors (which it closes without a word)."""

    def __init__(self, parser) -> None:
        self.parser = parser

    def __iter__(self):
        return self

    def __next__(self):
        try:
            request = next(self.parser)
        except TimeoutError:
            raise RequestTimeout() from None
        sock = self.parser.unreader.sock
        if sock.continued:  # (sent already, from the poller)
            request._expected_100_continue = False
        return request

    def __getattr__(self, name: str):
        return getattr(self.parser, name)


class _Conn(TConn):
    sock: _Socket

    def init(self) -> None:
        """Before each request of the connection (gunicorn calls it then)."""
        super().init()
        if self.sock.deadline is None:  # (a request the poller did not see begin)
            self.sock.deadline = time.monotonic() + READ_TIMEOUT
        if not isinstance(self.parser, _Parser):
            self.parser = _Parser(self.parser)


def _language(req, head: bytes = b"") -> str:
    """The language of the request's ``Accept-Language``: from its parsed headers, else from the
    bytes the poller read (gunicorn refused the request before parsing all of it)."""
    value = next((value for name, value in getattr(req, "headers", None) or () if name.upper() == "ACCEPT-LANGUAGE"), None)
    if value is None:
        found = _ACCEPT_LANGUAGE.search(head)
        value = found.group(1).decode("latin-1") if found else None
    if not value:
        return DEFAULT_LANGUAGE
    return parse_accept_header(value, LanguageAccept).best_match(LANGUAGES, default=DEFAULT_LANGUAGE)


def _problem_of(exc: BaseException, cfg) -> tuple[str, int, dict]:
    """The problem gunicorn's error ``exc`` is: its code, status and message parameters."""
    if isinstance(exc, RequestTimeout):
        return "request_timeout", 408, {"seconds": f"{READ_TIMEOUT:g}"}
    if isinstance(exc, http_errors.LimitRequestLine):
        return "uri_too_long", 414, {"limit": cfg.limit_request_line}
    if isinstance(exc, http_errors.LimitRequestHeaders):
        return "headers_too_large", 431, {"limit": cfg.limit_request_field_size}
    if isinstance(exc, http_errors.UnsupportedTransferCoding):
        return "unsupported_transfer_coding", 501, {}
    if isinstance(exc, http_errors.ExpectationFailed):
        return "expectation_failed", 417, {}
    if isinstance(exc, (http_errors.InvalidChunkSize, http_errors.ChunkMissingTerminator, http_errors.InvalidChunkExtension)):
        return "malformed_body", 400, {}
    server_side = (http_errors.InvalidResponseHeader, http_errors.InvalidResponseHeaderName, http_errors.ConfigurationProblem)
    if isinstance(exc, http_errors.ParseException) and not isinstance(exc, server_side):
        return "malformed_request", 400, {}
    return "internal_error", 500, {}


class Worker(ThreadWorker):
    """gunicorn's ``gthread`` worker, with the changes the module describes. A connection is in
    one of three places: waiting for a request in the poller (``pending_conns`` when new,
    ``keepalived_conns`` after an answer: closed after ``keepalive`` seconds of silence), having a
    request read in the poller (``reading``: handed to a thread when whole, or at its deadline
    to be answered 408), or in a thread (parsed and answered)."""

    def init_process(self) -> None:
        self.reading: dict[_Conn, float] = {}
        self.next_sweep = 0.0
        super().init_process()

    def accept(self, listener) -> None:
        try:
            client, address = listener.accept()
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        sock = _Socket(fileno=client.detach())
        conn = _Conn(self.cfg, sock, address, listener.getsockname())  # (non-blocking)
        conn.timeout = time.monotonic() + self.cfg.keepalive  # as gunicorn's deferred connections
        self.pending_conns.append(conn)
        self.poller.register(sock, selectors.EVENT_READ, partial(self.on_data, conn))

    def on_client_socket_readable(self, conn, client) -> None:
        """A kept-alive connection has a new request coming: read it here too."""
        self.keepalived_conns.remove(conn)
        self.poller.modify(client, selectors.EVENT_READ, partial(self.on_data, conn))
        conn.sock.deadline = self.reading[conn] = time.monotonic() + READ_TIMEOUT
        self.on_data(conn, client)

    def on_data(self, conn: _Conn, _client=None) -> None:
        sock = conn.sock
        try:
            data = socket.socket.recv(sock, 65536)  # (non-blocking)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if conn not in self.reading:  # its first bytes
            try:
                self.pending_conns.remove(conn)
            except ValueError:
                pass
        if not data and sock.buffer:  # the client stopped sending: its request is all there is
            self.dispatch(conn)
            return
        if not data:  # closed by the client
            self.reading.pop(conn, None)
            self.poller.unregister(sock)
            self.nr_conns -= 1
            conn.close()
            return
        if sock.deadline is None:
            sock.deadline = time.monotonic() + READ_TIMEOUT
        sock.buffer += data
        if sock.complete():
            self.dispatch(conn)
        else:
            self.reading[conn] = sock.deadline

    def dispatch(self, conn: _Conn) -> None:
        """To a thread: the request is whole, or has run out of time (the thread answers 408)."""
        self.reading.pop(conn, None)
        self.poller.unregister(conn.sock)
        conn.sock.head = bytes(conn.sock.buffer[:_MAX_HEAD])
        conn.data_ready = True
        self.enqueue_req(conn)

    def murder_pending(self) -> None:
        super().murder_pending()
        now = time.monotonic()
        if self.reading and now >= self.next_sweep:
            self.next_sweep = now + 0.2
            for conn, deadline in list(self.reading.items()):
                if deadline <= now:
                    self.dispatch(conn)

    def _cap_keepalive(self, deadline: float) -> None:
        """The worker is stopping (replaced, or the server stopping): its idle connections are
        closed, and its requests still arriving answered, by ``deadline`` (in 2 s) at the latest,
        so that it exits soon and its replacement starts."""
        super()._cap_keepalive(deadline)
        for conn in self.pending_conns:  # (all capped alike: the deque stays in order)
            conn.timeout = min(conn.timeout, deadline)
        for conn, at in self.reading.items():
            self.reading[conn] = conn.sock.deadline = min(at, deadline)

    def finish_request(self, conn: _Conn, fs) -> None:
        sock = conn.sock
        sock.deadline = None
        sock.restart()  # (its request is answered: what comes next is a new one)
        keep = self.alive and not fs.cancelled() and fs.exception() is None and fs.result() is True
        if keep and sock.buffer and not conn.parser.unreader.buf.getvalue():
            # the next request (pipelined) is partly read ahead here: read the rest in the poller
            sock.setblocking(False)
            sock.deadline = time.monotonic() + READ_TIMEOUT
            sock.restart()
            if sock.complete():
                sock.head = bytes(sock.buffer[:_MAX_HEAD])
                self.enqueue_req(conn)
            else:
                self.reading[conn] = sock.deadline
                self.poller.register(sock, selectors.EVENT_READ, partial(self.on_data, conn))
            return
        super().finish_request(conn, fs)

    def handle_error(self, req, client, addr, exc) -> None:
        code, status, params = _problem_of(exc, self.cfg)
        if status >= 500:
            self.log.exception("Error handling request %s", getattr(req, "uri", "(no URI read)"))
        language = _language(req, getattr(client, "head", b""))
        body = problem_body(code, status, language, **params)
        head = [
            f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}",
            f"Content-Type: {MEDIA_TYPE}",
            f"Content-Length: {len(body)}",
            f"Content-Language: {language}",
            "Cache-Control: no-store",
            f"Content-Security-Policy: {_API_CSP}",
            *(f"{name}: {value}" for name, value in _SECURITY.items()),
            "Connection: close",
        ]
        started = time.monotonic()
        sent = 0
        try:
            client.settimeout(2)
            socket.socket.sendall(client, ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
            sent = len(body)
        except Exception:
            self.log.debug("Failed to send error message.")
        if isinstance(self.log, Logger):
            self.log.record(getattr(req, "method", None), getattr(req, "path", None), status, sent, time.monotonic() - started, addr)


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
