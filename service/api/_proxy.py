"""nginx in front of gunicorn: the configuration ``serve.py`` generates, nginx started and stopped
with the server, and its log lines relayed to ours.

nginx (Debian's ``nginx-light``) is what meets the clients: it reads every request whole, head
and body, before gunicorn sees it, with an event loop in which a slow, idle, half-open or
never-closing client costs a connection and a buffer, never a thread; it answers the refusals
that come before the app (a head or body that does not arrive in time, a body over the limit,
a target or a header too long, HTTP that is not HTTP) itself, in ``application/problem+json``
with our codes and messages, in the language of the request's ``Accept-Language`` (its first
language we have), with our security headers and, when CORS is on, its headers. It hands the whole
request to gunicorn over a Unix socket in the server's own directory, and buffers the answer, so a
slow reader does not hold a thread either.

The configuration is generated at each start into a fresh private directory (with nginx's pid
file, temporary files and the log socket): nothing is written elsewhere, and no root is needed
(as root, nginx's workers run as the same user rather than ``nobody``).

The access log: nginx writes one JSON line a request to a Unix datagram socket of that directory
(its ``syslog:`` target: a write that would block is dropped, never waited for), and a thread of
the server's main process writes them to stderr or ``PYRAMIDE_ACCESS_LOG`` (``_server._Lines``);
its error log (``error`` and worse) goes the same way.
"""

from __future__ import annotations

import collections
import ctypes
import json
import os
import grp
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

from ..locales import DEFAULT_LANGUAGE, LANGUAGES

from ._http import CORS_EXPOSED_HEADERS, READ_TIMEOUT, REFUSAL_HEADERS, parse_origins
from ._limits import LONG_BODY, REPLAY_SHARE, REPLAY_SLOTS, replay_busy
from ._models import MAX_BODY
from ._problems import MEDIA_TYPE, problem_body

#: The longest request line, and the longest header line, nginx reads (then 414, 431); the app's
#: own limits (4 KiB of target, 8 KiB of headers in all) are lower and answered by the app.
HEAD_LINE = 8192
#: The refusals nginx answers itself: nginx's status → (our code, the status answered, parameters).
REFUSALS: dict[int, tuple[str, int, dict]] = {
    400: ("malformed_request", 400, {}),
    404: ("not_found", 404, {}),  # (its internal locations, asked for from outside)
    405: ("method_not_allowed", 405, {}),  # (TRACE: nginx refuses it before any location)
    408: ("request_timeout", 408, {"seconds": f"{READ_TIMEOUT:g}"}),
    413: ("body_too_large", 413, {"limit": MAX_BODY}),
    414: ("uri_too_long", 414, {"limit": HEAD_LINE}),
    494: ("headers_too_large", 431, {"limit": HEAD_LINE}),
    500: ("internal_error", 500, {}),
    501: ("unsupported_transfer_coding", 501, {}),
    502: ("internal_error", 500, {}),
    503: ("replay_busy", 503, {"seconds": replay_busy().params["seconds"]}),  # (limit_req: long bodies)
    504: ("internal_error", 500, {}),
}


def find_nginx() -> str | None:
    """``PYRAMIDE_NGINX`` (a path; ``off``: none), else ``nginx`` on the PATH or in /usr/sbin."""
    chosen = os.environ.get("PYRAMIDE_NGINX", "").strip()
    if chosen.lower() in ("off", "none", "0", "no"):
        return None
    if chosen:
        return chosen
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin:/usr/local/nginx/sbin")


def _quote(text: str, pattern: bool = False) -> str:
    """``text`` as an nginx single-quoted string; no ``$`` unless a ``pattern`` (a map's key,
    where nginx reads none as a variable)."""
    if "$" in text and not pattern:
        raise ValueError(f"no $ in an nginx string: {text!r}")
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _language_map() -> str:
    """``$pyramide_language``: the first of our languages ``Accept-Language`` names (the app
    weighs the q-values; nginx's refusals take the first tag we have)."""
    alternatives = "|".join(LANGUAGES)
    return (
        "map $http_accept_language $pyramide_language {\n"
        f"    default {DEFAULT_LANGUAGE};\n"
        f"    \"~*^[\\s,]*(?<first>{alternatives})\\b\" $first;\n"
        f"    \"~*[\\s,](?<later>{alternatives})\\b\" $later;\n"
        "}\n"
    )


def _cors_map(origins: tuple[str, ...]) -> str:
    """``$pyramide_cors``: the ``Access-Control-Allow-Origin`` of nginx's refusals, as the app's."""
    lines = ["map $http_origin $pyramide_cors {", "    default '';"]
    if "*" in origins:
        lines.append("    \"~.\" '*';")
    else:
        for origin in origins:
            lines.append(f"    {_quote('~*^' + re.escape(origin) + '/?$', pattern=True)} $http_origin;")
    return "\n".join(lines) + "\n}\n"


def _allow_map() -> str:
    """``$pyramide_allow``: the ``Allow`` of each path of the app, for nginx's own 405 (TRACE)."""
    from . import create_app

    lines = ["map $request_uri $pyramide_allow {", "    default '';"]  # (not $uri: the error page's)
    for rule in create_app().url_map.iter_rules():
        allow = _quote(", ".join(sorted(rule.methods or ())))
        path = rule.rule
        pattern = re.escape(path.split("<", 1)[0]) if "<" in path else re.escape(path) + r"(?:\?|$)"
        key = _quote("~^" + pattern, pattern=True)
        lines.append(f"    {key} {allow};")
    return "\n".join(lines) + "\n}\n"


#: The endpoints whose bodies carry a log or moves to replay (``_app._REPLAYING``).
REPLAYING_PATHS = ("/v1/moves", "/v1/legal-moves", "/v1/describe", "/v1/solve", "/v1/hint", "/v1/replay")


def _above(number: int) -> str:
    """A regular expression of the decimal numbers over ``number`` (no leading zeros).

    >>> import re
    >>> [n for n in (0, 8191, 8192, 8193, 8200, 9000, 10000, 81920) if re.fullmatch(_above(8192), str(n))]
    [8193, 8200, 9000, 10000, 81920]
    """
    digits = str(number)
    options = [f"[1-9]\\d{{{len(digits)},}}"]  # more digits
    for i, digit in enumerate(digits):
        if digit != "9":
            rest = len(digits) - i - 1
            higher = "9" if digit == "8" else f"[{int(digit) + 1}-9]"
            options.append(digits[:i] + higher + (f"\\d{{{rest}}}" if rest else ""))
    return "(?:" + "|".join(options) + ")"


def _long_body_map() -> str:
    r"""``$pyramide_long_body``: the client's address on a request to an endpoint that replays whose
    body may hold a long log: announced over ``LONG_BODY`` bytes however its ``Content-Length`` is
    spelled (leading zeros), or chunked (its length unknown until read); empty (not counted)
    otherwise. ``limit_req`` keys on it.

    >>> import re
    >>> rules = [rule.replace("\\\\", "\\") for rule in re.findall(r"'~\^(.*?)' \$binary_remote_addr", _long_body_map())]
    >>> def long(line): return any(re.match(rule, line) for rule in rules)
    >>> [long(f"/v1/moves {n} ") for n in ("8193", "0008193", "9000", "10000", "8192", "00100", "")]
    [True, True, True, True, False, False, False]
    >>> long("/v1/legal-moves 20000 "), long("/v1/moves  chunked"), long("/healthz  chunked"), long("/healthz 20000 ")
    (True, True, False, False)
    """
    paths = "|".join(re.escape(path) for path in REPLAYING_PATHS)
    announced = _quote(f"~^(?:{paths}) 0*{_above(LONG_BODY)} ", pattern=True)
    chunked = _quote(f"~^(?:{paths})  .", pattern=True)
    return (
        'map "$uri $content_length $http_transfer_encoding" $pyramide_long_body {\n    default \'\';\n'
        f"    {announced} $binary_remote_addr;\n    {chunked} $binary_remote_addr;\n}}\n"
    )


def _refusal_blocks() -> tuple[str, str]:
    """The maps of the refusals' bodies by language, and their named locations."""
    maps, locations = [], []
    headers = {
        "Content-Language": "$pyramide_language",
        **REFUSAL_HEADERS,
        "Access-Control-Allow-Origin": "$pyramide_cors",
        "Access-Control-Expose-Headers": "$pyramide_cors_exposed",
        "Vary": "$pyramide_cors_vary",
    }
    add = "".join(
        f"        add_header {name} {value if value.startswith('$') else _quote(value)} always;\n" for name, value in headers.items()
    )
    for status, (code, answered, params) in REFUSALS.items():
        allow = "        add_header Allow $pyramide_allow always;\n" if status == 405 else ""
        if status == 503:
            allow = f"        add_header Retry-After {params['seconds']} always;\n"
        bodies = "".join(
            f"    {language} {_quote(problem_body(code, answered, language, **params).decode())};\n" for language in LANGUAGES
        )
        maps.append(f"map $pyramide_language $pyramide_problem_{status} {{\n{bodies}}}\n")
        locations.append(
            f"    location = /_pyramide/problem/{status} {{\n        internal;\n"
            f"        default_type {MEDIA_TYPE};\n{add}{allow}"
            f"        return {answered} $pyramide_problem_{status};\n"
            "    }\n"
        )
    return "".join(maps), "".join(locations)


def long_bodies_rate(app_workers: int) -> int:
    """Long bodies a second nginx passes on from one client (``limit_req``, beyond a burst of
    the places it may hold): about half of what the workers' replay processes can replay (a
    10,000-action log takes about 0.12 s), so a flood is refused by nginx, unread, at next to no
    cost, and never holds more than its share."""
    return max(1, app_workers * REPLAY_SLOTS * 4)


def config(directory: Path, host: str, port: int, *, access_log: bool, workers: int = 1, app_workers: int = 1) -> str:
    """The nginx configuration: listening on ``host``:``port``, gunicorn (``app_workers``
    processes) on ``directory``/app.sock.

    Requests that may carry a long log (``_long_body_map``) are let through to gunicorn, from one
    client address, at ``long_bodies_rate`` a second beyond a burst of the replay places the client
    may hold in all the workers (``app_workers`` × ``REPLAY_SHARE``); past that, nginx answers
    ``503 replay_busy`` itself, as the app would, before reading the body: a flood of long logs
    then costs the workers next to nothing (each refusal cost a worker about 0.6 ms of CPU,
    reading the body and answering, some 400 a second under 16 clients). A rate, not a count of
    requests in flight (``limit_conn``): a count is given back by the nginx worker that took it,
    and one killed mid-request never gives it back, so that a client could be refused for good; a
    rate is forgotten as time passes. By address: one client's flood is refused, no other's.
    (Behind another proxy, every client has that proxy's address.) The exact share of each client
    (how many replays it may hold at once) is the app's (``_limits``)."""
    origins = parse_origins(os.environ.get("PYRAMIDE_CORS_ORIGINS"))
    maps, locations = _refusal_blocks()
    user = ""
    if os.geteuid() == 0:  # (else nginx's workers would run as nobody, who cannot reach the socket)
        user = f"user {pwd.getpwuid(os.getuid()).pw_name} {grp.getgrgid(os.getgid()).gr_name};\n"
    log_socket = directory / "log.sock"
    timeout = f"{round(READ_TIMEOUT * 1000)}ms"
    listen = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    access = f"access_log syslog:server=unix:{log_socket},nohostname,tag=access pyramide;" if access_log else "access_log off;"
    return f"""# Generated by pyramide serve (service/api/_proxy.py) at each start; not to be edited.
{user}daemon off;
worker_processes {workers};
worker_rlimit_nofile 16384;
pid {directory}/nginx.pid;
error_log syslog:server=unix:{log_socket},nohostname,tag=error error;

events {{
    worker_connections 8192;
}}

http {{
    server_tokens off;
    client_body_temp_path {directory}/body;
    proxy_temp_path {directory}/proxy;
    fastcgi_temp_path {directory}/fastcgi;
    uwsgi_temp_path {directory}/uwsgi;
    scgi_temp_path {directory}/scgi;

    # A request's head must arrive within the read timeout; its body, with no pause longer than it.
    client_header_timeout {timeout};
    client_body_timeout {timeout};
    send_timeout 30s;
    keepalive_timeout 5s;
    reset_timedout_connection on;
    lingering_time 5s;
    lingering_timeout 1s;
    client_header_buffer_size 1k;
    large_client_header_buffers 4 {HEAD_LINE // 1024}k;
    client_max_body_size {MAX_BODY};
    client_body_buffer_size 64k;  # (a larger body waits in a file of the server's directory)
    ignore_invalid_headers on;

    log_format pyramide escape=json '{{"msec":"$msec","request":"$request","status":"$status",'
        '"bytes":"$body_bytes_sent","seconds":"$request_time","remote":"$remote_addr","upstream":"$upstream_status"}}';
    {access}

{_language_map()}
{_cors_map(origins)}
{_allow_map()}
{_long_body_map()}
    limit_req_zone $pyramide_long_body zone=pyramide_long_bodies:1m rate={long_bodies_rate(app_workers)}r/s;
    limit_req_status 503;
    limit_req_log_level info;  # (not logged: the error log is error and worse)
    map $pyramide_cors $pyramide_cors_exposed {{ '' ''; default {_quote(CORS_EXPOSED_HEADERS)}; }}
    map $pyramide_cors $pyramide_cors_vary {{ '' ''; '*' ''; default 'Origin'; }}
{maps}
    # The one socket three times, never marked down (max_fails=0): a request that meets a worker
    # as it exits (recycled, reloaded, killed: its connection closed or reset) is sent again, up
    # to twice, on a new connection, which another worker takes (proxy_next_upstream below).
    upstream pyramide {{
        server unix:{directory}/app.sock max_fails=0;
        server unix:{directory}/app.sock max_fails=0;
        server unix:{directory}/app.sock max_fails=0;
        keepalive 32;
        keepalive_timeout 4s;
    }}

    server {{
        listen {listen} backlog=4096;
{"".join(f"        error_page {status} ={answered} /_pyramide/problem/{status};" + chr(10) for status, (_, answered, _) in REFUSALS.items())}
        location / {{
            # HTTP/0.9 has no head to answer in (no status, no media type): the connection is
            # closed. (Here, not in the server: a request line nginx refuses has no protocol either,
            # and its refusal's page goes through the server's checks.)
            if ($server_protocol = "") {{
                return 444;
            }}
            # What gunicorn would refuse before reading the headers, refused here in the request's
            # language: a method not of 3 to 20 capitals (and - _), raw bytes outside printable
            # ASCII in the target. (Whatever else gunicorn refuses it answers itself, in our
            # problem+json too: ``_server.Worker``.)
            if ($request_method !~ "^[A-Z_-]{{3,20}}$") {{
                return 400;
            }}
            if ($request_uri ~ "[^\x21-\x7e]") {{
                return 400;
            }}
            limit_req zone=pyramide_long_bodies burst={app_workers * REPLAY_SHARE} nodelay;
            proxy_pass http://pyramide;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $remote_addr;
            # The scheme is nginx's to say, never the client's: gunicorn refuses contradictory ones.
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header X-Forwarded-Protocol "";
            proxy_set_header X-Forwarded-Ssl "";
            proxy_set_header Front-End-Https "";
            proxy_set_header Forwarded "";
            proxy_set_header Expect "";
            proxy_request_buffering on;
            proxy_buffering on;
            proxy_read_timeout 120s;
            # Every endpoint is a pure function of its request (stateless): sending a POST again
            # is safe, so a worker's exit is never a client's error.
            proxy_next_upstream error non_idempotent;
            proxy_next_upstream_tries 3;
            proxy_connect_timeout 5s;
        }}
{locations}    }}
}}
"""


# -- Running it ------------------------------------------------------------------------------------


def _die_with_parent() -> None:
    """In nginx's process, before it runs: it gets SIGTERM if the server dies (Linux)."""
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Proxy:
    """nginx for one server: ``start()`` writes the configuration and starts it (and the log
    relay), ``stop()`` stops it and removes the directory."""

    def __init__(self, nginx: str, directory: Path, host: str, port: int, lines=None, app_workers: int = 1) -> None:
        self.nginx, self.directory, self.host, self.port, self.lines = nginx, directory, host, port, lines
        self.app_workers = app_workers
        self.owner = os.getpid()  # (gunicorn's workers are forks of this process: see ``stop``)
        self.process: subprocess.Popen | None = None
        self.stopping = threading.Event()
        self.failed = False
        self.started = False  # (nginx listens: from then on, its end is reported by the relay)
        self.on_exit = None  # called (in the relay's thread) if nginx ends on its own
        self.errors: collections.deque[str] = collections.deque(maxlen=5)  # its last error lines

    @property
    def app_socket(self) -> str:
        return str(self.directory / "app.sock")

    def start(self) -> None:
        conf = self.directory / "nginx.conf"
        text = config(self.directory, self.host, self.port, access_log=self.lines is not None, app_workers=self.app_workers)
        conf.write_text(text, encoding="utf-8")
        check = subprocess.run([self.nginx, "-t", "-q", "-p", str(self.directory), "-c", str(conf), "-e", "stderr"],
                               capture_output=True, text=True, timeout=30)  # fmt: skip
        if check.returncode != 0:
            raise RuntimeError(f"nginx refused its configuration ({self.nginx}):\n{(check.stderr + check.stdout).strip()}")
        self.log = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.log.bind(str(self.directory / "log.sock"))
        self.log.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        self.log.settimeout(0.2)
        os.chmod(self.directory / "log.sock", 0o666)
        threading.Thread(target=self._relay, name="nginx-log", daemon=True).start()
        # Once running, nginx writes its errors to the log socket; what it cannot send there it
        # would write to its stderr: /dev/null, never a pipe that could fill and stop it.
        self.process = subprocess.Popen(
            [self.nginx, "-p", str(self.directory), "-c", str(conf), "-e", "/dev/null"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=_die_with_parent,
            start_new_session=True,  # (a Ctrl-C stops the server, which stops nginx, in that order)
        )  # fmt: skip
        pid_file = self.directory / "nginx.pid"  # written once nginx listens
        deadline = time.monotonic() + 10
        while not (pid_file.exists() and pid_file.read_text().strip() == str(self.process.pid)):
            if self.process.poll() is not None:
                time.sleep(0.3)  # (its last words through the log socket)
                raise RuntimeError(f"nginx stopped at its start ({self.nginx}):\n" + "\n".join(self.errors))
            if time.monotonic() > deadline:
                self.process.kill()
                raise RuntimeError(f"nginx did not start listening on {self.host}:{self.port} within 10 s")
            time.sleep(0.05)
        self.started = True

    def stop(self) -> None:
        """Stop nginx and remove the directory: in the process that started it only. A gunicorn
        worker is a fork of the server's main process and inherits its stack (``serve.main``'s
        ``finally``): when a worker exits, recycled or reloaded, its ``SystemExit`` unwinds that
        stack too, and must not take the server's socket directory with it."""
        if os.getpid() != self.owner:
            return
        self.stopping.set()
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.directory, ignore_errors=True)

    def _relay(self) -> None:
        """nginx's log lines to ours, until it stops; if it ends on its own, ``on_exit``."""
        while not self.stopping.is_set():
            try:
                datagram = self.log.recv(65536)
            except TimeoutError:
                datagram = None
            except OSError:
                return
            if datagram:
                record = relayed(datagram)
                if record is not None and "message" in record:
                    self.errors.append(record["message"])
                if record is not None and self.lines is not None:
                    self.lines.write(record)
            if self.started and self.process.poll() is not None and not self.stopping.is_set():
                print(f"pyramide serve: nginx stopped ({self.process.returncode})", *self.errors, sep="\n", file=sys.stderr, flush=True)
                self.failed = True
                if self.on_exit is not None:
                    self.on_exit()
                return


def relayed(datagram: bytes) -> dict | None:
    """A syslog datagram of nginx's (``<pri>date tag: message``) as a line of our log.

    >>> relayed(b'<190>Dec  1 16:00:00 access: {"msec":"1764604800.123","request":"GET /healthz?x=1 HTTP/1.1",'
    ...         b'"status":"200","bytes":"15","seconds":"0.004","remote":"127.0.0.1","upstream":"200"}')
    {'time': '2025-12-01T16:00:00.123+00:00', 'method': 'GET', 'path': '/healthz', 'status': 200, 'bytes': 15, 'duration_ms': 4.0, 'remote': '127.0.0.1'}
    >>> relayed(b'<190>Dec  1 16:00:00 access: {"msec":"1764604800.123","request":"","status":"408",'
    ...         b'"bytes":"0","seconds":"3.001","remote":"127.0.0.1","upstream":""}')["by"]
    'nginx'
    """
    text = datagram.decode("utf-8", errors="replace")
    tag, _, message = text.partition(": ")
    if tag.endswith(" access"):
        try:
            fields = json.loads(message)
            method, _, target = fields["request"].partition(" ")
            path = target.rsplit(" ", 1)[0].split("?", 1)[0] if method else ""
            record = {
                "time": datetime.fromtimestamp(float(fields["msec"]), timezone.utc).isoformat(timespec="milliseconds"),
                "method": method or None,
                "path": (path[:512] + "…" if len(path) > 512 else path) or None,
                "status": int(fields["status"]),
                "bytes": int(fields["bytes"]),
                "duration_ms": round(float(fields["seconds"]) * 1000, 2),
                "remote": fields["remote"],
            }
        except (ValueError, KeyError):
            return None
        if not fields.get("upstream"):
            record["by"] = "nginx"  # answered by nginx itself (a refusal), not by the app
        return record
    return {"time": datetime.now(timezone.utc).isoformat(timespec="milliseconds"), "level": "error", "message": message.strip()[:2000]}
