"""Shortest-line benchmark: anytime weighted A* over runs of draws (``"shortest": true`` today) side
by side with the searches it replaced, A* over runs of draws, A* move by move and breadth-first,
on the first winnable deals (seeds from 0), on one core; and for the presets of the general
search (Tut's Tomb, Apophis, Pharaoh, the Spanish pyramid), its anytime weighted A* beside its A*
and the breadth-first search they replaced.

``python -m tests.bench shortest`` — 20 winnable deals per rule set (``PYRAMIDE_BENCH_DEALS`` sets
the count; ``PYRAMIDE_BENCH_RULES=tuts-tomb,spanish`` runs only the rule sets named), each searched
within the API's largest budget (250,000 positions) and its time bound (``PYRAMIDE_SOLVE_SECONDS``,
2 s by default) as the API runs them. A deal counts as proven when the
answer is ``minimal``; a row gives the median and 95th percentile of the time a deal takes
(verdict and shortest line, as the API answers: wall clock, and the process's CPU time, which a
busy machine does not inflate) and the median positions searched. The time bound is wall clock:
on a busy machine, ``PYRAMIDE_SOLVE_SECONDS=60`` leaves the node budget alone to bound the
search, and the CPU times say what one core takes. Where the compiled core is built (``make compiled``), the
anytime search runs again compiled (``pyramide.engine``, the same question): its row ends
``compiled``. Where two
searches prove a line, their lengths must agree; every line is replayed by the engine. A deal
the time bound cuts before its verdict (no line at all) counts as not proven, and apart.

Then, beside the peer (``tests/bench/bench_peer.py``): mchung94/solitaire-player's A* and ours on
the first 30 deals of its seed 1 under `DT2`, deal by deal in one run, with the ratio ours/peer of
the median time, when ``PYRAMIDE_PEER`` names the peer's build (``make peer PEER_SRC=…``); without
it, ours alone on the same deals, and how to build the peer. ``PYRAMIDE_BENCH_RULES`` without
``peer`` leaves it out.
"""

from __future__ import annotations

import os
import statistics
import time

from service.api._limits import SECONDS
from tests.bench import bench_peer
from service.engine import PRESETS, GameState, Move, Rules, play, seed_code, solve
from service.engine._solver import SearchOptions

BUDGET = 250_000
SEARCHES = {
    "anytime A* runs": SearchOptions(),
    "A* runs": SearchOptions(shortest="a*"),
    "A* moves": SearchOptions(shortest="a*-plain"),
    "breadth-first": SearchOptions(shortest="breadth-first"),
}
#: The presets of the general search (``general_shortest``): its A* and the breadth-first search
#: it replaced.
GENERAL_SEARCHES = {
    "anytime A*": SearchOptions(),
    "A*": SearchOptions(shortest="a*"),
    "breadth-first": SearchOptions(shortest="breadth-first"),
}
RULE_SETS = {
    "Microsoft (DT2)": (Rules(max_recycles=2, drawn_pairs_with_waste=True, initial_waste=False), SEARCHES),
    "the app (N)": (Rules(), SEARCHES),
    **{name: (PRESETS[name], GENERAL_SEARCHES) for name in ("tuts-tomb", "apophis", "pharaoh", "spanish")},
}


def winnable_deals(rules: Rules, count: int) -> list[GameState]:
    deals, seed = [], 0
    while len(deals) < count:
        game = GameState.new(seed_code(rules, seed))
        if solve(game, max_removable=False).result == "winnable":
            deals.append(game)
        seed += 1
    return deals


def percentile(values: list[float], p: int) -> float:
    """The nearest-rank ``p``-th percentile."""
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * p // 100) - 1)]


def main() -> list[dict]:
    rows = []
    count = int(os.environ.get("PYRAMIDE_BENCH_DEALS", 20))
    print(f"shortest lines (first {count} winnable deals, budget {BUDGET:,}, {SECONDS:g} s bound, one core)")
    only = os.environ.get("PYRAMIDE_BENCH_RULES")  # (names, comma-separated: the others are skipped)
    compiled = bench_peer.compiled_engine()  # (the compiled core, where built: its anytime row too)
    for name, (rules, searches) in RULE_SETS.items():
        if only and name not in only.split(","):
            continue
        deals = winnable_deals(rules, count)
        lengths: dict[str, list] = {}
        first = next(iter(searches))
        runs = {search: (options, None) for search, options in searches.items()}
        if compiled is not None:
            runs[f"{first}, compiled"] = (None, compiled)
        for search, (options, engine) in runs.items():
            times, cpu, nodes, proven, unanswered, lengths[search] = [], [], [], 0, 0, []
            for game in deals:
                start, start_cpu = time.perf_counter(), time.process_time()
                deadline = time.monotonic() + SECONDS
                if engine is None:
                    solution = solve(game, max_removable=False, shortest=True, budget=BUDGET, deadline=deadline, options=options)
                else:  # (the same question to the compiled core; its moves read back as ours)
                    solution = engine.solve(engine.GameState.new(game.code), max_removable=False, shortest=True, budget=BUDGET, deadline=deadline)
                times.append((time.perf_counter() - start) * 1000)
                cpu.append((time.process_time() - start_cpu) * 1000)
                nodes.append(solution.nodes)
                if solution.line is None:  # (the bound came before even the verdict: a busy machine)
                    unanswered += 1
                    lengths[search].append(None)
                    continue
                state = game
                for move in solution.line:  # (the compiled core's moves read back as ours)
                    state = play(state, Move.from_text(str(move))).state
                assert state.status == "won", game.code
                proven += solution.minimal
                lengths[search].append(len(solution.line) if solution.minimal else None)
            row = {"rules": name, "search": search, "deals": len(deals), "proven": proven,
                   "median_ms": round(statistics.median(times), 1), "p95_ms": round(percentile(times, 95), 1),
                   "max_ms": round(max(times), 1), "median_positions": int(statistics.median(nodes)),
                   "cpu_median_ms": round(statistics.median(cpu), 1), "cpu_p95_ms": round(percentile(cpu, 95), 1),
                   "no_line": unanswered}  # fmt: skip
            rows.append(row)
            print(f"  {name:<16} {search:<14} proven shortest {proven:>3}/{len(deals)} ({100 * proven / len(deals):5.1f} %)  "
                  f"median {row['median_ms']:>8.1f} ms  p95 {row['p95_ms']:>8.1f} ms  max {row['max_ms']:>8.1f} ms  "
                  f"median positions {row['median_positions']:>8,}  CPU median {row['cpu_median_ms']:>7.1f} ms  "
                  f"p95 {row['cpu_p95_ms']:>7.1f} ms" + (f"  no line within the bound {unanswered}" if unanswered else ""))  # fmt: skip
        for a, b in ((first, other) for other in runs if other != first):
            both = [(x, y) for x, y in zip(lengths[a], lengths[b]) if x is not None and y is not None]
            assert all(x == y for x, y in both), both
            print(f"  {name:<16} line lengths of {a} and {b} agree on the {len(both)} deals both proved")
    if not only or "peer" in only.split(","):
        rows += bench_peer.main()
    return rows


if __name__ == "__main__":
    main()
