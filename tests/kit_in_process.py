"""Every vector of the kit (``features/vectors.json``) run straight from the JSON against Pyramide's
app in-process, once per test run, keeping every request body the kit sends and every vector that
failed. Two tests read this one run (it took some 7 s of CPU, and each ran it on its own):
``tests/kit/test_kit_portable.py`` (the vectors alone judge Pyramide: no vector failed) and
``tests/api/test_contract_clients.py`` (the requests the kit sends, for the generated clients)."""

from __future__ import annotations

import json
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.once import once_per_run

ROOT = Path(__file__).resolve().parent.parent
VECTORS_FILE = ROOT / "features" / "vectors.json"


class _Recorder:
    """The kit's client, in-process, keeping every request it sends with a body."""

    def __init__(self) -> None:
        from features.client import InProcessClient

        self.client, self.sent = InProcessClient(), []

    def request(self, method: str, path: str, body: Any = None, language: str | None = None):
        if body is not None:
            self.sent.append((path, body))
        return self.client.request(method, path, body, language)


def _run_every_vector(folder: Path) -> None:
    from features.driver import HttpDriver
    from features.ops import Game

    vectors = json.loads(VECTORS_FILE.read_text(encoding="utf-8"))["vectors"]
    recorder, failed, ran = _Recorder(), [], []
    for vector in vectors:
        game = Game(HttpDriver(recorder))
        try:
            for step in vector["steps"]:
                for op in step["ops"]:
                    game.run(op)
        except Exception:  # noqa: BLE001 - kept, with its traceback, for the test that judges the run
            failed.append({"id": vector["id"], "error": traceback.format_exc(limit=-8)})  # (its requests so far count)
        ran.append(vector["id"])
    (folder / "run.json").write_text(json.dumps({"ran": ran, "failed": failed, "sent": recorder.sent}), encoding="utf-8")


@dataclass(frozen=True)
class InProcessRun:
    ran: list[str]  #: the ids of the vectors run, in order
    failed: list[dict]  #: each failing vector: its id and the traceback of its failure
    sent: list[tuple[str, Any]]  #: every request body sent, with its path


def every_vector_in_process(tmp_path_factory: pytest.TempPathFactory) -> InProcessRun:
    """The run, made once per test run by whichever pytest-xdist worker asks first."""
    data = json.loads((once_per_run(tmp_path_factory, "kit-in-process", _run_every_vector) / "run.json").read_text(encoding="utf-8"))
    return InProcessRun(ran=data["ran"], failed=data["failed"], sent=[(path, body) for path, body in data["sent"]])
