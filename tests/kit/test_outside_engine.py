"""The kit against an engine nobody here wrote: soliterm's Pyramid (AisleRiot's rules, MIT, from
PyPI), behind ``features/adapters/soliterm_pyramid.py``. Its numbers are reproduced on every run,
not just written: the run passes its baseline (``docs/conformance-soliterm-baseline.json``: no
check fails that it does not list, and every one it lists still fails), and the committed report
(``docs/conformance-soliterm-report.md``) is the one this run writes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
COMMAND = "python -m features.adapters.soliterm_pyramid"  # as the committed report names it


def test_soliterm_is_judged_as_its_report_and_baseline_say(tmp_path):
    import soliterm  # noqa: F401 - installed by make test (pyproject.toml, extra "test")

    report = tmp_path / "report.md"
    environment = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    result = subprocess.run(
        [sys.executable, "-m", "features.cli", "--driver-command", COMMAND, "--baseline", str(DOCS / "conformance-soliterm-baseline.json"),
         "--report", str(report), "--json", str(tmp_path / "r.json")],
        cwd=ROOT, capture_output=True, text=True, timeout=300, env=environment,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 new failing check(s), 0 known failing check(s) now passing" in result.stdout
    full = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert full["counts"] == {"passed": 51, "failed": 40, "skipped": 599}
    # soliterm plays its own rules (its hello): once each, never as failures
    assert full["rules"]["plays"] == {"max_recycles": 0, "drawn_pairs_with_waste": True, "strict_win": True}
    assert set(full["rules"]["not_holding"]) == {"max_recycles", "drawn_pairs_with_waste", "strict_win"}
    # the conformance matrix's column (docs/conformance-results/soliterm.json) is this run's
    from scripts.conformance_matrix import RESULTS, slim

    committed = json.loads((RESULTS / "soliterm.json").read_text(encoding="utf-8"))
    assert slim(full)["scenarios"] == committed["scenarios"], "python -m scripts.conformance_matrix --run"
    assert report.read_text(encoding="utf-8") == (DOCS / "conformance-soliterm-report.md").read_text(encoding="utf-8"), (
        "regenerate: PATH=.venv/bin:$PATH pyramide-conformance --driver-command "
        f"'{COMMAND}' --report docs/conformance-soliterm-report.md --write-baseline docs/conformance-soliterm-baseline.json"
    )


def test_the_soliterm_adapter_answers_like_the_protocol():
    """--check-adapter checks the protocol only: soliterm's King scores 1, not 10 (000 #43), a
    rule difference of the engine, which the scenarios blame on 000 #43, not a protocol error of
    the adapter (it was called one)."""
    result = subprocess.run(
        [sys.executable, "-m", "features.cli", "--driver-command", f"{sys.executable} -m features.adapters.soliterm_pyramid", "--check-adapter"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout
    assert not [line for line in result.stdout.splitlines() if line.startswith("WRONG")], result.stdout
    assert 'ok     {"cmd": "play", "move": "KD"}' in result.stdout
