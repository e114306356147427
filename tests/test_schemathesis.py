"""schemathesis against openapi.yaml and the real server: every check and every phase
(examples, coverage, fuzzing, and the stateful phase that follows the OpenAPI links from a new
game to its moves). ``schemathesis.toml`` names the one setting: 422 is a valid answer to a
schema-valid request that the rules forbid.

``make test`` runs a fixed seed with a modest budget; ``make fuzz`` (PYRAMIDE_FUZZ=long) runs a
random seed for much longer.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.server import running_server

ROOT = Path(__file__).resolve().parent.parent


def test_schemathesis_finds_nothing():
    long = os.environ.get("PYRAMIDE_FUZZ") == "long"
    st = shutil.which("st", path=str(Path(sys.executable).parent)) or "st"
    budget = ["--max-examples", "400", "--max-time", "900"] if long else ["--max-examples", "40", "--seed", "20261129"]
    with running_server() as base:
        result = subprocess.run(
            [st, "run", f"{base}/openapi.yaml", "--checks", "all", "--workers", "2", *budget],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=1800,
        )
    print(result.stdout[-6000:])
    assert result.returncode == 0, result.stdout[-20000:] + result.stderr[-4000:]
    assert "Stateful" in result.stdout and "generated" in result.stdout
