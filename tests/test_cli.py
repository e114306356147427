"""The ``pyramide`` command."""

from pathlib import Path

from service.cli import main
from tests import reference_one_pass

SOLVER_DOC = Path(__file__).resolve().parent.parent / "docs" / "solver.md"


def shown_in_docs(command: str) -> str:
    """What ``docs/solver.md`` shows ``.venv/bin/<command>`` printing."""
    doc = SOLVER_DOC.read_text(encoding="utf-8")
    return doc.split(f"$ .venv/bin/{command}\n", 1)[1].split("```", 1)[0]


def test_solve_a_lost_deal_prints_what_docs_solver_md_shows(capsys):
    assert main(["solve", "PY1-N-AAAAAHW"]) == 0
    assert capsys.readouterr().out == shown_in_docs("pyramide solve PY1-N-AAAAAHW")


def test_solve_a_won_deal_prints_its_line(capsys):
    assert main(["solve", "py1-n-aaaaaac"]) == 0
    out = capsys.readouterr().out
    assert "PY1-N-AAAAAAC: winnable" in out and "a winning line of" in out


def test_solve_the_shortest_line_prints_what_docs_solver_md_shows(capsys):
    assert main(["solve", "PY1-0-AAAAACF", "--shortest"]) == 0
    assert capsys.readouterr().out == shown_in_docs("pyramide solve PY1-0-AAAAACF --shortest")


def test_a_bad_code_is_an_error(capsys):
    assert main(["solve", "PY1-N-AAA"]) == 2
    assert "7 for a seed, 48 for a full layout" in capsys.readouterr().err


def test_a_budget_too_small_says_unknown(capsys):
    assert main(["solve", "PY1-N-AAAAAAC", "--budget", "3"]) == 3
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


def test_the_check_against_the_reference_solver_prints_what_docs_solver_md_shows(capsys):
    reference_one_pass.main(["DT0", "--deals", "40"])
    assert capsys.readouterr().out == shown_in_docs("python -m tests.reference_one_pass DT0 --deals 40")
