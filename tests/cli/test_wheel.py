"""Pyramide installs like a tool: the built wheel, in a fresh virtual environment, gives working
``pyramide`` and ``pyramide-conformance`` commands and a server, with every data file they need,
under import names of its own (``pyramide``, ``pyramide_conformance``); the kit, installed with
``pyramide[kit]``, holds every scenario and judges that server (a selection of the scenarios: every
one of them passes in-process, ``features/``, and over HTTP, ``.ci/run``; what the wheel can lose is
a file, and the wheel's own test lists them all)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests.once import once_per_run
from tests.server import wait_for_line

ROOT = Path(__file__).resolve().parents[2]


def run(*args, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run([str(arg) for arg in args], capture_output=True, text=True, timeout=900, **kwargs)
    assert result.returncode == 0, (args, result.stdout[-3000:], result.stderr[-3000:])
    return result


def _build_wheel(folder: Path) -> None:
    """From a clean copy of the working tree (a build/ folder left in it could add stale files);
    once per run, as the environment below (a minute of CPU between them)."""
    source = folder / "source" / "pyramide"
    skip = shutil.ignore_patterns(".git", ".venv", "mutants", "build", "node_modules", "*.egg-info", "__pycache__", ".hypothesis", ".schemathesis")
    shutil.copytree(ROOT, source, symlinks=True, ignore=skip)
    build = run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", folder, source)
    # setuptools says nothing: no warning box (a package left out of `packages`, a data folder…)
    assert "Warning" not in build.stderr and "!!" not in build.stderr, build.stderr


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    (built,) = once_per_run(tmp_path_factory, "wheel", _build_wheel).glob("pyramide-*.whl")
    return built


@pytest.fixture(scope="session")
def venv(tmp_path_factory, wheel) -> Path:
    """A fresh environment with the wheel and its kit extra (dependencies from the package index)."""

    def install(home: Path) -> None:
        run(sys.executable, "-m", "venv", home)
        run(home / "bin" / "python", "-m", "pip", "install", "--quiet", f"{wheel}[kit]")

    return once_per_run(tmp_path_factory, "venv", install) / "bin"


def test_the_wheel_holds_only_its_own_names_and_every_data_file(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names}
    assert top == {"pyramide", "pyramide_conformance", wheel.name.split("-")[0] + "-" + wheel.name.split("-")[1] + ".dist-info"}
    for data in (
        "pyramide/api/openapi.yaml",
        "pyramide/locales/es.po",
        "pyramide_conformance/deals.json",
        "pyramide_conformance/vectors.json",
        "pyramide_conformance/pairs.feature",
        "pyramide_conformance/js/runner.mjs",
        "pyramide_conformance/adapters/pyramide_engine.py",
        "pyramide/py.typed",
        "pyramide/web/index.html",
        "pyramide/web/app.js",
        "pyramide/web/style.css",
        "pyramide_conformance/py.typed",
    ):
        assert data in names, data
    features = {f"pyramide_conformance/{path.name}" for path in (ROOT / "features").glob("*.feature")}
    assert features and features <= set(names), features - set(names)
    assert not any(name.startswith(("service/", "features/", "tests/")) for name in names)


def test_the_readme_engine_example_runs_from_the_installed_package(venv, tmp_path):
    """Away from the repository (no service/ to import), as someone who installed the wheel."""
    import re

    block = re.search(r"```python\n([^`]*)```", (ROOT / "README.md").read_text(encoding="utf-8")).group(1)
    assert "from pyramide.engine import" in block
    printed = run(venv / "python", "-c", block, cwd=tmp_path).stdout
    assert printed.startswith("30 [") and "Mazzo di pesca: 23 carte" in printed


def test_built_and_generated_files_are_ignored_by_git():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("SKIPPED: not a git checkout")
    for path in ("dist/pyramide-0.1.0-py3-none-any.whl", "build/x", "tests/contract/node_modules/x/index.js"):
        assert subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT).returncode == 0, path


def test_installed_commands_answer(venv):
    assert run(venv / "pyramide", "--version").stdout.startswith("pyramide ")
    assert run(venv / "pyramide-conformance", "--version").stdout.startswith("pyramide-conformance ")
    solved = json.loads(run(venv / "pyramide", "solve", "PY1-N-AAAAAAS", "--json").stdout)
    assert solved["result"] in ("winnable", "unwinnable")


def test_the_installed_kit_judges_the_installed_server(venv, tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "PORT": str(port)}
    server = subprocess.Popen([venv / "pyramide", "serve"], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        listening, said = wait_for_line(server, b"listening on")
        assert listening, said
        assert urllib.request.urlopen(base + "/openapi.yaml", timeout=5).read().startswith(b"openapi: ")
        assert b'src="app.js"' in urllib.request.urlopen(base + "/", timeout=5).read()  # the web client, from the wheel
        assert urllib.request.urlopen(base + "/app.js", timeout=5).read().startswith(b"// The reference web client")
        vectors = json.loads((ROOT / "features" / "vectors.json").read_text(encoding="utf-8"))["vectors"]
        # every scenario is there (the installed kit lists what the repository's lists), and those
        # of the 004 app's document are played, the API's own checks among them
        listed = run(venv / "pyramide-conformance", "--list", cwd=tmp_path).stdout
        assert listed == run(sys.executable, "-m", "features.cli", "--list", cwd=ROOT).stdout
        chosen = sum("doc-004" in vector["tags"] for vector in vectors)
        assert chosen >= 30  # (a selection that matches nothing would pass with "0 passed")
        result = subprocess.run(
            [venv / "pyramide-conformance", "--base-url", base, "-m", "doc-004"], cwd=tmp_path, capture_output=True, text=True, timeout=900
        )
        assert result.returncode == 0, result.stdout[-3000:]
        assert result.stdout.rstrip().endswith(f"{chosen} passed, 0 failed")
    finally:
        server.terminate()
        server.wait(timeout=30)
