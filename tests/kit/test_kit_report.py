"""The kit's verdict read rule by rule: an engine whose only fault is its points fails the scoring
sentence (000 #43), not the pairing rule; every failing check is reported, with expected and got,
in the console, --json and --report; --baseline gates on new failures only."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Pyramide's adapter, broken as BREAK says: "points" (every removal one point more, the score too),
#: "layouts" (every explicit layout refused).
BROKEN = textwrap.dedent("""
    import json, os, sys
    from features.adapters.pyramide_engine import Adapter

    adapter, how = Adapter(), os.environ["BREAK"]
    for line in sys.stdin:
        request = json.loads(line)
        if how == "layouts" and request.get("cmd") == "new_game" and request.get("layout") is not None:
            answer = {"ok": False, "refused": "layouts_unsupported", "message": "no layouts"}
        else:
            answer = adapter.answer(request)
            if how == "points" and answer.get("state"):
                answer["state"]["score"] += 1
                for event in answer.get("events", []):
                    if "points" in event:
                        event["points"] += 1
        print(json.dumps(answer), flush=True)
""")
SELECTION = "two_free_cards_summing_13_are_removed_together or a_king_of_the_pyramid_is_worth_10"


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    script = tmp_path_factory.mktemp("adapter") / "broken.py"
    script.write_text(BROKEN, encoding="utf-8")

    def run(how: str, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "features.cli", "--driver-command", f"{sys.executable} {script}", "-k", SELECTION, *args],
            cwd=ROOT, capture_output=True, text=True, timeout=300,
            env={**os.environ, "PYTHONPATH": str(ROOT), "BREAK": how},
        )  # fmt: skip

    return run


@pytest.fixture(scope="module")
def points_run(broken, tmp_path_factory):
    where = tmp_path_factory.mktemp("out")
    result = broken("points", "--json", str(where / "r.json"), "--report", str(where / "r.md"), "--write-baseline", str(where / "b.json"))
    return result, where


def test_a_points_fault_fails_the_scoring_sentence_not_the_pairing_rule(points_run):
    result, where = points_run
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]
    console = result.stdout
    assert "rule      000 #43 «Cada carta retirada de la pirámide da 10 puntos" in console
    assert "rule      000 #4 «" not in console  # the pairing sentence is not quoted for a points difference
    table = {line.split()[1]: line.split()[0] for line in console.splitlines() if line.strip().startswith(("ok", "FAIL")) and "@" in line}
    assert table["@rule-pairs"] == "ok" and table["@doc-000"] == "FAIL"
    assert "000 #43" in console.split("failing checks by the sentence they guard")[1]


def test_every_failing_check_with_expected_and_got_in_json(points_run):
    _, where = points_run
    data = json.loads((where / "r.json").read_text(encoding="utf-8"))
    failed = {s["id"]: s for s in data["scenarios"] if s["outcome"] == "failed"}
    assert len(failed) == len(data["scenarios"]) == 6
    pairs = failed["pairs/two-free-cards-summing-13-are-removed-together-by-a-pair-move"]["failures"]
    assert pairs == [{"step": "And the removal scored 20 points", "cites": ["000 #43"], "what": "the points of the removal", "expected": 20, "got": 21}]
    # a King's scenario checks its points and then the score: both failing checks are reported
    king = failed["scoring/a-king-of-the-pyramid-is-worth-10-by-a-king-move"]["failures"]
    assert [(f["step"], f["expected"], f["got"], f["cites"]) for f in king] == [
        ("And the removal scored 10 points", 10, 11, ["000 #43"]),
        ("And the score is 30", 30, 31, ["000 #43"]),
    ]
    assert data["by_sentence"] == {"000 #43": 6}


def test_the_report_is_a_sentence_matrix_with_the_first_failing_example(points_run):
    _, where = points_run
    report = (where / "r.md").read_text(encoding="utf-8")
    row_4 = next(line for line in report.splitlines() if line.startswith("| 4 |"))
    row_43 = next(line for line in report.splitlines() if line.startswith("| ❌ 43 |"))
    assert [cell.strip() for cell in row_4.split("|")[3:6]] == ["3", "0", "0"]  # pairs: passed, none failed
    assert "`And the removal scored 10 points`: the points of the removal: expected 10, got 11" in row_43


def test_a_baseline_passes_known_failures_and_fails_new_ones(broken, points_run):
    _, where = points_run
    baseline = where / "b.json"
    same = broken("points", "--baseline", str(baseline))
    assert same.returncode == 0, same.stdout[-1500:]
    assert "0 new failing check(s)" in same.stdout
    worse = broken("layouts", "--baseline", str(baseline))
    assert worse.returncode == 1
    assert "  new:   pairs/two-free-cards-summing-13-are-removed-together" in worse.stdout
    better = broken("none", "--baseline", str(baseline))
    assert better.returncode == 0 and "now passing" in better.stdout and "  fixed: pairs/" in better.stdout


def test_a_baseline_that_is_not_one_is_a_usage_error(tmp_path):
    wrong = tmp_path / "b.json"
    wrong.write_text("[]", encoding="utf-8")
    result = subprocess.run([sys.executable, "-m", "features.cli", "--baseline", str(wrong)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "not a baseline" in result.stderr


def test_failures_are_grouped_by_the_sentence_they_first_differ_on():
    """24 pairing scenarios that fail only on their points are one difference, 000 #43, not 24
    broken pairing rules; a scenario with no citing check counts under its own first sentence."""
    from features.report import failures_by_difference

    points = {"step": "And the removal scored 20 points", "cites": ["000 #43"]}
    results = [
        *({"id": f"pairs/p{i}", "scenario": f"pairs › p{i}", "outcome": "failed", "tags": ["sentence-26"], "failures": [points]} for i in range(24)),
        {"id": "stock/r", "scenario": "stock › r", "outcome": "failed", "tags": ["sentence-34"], "failures": [{"step": "Then x", "cites": []}]},
        {"id": "pairs/ok", "scenario": "pairs › ok", "outcome": "passed", "tags": ["sentence-26"]},
    ]
    groups = failures_by_difference(results)
    assert [(label, len(failed)) for label, failed in groups] == [("000 #43", 24), ("000 #34", 1)]
