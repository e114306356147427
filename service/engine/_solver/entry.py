"""The solver's entry points: ``solve``, ``hint``, ``winnable_deal``, ``solver_supports`` and
``check_supported``, and the ``Solution`` they answer with. ``docs/solver.md`` describes the
solver.

Invariant: a verdict is given only once proved (``unknown`` when the node budget runs out, never a
guess); every line answered is replayed by the engine to a won game (or, for a hint of a lost
position, to the most pyramid cards removed); the same question always gets the same answer.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import secrets
import time

from .._codes import SEED_SPACE, seed_code
from .._errors import PyramideError
from .._moves import Move
from .._options import SEARCHES, active
from .._rules import Rules
from .._state import GameState
from .bounds import Bounds
from .breadth_first import BreadthFirst
from .budget import Budget, Exhausted
from .estimate import Estimate
from .levels import LevelSearch, LevelTable
from .lines import LineWriter
from .model import Line, Model, Position
from .options import DEFAULT_OPTIONS, SearchOptions
from .pooled import PooledSearch
from . import general
from .search import Search
from .shortest import ShortestSearch
from .shortest_plain import PlainShortest

WINNABLE, UNWINNABLE, UNKNOWN = "winnable", "unwinnable", "unknown"
DEFAULT_NODE_BUDGET = 2_000_000
#: The most positions a hint searches, past its verdict, for the shortest line (a tenth of a second
#: or two): hints are asked at every turn, a proof of the shortest line can take the whole budget.
HINT_SHORTEST = 20_000



@dataclass(frozen=True, slots=True)
class Solution:
    """``result`` is winnable, unwinnable or unknown (the budget ran out). ``line`` is a winning
    line of moves from the position (``minimal`` says whether it is known to be the shortest).
    ``max_removable`` is the most pyramid cards any line removes in all, counting those already
    gone (None if unknown). ``nodes`` counts the positions searched."""

    result: str
    line: tuple[Move, ...] | None
    minimal: bool
    max_removable: int | None
    nodes: int

    def to_json(self) -> dict[str, object]:
        """The one JSON form of a solution, the API's ``POST /v1/solve`` answer and the CLI's
        ``pyramide solve --json`` (which adds the deal's code): each move as ``Move.to_json``."""
        return {
            "result": self.result,
            "line": None if self.line is None else [move.to_json() for move in self.line],
            "minimal": self.minimal,
            "max_removable": self.max_removable,
            "nodes": self.nodes,
        }



class Parts:
    """The parts of the fast searches for one question, wired together: the deal's ``Model``, the
    ``Budget`` they all count against, the ``Bounds``, the line writer and the verdict's ``Search``
    (the shortest-line searches are built on these when asked, see ``fewest``)."""

    __slots__ = ("model", "budget", "bounds", "writer", "search")

    def __init__(self, state: GameState, counter: Budget, options: SearchOptions) -> None:
        self.model = model = Model(state, options)
        self.budget = counter
        self.bounds = bounds = Bounds(model, options.needs)
        pooled = PooledSearch(model, bounds, counter, options.probe_budget)
        table = LevelTable(model)
        self.writer = writer = LineWriter(model, table)
        # limited passes are searched by levels (False: position by position)
        by_levels = options.levels and model.limit is not None
        levels = LevelSearch(model, bounds, counter, pooled, table, writer, options.relaxed) if by_levels else None
        self.search = Search(model, bounds, pooled, levels, writer, options.relaxed)

    def fewest(self, actual: Position, bound: int, shortest: str) -> tuple[Line | None, bool]:
        """The shortest line from the position as played, searched by ``shortest`` (as
        ``SearchOptions.shortest`` names it; None when no line is shorter than ``bound``), and
        whether it is proved the shortest: if the budget runs out first, the shortest line found
        by then (None if none beat ``bound``), not proved."""
        model, bounds, counter = self.model, self.bounds, self.budget
        model.pooled = False  # (the positions as played)
        if shortest == "breadth-first":
            try:
                return BreadthFirst(model, bounds, counter).breadth_first_line(actual), True
            except Exhausted:
                return None, False
        if shortest == "a*-plain":
            try:
                return PlainShortest(model, bounds, Estimate(model, bounds), counter).plain_shortest_line(actual, bound=bound), True
            except Exhausted:
                return None, False
        search = ShortestSearch(model, Estimate(model, bounds), counter, self.search.pooled)
        try:
            if shortest == "a*":
                return search.shortest_line(actual, bound=bound), True
            return search.shortest_line(actual, bound=bound, weight=WEIGHT, weighted_for=counter.total // WEIGHTED_SHARE), True
        except Exhausted:
            return search.found, False  # (shorter than the verdict's line, if the search found one)


def _start(
    state: GameState, budget: int, options: SearchOptions, *, nodes: int = 0, deadline: float | None = None
) -> tuple[Parts, Position, Position]:
    """A search of ``state`` counted against ``budget`` (from ``nodes``) and ``deadline``: its
    parts, the position as played, and the position it starts from (split and recycles 0 when the
    pile is a pool)."""
    parts = Parts(state, Budget(budget, nodes, deadline), options)
    actual = Model.encode(state, parts.model.pile)
    return parts, actual, (actual[0], actual[1], 0, 0) if parts.model.pooled else actual


def searches_for(rules: Rules) -> set[str]:
    """The searches whose model covers ``rules``: those every option off its default names in the
    registry (``Option.searches``). An option no search names, or one added without saying which
    models it, leaves none: the rules are refused (``solver_unsupported``), never searched as if
    the option were not there."""
    found = set(SEARCHES)
    for option in active().options:
        if getattr(rules, option.name, option.default) != option.default:
            found &= set(option.searches)
    return found


def fast_model(rules: Rules) -> bool:
    """Whether the fast searches (the pool, the levels) model ``rules``: one card a draw onto one
    waste, in the app's 7-row pyramid of one 52-card deck (the registry's ``searches``). The others
    (Tut's Tomb's three cards a draw, Apophis's three piles, Pharaoh's 10 rows, the Spanish deck) go
    to the general search (``general``)."""
    return "fast" in searches_for(rules)


def solver_supports(rules: Rules) -> bool:
    """Whether the solver searches games under ``rules``: by the fast searches, or by the general
    one when it models them and reads their shape (``general.models``)."""
    found = searches_for(rules)
    return "fast" in found or ("general" in found and general.models(rules))


def check_supported(rules: Rules) -> None:
    """Raise ``solver_unsupported`` for the rules this search has no model of: never a verdict on a
    game it cannot search."""
    if not solver_supports(rules):
        raise PyramideError("solver_unsupported", field="rules", rules=rules.letters)


def solve(
    state: GameState,
    *,
    budget: int = DEFAULT_NODE_BUDGET,
    max_removable: bool = True,
    shortest: bool = False,
    shortest_nodes: int | None = None,
    options: SearchOptions = DEFAULT_OPTIONS,
    deadline: float | None = None,
) -> Solution:
    """Is ``state`` winnable under its rules? With a winning line if so; and, if asked, the most
    pyramid cards any line can remove. ``unknown`` when ``budget`` positions were not enough.
    With ``shortest``, a winnable position's line is then searched for the fewest moves (anytime
    weighted A* over runs of draws; plain A* with ``SearchOptions(shortest="a*")``, move by move
    with ``"a*-plain"``, breadth-first with ``"breadth-first"``); if the budget left is enough,
    the line is that one (``minimal``), else the shortest line found on the way. ``shortest_nodes``
    bounds the positions that search may take past the verdict's (the fast searches' rules: a
    hint's, ``HINT_SHORTEST``). ``deadline`` (a ``time.monotonic()`` instant, or None) stops the
    search there too, checked every ``CHECK_EVERY`` (1,024) positions: the answer is then as when
    the budget runs out (``unknown``, or the line found by then, not ``minimal``)."""
    check_supported(state.rules)
    if state.status == "won":
        return Solution(WINNABLE, (), True, state.rules.slots, 0)
    if not fast_model(state.rules):
        weight = WEIGHT if options.shortest == "anytime-a*" else 1
        answer = general.search(
            state, budget, max_removable=max_removable, shortest=shortest, cuts=options.needs,
            breadth_first=options.shortest == "breadth-first", weight=weight, weighted_for=budget // WEIGHTED_SHARE, deadline=deadline,
        )
        return Solution(*answer)
    parts, actual, root = _start(state, budget, options, deadline=deadline)
    counter = parts.budget
    try:
        steps = parts.search.find_win(root)
    except Exhausted:
        return Solution(UNKNOWN, None, False, None, budget)
    if steps is not None:
        line, minimal = tuple(parts.writer.expand(steps, actual)), False
        if shortest and shortest_nodes is not None:  # (the deadline kept)
            counter.cap(counter.nodes + shortest_nodes)
        if shortest and counter.nodes < counter.total:
            # (None when no line is shorter than the one found)
            fewest, minimal = parts.fewest(actual, len(line), options.shortest)
            if fewest is not None:
                line = tuple(parts.writer.expand(fewest, actual))
        return Solution(WINNABLE, line, minimal, state.rules.slots, min(counter.nodes, counter.total))
    most = None
    if max_removable:
        try:  # (within what is left of the budget)
            most, _ = parts.search.most_removed(root)
        except Exhausted:
            most = None
    return Solution(UNWINNABLE, None, False, most, min(counter.nodes, budget))


#: The shortest line is searched by anytime weighted A*, the estimate counted ``WEIGHT`` times
#: until the line is proved (docs/solver.md, "Shortest lines"): a shorter line comes sooner,
#: which both tightens the proof's bound and shortens the answer when the budget runs out first.
#: With no line found within budget / ``WEIGHTED_SHARE`` positions (counted from the start of the
#: shortest-line search, after the verdict's), A* from there.
WEIGHT = 2
WEIGHTED_SHARE = 4


#: One pass: the positions each seed tried gets, searched depth-first (pairs before draws), before
#: the next seed is tried. About 1 deal in 11 is winnable with one pass, but proving a deal lost
#: takes thousands of positions, while a fifth of the winnable deals are won within 120 positions
#: (docs/solver.md, "Winnable deals").
ONE_PASS_TRY = 120


#: Limited passes: the positions each seed tried gets before the next one is tried. Most deals are
#: won or proved lost within a few thousand; a few take millions, and one of those would spend the
#: whole budget of the API (100,000) on a single seed.
LIMITED_TRY = 10_000


def winnable_deal(
    rules: Rules,
    *,
    first_seed: int | None = None,
    budget: int = DEFAULT_NODE_BUDGET,
    options: SearchOptions = DEFAULT_OPTIONS,
    deadline: float | None = None,
) -> GameState:
    """A deal of seed code that the solver proves winnable: the seeds from ``first_seed`` (random
    when None) in order. ``budget`` bounds the positions searched over all the seeds tried; past
    it, ``no_winnable_deal`` (never a deal not proved winnable). With one pass (under the rules
    the fast searches model), each seed gets ``ONE_PASS_TRY`` positions of a depth-first search
    for a winning line, and is skipped past them (unknown, not lost: it is never answered);
    otherwise each seed gets an eighth of ``budget`` at most, and with limited passes at most
    ``LIMITED_TRY``, so that one hard deal does not spend it all. ``deadline`` (a
    ``time.monotonic()`` instant, or None) ends the seeds' searches there too: past it,
    ``no_winnable_deal``."""
    check_supported(rules)
    seed = secrets.randbelow(SEED_SPACE) if first_seed is None else first_seed
    spent = 0
    if rules.max_recycles == 0 and fast_model(rules):
        depth_first = replace(options, levels=False)
        while spent < budget:
            game = GameState.new(seed_code(rules, seed % SEED_SPACE))
            # the nodes counted on from those spent (the seed's share: up to ``tried``)
            tried = min(budget, spent + ONE_PASS_TRY)
            parts, _, root = _start(game, tried, depth_first, nodes=spent, deadline=deadline)
            try:
                if parts.search.find_win(root) is not None:
                    return game
                spent = parts.budget.nodes
            except Exhausted:
                if parts.budget.timed_out:  # not the seed's share: the deadline
                    break
                spent = tried
            seed += 1
        raise PyramideError("no_winnable_deal", field="winnable", budget=budget)
    per_deal = max(1, budget // 8)
    while spent < budget:
        game = GameState.new(seed_code(rules, seed % SEED_SPACE))
        # (a deal the search cannot decide within its share of the budget is passed over,
        # unknown: one hard deal does not spend it all)
        share = per_deal if rules.max_recycles is None else min(per_deal, LIMITED_TRY)
        solution = solve(game, budget=min(budget - spent, share), max_removable=False, options=options, deadline=deadline)
        spent += max(1, solution.nodes)
        if solution.result == WINNABLE:
            return game
        if deadline is not None and time.monotonic() > deadline:
            break
        seed += 1
    raise PyramideError("no_winnable_deal", field="winnable", budget=budget)


def hint(
    state: GameState, *, budget: int = DEFAULT_NODE_BUDGET, options: SearchOptions = DEFAULT_OPTIONS, deadline: float | None = None
) -> tuple[Move | None, Solution]:
    """The next move of the shortest winning line found within ``HINT_SHORTEST`` positions past the
    verdict (under the rules the fast searches model; the general search's first winning line under
    the others), so that following the hints wins in as few moves as ``solve(..., shortest=True)``
    finds where that is proved within them; if there is none, the
    first move of a line removing the most pyramid cards; None when no move helps (or the budget
    ran out). ``deadline`` (a ``time.monotonic()`` instant, or None) stops every search there too,
    as ``solve``'s does."""
    if not fast_model(state.rules) and state.status != "won":
        check_supported(state.rules)
        move, answer = general.hint(state, budget, cuts=options.needs, deadline=deadline)
        if answer[0] == UNKNOWN:
            # its own search (which keeps a line of hints moving towards the end) ran out where
            # solve()'s may not: the first move of solve()'s winning line then, never "unknown" for
            # a game solve() calls winnable (PYR1-DKT-JRBFWNC: solve's 449 positions, the hint's 100,000)
            verdict = solve(state, budget=budget, max_removable=False, options=options, deadline=deadline)
            if verdict.result == WINNABLE and verdict.line:
                return verdict.line[0], verdict
        return move, Solution(*answer)
    # the verdict's line, then the shortest found within HINT_SHORTEST more positions
    solution = solve(
        state, budget=budget, max_removable=False, shortest=True, shortest_nodes=HINT_SHORTEST, options=options, deadline=deadline
    )
    if solution.result == WINNABLE:
        return (solution.line[0] if solution.line else None), solution
    if solution.result == UNKNOWN:
        return None, solution
    parts, actual, root = _start(state, budget - solution.nodes, options, deadline=deadline)  # (what is left of the budget)
    try:
        most, steps = parts.search.most_removed(root)
    except Exhausted:
        return None, Solution(UNWINNABLE, None, False, None, budget)
    done = Solution(UNWINNABLE, None, False, most, solution.nodes + parts.budget.nodes)
    line = parts.writer.expand(steps, actual)
    return (line[0] if line else None), done

