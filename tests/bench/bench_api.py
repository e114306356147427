"""API benchmark: ``POST /v1/moves`` requests/s as a ratio to a bare Flask JSON echo of a body of
the same size, on the same gunicorn server, in the same run. Target: ratio ≥ 0.6.

The load generator is wrk (Debian package ``wrk``) on loopback; the server runs the settings of
``make serve``. Rounds alternate the two endpoints so that drift in the machine's load hits both;
the ratio reported is the median of the per-round ratios, with its spread.
"""

from __future__ import annotations

import json
import re
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

from service.api.serve import options
from service.engine import Move
from tests.bench.bench_replay import long_game
from tests.server import running_server

ROUNDS = 7
SECONDS = 6
CONNECTIONS = 8


def _wrk(url: str, body: str, seconds: int) -> float:
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as payload:
        payload.write(body)
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(
            'wrk.method = "POST"\n'
            'wrk.headers["Content-Type"] = "application/json"\n'
            f'local f = io.open("{payload.name}"); wrk.body = f:read("*a"); f:close()\n'
            "done = function(summary, latency, requests)\n"
            '  io.write(string.format("non2xx %d\\n", summary.errors.status))\n'
            "end\n"
        )
    output = subprocess.run(
        ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s", "-s", script.name, url],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    Path(script.name).unlink()
    Path(payload.name).unlink()
    non2xx = int(re.search(r"non2xx (\d+)", output).group(1))
    if non2xx:
        raise RuntimeError(f"{url}: {non2xx} answers were not 2xx")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))


def _echo_body(size: int) -> str:
    """A JSON body of exactly ``size`` bytes for the echo endpoint."""
    body = json.dumps({"padding": ""}, separators=(",", ":"))
    return json.dumps({"padding": "x" * (size - len(body))}, separators=(",", ":"))


def main() -> list[dict]:
    if shutil.which("wrk") is None:
        print("api: wrk is not installed (apt-get install wrk); skipped")
        return []
    rows = []
    # wrk sends one body again and again: with the replay cache (as served) each request finds its
    # log remembered; without it (PYRAMIDE_REPLAY_CACHE_MB=0) each replays its whole log, as the first
    # request of a game on a worker does.
    for cache, env in (("replay cache", {}), ("no cache", {"PYRAMIDE_REPLAY_CACHE_MB": "0"})):
        with running_server(workers=options()["workers"], module="tests.bench.echo_app", **env) as base:
            rows += _rounds(base, cache)
    return rows


def _rounds(base: str, cache: str) -> list[dict]:
    rows = []
    for label, state in (("fresh deal", long_game(0)), ("40 actions", long_game(40)), ("100 actions", long_game(100))):
        label = f"{label}, {cache}"
        move = Move.draw() if state.stock else Move.recycle()
        body = json.dumps({"state": state.to_json(), "move": move.to_json()}, separators=(",", ":"))
        echo = _echo_body(len(body))
        _wrk(f"{base}/v1/moves", body, 2)  # warm up both
        _wrk(f"{base}/bench/echo", echo, 2)
        ratios, moves_rps, echo_rps = [], [], []
        for _ in range(ROUNDS):
            moves_rps.append(_wrk(f"{base}/v1/moves", body, SECONDS))
            echo_rps.append(_wrk(f"{base}/bench/echo", echo, SECONDS))
            ratios.append(moves_rps[-1] / echo_rps[-1])
        row = {
            "state": label, "body_bytes": len(body),
            "moves_rps": round(statistics.median(moves_rps)), "echo_rps": round(statistics.median(echo_rps)),
            "ratio_median": round(statistics.median(ratios), 3),
            "ratio_min": round(min(ratios), 3), "ratio_max": round(max(ratios), 3),
        }  # fmt: skip
        rows.append(row)
        print(
            f"  /v1/moves vs echo, {label:<26} body {row['body_bytes']:>5} B: "
            f"{row['moves_rps']:>6} vs {row['echo_rps']:>6} req/s  ratio {row['ratio_median']:.3f} "
            f"(rounds {row['ratio_min']:.3f}–{row['ratio_max']:.3f}; target ≥ 0.6)"
        )
    return rows


if __name__ == "__main__":
    main()
