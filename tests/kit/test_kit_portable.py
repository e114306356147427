"""The kit outside this repository's own engine: its vectors stay in sync with the feature files
and judge an implementation on their own; the subprocess driver judges an engine with no HTTP;
its reports cite the rule a failure breaks; its command behaves like a tool."""

from __future__ import annotations

import dataclasses
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from features import vectors as kit_vectors
from features.capabilities import vector_plan
from features.cli import PYTEST_OPTIONS
from features.client import InProcessClient
from features.driver import CAPABILITIES, HttpDriver
from features.ops import Game, KitFailure
from features.traceability import kit_scenarios
from tests.kit import mutant_run
from tests.kit_in_process import every_vector_in_process

ROOT = Path(__file__).resolve().parents[2]
VECTORS = json.loads(kit_vectors.VECTORS.read_text(encoding="utf-8"))["vectors"]
KIT = [sys.executable, "-m", "pytest", "features", "-q", *PYTEST_OPTIONS]
ADAPTER = f"{sys.executable} -m features.adapters.pyramide_engine"


def kit(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*KIT, *args], cwd=ROOT, capture_output=True, text=True, timeout=600, env={**os.environ, **(env or {})})


def test_the_vectors_file_is_generated_from_the_feature_files():
    assert kit_vectors.VECTORS.read_text(encoding="utf-8") == kit_vectors.render(), "run: python -m features.vectors"


def test_every_scenario_the_python_kit_runs_is_a_vector():
    collected = kit("--collect-only")
    assert collected.returncode == 0, collected.stdout[-2000:]
    count = sum(1 for line in collected.stdout.splitlines() if "::" in line)
    assert count == len(VECTORS) > 250


def test_the_vectors_alone_judge_pyramide(tmp_path_factory):
    """Each vector's operations, run straight from the JSON, pass against Pyramide's app (the
    run, once per test run, also records the kit's requests for tests/api/test_contract_clients.py)."""
    run = every_vector_in_process(tmp_path_factory)
    assert run.ran == [vector["id"] for vector in VECTORS]
    assert not run.failed, "\n\n".join(f"{failure['id']}:\n{failure['error']}" for failure in run.failed)


def test_a_vector_fails_when_the_implementation_breaks_its_rule():
    vector = next(v for v in VECTORS if v["scenario"] == "A King of the pyramid is worth 10: by a King move")
    ops = [op for step in vector["steps"] for op in step["ops"]]
    score = next(op for op in ops if op["op"] == "expect" and op["field"] == "score")
    game = Game(HttpDriver(InProcessClient()))
    with pytest.raises(KitFailure, match="score"):
        for op in ops:
            game.run({**op, "value": score["value"] - 10} if op is score else op)


def test_the_subprocess_driver_judges_an_engine_without_http():
    """The JSON-lines adapter around Pyramide's engine passes every scenario it can be asked,
    and skips, saying why, those that need Pyramide's HTTP API or a solver."""
    needs_more = sum(1 for vector in VECTORS if {"api", "solver"} & set(vector["requires"]))
    result = kit("--driver-command", ADAPTER, "-rs")
    assert result.returncode == 0, result.stdout[-3000:]
    assert f"{len(VECTORS) - needs_more} passed, {needs_more} skipped" in result.stdout, result.stdout[-1500:]
    assert "the implementation does not offer: api" in result.stdout


def test_an_implementation_of_the_app_alone_skips_the_variants_of_another_shape():
    """An engine whose hello lists no variant (as one of the app's rules alone would) skips the
    scenarios of Tut's Tomb, Apophis, Pharaoh and the Spanish pyramid, saying why, and passes
    the rest."""
    variants = {"variant-tuts-tomb", "variant-apophis", "variant-pharaoh", "variant-spanish"}
    skipped = sum(1 for vector in VECTORS if vector_plan(vector, {"api", "solver", "refusal-reasons"} | variants)[0])
    assert sum(1 for vector in VECTORS if variants & set(vector["requires"])) > 100
    result = kit("--driver-command", ADAPTER, "-rs", env={"PYRAMIDE_ADAPTER_CAPABILITIES": "codes"})
    assert result.returncode == 0, result.stdout[-3000:]
    assert f"{len(VECTORS) - skipped} passed, {skipped} skipped" in result.stdout, result.stdout[-1500:]
    assert "the implementation does not offer: variant-pharaoh" in result.stdout
    # its refusals give codes and no reasons (its hello lists no refusal-reasons): the reason checks
    # are left out, never failed, and their scenarios judged on the rest
    lacking = {"api", "solver", "refusal-reasons"} | variants
    assert any("refusal-reasons" in vector["requires"] and not vector_plan(vector, lacking)[0] for vector in VECTORS)


def test_a_failure_quotes_the_rule_it_breaks(tmp_path_factory):
    # the King scenarios against a King worth nothing: the run tests/kit/test_kit_mutations.py reads too
    result = mutant_run(tmp_path_factory, "king_worth_nothing", "test_a_king_of_the_pyramid_is_worth_10_how")
    assert result.returncode == 1
    report = result.stdout
    assert "scoring › A King of the pyramid is worth 10: by a King move" in report
    assert "rule      000 #43 «Cada carta retirada de la pirámide da 10 puntos:" in report
    assert 'step      And the removal scored 10 points' in report
    assert "expected  10\n  got       0" in report
    # every failing check of the scenario, not only the first: the score too, citing 000 #43
    assert "check 2 of 2:" in report and "step      And the score is 30\n  checked   the game's score\n  expected  30\n  got       20" in report
    assert "Traceback" not in report


def test_an_unreachable_server_is_one_line_and_exit_status_2():
    """(Its time, under 5 s, is measured by ``python -m tests.bench kit``.)"""
    result = subprocess.run(
        [sys.executable, "-m", "features.cli", "--base-url", "http://127.0.0.1:9"], cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("pyramide-conformance: http://127.0.0.1:9 is not a working Pyramide API")


def test_the_junit_report_carries_tags_and_rule_rows(tmp_path):
    report = tmp_path / "kit.xml"
    result = kit("-k", "worth_20", "--junitxml", str(report))
    assert result.returncode == 0, result.stdout[-2000:]
    cases = ET.parse(report).getroot().iter("testcase")
    properties = [{p.get("name"): p.get("value") for p in case.iter("property")} for case in cases]
    assert properties and all(p["rows"] == "43" and "doc-000" in p["tags"].split() for p in properties)
    assert properties[0]["rule-43"].startswith("Cada carta retirada de la pirámide da 10 puntos")


def test_list_names_every_scenario_with_its_tags():
    result = subprocess.run([sys.executable, "-m", "features.cli", "--list"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    lines = result.stdout.splitlines()
    lines = lines[: lines.index("")]  # (then what they need: tests/kit/test_kit_capabilities.py)
    assert result.returncode == 0 and len(lines) == len(kit_scenarios()) > 100
    assert any(line.startswith("pairs › The six pairs: <pair>, <how>  [") and "@sentence-24" in line for line in lines)


class _AppOnlyRules:
    """Pyramide's app in-process, but its GET /v1/rules lists only the app's own presets: an API of
    the app's rules alone."""

    def __init__(self) -> None:
        self.inner = InProcessClient()

    def request(self, method, path, body=None, language=None):
        reply = self.inner.request(method, path, body, language)
        if path == "/v1/rules":
            presets = {name: rules for name, rules in reply.body["presets"].items() if name in ("pyramide", "strict")}
            reply = dataclasses.replace(reply, body={**reply.body, "presets": presets})
        return reply


def test_the_http_driver_offers_the_variants_its_api_lists():
    assert {"variant-pharaoh", "variant-spanish", "variant-apophis", "variant-tuts-tomb"} <= HttpDriver(InProcessClient()).capabilities
    offered = HttpDriver(_AppOnlyRules()).capabilities
    # the four variants of another shape, and the two options of 004 only its preset names, are not offered
    unlisted = {"variant-pharaoh", "variant-spanish", "variant-apophis", "variant-tuts-tomb", "option-unlimited-undo", "option-notify-unwinnable"}
    assert offered == set(CAPABILITIES) - unlisted
    assert HttpDriver(InProcessClient(), without=frozenset({"taps", "scoring"})).capabilities == set(CAPABILITIES) - {"taps", "scoring"}


@pytest.mark.skipif(not shutil.which("node"), reason="needs Node.js")
def test_the_javascript_runner_skips_a_variant_its_api_does_not_list():
    """Against an API whose GET /v1/rules lists no variant of another shape, the runner skips a
    Pharaoh vector, saying why, and asks nothing else of the API."""
    asked: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server's name
            asked.append(self.path)
            body = json.dumps({"status": "ok", "presets": {"pyramide": {}}}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        vector = next(v for v in VECTORS if "variant-pharaoh" in v["requires"])
        result = subprocess.run(
            ["node", "features/js/runner.mjs", "--base-url", f"http://127.0.0.1:{server.server_address[1]}", "--grep", vector["id"]],
            cwd=ROOT, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    finally:
        server.shutdown()
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "a preset GET /v1/rules does not list" in result.stdout and "# skipped 1" in result.stdout, result.stdout[-2000:]
    assert set(asked) <= {"/healthz", "/v1/rules"}


def test_a_check_left_out_does_not_hide_the_rule_it_was_bundled_with():
    """An engine without a score or a move counter is still judged on recycling: the scenario that
    also checks the counter runs with that check left out (never skipped whole), so a recycle that
    turns the waste over in reverse is caught there, citing 000 #34."""
    selection = ("-k", "tapping_the_empty_stock_recycles_the_waste", "--without", "scoring,move-counter", "-rs")
    honest = kit(*selection)
    assert honest.returncode == 0 and "2 passed" in honest.stdout and "skipped" not in honest.stdout.splitlines()[-1], honest.stdout[-1500:]
    broken = kit(*selection, "-p", "tests.mutants", env={"PYRAMIDE_MUTANT": "recycle_reversed"})
    assert broken.returncode == 1 and "2 failed" in broken.stdout, broken.stdout[-1500:]
    assert "000 #34" in broken.stdout
