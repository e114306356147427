"""The kit in failure: a run where (nearly) every scenario fails must take no more than 1.5 times a
passing run (issue 20). Three runs of ``pyramide-conformance --driver-command`` against Pyramide's
engine behind its adapter: as it is (every scenario passes), refusing every explicit layout (every
scenario dealing one fails at its ``Given``), and with every removal's points and the score off by
one (the scoring checks fail at the end, each reported, after the game went on). Then the health
check's exits: each broken implementation of tests/kit/test_kit_health.py must end the run with status 2
within 5 seconds (issue 20).

    python -m tests.bench kit
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

# the adapter broken as BREAK says: the one tests/kit/test_kit_report.py judges
from tests.kit.test_kit_health import BROKEN_ADAPTERS
from tests.kit.test_kit_report import BROKEN

ROOT = Path(__file__).resolve().parents[2]


def kit(*args: str, env: dict[str, str] | None = None) -> tuple[float, subprocess.CompletedProcess]:
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "features.cli", *args],
        cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
    )  # fmt: skip
    return time.monotonic() - started, result


def run(command: str, env: dict[str, str]) -> tuple[float, str]:
    seconds, result = kit("--driver-command", command, env=env)
    return seconds, result.stdout.strip().splitlines()[-1]


def health_exits(folder: Path) -> None:
    """Each broken implementation: the run's exit status and time, against the 5-second target."""
    cases = {"dead URL": ("--base-url", "http://127.0.0.1:9")}
    for name, body in BROKEN_ADAPTERS.items():
        script = folder / f"bench_adapter_{name.replace(' ', '_')}.py"
        script.write_text(textwrap.dedent(body), encoding="utf-8")
        cases[f"adapter {name}"] = ("--driver-command", f"{sys.executable} {script}")
    for name, args in cases.items():
        seconds, result = kit(*args)
        verdict = "ok" if result.returncode == 2 and seconds <= 5 else "MISSED"
        print(f"health, {name + ':':<28}{seconds:6.2f} s  exit {result.returncode}  (target: exit 2 within 5 s) {verdict}")


def main() -> None:
    script = ROOT / "build" / "bench_broken_adapter.py"
    script.parent.mkdir(exist_ok=True)
    script.write_text(BROKEN, encoding="utf-8")
    passing, counts = run(f"{sys.executable} -m features.adapters.pyramide_engine", {})
    print(f"kit, passing run:            {passing:6.1f} s  ({counts})")
    for how in ("layouts", "points"):
        seconds, counts = run(f"{sys.executable} {script}", {"BREAK": how})
        failed = int(re.search(r"(\d+) failed", counts).group(1))
        print(f"kit, broken {how + ':':<17}{seconds:6.1f} s  ({counts}; {failed} failed)  ratio {seconds / passing:.2f}")
    health_exits(script.parent)


if __name__ == "__main__":
    main()
