"""``make soak``: the real server under a steady load for ``--minutes`` (10 by default), past its
workers' recycling limits, with a reload (SIGHUP) every few minutes; bounded in time, on 127.0.0.1
only. Every ``--every`` seconds a line of progress: requests, answers by status, recycles seen,
and the resident memory of every process of the server (main, gunicorn workers, nginx, replay
processes). At the end a summary, also written to ``build/soak.json``; exit 1 if any answer was
not right.

    python -m tests.soak --minutes 10 --max-requests 2000
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from collections import Counter
from pathlib import Path

from tests.lifecycle import Load, Workers, children, nginx_of, rss_kib, signal_process
from tests.server import server_process

ROOT = Path(__file__).resolve().parent.parent


def _processes(master: int) -> dict[str, list[int]]:
    """The server's processes by kind."""
    nginx = nginx_of(master)
    kinds: dict[str, list[int]] = {"main": [master], "workers": [], "nginx": [] if nginx is None else [nginx, *children(nginx)], "replay": []}
    for pid in children(master) - {nginx}:
        kinds["workers"].append(pid)
        kinds["replay"] += list(children(pid))
    return kinds


def _memory(master: int) -> dict[str, list[float]]:
    """MiB of resident memory of each process, by kind."""
    return {kind: [round((rss_kib(pid) or 0) / 1024, 1) for pid in pids] for kind, pids in _processes(master).items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.soak", description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--every", type=float, default=30, help="seconds between progress lines")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--pause", type=float, default=0.01, help="seconds each client waits between requests (a steady load)")
    parser.add_argument("--max-requests", type=int, default=2000, help="PYRAMIDE_MAX_REQUESTS of the server")
    parser.add_argument("--reload-every", type=float, default=180, help="seconds between SIGHUPs (0: none)")
    parser.add_argument("--json", type=Path, default=ROOT / "build" / "soak.json")
    args = parser.parse_args(argv)
    env = {"PYRAMIDE_MAX_REQUESTS": str(args.max_requests), "PYRAMIDE_ACCESS_LOG": "off"}
    samples: list[dict] = []
    reloads = 0
    with server_process(workers=2, **env) as (base, process), Workers(process.pid, every=0.2) as workers:
        port = int(base.rsplit(":", 1)[1])
        first = set(workers.seen)
        started = time.monotonic()
        end = started + args.minutes * 60
        next_line, next_reload = started + args.every, started + args.reload_every if args.reload_every else float("inf")
        print(f"soak: {args.minutes:g} min, {args.clients} clients, PYRAMIDE_MAX_REQUESTS={args.max_requests}, SIGHUP every {args.reload_every:g} s", flush=True)
        with Load(port, clients=args.clients, pause=args.pause) as load:
            while (now := time.monotonic()) < end:
                time.sleep(min(1.0, max(0.0, end - now)))
                if time.monotonic() >= next_reload:
                    signal_process(process.pid, signal.SIGHUP)
                    reloads += 1
                    next_reload += args.reload_every
                if time.monotonic() >= next_line or time.monotonic() >= end:
                    next_line += args.every
                    sample = {
                        "seconds": round(time.monotonic() - started),
                        "requests": load.sent,
                        "failed": sum(load.failures().values()),
                        "recycled": len(workers.seen - first),
                        "mib": _memory(process.pid),
                    }
                    samples.append(sample)
                    print(json.dumps(sample), flush=True)
        outcomes = Counter({str(outcome): n for outcome, n in load.outcomes.items()})
        seconds = time.monotonic() - started
    summary = {
        "minutes": round(seconds / 60, 2),
        "requests": sum(outcomes.values()),
        "per_second": round(sum(outcomes.values()) / seconds, 1),
        "answers": dict(outcomes),
        "workers_started": len(workers.seen - first),
        "reloads": reloads,
        "samples": samples,
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(summary, indent=1) + "\n")
    print(f"soak: {summary['requests']} requests in {summary['minutes']} min ({summary['per_second']}/s), answers {dict(outcomes)}, "
          f"{summary['workers_started']} workers started, {reloads} reloads; {args.json}", flush=True)  # fmt: skip
    return 0 if set(outcomes) == {"200"} else 1


if __name__ == "__main__":
    sys.exit(main())
