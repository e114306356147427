"""``pyramide stats`` benchmark: the Dask run against the process pool it replaced, on the same deals.

``python -m tests.bench stats`` — the seeds 0 … 19,999 of the app's rules (``PYRAMIDE_BENCH_DEALS``
sets the count, ``PYRAMIDE_BENCH_RULES`` the rules segment), solved three ways on as many worker
processes as the machine has cores (``PYRAMIDE_BENCH_WORKERS``):

- **one process**, the deals in a loop: the work itself;
- **the old pool**, as ``pyramide stats`` ran before Dask: a ``multiprocessing.Pool`` taking
  batches of 8 consecutive seeds in order (``imap``);
- **Dask**, as ``pyramide stats`` runs now: ``service.stats.solve_run`` on a ``LocalCluster`` of
  one-thread worker processes (started before the clock starts, as the old pool's start is not
  timed either).

Each prints its wall time, its deals per second per worker, and its speed-up over one process;
the verdicts of the three must be the same counts. Run it on a quiet machine: the ratios are what
it measures.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time

from service import stats as dask_stats
from service.engine import GameState, Rules, seed_code, solve

BATCH = 8  # the old pool's batch of consecutive seeds


def _verdicts(job: tuple[str, int, int]) -> list[str]:
    letters, first, stop = job
    rules = Rules.from_letters(letters)
    return [solve(GameState.new(seed_code(rules, seed)), max_removable=False).result for seed in range(first, stop)]


def _count(verdicts) -> dict[str, int]:
    counts = dict.fromkeys(dask_stats.VERDICTS, 0)
    for verdict in verdicts:
        counts[verdict] += 1
    return counts


def one_process(letters: str, deals: int) -> dict[str, int]:
    return _count(_verdicts((letters, 0, deals)))


def old_pool(letters: str, deals: int, workers: int) -> dict[str, int]:
    jobs = [(letters, first, min(first + BATCH, deals)) for first in range(0, deals, BATCH)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        return _count(verdict for batch in pool.imap(_verdicts, jobs) for verdict in batch)


def on_dask(letters: str, deals: int, client) -> dict[str, int]:
    run = dask_stats.Run(rules=letters, start=0, deals=deals, budget=2_000_000)
    dask_stats.solve_run(run, client, lambda chunk: None, threading.Event())
    return {verdict: sum(chunk[verdict] for chunk in run.chunks.values()) for verdict in dask_stats.VERDICTS}


def main() -> list[dict]:
    letters = Rules.named(os.environ.get("PYRAMIDE_BENCH_RULES", "N")).letters
    deals = int(os.environ.get("PYRAMIDE_BENCH_DEALS", 20_000))
    workers = int(os.environ.get("PYRAMIDE_BENCH_WORKERS", os.cpu_count() or 1))
    print(f"stats: {deals:,} deals of {letters} (the seeds 0…{deals - 1}), {workers} workers")
    rows, base = [], None

    def timed(name: str, count: int, solve_all) -> None:
        nonlocal base
        began = time.perf_counter()
        counts = solve_all()
        wall = time.perf_counter() - began
        base = base or wall
        per_worker = deals / wall / count
        rows.append({"run": name, "workers": count, "wall_s": round(wall, 2), "deals_per_s_per_worker": round(per_worker, 1), **counts})
        print(f"  {name:<14} {count} worker(s): {wall:8.2f} s, {per_worker:7.1f} deals/s per worker, "
              f"×{base / wall:4.2f} one process  {counts}", flush=True)  # fmt: skip

    timed("one process", 1, lambda: one_process(letters, deals))
    timed("old pool", workers, lambda: old_pool(letters, deals, workers))
    with dask_stats.cluster(None, workers) as client:
        client.submit(dask_stats.solve_chunk, letters, 0, 1, 2_000_000, pure=False).result()  # workers warm
        timed("Dask", workers, lambda: on_dask(letters, deals, client))
    verdicts = {tuple(row[v] for v in dask_stats.VERDICTS) for row in rows}
    print("  the same verdicts every way" if len(verdicts) == 1 else f"  VERDICTS DIFFER: {rows}")
    return rows


if __name__ == "__main__":
    main()
