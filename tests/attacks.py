"""Hostile clients on loopback, shared by ``tests/server/test_server.py`` (generous bounds) and
``tests/bench/bench_attacks.py`` (figures): each attack keeps ``count`` hostile connections to the
server open for as long as it runs, and replaces each one the server answers or closes, so that
the attack goes on at the server's read deadline and after it, not only at its start. A socket the
server has answered is held open, unread, for ``HOLD`` seconds (a client that never closes), then
closed. Every loop is bounded in time and in sockets; nothing leaves 127.0.0.1.

The attacks (``ATTACKS``):

- ``slowloris``: a request head trickled a header line a second, never finished;
- ``never_closing``: whole requests the server answers and closes (HTTP/1.0, ``Connection:
  close``, and a malformed head it refuses), the client never reading nor closing;
- ``huge_bodies``: ``POST /v1/moves`` announcing a 2 GB body, then a kilobyte of it a tick;
- ``idle``: connections that send nothing;
- ``expect_10``: HTTP/1.0 ``POST`` with ``Expect: 100-continue`` and no body.

``Probe`` times ``GET /healthz`` and a normal ``POST /v1/moves``, each on a new connection, every
50 ms.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

#: seconds a socket the server answered or closed is held open, unread, before the client closes it
HOLD = 10.0
#: the attack's step: each hostile socket is looked at (and trickled to) this often
TICK = 0.25

_HEAD_START = b"GET /healthz HTTP/1.1\r\nHost: attack\r\nUser-Agent: slowloris\r\n"
_NEVER_CLOSING = (
    b"GET /healthz HTTP/1.0\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: attack\r\nConnection: close\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: attack\r\nBad Header\r\n\r\n",
)
_HUGE = (
    b"POST /v1/moves HTTP/1.1\r\nHost: attack\r\nContent-Type: application/json\r\n"
    b"Content-Length: 2000000000\r\n\r\n{\"state\":"
)
_EXPECT_10 = (
    b"POST /v1/moves HTTP/1.0\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
    b"Content-Length: 2000\r\n\r\n"
)


@dataclass
class _Hostile:
    sock: socket.socket
    kind: str
    step: int = 0


@dataclass
class Attack:
    """``count`` hostile connections of ``kind`` to 127.0.0.1:``port``, kept up in a thread from
    ``start()`` to ``stop()``; ``outcomes`` counts what the server answered them."""

    port: int
    kind: str
    count: int
    outcomes: Counter = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.live: list[_Hostile] = []
        self.held: list[tuple[float, socket.socket]] = []

    def start(self) -> Attack:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(30)

    def __enter__(self) -> Attack:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def _open(self, index: int) -> _Hostile | None:
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=2)
        except OSError:
            self.outcomes["connect failed"] += 1
            return None
        sock.setblocking(False)
        hostile = _Hostile(sock, self.kind)
        try:
            if self.kind == "slowloris":
                sock.send(_HEAD_START)
            elif self.kind == "never_closing":
                sock.send(_NEVER_CLOSING[index % len(_NEVER_CLOSING)])
            elif self.kind == "huge_bodies":
                sock.send(_HUGE)
            elif self.kind == "expect_10":
                sock.send(_EXPECT_10)
        except OSError:
            pass
        return hostile

    def _step(self, hostile: _Hostile) -> bool:
        """One tick of a hostile socket: False when the server answered or closed it."""
        hostile.step += 1
        try:
            data = hostile.sock.recv(1024)
        except BlockingIOError:
            data = None
        except OSError:
            data = b""
        if data is not None:
            if data.startswith(b"HTTP/1.1 100") and data.endswith(b"\r\n\r\n"):
                self.outcomes["100 Continue"] += 1
                return True
            status = data.split(b" ", 2)[1].decode("latin-1") if data.startswith(b"HTTP/") else "closed"
            self.outcomes[status] += 1
            return False
        try:
            if self.kind == "slowloris" and hostile.step % 4 == 0:
                hostile.sock.send(b"X-Slow-%d: 1\r\n" % hostile.step)
            elif self.kind == "huge_bodies":
                hostile.sock.send(b"0," * 512)
        except BlockingIOError:
            pass
        except OSError:
            self.outcomes["closed"] += 1
            return False
        return True

    def _run(self) -> None:
        for index in range(self.count):
            if self.stopping.is_set():
                break
            hostile = self._open(index)
            if hostile is not None:
                self.live.append(hostile)
        opened = self.count
        while not self.stopping.wait(TICK):
            now = time.monotonic()
            for hostile in list(self.live):
                if not self._step(hostile):
                    self.live.remove(hostile)
                    self.held.append((now + HOLD, hostile.sock))
            for index in range(self.count - len(self.live)):  # replacements
                hostile = self._open(opened + index)
                if hostile is not None:
                    self.live.append(hostile)
            opened += self.count
            while self.held and self.held[0][0] <= now:
                self.held.pop(0)[1].close()
        for hostile in self.live:
            hostile.sock.close()
        for _, sock in self.held:
            sock.close()


#: the attacks of issue 23 with their sizes
ATTACKS = {
    "slowloris": 64,
    "never_closing": 20,
    "huge_bodies": 40,
    "idle": 1000,
    "expect_10": 40,
}


class Clients:
    """Client threads that run until the ``with`` block ends: ``stopping`` tells them to stop, and
    each is given ``join_seconds`` to do so."""

    join_seconds: float = 60

    def __init__(self, threads: list[threading.Thread]) -> None:
        self.stopping = threading.Event()
        self.threads = threads

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(self.join_seconds)


class Probe(Clients):
    """``GET /healthz`` and ``POST /v1/moves`` (``moves_body``), each on a new connection every
    ``every`` seconds, in two threads: ``samples[label]`` holds (status, seconds); status 0 is no
    answer within ``timeout``."""

    def __init__(self, port: int, moves_body: bytes, every: float = 0.05, timeout: float = 40) -> None:
        self.port, self.moves_body, self.every, self.timeout = port, moves_body, every, timeout
        self.samples: dict[str, list[tuple[int, float]]] = {"healthz": [], "moves": []}
        self.join_seconds = timeout + 5
        super().__init__([threading.Thread(target=self._run, args=(label,), daemon=True) for label in self.samples])

    def _one(self, label: str) -> tuple[int, float]:
        started = time.perf_counter()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            if label == "healthz":
                connection.request("GET", "/healthz")
            else:
                connection.request("POST", "/v1/moves", body=self.moves_body, headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            body = response.read()
            status = response.status
            if status == 200 and label == "moves":
                json.loads(body)["state"]  # (a real answer)
            connection.close()
        except (OSError, http.client.HTTPException):
            status = 0
        return status, time.perf_counter() - started

    def _run(self, label: str) -> None:
        while not self.stopping.is_set():
            self.samples[label].append(self._one(label))
            self.stopping.wait(self.every)

    def summary(self, label: str) -> dict:
        samples = self.samples[label]
        times = sorted(seconds for _, seconds in samples)
        if not times:
            return {"count": 0, "p99_ms": float("nan"), "max_ms": float("nan"), "failed": 0}
        return {
            "count": len(times),
            "p50_ms": round(times[len(times) // 2] * 1000, 1),
            "p99_ms": round(times[min(len(times) - 1, int(0.99 * len(times)))] * 1000, 1),
            "max_ms": round(times[-1] * 1000, 1),
            "failed": sum(1 for status, _ in samples if status != 200),
        }
