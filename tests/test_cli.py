"""The ``pyramide`` command."""

from service.cli import main


def test_solve_a_lost_deal_prints_what_docs_solver_md_shows(capsys):
    from pathlib import Path

    assert main(["solve", "PY1-N-AAAAAHW"]) == 0
    out = capsys.readouterr().out
    doc = (Path(__file__).resolve().parent.parent / "docs" / "solver.md").read_text(encoding="utf-8")
    shown = doc.split("$ .venv/bin/pyramide solve PY1-N-AAAAAHW\n", 1)[1].split("```", 1)[0]
    assert out == shown


def test_solve_a_won_deal_prints_its_line(capsys):
    assert main(["solve", "py1-n-aaaaaac"]) == 0
    out = capsys.readouterr().out
    assert "PY1-N-AAAAAAC: winnable" in out and "a winning line of" in out


def test_a_bad_code_is_an_error(capsys):
    assert main(["solve", "PY1-N-AAA"]) == 2
    assert "7 for a seed, 48 for a full layout" in capsys.readouterr().err


def test_a_budget_too_small_says_unknown(capsys):
    assert main(["solve", "PY1-N-AAAAAHW", "--budget", "3"]) == 3
    assert "unknown" in capsys.readouterr().out


def test_stats_over_reproducible_deals(capsys):
    from service.cli import wilson_interval

    assert main(["stats", "--rules", "N", "--deals", "40", "--workers", "2"]) == 0
    out = capsys.readouterr().out
    assert "rules N: 40 deals (seeds 0…39)" in out and "unknown 0" in out and "95% CI" in out
    assert main(["stats", "--rules", "N", "--deals", "40", "--workers", "1"]) == 0
    assert capsys.readouterr().out == out  # the same deals, the same verdicts, on any number of cores
    low, high = wilson_interval(50, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962


def test_stats_refuses_unknown_rules(capsys):
    assert main(["stats", "--rules", "XYZ"]) == 2
