"""One client flooding, another served: ``python -m tests.bench fairness`` (on demand, loopback only).

Starts the server of ``make serve`` (two workers) on 127.0.0.1. Client B (127.0.0.2) sends, one
after the other, a cheap solve (budget 2,000), a move under ``unlimited-undo`` (whose 004 outlook
asks the solver) and a 2,000-action long game, then waits ``BENCH_PAUSE`` seconds (0.2: a player,
whose long games stay within its own rate); a probe times ``GET /healthz`` on a new connection
every 50 ms. First B alone for ``BENCH_PHASE`` seconds, then the same while client A (127.0.0.1)
floods, from ``BENCH_FLOOD`` connections each, worst-case solves, moves with an outlook and
9,999-action long games. It prints, for each of B's kinds, how many were answered (200, and for
the outlook: decided as when alone) in each phase and their ratio, A's answers by status, and the
probe's p50/p99/max. The target (issue 36): B keeps at least half of what it had alone, and
``/healthz`` p99 under 100 ms. Every loop is bounded in time.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections import Counter

from service.engine import DOCUMENTS_LAYOUT, GameState, Rules, seed_code
from tests.attacks import Clients, Probe
from tests.bench.bench_replay import long_game
from tests.server import running_server
from tests.server.test_server import post

PHASE = float(os.environ.get("BENCH_PHASE", 15))
FLOOD = int(os.environ.get("BENCH_FLOOD", 6))
PAUSE = float(os.environ.get("BENCH_PAUSE", 0.2))


def _bodies() -> dict[str, bytes]:
    long_state, flood_state = long_game(2_000), long_game(9_999)
    outlook = GameState.new(seed_code(Rules.preset("unlimited-undo"), 1))
    worst = GameState.new(seed_code(Rules(max_recycles=2, drawn_pairs_with_waste=True, initial_waste=False), 3))

    def move(state: GameState) -> bytes:
        return json.dumps({"state": state.to_json(), "move": {"type": "draw"} if state.stock else {"type": "recycle"}}).encode()

    return {
        "solve": json.dumps({"state": GameState.new(layout=DOCUMENTS_LAYOUT).to_json(), "budget": 2_000}).encode(),
        "outlook": move(outlook),
        "long": move(long_state),
        "flood solve": json.dumps({"state": worst.to_json(), "budget": 250_000, "shortest": True}).encode(),
        "flood long": move(flood_state),
    }


def _phase(port: int, bodies: dict[str, bytes], flood: bool, alone_outlook: str | None) -> tuple[Counter, Counter, dict, str | None]:
    stopping = threading.Event()
    mine: Counter = Counter()
    theirs: Counter = Counter()
    decided: list[str] = []

    def b_client() -> None:
        while not stopping.is_set():
            mine["solve sent"] += 1
            mine["solve"] += post(port, "/v1/solve", bodies["solve"], source="127.0.0.2").status == 200
            reply = post(port, "/v1/moves", bodies["outlook"], source="127.0.0.2")
            mine["outlook sent"] += 1
            outlook = reply.json().get("outlook") if reply.status == 200 else None
            decided.append(outlook)
            mine["outlook"] += outlook is not None and outlook == (alone_outlook or outlook) and outlook != "unknown"
            mine["long sent"] += 1
            mine["long"] += post(port, "/v1/moves", bodies["long"], source="127.0.0.2").status == 200
            stopping.wait(PAUSE)  # (a player, not a flood: its long games within its own rate)

    def a_client(path: str, body: bytes, kind: str) -> None:
        while not stopping.is_set():
            reply = post(port, path, body, timeout=30)
            code = reply.json().get("code") if reply.status != 200 else ""
            theirs[f"{kind} {reply.status} {code}".strip()] += 1

    threads = [threading.Thread(target=b_client, daemon=True)]
    if flood:
        for path, kind in (("/v1/solve", "flood solve"), ("/v1/moves", "outlook"), ("/v1/moves", "flood long")):
            threads += [threading.Thread(target=a_client, args=(path, bodies[kind], kind), daemon=True) for _ in range(FLOOD)]
    clients = Clients(threads)
    clients.stopping, clients.join_seconds = stopping, 40
    with Probe(port, bodies["solve"], timeout=20) as probe, clients:
        time.sleep(PHASE)
    outlooks = Counter(decided)
    return mine, theirs, probe.summary("healthz"), outlooks.most_common(1)[0][0] if outlooks else None


def main() -> None:
    bodies = _bodies()
    with running_server(workers=2, PYRAMIDE_ACCESS_LOG="off") as base:
        port = int(base.rsplit(":", 1)[1])
        alone, _, alone_probe, outlook = _phase(port, bodies, False, None)
        flooded, flood, flood_probe, _ = _phase(port, bodies, True, outlook)
    print(f"fairness: two workers, B alone then beside A's flood ({FLOOD} connections each of solves, outlooks, long games), {PHASE:g} s each")
    for kind in ("solve", "outlook", "long"):
        a, f = alone[kind] / max(1, alone[f"{kind} sent"]), flooded[kind] / max(1, flooded[f"{kind} sent"])
        print(f"  B's {kind:8} alone {alone[kind]}/{alone[kind + ' sent']} ({a:.0%}), flooded {flooded[kind]}/{flooded[kind + ' sent']} ({f:.0%}): {f / a if a else float('nan'):.2f} of alone")
    print(f"  A's flood: {dict(flood)}")
    for label, probe in (("alone", alone_probe), ("flooded", flood_probe)):
        print(f"  /healthz {label}: p50 {probe.get('p50_ms')} ms, p99 {probe['p99_ms']} ms, max {probe['max_ms']} ms, {probe['count']} probes, {probe['failed']} failed")
