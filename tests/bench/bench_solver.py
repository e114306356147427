"""Solver benchmark: ms per deal (winnability, on one core) over fixed deals, per rule set.

``python -m tests.bench solver`` — 1,000 deals per rule set (``PYRAMIDE_BENCH_DEALS`` sets every
count). Deals are the seeds 0, 7919, 2·7919…
"""

from __future__ import annotations

import os
import statistics
import time

from service.engine import GameState, Rules, seed_code, solve

RULE_SETS = {
    "pyramide (N)": (Rules(), 1000),
    "one pass, 24-card stock, stock+waste tops (DT0)": (Rules(max_recycles=0, drawn_pairs_with_waste=True, initial_waste=False), 1000),
    "one pass, 24-card stock, waste top only (T0)": (Rules(max_recycles=0, initial_waste=False), 1000),
    "three passes, 24-card stock, stock+waste tops (DT2)": (Rules(max_recycles=2, drawn_pairs_with_waste=True, initial_waste=False), 1000),
}


def main() -> list[dict]:
    rows = []
    print("solver (winnability per deal, one core)")
    for name, (rules, deals) in RULE_SETS.items():
        deals = int(os.environ.get("PYRAMIDE_BENCH_DEALS", deals))
        times, verdicts = [], {}
        for i in range(deals):
            game = GameState.new(seed_code(rules, i * 7919))
            start = time.perf_counter()
            verdict = solve(game, max_removable=False).result
            times.append((time.perf_counter() - start) * 1000)
            verdicts[verdict] = verdicts.get(verdict, 0) + 1
        row = {"rules": name, "deals": deals, "median_ms": round(statistics.median(times), 2),
               "mean_ms": round(statistics.mean(times), 2), "max_ms": round(max(times), 1), **verdicts}  # fmt: skip
        rows.append(row)
        print(f"  {name:<52} {deals:>5} deals: median {row['median_ms']:>8.2f} ms  mean {row['mean_ms']:>8.2f} ms  "
              f"max {row['max_ms']:>8.1f} ms  {verdicts}")  # fmt: skip
    return rows


if __name__ == "__main__":
    main()
