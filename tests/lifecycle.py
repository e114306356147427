"""A steady load on a real server while its processes come and go, shared by
``tests/server/test_server_lifecycle.py`` (short, in ``make test``) and ``tests/soak.py`` (``make soak``).

``Load`` keeps ``clients`` kept-alive connections busy, each sending in turn ``GET /healthz``,
``POST /v1/moves`` (a draw on the documents' deal, its answer checked), ``GET /v1/rules`` and
``POST /v1/legal-moves``, and counts every answer by what it was: ``200`` for a right answer, or
the status and code of anything else (``0``: no answer; ``"wrong"``: a 200 whose body is not the
answer). Every loop is bounded in time; nothing leaves 127.0.0.1.

``Workers`` watches gunicorn's master: the pids of its workers, sampled, so that a test can count
the workers that came and went (recycled, reloaded, killed).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import threading
import time
from collections import Counter
from pathlib import Path

from service.engine import DOCUMENTS_LAYOUT, GameState
from tests.attacks import Clients

_STATE = GameState.new(layout=DOCUMENTS_LAYOUT).to_json()
#: (method, path, body, a check of the answer's JSON)
REQUESTS: tuple[tuple[str, str, bytes | None, object], ...] = (
    ("GET", "/healthz", None, lambda answer: answer["status"] == "ok"),
    ("POST", "/v1/moves", json.dumps({"state": _STATE, "move": {"type": "draw"}}).encode(), lambda answer: len(answer["state"]["waste"]) == 2),
    ("GET", "/v1/rules", None, lambda answer: "options" in answer or "presets" in answer),
    ("POST", "/v1/legal-moves", json.dumps({"state": _STATE}).encode(), lambda answer: isinstance(answer["moves"], list)),
)  # fmt: skip


class Load(Clients):
    """``clients`` threads, each on a kept-alive connection to ``port`` (a new one when the server
    closes it), until the ``with`` block ends; ``outcomes`` counts the answers, ``sent`` the requests."""

    def __init__(self, port: int, clients: int = 4, timeout: float = 30, pause: float = 0.0) -> None:
        self.port, self.timeout, self.pause = port, timeout, pause
        self.outcomes: Counter = Counter()
        self.lock = threading.Lock()
        self.join_seconds = timeout + 5
        super().__init__([threading.Thread(target=self._run, args=(i,), daemon=True) for i in range(clients)])

    @property
    def sent(self) -> int:
        with self.lock:
            return sum(self.outcomes.values())

    def failures(self) -> Counter:
        with self.lock:
            return Counter({outcome: n for outcome, n in self.outcomes.items() if outcome != 200})

    def _one(self, connection: http.client.HTTPConnection, request: tuple) -> object:
        method, path, body, check = request
        headers = {"Content-Type": "application/json"} if body is not None else {}
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        if response.status != 200:
            try:
                return (response.status, json.loads(data).get("code"), response.getheader("Content-Type"))
            except ValueError:
                return (response.status, data[:80], response.getheader("Content-Type"))
        try:
            return 200 if check(json.loads(data)) else ("wrong", path)
        except (ValueError, KeyError, TypeError):
            return ("wrong", path)

    def _run(self, number: int) -> None:
        connection = None
        turn = number
        while not self.stopping.is_set():
            request = REQUESTS[turn % len(REQUESTS)]
            turn += 1
            if connection is None:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            try:
                outcome = self._one(connection, request)
            except (OSError, http.client.HTTPException) as error:
                outcome = (0, type(error).__name__)  # (no answer: a failure, never sent again)
                connection.close()
                connection = None
            with self.lock:
                self.outcomes[outcome] += 1
            if self.pause:
                self.stopping.wait(self.pause)
        if connection is not None:
            connection.close()


def children(pid: int) -> set[int]:
    """The pids of ``pid``'s child processes (Linux)."""
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            found.update(int(child) for child in (task / "children").read_text().split())
        except OSError:
            pass
    return found


def _command(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
    except OSError:
        return b""


def _is_worker(pid: int) -> bool:
    """A child of the master running our module (a forked worker); nginx runs its own program.
    Where ``setproctitle`` is installed (mutmut brings it), gunicorn names its workers itself."""
    command = _command(pid)
    return b"service.api.serve" in command or command.startswith(b"gunicorn: worker")


def nginx_of(master: int) -> int | None:
    """The master's nginx (its own master process), or None (gunicorn alone)."""
    return next((pid for pid in children(master) if _command(pid).startswith(b"nginx")), None)


def server_directory(master: int) -> Path:
    """The server's own directory: where its nginx runs (``-p``)."""
    nginx = nginx_of(master)
    found = re.search(rb"-p (\S+)", _command(nginx)) if nginx is not None else None
    if found is None:
        raise AssertionError("no nginx under the server")
    return Path(found.group(1).decode())


class Workers:
    """gunicorn's workers under ``master``: sampled every ``every`` seconds in a thread; ``seen``
    holds every worker pid seen (nginx and the replay processes are not workers)."""

    def __init__(self, master: int, every: float = 0.05) -> None:
        self.master, self.every = master, every
        self.seen: set[int] = set()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def now(self) -> set[int]:
        return {pid for pid in children(self.master) if _is_worker(pid) and Path(f"/proc/{pid}/status").exists()}

    def _run(self) -> None:
        while not self.stopping.is_set():
            self.seen |= self.now()
            self.stopping.wait(self.every)

    def __enter__(self) -> Workers:
        self.seen = self.now()
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.thread.join(5)

    def wait_for(self, count: int, seconds: float) -> set[int]:
        """The current workers, once there are ``count`` of them (or ``seconds`` passed)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            current = self.now()
            if len(current) >= count:
                return current
            time.sleep(0.05)
        return self.now()


def rss_kib(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def signal_process(pid: int, number: int) -> None:
    try:
        os.kill(pid, number)
    except ProcessLookupError:
        pass
