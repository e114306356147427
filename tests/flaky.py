"""``make flaky``: the tests that wait on another process, run again and again beside a CPU hog.

A test that waits on another process (a server starting, a progress line in a pipe, what a
signal does) must wait on that event, never on the machine being idle. This runs each of them
``--runs`` times (default 50) while a busy loop runs on every core, and fails if any run fails:

    .venv/bin/python -m tests.flaky --runs 50          # (make flaky FLAKY_RUNS=50)
    .venv/bin/python -m tests.flaky --runs 5 -- -k ctrl_c   # more pytest arguments after --

It is also the pytest plugin (``-p tests.flaky``) that repeats each collected test ``--flaky-runs``
times, as pytest-repeat does. Not part of ``make test``: it takes about 25 minutes with 50 runs.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Every test that waits on another process or a clock, found by reading the suite for sleeps,
#: deadlines and subprocesses (docs/testing.md says how each one waits).
WAITING_TESTS = [
    "tests/cli/test_cli.py::test_ctrl_c_during_stats_stops_cleanly_and_prints_the_partial_result",
    "tests/cli/test_cli.py::test_stats_progress_off_a_terminal_is_a_line_per_tenth_on_stderr",
    "tests/cli/test_cli.py::test_serve_listens_where_host_and_port_say",
    "tests/kit/test_kit_portable.py::test_an_unreachable_server_is_one_line_and_exit_status_2",
    "tests/kit/test_kit_health.py",
    "tests/server/test_server.py::test_a_solver_flood_is_shed_with_503_while_the_cheap_endpoints_stay_fast",
    "tests/server/test_server.py::test_the_solver_stops_at_its_deadline",
    "tests/server/test_server.py::test_the_access_log_is_json_lines",
    "tests/server/test_server.py::test_a_full_log_pipe_never_blocks_the_server",
    "tests/server/test_server.py::test_one_client_flooding_solves_leaves_another_its_answers",
    "tests/server/test_server.py::test_a_flood_of_long_logs_delays_no_one",
    "tests/server/test_server.py::test_a_burst_of_long_bodies_is_refused_by_nginx_before_they_are_read",
    "tests/server/test_server.py::test_a_place_is_freed_when_its_holder_dies",
    "tests/server/test_server.py::test_a_stopped_replay_process_costs_a_long_replay_at_most_its_bound",
    "tests/server/test_server_lifecycle.py",
    "tests/docs/test_api_doc_examples.py",
    "tests/docs/test_readme.py",
]


# -- the plugin: --flaky-runs N repeats every collected test N times ----------------------------
def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--flaky-runs", type=int, default=1, help="run each test this many times")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    runs = metafunc.config.getoption("flaky_runs")
    if runs > 1:
        metafunc.fixturenames.append("flaky_run")
        metafunc.parametrize("flaky_run", range(1, runs + 1), indirect=True, ids=lambda run: f"run{run}")


@pytest.fixture
def flaky_run(request: pytest.FixtureRequest) -> int:
    return request.param


# -- the command --------------------------------------------------------------------------------
def _hog(stop: multiprocessing.synchronize.Event) -> None:
    while not stop.is_set():
        for _ in range(100_000):
            pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.flaky", description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=50, help="runs of each test (default 50)")
    parser.add_argument("--no-hog", action="store_true", help="without the busy loops")
    parser.add_argument("pytest_args", nargs="*", help="more arguments for pytest (after --)")
    args = parser.parse_args(argv)
    stop = multiprocessing.Event()
    hogs = [] if args.no_hog else [multiprocessing.Process(target=_hog, args=(stop,), daemon=True) for _ in range(os.cpu_count() or 1)]
    for hog in hogs:
        hog.start()
    print(f"tests.flaky: {len(WAITING_TESTS)} tests, {args.runs} runs each, beside {len(hogs)} busy loops", flush=True)
    started = time.monotonic()
    try:
        command = [
            sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "tests.flaky", "-o", "addopts=",
            "--flaky-runs", str(args.runs), "-q", "-rf", *WAITING_TESTS, *args.pytest_args,
        ]  # fmt: skip
        status = subprocess.call(command, cwd=ROOT, env={**os.environ, "PYRAMIDE_SOLVE_SECONDS": "600"})
    finally:
        stop.set()
        for hog in hogs:
            hog.join(5)
    print(f"tests.flaky: pytest exited {status} after {time.monotonic() - started:.0f} s", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
