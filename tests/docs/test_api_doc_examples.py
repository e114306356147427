"""The curl examples of docs/api.md that show their output (a ``# …`` line after the command), run
as written against a real server, print what the page shows."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.server import running_server

API_DOC = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text(encoding="utf-8")


def examples() -> list[tuple[str, str]]:
    """Each ``curl …`` line of a ```sh block followed by a ``# output`` line."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", API_DOC, re.S):
        lines = block.splitlines()
        found += [(line, after[2:]) for line, after in zip(lines, lines[1:]) if line.startswith("curl ") and after.startswith("# ")]
    return found


def test_the_page_has_examples_with_their_output():
    assert len(examples()) >= 2


@pytest.mark.skipif(not (shutil.which("curl") and shutil.which("jq")), reason="needs curl and jq")
def test_each_example_prints_what_the_page_shows():
    with running_server(workers=1) as base:
        for command, expected in examples():
            run = command.replace("localhost:8000", base.removeprefix("http://"))
            result = subprocess.run(["bash", "-c", f"set -euo pipefail; {run}"], capture_output=True, text=True, timeout=60)
            assert result.returncode == 0, result.stderr
            assert result.stdout.strip() == expected, command
