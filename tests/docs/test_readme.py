"""The README's curl sessions, run as written against a real server, print what the README shows."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.server import running_server

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def sessions() -> list[tuple[str, str]]:
    """Each ```sh block that talks to $API, with the ```console block that follows it."""
    pairs = re.findall(r"```sh\n([^`]*)```\s*(?:It prints:\s*)?```console\n([^`]*)```", README)
    return [(script, output) for script, output in pairs if "$API" in script]


@pytest.mark.skipif(not (shutil.which("curl") and shutil.which("jq")), reason="needs curl and jq")
def test_the_readme_sessions_print_what_the_readme_shows(tmp_path):
    found = sessions()
    assert len(found) == 3
    (tmp_path / "docs").symlink_to(ROOT / "docs")
    with running_server() as base:
        script = "set -euo pipefail\n"
        for i, (commands, expected) in enumerate(found):
            script += commands.replace("API=http://127.0.0.1:8000", f"API={base}")
            result = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60)
            assert result.returncode == 0, result.stderr
            printed = result.stdout
            script += "\n"
            assert printed.splitlines()[-len(expected.splitlines()):] == expected.splitlines(), (i, printed)


def test_the_readme_python_example_runs(capsys):
    block = re.search(r"```python\n([^`]*)```", README).group(1)
    exec(compile(block, "README.md", "exec"), {})  # noqa: S102 - our own documentation
    printed = capsys.readouterr().out
    assert printed.startswith("30 [") and "Mazzo di pesca: 23 carte" in printed
