"""The adversary's table of broken engines (tests/adversary, ``make adversary``), checked cheaply:
without the kit, each mutant is well formed, applies, changes what its liveness check observes,
and is undone without a trace."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.adversary import live, mutants
from tests.adversary.mutants import MUTANTS

ADVERSARY = Path(mutants.__file__).parent


def test_every_decorated_function_is_one_mutant_of_its_own_name():
    tree = ast.parse((ADVERSARY / "mutants.py").read_text(encoding="utf-8"))
    decorated = [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and any(isinstance(d, ast.Call) and getattr(d.func, "id", None) == "mutant" for d in node.decorator_list)
    ]
    assert len(decorated) == len(set(decorated)), "two mutants share a name"
    assert decorated == list(MUTANTS)
    assert all(name == mutant.name == mutant.patch.__name__ for name, mutant in MUTANTS.items())


def test_the_table_holds_the_adversarys_153():
    assert len(MUTANTS) == 153


@pytest.mark.parametrize("name", list(MUTANTS))
def test_each_mutant_quotes_its_rule_and_says_how(name):
    mutant = MUTANTS[name]
    assert mutant.rule.strip() and mutant.how.strip()
    assert "\n" not in mutant.how and len(mutant.how) < 200


def test_each_mutant_has_a_liveness_check_and_no_check_is_orphaned():
    assert set(live.CHECKS) == set(MUTANTS)


@pytest.mark.parametrize("name", list(MUTANTS))
def test_each_mutant_is_live_and_undone(name):
    """Applied, it changes the engine and what its check observes; undone, it leaves nothing."""
    before = mutants.snapshot()
    reference = live.observe(name)
    with mutants.applied(name) as changed:
        assert changed, "the patch changes nothing"
        observed = live.observe(name)
    assert mutants.differences(before) == []
    assert observed != reference, f"not live: its check observes the same as the reference: {str(observed)[:300]}"
    assert live.observe(name) == reference


def test_the_adversary_is_not_collected_by_make_test():
    assert not list(ADVERSARY.glob("test_*.py")) and not list(ADVERSARY.glob("*_test.py"))
    conftest = Path(__file__).resolve().parents[1].joinpath("conftest.py").read_text(encoding="utf-8")
    assert 'collect_ignore = ["adversary"]' in conftest
