"""The engine (rules core and solver) type-checks under ``mypy --strict`` (pyproject.toml's
``[tool.mypy]``, issue 37): the solver's parts are typed objects passed to each other, which a
type checker can follow and mypyc can compile."""

from __future__ import annotations

from pathlib import Path

import pytest

mypy_api = pytest.importorskip("mypy.api", reason="mypy is a test dependency (pyproject.toml's test extra)")

ROOT = Path(__file__).resolve().parents[2]


def test_the_engine_type_checks_strictly(tmp_path):
    out, err, status = mypy_api.run(["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(tmp_path), str(ROOT / "service" / "engine")])
    assert status == 0, out + err
    assert "no issues found" in out


def test_the_check_is_strict():
    """The configuration the test reads is the strict one (a relaxed one would let untyped code in)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = text[text.index("[tool.mypy]") :]
    assert "strict = true" in section.split("\n[", 1)[0]
