"""schemathesis against openapi.yaml and the real server: every check and every phase
(examples, coverage, fuzzing, and the stateful phase that follows the OpenAPI links from a new
game to its moves). ``schemathesis.toml`` names the one setting: 422 is a valid answer to a
schema-valid request that the rules forbid.

**Negative data is included.** Each phase generates both positive data (requests the schema
allows) and negative data (requests that break it: a wrong type, a missing field, an unknown
property…), for which the ``negative_data_rejection`` check (one of ``--checks all``) requires a
4xx answer. That is schemathesis's default generation mode, ``all`` (``--mode``, or ``mode`` in
the ``[generation]`` table of ``schemathesis.toml``, which sets no mode); the run passes
``--mode all`` anyway, so that a change of default cannot drop it, and the test counts the cases
of each mode in the run's NDJSON report (``--report ndjson``): there must be negative ones.

``make test`` runs a fixed seed with a modest budget; ``make fuzz`` (``PYRAMIDE_FUZZ=long``) runs a
random seed for ``FUZZ_MINUTES`` (default 2: ``--max-time``, during which the fuzzing and stateful
phases keep generating), printing a progress line every 30 s (cases so far, negative ones, the
phase, the time left).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from contextlib import nullcontext
from pathlib import Path

from tests.server import running_server

ROOT = Path(__file__).resolve().parents[2]


class Report:
    """Reads the NDJSON report as schemathesis writes it: the cases generated, by mode, and the phase."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.modes: Counter = Counter()
        self.phase = "starting"

    def read(self) -> None:
        if not self.path.exists():
            return
        with self.path.open("rb") as report:
            report.seek(self.offset)
            for line in report:
                if not line.endswith(b"\n"):  # being written: read it next time
                    break
                self.offset += len(line)
                self.event(json.loads(line))

    def event(self, event: dict) -> None:
        if "PhaseStarted" in event and event["PhaseStarted"]["phase"].get("is_enabled"):
            self.phase = event["PhaseStarted"]["phase"]["name"]
        finished = event.get("ScenarioFinished")
        if finished:
            for case in finished.get("recorder", {}).get("cases", {}).values():
                meta = (case.get("value") or {}).get("meta") or {}
                self.modes[meta.get("generation", {}).get("mode", "unknown")] += 1


def test_schemathesis_finds_nothing(tmp_path, capsys):
    long = os.environ.get("PYRAMIDE_FUZZ") == "long"
    seconds = round(float(os.environ.get("FUZZ_MINUTES") or "2") * 60)
    st = shutil.which("st", path=str(Path(sys.executable).parent)) or "st"
    budget = ["--max-examples", "400", "--max-time", str(seconds)] if long else ["--max-examples", "40", "--seed", "20261129"]
    report = Report(tmp_path / "events.ndjson")
    options = ["--checks", "all", "--mode", "all", "--workers", "2", *budget]
    options += ["--report", "ndjson", "--report-ndjson-path", str(report.path)]
    # A long run makes many requests: no access log, whose pipe nobody reads here.
    # Its 2 workers are one client (127.0.0.1), which holds at most half of the server's solver
    # slots: with 2 slots a worker (2 × 2: its half is 2), two solves at once are never shed with
    # 503 solver_busy, which is fairness (tests/server), not the contract this run checks.
    with running_server(PYRAMIDE_SOLVER_SLOTS="2", **({"PYRAMIDE_ACCESS_LOG": "off"} if long else {})) as base:
        process = subprocess.Popen(
            [st, "run", f"{base}/openapi.yaml", *options],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        start = time.monotonic()
        deadline = start + (seconds + 900 if long else 1800)
        with capsys.disabled() if long else nullcontext():
            if long:
                print(f"\nschemathesis: {seconds} s (--max-time), every phase, positive and negative data", flush=True)
            while True:
                try:
                    stdout, stderr = process.communicate(timeout=max(1, min(30, deadline - time.monotonic())))
                    break
                except subprocess.TimeoutExpired:
                    if time.monotonic() > deadline:
                        process.kill()
                        raise
                    if long:
                        report.read()
                        elapsed = time.monotonic() - start
                        print(
                            f"  {sum(report.modes.values()):,} cases ({report.modes['negative']:,} negative) in "
                            f"{elapsed:.0f} s, phase {report.phase}, about {max(0, seconds - elapsed):.0f} s left",
                            flush=True,
                        )
        report.read()
        summary = f"cases by mode: {dict(report.modes)}"
        if long:
            with capsys.disabled():
                print(stdout[-3000:] + "\n" + summary, flush=True)
    print(stdout[-6000:] + "\n" + summary)
    assert process.returncode == 0, stdout[-20000:] + stderr[-4000:]
    assert "Stateful" in stdout and "generated" in stdout
    assert report.modes["negative"] > 0 and report.modes["positive"] > 0, summary
