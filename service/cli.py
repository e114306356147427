"""``pyramide``: the engine from the command line.

    pyramide solve PY1-N-AAAAAHW            # is this deal winnable? the line, or the most removable
    pyramide solve PY1-DT0-AAAAAAS --budget 5000000
    pyramide stats --rules N --deals 10000  # the win rate over reproducible deals, with a 95% CI
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import sys
import time

from service.engine import GameState, PyramideError, Rules, seed_code, solve


def _solve(args: argparse.Namespace) -> int:
    game = GameState.new(args.code)
    solution = solve(game, budget=args.budget, shortest=args.shortest)
    print(f"{game.code}: {solution.result} ({solution.nodes} positions searched)")
    if solution.line is not None:
        known = "the fewest possible" if solution.minimal else "not known to be the shortest"
        print(f"a winning line of {len(solution.line)} moves ({known}):")
        print(" ".join(str(move) for move in solution.line))
    elif solution.max_removable is not None:
        print(f"at most {solution.max_removable} of the 28 pyramid cards can be removed")
    return 0 if solution.result != "unknown" else 3


def wilson_interval(wins: int, total: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if total == 0:
        return 0.0, 1.0
    p = wins / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def _verdict(job: tuple[str, int, int]) -> str:
    letters, seed, budget = job
    return solve(GameState.new(seed_code(Rules.from_letters(letters), seed)), budget=budget, max_removable=False).result


def _stats(args: argparse.Namespace) -> int:
    rules = Rules.from_letters(args.rules)
    jobs = [(rules.letters, seed, args.budget) for seed in range(args.start, args.start + args.deals)]
    counts = {"winnable": 0, "unwinnable": 0, "unknown": 0}
    started = time.monotonic()
    with multiprocessing.Pool(args.workers) as pool:
        for done, verdict in enumerate(pool.imap_unordered(_verdict, jobs, chunksize=8), 1):
            counts[verdict] += 1
            tty = sys.stderr.isatty()
            if tty or done == len(jobs) or done % max(1, len(jobs) // 10) == 0:
                filled = 30 * done // len(jobs)
                bar = f"[{'#' * filled}{'.' * (30 - filled)}] {done}/{len(jobs)} deals  {time.monotonic() - started:.0f} s"
                print(("\r" if tty else "") + bar, end="" if tty and done < len(jobs) else "\n", file=sys.stderr, flush=True)
    decided = counts["winnable"] + counts["unwinnable"]
    low, high = wilson_interval(counts["winnable"], decided)
    print(f"rules {rules.letters}: {args.deals} deals (seeds {args.start}…{args.start + args.deals - 1})")
    print(f"winnable {counts['winnable']}, unwinnable {counts['unwinnable']}, unknown {counts['unknown']}")
    rate = counts["winnable"] / decided if decided else 0.0
    print(f"win rate {100 * rate:.2f}% (95% CI {100 * low:.2f}–{100 * high:.2f}%, over the {decided} decided deals)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pyramide", description="Pyramide's rules engine from the command line.")
    commands = parser.add_subparsers(dest="command", required=True)
    solve_parser = commands.add_parser("solve", help="solve a deal exactly")
    solve_parser.add_argument("code", help="a deal code, e.g. PY1-N-AAAAAAS")
    solve_parser.add_argument("--budget", type=int, default=2_000_000, help="most positions to search (default 2,000,000)")
    solve_parser.add_argument("--shortest", action="store_true", help="then search the line with the fewest moves")
    solve_parser.set_defaults(run=_solve)
    stats_parser = commands.add_parser("stats", help="measure a rule set's win rate over reproducible deals")
    stats_parser.add_argument("--rules", default="N", help="the rules segment of a deal code (N, S, DT0, CDT2…)")
    stats_parser.add_argument("--deals", type=int, default=1000, help="how many deals (default 1,000)")
    stats_parser.add_argument("--start", type=int, default=0, help="the first seed (default 0)")
    stats_parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)")
    stats_parser.add_argument("--budget", type=int, default=2_000_000, help="most positions per deal (default 2,000,000)")
    stats_parser.set_defaults(run=_stats)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except PyramideError as error:  # a bad code or rules segment: say which part, exit 2
        print(f"pyramide: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
