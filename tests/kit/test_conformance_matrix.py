"""The conformance matrix (``docs/conformance-matrix.md``, ``scripts/conformance_matrix.py``): the
page is what the committed results give, and each committed result is what its implementation
does now. Pyramide's own columns are checked against what every run of the kit here shows (every
vector passes in-process, over HTTP and in the JavaScript runner: ``features/``, ``.ci/run``; the
adapter skips exactly what its hello does not offer: ``tests/kit/test_kit_portable.py``);
soliterm's and AisleRiot's against a fresh run (``tests/kit/test_outside_engine.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from features.capabilities import vector_plan
from scripts import conformance_matrix

ROOT = Path(__file__).resolve().parents[2]
VECTORS = json.loads((ROOT / "features" / "vectors.json").read_text(encoding="utf-8"))["vectors"]


def test_the_page_is_what_the_committed_results_give(capsys):
    assert conformance_matrix.main(["--check"]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("file", ["pyramide-in-process.json", "pyramide-http.json", "pyramide-js.json"])
def test_pyramide_s_results_are_every_vector_passed(file):
    result = json.loads((conformance_matrix.RESULTS / file).read_text(encoding="utf-8"))
    assert [entry[0] for entry in result["scenarios"]] == sorted(vector["id"] for vector in VECTORS), "python -m scripts.conformance_matrix --run"
    assert {entry[1] for entry in result["scenarios"]} == {"passed"} and result["counts"]["passed"] == len(VECTORS)


def test_the_adapter_s_results_skip_what_its_hello_does_not_offer():
    result = json.loads((conformance_matrix.RESULTS / "pyramide-adapter.json").read_text(encoding="utf-8"))
    expected = sorted([vector["id"], "skipped" if vector_plan(vector, {"api", "solver"})[0] else "passed"] for vector in VECTORS)
    assert result["scenarios"] == expected, "python -m scripts.conformance_matrix --run"


def test_a_failure_is_shown_in_its_sentence_s_row():
    """The cell of a sentence a failing check cites says so; a sentence no scenario guards is empty."""
    page = conformance_matrix.render(conformance_matrix.load())
    soliterm = 1 + [name for name, _, _ in conformance_matrix.IMPLEMENTATIONS].index("soliterm (AisleRiot's rules)")
    row = next(line for line in page.splitlines() if line.startswith("| 000 #34 "))
    assert row.split(" | ")[soliterm] == "✗ 1 of 2", row  # (soliterm's recycle that draws while cards are left)
    played = next(line for line in page.splitlines() if line.startswith("| 000 #56 "))
    assert played.split(" | ")[soliterm] == "≠ plays max_recycles=0", played  # (its one pass: a rule it declares, not a failure)
    results = conformance_matrix.load()
    results["pyramide-http.json"] = {**results["pyramide-http.json"], "scenarios": [
        [entry[0], "failed", ["000 #34"]] if entry[0].startswith("stock_and_waste/a-recycle-while") else entry
        for entry in results["pyramide-http.json"]["scenarios"]
    ]}  # fmt: skip
    broken = next(line for line in conformance_matrix.render(results).splitlines() if line.startswith("| 000 #34 "))
    assert broken.split(" | ")[2] == "✗ 1 of 9", broken  # (one of the 9 scenarios guarding it)


def test_the_matrix_is_served_by_the_web_client():
    """The same page at ``/conformance.html`` on any running server, linked from the web client."""
    from service.api import create_app

    client = create_app().test_client()
    page = client.get("/conformance.html")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert "style-src 'self'" in page.headers["Content-Security-Policy"]  # (the client's page policy: its style loads)
    text = page.get_data(as_text=True)
    assert text == conformance_matrix.render_html(conformance_matrix.render(conformance_matrix.load()))
    assert "<th>sentence</th>" in text and "≠ plays max_recycles=0" in text
    assert 'href="conformance.html"' in client.get("/").get_data(as_text=True)
