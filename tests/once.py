"""A costly folder made once per test run, however pytest-xdist spreads the tests over its workers."""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest


def once_per_run(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """A folder that ``make`` fills once per test run, whichever pytest-xdist worker asks first; the
    others wait on a lock file, then use it. (``--dist loadgroup`` would keep such tests in one
    worker, but with pytest 9.2 its groups are silently ignored: pytest-xdist issue 1386.)"""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's folder, above each worker's own
    folder = root / name
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / ".made").exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            (folder / ".made").touch()
    return folder
