"""The solver's deadline (``deadline=``, a ``time.monotonic()`` instant; the API's wall-clock
bound): a search given a deadline already past stops within a few thousand positions, answering
as when its budget runs out (``unknown``, or the line found by then, not ``minimal``), and a
deadline far off changes no answer. The budget reads the clock as plain ints and floats (no int
subclass), so that a search compiled by mypyc stops at it too (issue #38)."""

from __future__ import annotations

import time

import pytest

from service.engine import GameState, PyramideError, Rules, hint, solve, winnable_deal
from service.engine._solver import SearchOptions, entry, general
from service.engine._solver.budget import CHECK_EVERY, Budget, Exhausted

#: verdicts past a few thousand positions: unwinnable in 2,238 (unlimited passes, the hardest of
#: 1,000 deals), unwinnable in 183,539 (three passes), unknown past 100,000 (Tut's Tomb)
LONG_VERDICTS = ["PYR1-N-AALGKSL", "PYR1-DT2-AAAIOOZ", "PYR1-DKT-AAAAAAP"]
#: won within a few hundred positions, the shortest line not proved within 50,000 more
LONG_SHORTEST = ["PYR1-N-AAAAAAD", "PYR1-DT2-AAAAAAD", "PYR1-DKT-AAAAACV"]
#: at most this many positions past a deadline already past
FEW = 2 * CHECK_EVERY
#: a budget those searches do not finish within FEW positions (and which, were the deadline not
#: read, a test would run through in seconds rather than for ever)
LARGE = 200_000


def spent_on_the_verdict(game: GameState, deadline: float) -> Budget:
    """The budget of the verdict's search (read inside: no patching, so that the searches compiled
    by mypyc are checked too), once it stopped."""
    if entry.fast_model(game.rules):
        parts, _, root = entry._start(game, LARGE, SearchOptions(), deadline=deadline)
        search, counter = (lambda: parts.search.find_win(root)), parts.budget
    else:
        run = general.GeneralSearch(game, LARGE, deadline=deadline)
        search, counter = (lambda: run.probe_then_search(run.encode(game))), run.budget
    with pytest.raises(Exhausted):
        search()
    return counter


def past() -> float:
    return time.monotonic() - 1


@pytest.mark.parametrize("code", LONG_VERDICTS)
def test_a_past_deadline_stops_the_verdict_at_once(code):
    game = GameState.new(code)
    assert solve(game, budget=FEW, max_removable=False).result == "unknown"  # (a search of more than FEW)
    assert solve(game, budget=LARGE, deadline=past()) == entry.Solution("unknown", None, False, None, LARGE)
    counter = spent_on_the_verdict(game, past())
    assert counter.nodes <= FEW and counter.timed_out


@pytest.mark.parametrize("code", LONG_SHORTEST)
def test_a_past_deadline_stops_the_shortest_line_with_the_verdicts(code):
    game = GameState.new(code)
    assert not solve(game, budget=4 * FEW, max_removable=False, shortest=True).minimal  # (a search of more than FEW)
    solution = solve(game, budget=LARGE, max_removable=False, shortest=True, deadline=past())
    assert (solution.result, solution.minimal) == ("winnable", False) and solution.nodes <= FEW
    assert solution.line == solve(game, budget=LARGE, max_removable=False).line  # the verdict's line
    move, answer = hint(game, budget=LARGE, deadline=past())  # the first move of that line
    assert move == solution.line[0] and answer.nodes <= FEW


def test_a_past_deadline_ends_the_search_for_a_winnable_deal():
    rules = Rules(max_recycles=0, initial_waste=False)  # (one deal in 25 winnable: many seeds tried)
    assert winnable_deal(rules, first_seed=11_000, budget=10**6).code == "PYR1-T0-AAAAQRD"
    started = time.process_time()
    with pytest.raises(PyramideError) as refused:
        winnable_deal(rules, first_seed=11_000, budget=LARGE, deadline=past())
    assert refused.value.code == "no_winnable_deal" and time.process_time() - started < 0.5


#: (code, solve's options): verdicts, lines, the shortest proved or not, the node budget run out
FAR = [
    ("PYR1-N-AALGKSL", {"budget": 100_000}),
    ("PYR1-N-AAAAAAD", {"budget": 10_000, "shortest": True}),
    ("PYR1-DT2-AAAIOOZ", {"budget": 10_000}),
    ("PYR1-DT2-AACBQAR", {"budget": 60_000, "max_removable": False}),
    ("PYR1-DT2-AAAAABO", {"budget": 30_000, "shortest": True}),
    ("PYR1-DKT-AAAAAAD", {"budget": 20_000, "shortest": True}),
    ("PYR1-DKT-AAAAAAP", {"budget": 10_000}),
]


@pytest.mark.parametrize(("code", "options"), FAR)
def test_a_deadline_far_off_changes_nothing(code, options):
    game = GameState.new(code)
    far = time.monotonic() + 3600
    assert solve(game, **options, deadline=far) == solve(game, **options)
    assert hint(game, budget=10_000, deadline=far) == hint(game, budget=10_000)
    assert winnable_deal(game.rules, first_seed=7, budget=20_000, deadline=far) == winnable_deal(game.rules, first_seed=7, budget=20_000)


def test_the_deadline_is_checked_between_the_node_limits_shares():
    """A share of the budget (``cap``) keeps the deadline, and says whether the deadline ended it."""
    budget = Budget(10**6, deadline=past())
    total = budget.cap(50)
    with pytest.raises(Exhausted):
        for _ in range(60):
            budget.count()
    assert (budget.nodes, budget.timed_out) == (51, True)  # (read the clock at the share's end)
    budget.restore(total)
    with pytest.raises(Exhausted):
        budget.count()  # (still past it)
    shared = Budget(50)
    shared.cap(20)
    with pytest.raises(Exhausted):
        for _ in range(30):
            shared.count()
    assert (shared.nodes, shared.timed_out) == (21, False)
