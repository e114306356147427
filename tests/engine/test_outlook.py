"""004's notice that no win is left (``outlook``, ``foresee``) and a turn's one JSON form
(``Turn.to_json``): the engine's, which the API's ``POST /v1/games`` and ``/v1/moves`` only render."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.engine import BLOCKED, GameState, Layout, Move, Rules, Solution, Turn, foresee, outlook, play

NOTIFYING = Rules(initial_waste=False, unlimited_undo=True, notify_unwinnable=True)


def _deal(name: str, rules: Rules) -> GameState:
    deals = json.loads((Path(__file__).resolve().parents[2] / "features" / "deals.json").read_text(encoding="utf-8"))
    deal = deals[name]
    layout = {"pyramid": [row.split() for row in deal["pyramid"]], "waste": [], "stock": deal["waste"].split() + deal["stock"].split()}
    return GameState.new(layout=Layout.from_json(layout), rules=rules)


def _answering(result: str, asked: list | None = None):
    def solver(state, **options):
        if asked is not None:
            asked.append(options)
        return Solution(result, None, False, None, 1)

    return solver


def _refusing(state, **options):
    raise AssertionError("the solver is asked nothing under rules that do not notify")


def test_no_outlook_and_no_search_under_rules_that_do_not_notify():
    game = GameState.new("PYR1-N-AAAAAHW")
    turn = play(game, Move.from_text("draw"))
    assert outlook(game, budget=10, solver=_refusing) is None
    assert foresee(turn, budget=10, solver=_refusing) is turn
    assert list(turn.to_json()) == ["state", "events", "feedback"]


def test_the_solver_is_asked_with_the_budget_given():
    asked: list = []
    game = _deal("easy", NOTIFYING)
    assert outlook(game, budget=1234, solver=_answering("winnable", asked)) == "winnable"
    assert asked == [{"budget": 1234, "max_removable": False}]


def test_an_unwinnable_game_in_play_says_so_in_an_event_and_the_feedback():
    turn = play(_deal("stuck", NOTIFYING), Move.from_text("draw"))
    seen = foresee(turn, budget=10, solver=_answering("unwinnable"))
    assert (seen.outlook, seen.feedback, seen.events[-1].type) == ("unwinnable", "no_win_left", "no_win_left")
    assert seen.events[:-1] == turn.events and seen.state is turn.state
    assert seen.to_json()["events"][-1] == {"type": "no_win_left"}
    assert list(seen.to_json()) == ["state", "events", "outlook", "feedback"]
    assert seen.to_json()["feedback"] == {"code": "no_win_left"}  # (the API adds the message)


def test_a_moves_own_feedback_is_kept():
    turn = Turn(_deal("stuck", NOTIFYING), (), "stock_empty")
    assert foresee(turn, budget=10, solver=_answering("unwinnable")).feedback == "stock_empty"


@pytest.mark.parametrize("result", ["winnable", "unknown"])
def test_no_notice_unless_unwinnable(result):
    turn = play(_deal("stuck", NOTIFYING), Move.from_text("draw"))
    seen = foresee(turn, budget=10, solver=_answering(result))
    assert (seen.outlook, seen.events, seen.feedback) == (result, turn.events, turn.feedback)


def test_no_notice_once_the_game_is_over():
    turn = Turn(_deal("stuck", NOTIFYING).evolve(status=BLOCKED))
    seen = foresee(turn, budget=10, solver=_answering("unwinnable"))
    assert (seen.outlook, seen.events, seen.feedback) == ("unwinnable", (), None)


def test_the_engines_solver_by_default():
    assert outlook(_deal("easy", NOTIFYING), budget=20_000) == "winnable"
    assert outlook(_deal("stuck", NOTIFYING), budget=20_000) == "unwinnable"
