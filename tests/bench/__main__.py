"""``python -m tests.bench [engine|api|solver|shortest|server|attacks|fairness|replay|kit|stats ...]``: run the named benchmarks (all by default)."""

import sys

from . import bench_api, bench_attacks, bench_engine, bench_fairness, bench_kit, bench_replay, bench_server, bench_shortest, bench_solver, bench_stats

BENCHES = {
    "engine": bench_engine.main,
    "api": bench_api.main,
    "solver": bench_solver.main,
    "shortest": bench_shortest.main,
    "server": bench_server.main,
    "attacks": bench_attacks.main,
    "fairness": bench_fairness.main,
    "replay": bench_replay.main,
    "kit": bench_kit.main,
    "stats": bench_stats.main,
}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(BENCHES):
        BENCHES[name]()
