"""The kit in failure: a run where (nearly) every scenario fails must take no more than 1.5 times a
passing run (issue 20). Three runs of ``pyramide-conformance --driver-command`` against Pyramide's
engine behind its adapter: as it is (every scenario passes), refusing every explicit layout (every
scenario dealing one fails at its ``Given``), and with every removal's points and the score off by
one (the scoring checks fail at the end, each reported, after the game went on).

    python -m tests.bench kit
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

# the adapter broken as BREAK says: the one tests/test_kit_report.py judges
from tests.test_kit_report import BROKEN

ROOT = Path(__file__).resolve().parents[2]


def run(command: str, env: dict[str, str]) -> tuple[float, str]:
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "features.cli", "--driver-command", command],
        cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT), **env},
    )  # fmt: skip
    return time.monotonic() - started, result.stdout.strip().splitlines()[-1]


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


if __name__ == "__main__":
    main()
