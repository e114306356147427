"""``pyramide``: the engine from the command line.

    pyramide solve PY1-N-AAAAAHW            # is this deal winnable? the line, or the most removable
    pyramide solve PY1-DT0-AAAAAAS --budget 5000000
"""

from __future__ import annotations

import argparse
import sys

from service.engine import GameState, PyramideError, solve


def _solve(args: argparse.Namespace) -> int:
    try:
        game = GameState.new(args.code)
    except PyramideError as error:
        print(f"pyramide: {error}", file=sys.stderr)
        return 2
    solution = solve(game, budget=args.budget)
    print(f"{game.code}: {solution.result} ({solution.nodes} positions searched)")
    if solution.line is not None:
        print(f"a winning line of {len(solution.line)} moves (not known to be the shortest):")
        print(" ".join(str(move) for move in solution.line))
    elif solution.max_removable is not None:
        print(f"at most {solution.max_removable} of the 28 pyramid cards can be removed")
    return 0 if solution.result != "unknown" else 3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="pyramide", description="Pyramide's rules engine from the command line.")
    commands = parser.add_subparsers(dest="command", required=True)
    solve_parser = commands.add_parser("solve", help="solve a deal exactly")
    solve_parser.add_argument("code", help="a deal code, e.g. PY1-N-AAAAAAS")
    solve_parser.add_argument("--budget", type=int, default=2_000_000, help="most positions to search (default 2,000,000)")
    solve_parser.set_defaults(run=_solve)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
