"""``pyramide``: the engine from the command line.

    pyramide solve PYR1-N-AAAAAHW           # is this deal winnable? the line, or the most removable
    pyramide solve PYR1-DT0-AAAAAAS --budget 5000000
    pyramide stats --rules N --deals 10000  # the win rate over reproducible deals, with a 95% CI
    pyramide stats --rules DT0 --deals 1000 --json | jq .win_rate
    pyramide stats --rules traditional --deals 1000   # a preset by its name (GET /v1/rules)
    pyramide solve PYR1-N-AAAAAHW --rules traditional  # the same seed under other rules

Results go to stdout, progress and errors to stderr. With ``--json``, stdout is one JSON object
(the keys are in :data:`SOLVE_KEYS` and :data:`STATS_KEYS`, shown by ``pyramide solve --help``
and ``pyramide stats --help``). The exit statuses are in :data:`EXIT_STATUSES`. Ctrl-C during
``stats`` stops the worker processes and prints the result over the deals done so far, marked
partial: they are the seeds from ``--start`` on, in order, so ``--start`` can go on from there.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import math
import os
import signal
import sys
import threading
import time
from pathlib import Path

# tqdm rather than rich: one small package with no dependencies of its own, while rich brings
# markdown-it-py, mdurl and pygments, which nothing else at run time needs.
from tqdm import tqdm

from . import __version__
from .engine import GameState, PyramideError, Rules, options_registry, solve, solver_supports

SEEDS = 26**7  # a deal code's seed is 7 letters: the seeds 0 … 26**7 - 1

#: The exit statuses, as ``--help`` shows them.
EXIT_STATUSES = """\
exit status:
  0    success: the answer is printed (whatever it is: winnable or unwinnable)
  1    failure: the command could not be carried out (the output could not be written, worker
       processes could not be started, or an internal error, shown with its traceback)
  2    usage error: a bad option or argument (a bad deal code or rules segment, rules the solver
       does not search, a count below 1)
  3    solve: the budget ran out before a verdict (the result is "unknown")
  130  interrupted (Ctrl-C); stats prints its result over the deals done so far, marked partial
"""

#: The exit statuses of ``pyramide serve``.
SERVE_EXIT_STATUSES = """\
exit status:
  0    stopped (SIGTERM, Ctrl-C)
  1    could not serve: the port is in use, nginx could not start, or nginx stopped
  2    usage error: a bad option, or a bad HOST, PORT, WEB_CONCURRENCY… in the environment
"""

#: The keys of ``pyramide solve --json`` (those of the API's ``POST /v1/solve``, and the code).
SOLVE_KEYS = """\
--json prints one JSON object:
  code           the deal code, in canonical form
  result         "winnable", "unwinnable" or "unknown" (the budget ran out)
  line           a winning line: a list of moves as the API writes them, or null
  minimal        whether that line is known to have the fewest moves possible
  max_removable  the most pyramid cards any line removes (when unwinnable), or null
  nodes          the positions searched
"""

#: The keys of ``pyramide stats --json``.
STATS_KEYS = """\
--json prints one JSON object:
  rules       the rules segment, in canonical form
  budget      the most positions searched per deal
  start       the first seed
  deals       how many deals were asked for
  done        how many were solved: the seeds start … start + done - 1
  partial     true when interrupted before all the deals were done
  winnable, unwinnable, unknown
              the verdicts over the deals done
  decided     winnable + unwinnable
  win_rate    winnable / decided, or null when no deal was decided
  ci95        [low, high]: the 95% Wilson interval of the win rate over the decided deals
"""


# -- argument types: a bad value is a usage error (argparse exits with status 2) ---------------
def _count(text: str, least: int) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if number < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}: {number}")
    return number


def positive(text: str) -> int:
    return _count(text, 1)


def seed_number(text: str) -> int:
    number = _count(text, 0)
    if number >= SEEDS:
        raise argparse.ArgumentTypeError(f"seeds go from 0 to {SEEDS - 1}: {number}")
    return number


def _searched(rules: Rules) -> Rules:
    """Rules the solver has a model of (every preset and composition of their options: the fast
    searches or the general one); a shape no search models is a usage error, as the API's
    ``solver_unsupported``."""
    if not solver_supports(rules):
        raise PyramideError("solver_unsupported", field="rules", rules=rules.letters)
    return rules


def deal_code(text: str) -> GameState:
    try:
        game = GameState.new(text)
        _searched(game.rules)
        return game
    except PyramideError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def rules_segment(text: str) -> Rules:
    """A preset's name (``traditional``, as ``GET /v1/rules`` lists them) or a deal code's rules
    segment (``DST0``); the message of an unknown one lists every name and letter."""
    try:
        return _searched(Rules.named(text))
    except PyramideError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _solve_game(args: argparse.Namespace) -> GameState:
    """The deal to solve: the code, or with ``--rules`` its seed under those rules."""
    if args.rules is None:
        return deal_code(args.code)
    parts = args.code.strip().upper().split("-")
    if len(parts) != 3 or len(parts[2]) != 7:
        raise argparse.ArgumentTypeError(f"--rules takes a seed code (PYR1-<rules>-<7 letters>): {args.code!r}")
    return deal_code(f"{parts[0]}-{args.rules.letters}-{parts[2]}")


# -- solve -----------------------------------------------------------------------------------------
def _solve(args: argparse.Namespace) -> int:
    game = args.game
    solution = solve(game, budget=args.budget, shortest=args.shortest)
    if args.json:
        print(json.dumps({"code": game.code, **solution.to_json()}))
    else:
        print(f"{game.code}: {solution.result} ({solution.nodes} positions searched)")
        if solution.line is not None:
            known = "the fewest possible" if solution.minimal else "not known to be the shortest"
            print(f"a winning line of {len(solution.line)} moves ({known}):")
            print(" ".join(str(move) for move in solution.line))
        elif solution.max_removable is not None:
            print(f"at most {solution.max_removable} of the 28 pyramid cards can be removed")
    return 0 if solution.result != "unknown" else 3


# -- stats -----------------------------------------------------------------------------------------
def wilson_interval(wins: int, total: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if total == 0:
        return 0.0, 1.0
    p = wins / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate_line(wins: int, decided: int) -> str:
    """The win rate with its interval; no rate at all before a deal is decided (a Ctrl-C before
    the first results), rather than a rate of 0 over nothing.

    >>> rate_line(0, 0)
    'win rate: none yet (no deal decided)'
    >>> rate_line(1, 4)
    'win rate 25.00% (95% CI 4.56–69.94%, over the 4 decided deals)'
    """
    if not decided:
        return "win rate: none yet (no deal decided)"
    low, high = wilson_interval(wins, decided)
    return f"win rate {100 * wins / decided:.2f}% (95% CI {100 * low:.2f}–{100 * high:.2f}%, over the {decided} decided deals)"


class Progress:
    """Progress on stderr: tqdm's bar on a terminal; elsewhere (a log, a pipe) one line per tenth
    of the deals, so that logs stay short."""

    def __init__(self, total: int, label: str, done: int = 0) -> None:
        self.total, self.label, self.done = total, label, done
        self.tty = sys.stderr.isatty()
        self.started = time.monotonic()
        self.step = max(1, total // 10)
        # tqdm shows nothing on a terminal that reports no size (0 columns, 0 lines): 80 × 24 then
        sized = self.tty and _terminal_sized(sys.stderr)
        self.bar = tqdm(
            total=total, initial=done, desc=label, unit="deal", file=sys.stderr, disable=not self.tty,
            dynamic_ncols=sized, ncols=None if sized else 80, nrows=None if sized else 24,
        )  # fmt: skip

    def update(self) -> None:
        self.done += 1
        self.bar.update()
        if not self.tty and (self.done % self.step == 0 or self.done == self.total):
            elapsed = time.monotonic() - self.started
            line = tqdm.format_meter(self.done, self.total, elapsed, ncols=80, prefix=self.label, ascii=True, unit="deal")
            print(line, file=sys.stderr, flush=True)

    def close(self) -> None:
        self.bar.close()


def _terminal_sized(stream: object) -> bool:
    try:
        size = os.get_terminal_size(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return False
    return size.columns > 0 and size.lines > 0


#: What ``stats`` takes when neither the command line nor a state file gives it.
STATS_DEFAULTS = {"rules": "N", "start": 0, "deals": 1000, "budget": 2_000_000}


def install_hint(extra: str) -> str:
    """How to install an extra where this runs: in a clone's ``.venv`` (made without a pip of its
    own: the Makefile installs into it), ``make install``; elsewhere pip."""
    root = Path(__file__).resolve().parent.parent
    if (root / "Makefile").exists() and Path(sys.prefix).resolve() == (root / ".venv").resolve():
        return f"`make install` in {root} installs it"
    return f'pip install "pyramide[{extra}]" installs it'


def _stats(args: argparse.Namespace) -> int:
    try:
        dask_stats = importlib.import_module(".stats", __package__)  # imports distributed
    except ImportError as error:
        print(f"pyramide stats: error: it runs on Dask, which is not installed ({error}): {install_hint('dask')}", file=sys.stderr)
        return 1
    given = {"rules": None if args.rules is None else args.rules.letters, "start": args.start, "deals": args.deals, "budget": args.budget}
    try:
        run = dask_stats.open_run(args.resume, given, STATS_DEFAULTS)
    except (dask_stats.StateError, OSError) as error:
        print(f"pyramide stats: error: --resume: {error}", file=sys.stderr)
        return 2 if isinstance(error, dask_stats.StateError) else 1
    try:
        if run.end > SEEDS:
            print(f"pyramide stats: error: the last seed would be {run.end - 1}, past the last one, {SEEDS - 1}", file=sys.stderr)
            return 2
        return _stats_run(args, run, dask_stats)
    finally:
        run.close()


def _stats_run(args: argparse.Namespace, run, dask_stats) -> int:
    rules = Rules.from_letters(run.rules)
    # Ctrl-C only sets this flag, which the loop reads between chunks: a KeyboardInterrupt raised at
    # any instruction could leave a lock of the client's own held (as one of multiprocessing's was).
    interrupt = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda signum, frame: interrupt.set())
    progress = None
    try:
        kept = run.kept()
        if args.resume is not None and kept:
            print(f"pyramide stats: {args.resume}: {kept} of the {run.deals} deals were done, solving the rest", file=sys.stderr)
        with dask_stats.cluster(args.scheduler, args.workers) if run.remaining() else contextlib.nullcontext() as client:
            # the bar shows the deals done from the first seed on without a gap, as the result does
            # when interrupted; a chunk finished ahead of one still running shows when that one ends
            shown = run.start + run.prefix()[0]
            progress = Progress(run.deals, f"rules {rules.letters}", done=shown - run.start)

            def done(chunk: dict) -> None:
                nonlocal shown
                while shown in run.chunks:
                    for _ in range(run.chunks[shown]["stop"] - shown):
                        progress.update()
                    shown = run.chunks[shown]["stop"]

            if client is not None:  # a state file of a finished run needs no cluster
                dask_stats.solve_run(run, client, done, interrupt)
    finally:
        if progress is not None:
            progress.close()
        signal.signal(signal.SIGINT, previous)
    finished = run.kept()
    done, counts = run.prefix()
    interrupted = finished < run.deals
    decided = counts["winnable"] + counts["unwinnable"]
    low, high = wilson_interval(counts["winnable"], decided)
    if interrupted:
        if args.resume is not None:
            go_on = f"the same command goes on from there, keeping the {finished} deals done in {args.resume}"
        else:
            go_on = f"--start {run.start + done} goes on from there"
        print(f"pyramide stats: interrupted after {done} of {run.deals} deals ({go_on})", file=sys.stderr)
    if args.json:
        print(json.dumps({
            "rules": rules.letters,
            "budget": run.budget,
            "start": run.start,
            "deals": run.deals,
            "done": done,
            "partial": interrupted,
            **counts,
            "decided": decided,
            "win_rate": counts["winnable"] / decided if decided else None,
            "ci95": [low, high],
        }))  # fmt: skip
    else:
        seeds = f" (seeds {run.start}…{run.start + done - 1})" if done else ""
        partial = f", interrupted: a partial result of the {run.deals} deals asked" if interrupted else ""
        print(f"rules {rules.letters}: {done} deals{seeds}{partial}")
        print(f"winnable {counts['winnable']}, unwinnable {counts['unwinnable']}, unknown {counts['unknown']}")
        print(rate_line(counts["winnable"], decided))
    return 130 if interrupted else 0


# -- the command -----------------------------------------------------------------------------------
def parser() -> argparse.ArgumentParser:
    """The command, with ``.commands``: each subcommand's own parser (whose errors name it)."""

    def command(name: str, help: str, keys: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(
            name, help=help, description=help, epilog=f"{keys}\n{EXIT_STATUSES}", formatter_class=raw
        )
        sub.add_argument("--json", action="store_true", help="print one JSON object (its keys below)")
        return sub

    raw = argparse.RawDescriptionHelpFormatter
    registry = options_registry()  # the presets and letters --rules takes (service/engine/_options.py)
    presets, letters = ", ".join(Rules.presets()), registry.segment_letters().listed
    segment = f"a rules segment (N, or the letters {letters} in that order, then a recycle limit)"
    top = argparse.ArgumentParser(
        prog="pyramide", description="Pyramide's rules engine from the command line.", epilog=EXIT_STATUSES,
        formatter_class=raw,
    )  # fmt: skip
    top.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = top.add_subparsers(dest="command", required=True)
    solve_parser = command("solve", "solve a deal exactly", SOLVE_KEYS)
    add = solve_parser.add_argument
    add("code", help="a deal code, e.g. PYR1-N-AAAAAHW")
    add("--rules", type=rules_segment, default=None,
        help=f"deal the code's seed under these rules instead: a preset ({presets}) or {segment}")
    add("--budget", type=positive, default=2_000_000, help="most positions to search (default 2,000,000)")
    add("--shortest", action="store_true", help="then search the line with the fewest moves")
    solve_parser.set_defaults(run=_solve)
    stats_parser = command("stats", "measure a rule set's win rate over reproducible deals", STATS_KEYS)
    add = stats_parser.add_argument
    add("--rules", type=rules_segment, default=None,
        help=f"a preset ({presets}) or {segment}: N, S, DT0, CDT2…; default N")
    add("--deals", type=positive, default=None, help="how many deals (default 1,000)")
    add("--start", type=seed_number, default=None, help="the first seed (default 0)")
    add("--workers", type=positive, default=None,
        help="worker processes of the local cluster (default: one per core); not with --scheduler")
    add("--budget", type=positive, default=None, help="most positions per deal (default 2,000,000)")
    add("--scheduler", default=None, metavar="ADDRESS",
        help="run on the Dask cluster of this scheduler (tcp://host:8786) instead of a local one")
    add("--resume", default=None, metavar="FILE",
        help="keep each chunk's result in FILE, and go on from the chunks it keeps (the run's parameters "
        "are FILE's own: give them only to start it)")
    stats_parser.set_defaults(run=_stats)
    serve_parser = commands.add_parser(
        "serve",
        help="serve the API, its docs explorer and the web client (HOST, PORT, WEB_CONCURRENCY from the environment)",
        description="Serve the API under gunicorn, as `make serve` does: on HOST:PORT (127.0.0.1:8000 by "
        "default; --host and --port override them), with the web client at / and the docs explorer at /docs.",
        epilog=SERVE_EXIT_STATUSES,
        formatter_class=raw,
    )
    serve_parser.add_argument("--host", default=None, help="the address to listen on (default: HOST, or 127.0.0.1)")
    serve_parser.add_argument("--port", type=port_number, default=None, help="the port (default: PORT, or 8000)")
    serve_parser.set_defaults(run=_serve)
    top.commands = {"solve": solve_parser, "stats": stats_parser, "serve": serve_parser}  # type: ignore[attr-defined]
    return top


def port_number(text: str) -> int:
    number = _count(text, 0)
    if number > 65535:
        raise argparse.ArgumentTypeError(f"a port goes from 0 to 65535: {number}")
    return number


#: The server's settings read from the environment that must be whole numbers, and their least.
SERVE_NUMBERS = {"PORT": 0, "WEB_CONCURRENCY": 1, "PYRAMIDE_THREADS": 1, "PYRAMIDE_MAX_REQUESTS": 0}


def serve_environment(environ: dict[str, str]) -> str | None:
    """Why the server's environment cannot be used (``PORT=abc``), or None: said before gunicorn
    starts, as a usage error, rather than a traceback from deep inside it."""
    for name, least in SERVE_NUMBERS.items():
        if name not in environ:
            continue
        try:
            number = _count(environ[name], least)
            if name == "PORT":
                port_number(str(number))
        except argparse.ArgumentTypeError as error:
            return f"{name}={environ[name]!r}: {error}"
    return None


def _serve(args: argparse.Namespace) -> int:
    if args.host is not None:
        os.environ["HOST"] = args.host
    if args.port is not None:
        os.environ["PORT"] = str(args.port)
    problem = serve_environment(os.environ)
    if problem is not None:
        print(f"pyramide serve: error: {problem}", file=sys.stderr)
        return 2
    from .api.serve import main as serve

    serve()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Runs the command and returns its exit status (see :data:`EXIT_STATUSES`)."""
    command = parser()
    try:
        args = command.parse_args(argv)
        sub = command.commands[args.command]  # (its errors say "pyramide stats: error:", as argparse's own)
        if args.command == "stats":
            if args.scheduler is not None and args.workers is not None:
                sub.error("argument --workers: the local cluster's size; a --scheduler's cluster has its own workers")
            if args.workers is None:
                args.workers = os.cpu_count() or 1
            if (args.start or 0) + (args.deals or 0) > SEEDS:
                sub.error(f"the last seed would be {args.start + args.deals - 1}, past the last one, {SEEDS - 1}")
        if args.command == "solve":
            try:
                args.game = _solve_game(args)
            except argparse.ArgumentTypeError as error:
                sub.error(f"argument code: {error}")
    except SystemExit as stop:  # --help and --version (0), a usage error (2): argparse has said why
        return 0 if stop.code is None else stop.code if isinstance(stop.code, int) else 2
    try:
        status = args.run(args)
        sys.stdout.flush()  # so that output that cannot be written fails here, not at exit
    except KeyboardInterrupt:
        print(f"pyramide {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError as error:
        if _stdout_closed():  # (`pyramide solve … | head`: the reader has all it wanted; nothing to say)
            _drop_stdout()
            return 1
        print(f"pyramide {args.command}: error: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"pyramide {args.command}: error: {error}", file=sys.stderr)
        _drop_stdout()
        return 1
    return status


def _stdout_closed() -> bool:
    """Whether stdout's reader has gone (a pipe with no reader: poll says POLLERR), rather than
    another pipe or socket having broken."""
    import select

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(event & select.POLLERR for _, event in poller.poll(0))
    except (OSError, ValueError, AttributeError):  # (no such file, or no poll: not stdout's)
        return False


def _drop_stdout() -> None:
    """After stdout failed: what is left in its buffer goes nowhere, rather than failing again at exit."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # not a real file (a test's capture): nothing flushes it at exit
        pass


if __name__ == "__main__":
    sys.exit(main())
