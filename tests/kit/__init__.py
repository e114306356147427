"""Runs of the kit shared by several tests of tests/kit, each made once per test run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from features.cli import PYTEST_OPTIONS
from tests.once import once_per_run

ROOT = Path(__file__).resolve().parents[2]


def mutant_run(tmp_path_factory: pytest.TempPathFactory, mutant: str, selection: str) -> subprocess.CompletedProcess:
    """The kit (``pytest features``) run on the scenarios ``-k selection`` against Pyramide broken by
    ``mutant`` (tests/mutants.py), once per test run: tests/kit/test_kit_mutations.py checks that it
    fails, tests/kit/test_kit_portable.py how its report quotes the rule (the King's run)."""
    args = [sys.executable, "-m", "pytest", "features", "-q", *PYTEST_OPTIONS, "-p", "tests.mutants", "-k", selection]

    def run(folder: Path) -> None:
        result = subprocess.run(args, cwd=ROOT, env={**os.environ, "PYRAMIDE_MUTANT": mutant}, capture_output=True, text=True, timeout=600)
        (folder / "result.json").write_text(json.dumps([result.returncode, result.stdout, result.stderr]), encoding="utf-8")

    folder = once_per_run(tmp_path_factory, f"kit-mutant-{mutant}-{selection}", run)
    returncode, stdout, stderr = json.loads((folder / "result.json").read_text(encoding="utf-8"))
    return subprocess.CompletedProcess(args, returncode, stdout, stderr)
