"""An implementation's fixed rules (``features/rule_sets.py``, docs/conformance.md § Fixed rules):
declared in its hello or with ``--rules``, every scenario dealt under them, those that do not hold
under them skipped once as a rule-set difference, and a liar caught."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from features.rule_sets import APP_RULES, STATED_BY, changes, parse, problem, under
from service.engine import Rules

ROOT = Path(__file__).resolve().parents[2]
ADAPTER = "python -m features.adapters.pyramide_engine"


def test_the_app_values_are_the_engine_defaults():
    defaults = Rules()
    assert {key: getattr(defaults, key) for key in APP_RULES} == APP_RULES
    assert set(STATED_BY) == set(APP_RULES)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("max_recycles=-1", "whole number from 0 to 9999"),
        ("max_recycles=1.5", "whole number from 0 to 9999"),
        ("max_recycles=true", "whole number from 0 to 9999"),
        ("strict_win=1", "true or false"),
        ("draw_count=3", "not an option an implementation may play fixed"),
        ("strict_win", "not OPTION=VALUE"),
        ("strict_win=yes", "not JSON"),
    ],
)
def test_a_rule_set_the_kit_cannot_take_is_refused_saying_why(text, says):
    with pytest.raises(ValueError, match=says):
        parse(text)


def test_a_rule_set_is_read_with_json_values():
    assert parse("max_recycles=2, initial_waste=false,strict_win=true") == {"max_recycles": 2, "initial_waste": False, "strict_win": True}
    assert parse("max_recycles=null") == {"max_recycles": None}
    assert problem([]) is not None and problem({"max_recycles": 10_000}) is not None


def test_a_layout_is_dealt_under_the_rules_played():
    layout = {"pyramid": [["KD"]], "waste": ["7D"], "stock": ["AC", "3C"]}
    dealt = under({"layout": layout}, {"initial_waste": False, "max_recycles": 0})
    assert dealt == {"layout": {"pyramid": [["KD"]], "waste": [], "stock": ["7D", "AC", "3C"]}, "rules": {"initial_waste": False, "max_recycles": 0}}
    back = under({"layout": dealt["layout"], "rules": {"initial_waste": False}}, {"initial_waste": True})
    assert back["layout"] == layout and back["rules"] == {"initial_waste": True}
    assert under({"code": "PY1-N-AAAAAAS"}, {"max_recycles": 0}) == {"code": "PY1-N-AAAAAAS"}  # a code carries its rules
    assert under({"layout": layout}, {}) == {"layout": layout}


def test_a_deal_changes_when_a_value_it_asks_is_not_the_one_played():
    assert not changes([{"op": "deal", "layout": {}, "rules": {"strict_win": True}}], {"strict_win": True})
    assert changes([{"op": "deal", "layout": {}}], {"strict_win": True})
    assert changes([{"op": "deal_try", "rules": {"strict_win": 1}}], {"strict_win": True})  # 1 is not true
    assert changes([{"op": "deal", "code": "PY1-N-AAAAAAS"}], {"max_recycles": 0})  # a code's rules are its own
    assert not changes([{"op": "deal", "layout": {}}], {"max_recycles": None})  # the app's value


def kit(tmp_path, *args: str, **environment: str) -> tuple[subprocess.CompletedProcess, dict]:
    out = tmp_path / "results.json"
    env = {**os.environ, **environment, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    done = subprocess.run(
        [sys.executable, "-m", "features.cli", *args, "--json", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300, env=env
    )
    return done, json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}


def test_pyramide_playing_fixed_rules_passes_every_scenario_that_holds_under_them(tmp_path):
    """The adapter declares three of the rules it plays (and plays them: the kit deals under them);
    every scenario run passes, and those that do not hold are skipped, blamed on their option (the
    judge and the run deal alike; a deal asking ``"strict_win": 1`` is not taken for ``true``).
    Pyramide in-process under each of the seven options alone, and under all seven at once, passes
    every scenario it runs too (``pyramide-conformance --rules …``, by hand: some 80 s)."""
    rules = {"max_recycles": 1, "strict_win": True, "pair_with_covering": True}
    done, results = kit(tmp_path, "--driver-command", ADAPTER, "-m", "doc-000 or doc-002", PYRAMIDE_ADAPTER_RULES=json.dumps(rules))
    assert done.returncode == 0, done.stdout[-3000:]
    assert results["rules"]["plays"] == rules
    blamed = results["rules"]["not_holding"]
    assert set(blamed) == set(rules) and all(count > 0 for count in blamed.values())
    assert results["counts"]["failed"] == 0 and results["counts"]["passed"] > 200  # (the app's sentences: 280 scenarios)
    assert "max_recycles = 1, where the app plays null (000 #56" in done.stdout
    limited = [s for s in results["scenarios"] if s["id"].startswith("variants/limited-passes-1-recycles-and-not-one-more")]
    assert limited and all(s["outcome"] == "passed" for s in limited)  # its own limit is judged
    other = [s for s in results["scenarios"] if s["id"].startswith("variants/limited-passes-2-recycles-and-not-one-more")]
    assert other and all(s["outcome"] == "skipped" and "max_recycles=1" in s["reason"] for s in other)


def test_an_implementation_that_does_not_play_the_rules_it_declares_is_caught(tmp_path):
    done, results = kit(
        tmp_path, "--driver-command", ADAPTER, "-k", "limited_passes", PYRAMIDE_ADAPTER_RULES='{"max_recycles": 0}', PYRAMIDE_ADAPTER_IGNORE_RULES="1"
    )
    assert done.returncode == 1
    failed = {s["id"] for s in results["scenarios"] if s["outcome"] == "failed"}
    assert "variants/limited-passes-0-recycles-and-not-one-more" in failed
    assert any("000 #59" in failure["cites"] for s in results["scenarios"] if s["outcome"] == "failed" for failure in s["failures"])


def test_rules_on_the_command_line_are_checked_before_anything_runs(tmp_path):
    done, _ = kit(tmp_path, "--rules", "max_recycles=-2")
    assert done.returncode == 2 and "--rules: max_recycles is null (unlimited) or a whole number from 0 to 9999, not -2" in done.stderr


def test_a_hello_with_rules_the_kit_cannot_take_stops_the_run(tmp_path):
    done, _ = kit(tmp_path, "--driver-command", ADAPTER, PYRAMIDE_ADAPTER_RULES='{"draw_count": 3}')
    assert done.returncode == 2 and "'draw_count' is not an option an implementation may play fixed" in done.stdout + done.stderr
