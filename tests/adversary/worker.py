"""One mutant, in a process of its own: the liveness check, then the conformance kit.

    python -m tests.adversary.worker NAME RESULT.json     # NAME "-" runs the kit without a mutant

1. Liveness: the mutant's check (``live.py``) with the reference engine, then with the mutant
   applied; the two observations must differ.
2. The kit: ``pytest features -m "not solver"`` in this process, in-process (Pyramide's app, no
   server), with the mutant applied, no doctests and no ``testpaths`` (``-o addopts=``), as
   ``make mutate`` judges its mutants.

While the kit runs, every state the engine returns is remembered; a scenario in which the engine
refuses (``invalid_state``) a state it returned itself is marked ``self_refused``: a break that
lives on the tap path only makes the engine disagree with its own log (``mutants.py``), and the
runner says which catches came from nothing else.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KIT_ARGS = ["features", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "-m", "not solver", "-rN", "--tb=short"]
#: Failures whose report is kept whole in the result (all are named).
KEEP_REPORTS = 5


class Recorder:
    """A pytest plugin: each scenario's outcome, and whether the engine refused its own state in it."""

    def __init__(self) -> None:
        self.current: str | None = None
        self.self_refused: set[str] = set()
        self.outcomes: dict[str, str] = {}
        self.reports: dict[str, str] = {}
        self.errors: list[str] = []

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        self.current = item.nodeid
        yield
        self.current = None

    def pytest_runtest_logreport(self, report) -> None:
        if report.failed:
            if self.outcomes.get(report.nodeid) != "failed" and len(self.reports) < KEEP_REPORTS:
                self.reports[report.nodeid] = report.longreprtext[-1500:]
            self.outcomes[report.nodeid] = "failed"
        elif report.when == "call" or report.skipped:
            self.outcomes.setdefault(report.nodeid, report.outcome)

    def pytest_collectreport(self, report) -> None:
        if report.failed:
            self.errors.append(f"{report.nodeid}: {report.longreprtext[-500:]}")

    def refused_own_state(self) -> None:
        if self.current is not None:
            self.self_refused.add(self.current)


def watch_own_states(recorder: Recorder) -> None:
    """Remember every state ``to_json`` gives; tell the recorder when ``from_json`` refuses one."""
    from service.engine import GameState, InvalidStateError

    given: set[str] = set()
    to_json, from_json = GameState.to_json, GameState.from_json.__func__

    def key(data) -> str:
        return json.dumps(data, sort_keys=True, default=str)

    def watched_to_json(self):
        data = to_json(self)
        given.add(key(data))
        return data

    def watched_from_json(cls, data):
        try:
            return from_json(cls, data)
        except InvalidStateError:
            if key(data) in given:
                recorder.refused_own_state()
            raise

    GameState.to_json = watched_to_json
    GameState.from_json = classmethod(watched_from_json)


def run(name: str) -> dict:
    from . import live, mutants

    started = time.monotonic()
    import service.engine

    result: dict = {"mutant": name, "engine": str(Path(service.engine.__file__).parent)}
    if name != "-":
        mutant = mutants.MUTANTS[name]
        result.update(rule=mutant.rule, how=mutant.how)
        reference = live.observe(name)
        mutants.apply(name)
        broken = live.observe(name)
        result.update(live=reference != broken, reference=reference, observed=broken)
        result["live_seconds"] = round(time.monotonic() - started, 2)
    recorder = Recorder()
    watch_own_states(recorder)
    # The API replays a log over 1,000 actions in processes of its own, spawned: they import the
    # engine afresh, without the broken engine patched in here (and could not unpickle the watched
    # from_json). Every replay stays in this process, so the kit judges the broken engine alone.
    from service.api import _limits

    _limits.LONG_LOG = sys.maxsize
    exit_code = pytest.main(KIT_ARGS, plugins=[recorder])
    failed = sorted(nodeid for nodeid, outcome in recorder.outcomes.items() if outcome == "failed")
    result["kit"] = {
        "exit": int(exit_code),
        "passed": sum(1 for outcome in recorder.outcomes.values() if outcome == "passed"),
        "failed": len(failed),
        "skipped": sum(1 for outcome in recorder.outcomes.values() if outcome == "skipped"),
        "failures": [{"test": nodeid, "self_refused": nodeid in recorder.self_refused} for nodeid in failed],
        "reports": recorder.reports,
        "collection_errors": recorder.errors,
    }
    result["seconds"] = round(time.monotonic() - started, 2)
    return result


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    name, out = argv
    result = run(name)
    Path(out).write_text(json.dumps(result, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
