"""The server of ``make serve`` under each attack of issue 23, one after the other:
``python -m tests.bench attacks`` (on demand; loopback only; bounded in time and sockets).

For each attack of ``tests/attacks.py`` (64 slowloris sockets, 20 clients that never close, 40
announced 2 GB bodies, 1,000 idle connections, 40 HTTP/1.0 ``Expect``), kept up for
``BENCH_ATTACK_SECONDS`` (default 3 read timeouts and 3 s: every hostile socket is answered at its
deadline and replaced, so the attack goes on at and after the deadline), and then 16 clients
posting states of 9,999 actions in a loop (``long_logs``, against a server without its replay
cache, so that each request replays its whole log; in a process of their own), a probe times
``GET /healthz`` and a normal ``POST /v1/moves`` (a 40-action state) on a new connection every
50 ms. It prints, per attack, the p50 / p99 / worst latency of each and the probes that got no
200, and what the hostile sockets were answered; the figures go to
``build/bench-attacks.json`` too. Before each attack it waits (up to 40 s) for /healthz to
answer within 50 ms again, so that one attack's aftermath is not counted in the next.

Environment: ``BENCH_READ_TIMEOUT`` (the server's ``PYRAMIDE_READ_TIMEOUT``, default 3),
``BENCH_ATTACK_SECONDS``, ``BENCH_ATTACKS`` (a comma-separated subset), ``BENCH_MODULE`` (the
server module, ``service.api.serve``), ``BENCH_WORKERS`` (default 2).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
import urllib.request
from pathlib import Path

import threading
import http.client

from tests.attacks import ATTACKS, Attack, Probe
from tests.bench.bench_replay import long_game
from tests.server import running_server

READ_TIMEOUT = float(os.environ.get("BENCH_READ_TIMEOUT", 3))
SECONDS = float(os.environ.get("BENCH_ATTACK_SECONDS", 3 * READ_TIMEOUT + 3))
#: besides the attacks on the connection: 16 clients posting states of 9,999 actions in a loop
LONG_LOGS = 16
#: whether they wait as ``Retry-After`` says after a 503 (BENCH_RETRY_AFTER=1), or not (a flood)
RETRY_AFTER = os.environ.get("BENCH_RETRY_AFTER", "0") == "1"
CHOSEN = [name for name in os.environ.get("BENCH_ATTACKS", ",".join([*ATTACKS, "long_logs"])).split(",") if name]
MODULE = os.environ.get("BENCH_MODULE", "service.api.serve")
WORKERS = int(os.environ.get("BENCH_WORKERS", 2))


def _settle(base: str, limit: float = 40) -> float:
    """Wait until /healthz answers within 50 ms: the seconds waited."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        began = time.perf_counter()
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=limit) as response:
                response.read()
            if time.perf_counter() - began < 0.05:
                break
        except OSError:
            pass
        time.sleep(0.2)
    return time.monotonic() - started


class LongLogs:
    """``count`` clients posting ``POST /v1/moves`` on a state of 9,999 actions (the log's limit is
    10,000), each in a loop on its own keep-alive connection, in a process of their own (in the
    probe's, their thousand refusals a second took its GIL and counted in its figures), from the
    ``with`` block's start to its end; ``outcomes`` counts the statuses."""

    def __init__(self, port: int, count: int) -> None:
        state = long_game(9_999)
        body = json.dumps({"state": state.to_json(), "move": {"type": "draw"} if state.stock else {"type": "recycle"}}).encode()
        context = multiprocessing.get_context("spawn")
        self.stopping, self.results = context.Event(), context.Queue()
        self.process = context.Process(target=_flood, args=(port, count, body, self.stopping, self.results), daemon=True)
        self.outcomes: dict = {}

    def __enter__(self) -> LongLogs:
        self.process.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.outcomes = self.results.get(timeout=120)
        self.process.join(30)


def _flood(port: int, count: int, body: bytes, stopping, results) -> None:
    outcomes: dict = {}

    def run() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while not stopping.is_set():
            try:
                connection.request("POST", "/v1/moves", body=body, headers={"Content-Type": "application/json"})
                response = connection.getresponse()
                response.read()
                status = response.status
            except (OSError, http.client.HTTPException):
                status = 0
                connection.close()
            outcomes[str(status)] = outcomes.get(str(status), 0) + 1
            if status == 503 and RETRY_AFTER:
                stopping.wait(float(response.getheader("Retry-After", "1")))
        connection.close()

    threads = [threading.Thread(target=run, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(90)
    results.put(outcomes)


def _row(name: str, count: int, healthz: dict, moves: dict, outcomes: dict) -> str:
    def cell(s: dict) -> str:
        return f"{s['p50_ms']:>7} {s['p99_ms']:>8} {s['max_ms']:>8} {s['failed']:>4}"

    return f"  {name + ' ' + str(count):<18} {cell(healthz)}   {cell(moves)}   {outcomes}"


def main() -> dict:
    state = long_game(40)
    move = {"type": "draw"} if state.stock else {"type": "recycle"}
    body = json.dumps({"state": state.to_json(), "move": move}).encode()
    env = {"PYRAMIDE_ACCESS_LOG": "off", "PYRAMIDE_READ_TIMEOUT": f"{READ_TIMEOUT:g}"}
    report: dict = {"module": MODULE, "read_timeout": READ_TIMEOUT, "seconds": SECONDS, "attacks": {}}
    print(f"attacks on {MODULE} ({WORKERS} workers, read timeout {READ_TIMEOUT:g} s), {SECONDS:g} s each; "
          "probes on a new connection every 50 ms; ms")  # fmt: skip
    print(f"  {'attack':<18} {'/healthz p50':>12} {'p99':>8} {'max':>8} {'fail':>4}   {'/v1/moves p50':>7} {'p99':>8} {'max':>8} {'fail':>4}   hostile sockets got")
    # the long logs against a server without its replay cache: every request replays its whole
    # log, as when each one is a different game (the worst case for the server)
    phases = [(env, ["quiet", *[name for name in CHOSEN if name != "long_logs"]])]
    if "long_logs" in CHOSEN:
        phases.append(({**env, "PYRAMIDE_REPLAY_CACHE_MB": "0"}, ["long_logs"]))
    for environment, names in phases:
        with running_server(workers=WORKERS, module=MODULE, **environment) as base:
            port = int(base.rsplit(":", 1)[1])
            for name in names:
                settled = _settle(base)
                count = ATTACKS.get(name, 0)
                with Probe(port, body) as probe:
                    if name == "quiet":
                        time.sleep(min(SECONDS, 5))
                        outcomes: dict = {}
                    elif name == "long_logs":
                        count = LONG_LOGS
                        with LongLogs(port, count) as flood:
                            time.sleep(SECONDS)
                        outcomes = dict(flood.outcomes)
                    else:
                        with Attack(port, name, count) as attack:
                            time.sleep(SECONDS)
                        outcomes = dict(attack.outcomes.most_common())
                healthz, moves = probe.summary("healthz"), probe.summary("moves")
                report["attacks"][name] = {"count": count, "settled_s": round(settled, 1), "healthz": healthz, "moves": moves, "hostile": outcomes}
                print(_row(name, count, healthz, moves, outcomes), flush=True)
    out = Path("build") / "bench-attacks.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(report, indent=1))
    return report


if __name__ == "__main__":
    main()
