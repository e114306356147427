"""Server soak under hostile clients: ``python -m tests.bench server`` (on demand, loopback only).

Starts the server of ``make serve`` on 127.0.0.1 and runs two bounded phases:

1. *quiet*: ``LOAD`` closed-loop keep-alive clients on the cheap endpoints (``GET /healthz``,
   ``POST /v1/moves`` with a 40-action state), for ``QUIET`` seconds;
2. *hostile*: the same load, plus at once ``SLOW`` half-open connections (connect, send nothing),
   ``SLOW`` slowloris connections (headers one byte a second), ``SLOW`` truncated bodies
   (``Content-Length`` 1000, 10 bytes sent, then silence), ``FLOOD`` clients posting a worst-case
   ``/v1/solve`` (budget 250,000, shortest line) in a loop, and a probe timing a fresh-connection
   ``GET /healthz`` every 50 ms, for ``HOSTILE`` seconds.

It prints requests/s, p50/p99 of the cheap requests in each phase, the probe's p50/p99/max, the
solver answers (200 and 503), the 5xx answers of the cheap endpoints (expected: none), what the
hostile connections got back, and the workers' resident memory (RSS) at the start, at the peak
and at the end. Every loop is bounded in time; nothing leaves the loopback interface.

Environment: ``BENCH_QUIET``, ``BENCH_HOSTILE`` (seconds), ``BENCH_LOAD``, ``BENCH_SLOW``,
``BENCH_FLOOD`` (counts), ``BENCH_MODULE`` (the server module, ``service.api.serve``).
"""

from __future__ import annotations

import http.client
import json
import os
import socket
import statistics
import threading
import time
from collections import Counter
from pathlib import Path

from service.engine import GameState, Rules, seed_code
from tests.bench.bench_replay import long_game
from tests.server import running_server

QUIET = float(os.environ.get("BENCH_QUIET", 5))
HOSTILE = float(os.environ.get("BENCH_HOSTILE", 12))
LOAD = int(os.environ.get("BENCH_LOAD", 4))
SLOW = int(os.environ.get("BENCH_SLOW", 10))
FLOOD = int(os.environ.get("BENCH_FLOOD", 4))
MODULE = os.environ.get("BENCH_MODULE", "service.api.serve")
#: a slow solve (as tests/server/test_server.py's ``WORST``: ``DT2`` seed 3, about 4 s of CPU with
#: budget 250,000 and ``shortest``, cut by the server's 2 s deadline)
WORST_SOLVE = {
    "state": GameState.new(seed_code(Rules(max_recycles=2, drawn_pairs_with_waste=True, initial_waste=False), 3)).to_json(),
    "budget": 250_000,
    "shortest": True,
}


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def _rss_mb(pids: list[int]) -> list[float]:
    sizes = []
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    sizes.append(int(line.split()[1]) / 1024)
        except OSError:
            pass
    return sizes


def _workers() -> list[int]:
    """The server's worker processes: the children of the server this process started."""
    me, master = str(os.getpid()), None
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stats[int(entry.name)] = (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
            except OSError:
                pass
    masters = [pid for pid, parent in stats.items() if parent == me]
    master = str(masters[0]) if masters else None
    return sorted(pid for pid, parent in stats.items() if parent == master)


class Recorder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.samples: list[tuple[str, int, float]] = []

    def add(self, label: str, status: int, seconds: float) -> None:
        with self.lock:
            self.samples.append((label, status, seconds))

    def take(self) -> list[tuple[str, int, float]]:
        with self.lock:
            samples, self.samples = self.samples, []
        return samples


def _client(port: int, stop: threading.Event, record: Recorder, requests: list[tuple[str, str, bytes | None]], pause: float = 0.0) -> None:
    """Closed-loop keep-alive client: each request in turn until ``stop``."""
    connection = None
    i = 0
    while not stop.is_set():
        label, path, body = requests[i % len(requests)]
        i += 1
        start = time.perf_counter()
        try:
            if connection is None:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
            headers = {"Content-Type": "application/json"} if body is not None else {}
            connection.request("POST" if body is not None else "GET", path, body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            status = response.status
            if response.will_close:
                connection.close()
                connection = None
        except (OSError, http.client.HTTPException):
            status = 0  # no answer
            if connection is not None:
                connection.close()
            connection = None
        record.add(label, status, time.perf_counter() - start)
        if status == 503 and pause:
            stop.wait(pause)
    if connection is not None:
        connection.close()


def _probe(port: int, stop: threading.Event, record: Recorder) -> None:
    """``GET /healthz`` on a fresh connection every 50 ms."""
    while not stop.is_set():
        start = time.perf_counter()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
            connection.request("GET", "/healthz")
            response = connection.getresponse()
            response.read()
            status = response.status
            connection.close()
        except (OSError, http.client.HTTPException):
            status = 0
        record.add("probe", status, time.perf_counter() - start)
        stop.wait(0.05)


def _hostile(port: int, stop: threading.Event, outcomes: Counter) -> None:
    """``SLOW`` connections of each hostile kind, reopened when the server closes them."""
    kinds = ("half-open", "slowloris", "truncated")
    sockets: dict[socket.socket, str] = {}
    truncated = (
        b"POST /v1/moves HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n{\"state\":"
    )

    def open_one(kind: str) -> None:
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=2)
        except OSError:
            outcomes[f"{kind}: connect failed"] += 1
            return
        sock.setblocking(False)
        try:
            if kind == "slowloris":
                sock.send(b"GET /healthz HTTP/1.1\r\nHost: bench\r\n")
            elif kind == "truncated":
                sock.send(truncated)
        except OSError:
            pass
        sockets[sock] = kind

    for kind in kinds:
        for _ in range(SLOW):
            open_one(kind)
    while not stop.wait(1.0):
        for sock, kind in list(sockets.items()):
            try:
                data = sock.recv(4096)
            except BlockingIOError:
                data = None
            except OSError:
                data = b""
            if data is None and kind == "slowloris":
                try:
                    sock.send(b"X-Slow: 1\r\n")
                except OSError:
                    data = b""
            if data is not None:  # answered or closed: note what, then reopen
                status = data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/") else "closed"
                outcomes[f"{kind}: {status}"] += 1
                sock.close()
                del sockets[sock]
                open_one(kind)
    for sock in sockets:
        sock.close()


def _summary(samples: list[tuple[str, int, float]], seconds: float, labels: tuple[str, ...]) -> dict:
    chosen = [s for s in samples if s[0] in labels]
    times = [s[2] * 1000 for s in chosen]
    statuses = Counter(s[1] for s in chosen)
    return {
        "requests": len(chosen),
        "rps": round(len(chosen) / seconds, 1),
        "p50_ms": round(_percentile(times, 0.5), 2),
        "p99_ms": round(_percentile(times, 0.99), 2),
        "max_ms": round(max(times), 2) if times else float("nan"),
        "statuses": dict(sorted(statuses.items())),
        "5xx_or_none": sum(n for status, n in statuses.items() if status >= 500 or status == 0),
    }


def main() -> dict:
    state = long_game(40)
    move = {"type": "draw"} if state.stock else {"type": "recycle"}
    cheap = [
        ("healthz", "/healthz", None),
        ("moves", "/v1/moves", json.dumps({"state": state.to_json(), "move": move}).encode()),
    ]
    solve = [("solve", "/v1/solve", json.dumps(WORST_SOLVE).encode())]
    env = {"PYRAMIDE_ACCESS_LOG": "off"}
    print(f"server soak ({MODULE}): {LOAD} cheap clients; then + {SLOW} each of half-open, slowloris, "
          f"truncated-body connections, {FLOOD} solver-flood clients, a /healthz probe")  # fmt: skip
    with running_server(module=MODULE, **env) as base:
        port = int(base.rsplit(":", 1)[1])
        workers = _workers()
        rss_start = _rss_mb(workers)
        record = Recorder()
        report: dict = {"workers": len(workers), "rss_start_mb": [round(x) for x in rss_start]}

        # 1. quiet
        stop = threading.Event()
        threads = [threading.Thread(target=_client, args=(port, stop, record, cheap[i % 2:] + cheap[: i % 2])) for i in range(LOAD)]
        for thread in threads:
            thread.start()
        time.sleep(QUIET)
        stop.set()
        for thread in threads:
            thread.join(20)
        report["quiet"] = _summary(record.take(), QUIET, ("healthz", "moves"))

        if HOSTILE <= 0:  # (the quiet phase only)
            print(f"  quiet    cheap: {report['quiet']['rps']:>7} req/s  p50 {report['quiet']['p50_ms']:>7} ms  p99 {report['quiet']['p99_ms']:>8} ms")
            return report

        # 2. hostile
        stop = threading.Event()
        outcomes: Counter = Counter()
        threads = [threading.Thread(target=_client, args=(port, stop, record, cheap[i % 2:] + cheap[: i % 2])) for i in range(LOAD)]
        threads += [threading.Thread(target=_client, args=(port, stop, record, solve, 0.02)) for _ in range(FLOOD)]
        threads += [threading.Thread(target=_probe, args=(port, stop, record))]
        threads += [threading.Thread(target=_hostile, args=(port, stop, outcomes))]
        for thread in threads:
            thread.start()
        peak: list[float] = []
        end = time.monotonic() + HOSTILE
        while time.monotonic() < end:
            peak = max(peak, _rss_mb(_workers()), key=lambda sizes: sum(sizes) if sizes else 0)
            time.sleep(0.5)
        stop.set()
        for thread in threads:
            thread.join(30)
        samples = record.take()
        report["hostile"] = _summary(samples, HOSTILE, ("healthz", "moves"))
        report["probe"] = _summary(samples, HOSTILE, ("probe",))
        report["solve"] = _summary(samples, HOSTILE, ("solve",))
        report["hostile_connections"] = dict(sorted(outcomes.items()))
        time.sleep(2)  # a worker past its memory limit is replaced after its request
        report["rss_peak_mb"] = [round(x) for x in peak]
        report["rss_end_mb"] = [round(x) for x in _rss_mb(_workers())]

    q, h, p, s = report["quiet"], report["hostile"], report["probe"], report["solve"]
    print(f"  quiet    cheap: {q['rps']:>7} req/s  p50 {q['p50_ms']:>7} ms  p99 {q['p99_ms']:>8} ms  5xx/none {q['5xx_or_none']}")
    print(f"  hostile  cheap: {h['rps']:>7} req/s  p50 {h['p50_ms']:>7} ms  p99 {h['p99_ms']:>8} ms  5xx/none {h['5xx_or_none']}  {h['statuses']}")
    print(f"  hostile  /healthz probe (new connection each): {p['requests']} probes  p50 {p['p50_ms']} ms  "
          f"p99 {p['p99_ms']} ms  max {p['max_ms']} ms  {p['statuses']}")  # fmt: skip
    print(f"  hostile  solver flood: {s['requests']} answers {s['statuses']}  (p50 {s['p50_ms']} ms, max {s['max_ms']} ms)")
    print(f"  hostile  connections got: {report['hostile_connections']}")
    print(f"  worker RSS MB: start {report['rss_start_mb']}  peak {report['rss_peak_mb']}  end {report['rss_end_mb']}")
    return report


if __name__ == "__main__":
    main()
