"""The general search: exact verdicts for the rules the fast models do not cover (Tut's Tomb's three
cards a draw, Apophis's three waste piles, and any composition of them with the other options).

**Invariant.** A position is what the engine's next moves depend on, nothing more: the pyramid (a
bit mask of its slots), the stock (top first) and each waste pile (top last) as tuples of pile
card numbers, the recycles used (left out under unlimited recycles, where they change nothing),
and whether the waste top is the card just drawn and pairs with the card beneath it («mazo contra
descarte») (``_position.Position``). Its children are ``_position.Deal.moves``, the moves the
engine's ``legal_moves`` lists too (pairs, Kings, a draw onto each pile, a recycle), with these
reductions (``search=True``), each proved never to lose a win:

- **a free pyramid King goes at once**: it covers cards and pairs with none, and the stock never
  depends on it;
- **a King on a waste top goes at once** when the stock can no longer be regrouped by it: one
  card a draw (the King would only be drawn again and removed), or no recycle left;
- **transpositions**: a position is searched once (under Apophis's last pass, with no recycle
  left, the three piles are interchangeable and a position is taken with its piles sorted);
- **hopeless positions are cut**: a pyramid card needs a partner of the complementary value, in
  the pile cards left or in the pyramid where it could ever meet it; and a position lost even
  with the pile as a pool (every pile card left pairable at any time, the relaxation of every
  order of the stock and waste) is lost. Both are checked per (pyramid, pile values left), cached.

A verdict is ``winnable`` with the line found (which ``play`` replays to a won game),
``unwinnable`` once every position not cut was searched, ``unknown`` past the node budget: never
a guess. ``docs/solver.md`` describes it, ``docs/solver-lab-notes.md`` has the figures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TypeAlias

from .._moves import Move
from .._position import Deal, Position, Step
from .._play import drawn_pairs_with_waste_now, waste_piles
from .._rules import Rules
from .._state import GameState
from .budget import Budget, Exhausted
from .general_cuts import BITS, PyramidCuts
from .general_shortest import GeneralShortest

#: A position (``_position.Position``): (pyramid mask, the stock top first, the waste piles top
#: last, recycles, whether the waste top is the card just drawn); pile cards by number
#: (``Deal.pile_cards``). Its key (``key``) too.
GeneralPosition: TypeAlias = Position
#: A step (``_position.Step``): ("pair", card, card), ("king", card), ("draw", pile number) or
#: ("recycle",), a card ("slot", n) or ("pile", n)
GeneralStep: TypeAlias = Step
#: The moves from a position: (step, position after)
Children: TypeAlias = Callable[[GeneralPosition], Iterable[tuple[GeneralStep, GeneralPosition]]]
#: An answer as ``solve`` gives it: (result, line, minimal, max_removable, nodes)
Answer: TypeAlias = tuple[str, tuple[Move, ...] | None, bool, int | None, int]


class _Stop(Exception):
    """Ends a walk (``GeneralSearch.walk``) from within its visit."""


class GeneralSearch:
    """One search of one deal's positions (see the module's invariant): the model (positions,
    moves, keys), its cuts (``PyramidCuts``), the depth-first searches and the lines, counted
    against its ``Budget``. The shortest line is searched by a ``GeneralShortest`` over it."""

    def __init__(self, state: GameState, budget: int, cuts: bool = True, deadline: float | None = None) -> None:
        rules = state.rules
        layout = state.layout
        self.rules = rules
        self.total = rules.slots
        self.pair_sum = rules.shape.pair_sum
        self.strict = rules.strict_win
        self.limit = rules.max_recycles
        self.draw_count = rules.draw_count
        self.several = rules.waste_piles > 1
        #: the tables of the deal and the moves between positions
        self.deal = deal = Deal(rules, layout)
        self.values, self.pile_values = deal.values, deal.pile_values
        self.unit = [1 << (BITS * value) for value in self.pile_values]
        #: the positions searched, against the node budget and the deadline (the pool searches of
        #: the cuts too)
        self.budget = Budget(budget, deadline=deadline)
        #: whether lost positions are cut (``SearchOptions.needs``; tests compare without)
        self.cuts = cuts
        self.pyramid = PyramidCuts(deal, rules, self.budget)
        self.free, self.hopeless = self.pyramid.free, self.pyramid.hopeless
        self.lost_as_a_pool = self.pyramid.lost_as_a_pool

    # -- the position ----------------------------------------------------------------------------
    def encode(self, state: GameState) -> GeneralPosition:
        return self.deal.encode(state, waste_piles(state), drawn_pairs_with_waste_now(state))

    def key(self, position: GeneralPosition) -> GeneralPosition:
        pyramid, stock, piles, recycles, just_drawn = position
        if self.limit is None:
            recycles = 0
        elif self.several and recycles >= self.limit:
            piles = tuple(sorted(piles))
        if just_drawn:
            waste = piles[0]
            just_drawn = len(waste) > 1 and self.pile_values[waste[-1]] + self.pile_values[waste[-2]] == self.pair_sum
        return (pyramid, stock, piles, recycles, just_drawn)

    def won(self, position: GeneralPosition) -> bool:
        pyramid, stock, piles = position[:3]
        return not pyramid and (not self.strict or not (stock or any(piles)))

    def signature(self, position: GeneralPosition) -> int:
        """The values of the pile cards left, as counts packed in one integer."""
        unit = self.unit
        total = 0
        for card in position[1]:
            total += unit[card]
        for pile in position[2]:
            for card in pile:
                total += unit[card]
        return total

    # -- moves -------------------------------------------------------------------------------------
    def children(self, position: GeneralPosition, every_king: bool = False) -> Iterator[tuple[GeneralStep, GeneralPosition]]:
        """(step, position after) for each move (``_position.Deal.moves``, with the searches'
        reductions): a step is ("pair", card, card), ("king", card), ("draw", pile number) or
        ("recycle",), cards as ("slot", n) or ("pile", n)."""
        return self.deal.moves(position, search=True, every_king=every_king)

    # -- searches ------------------------------------------------------------------------------------
    def dead(self, position: GeneralPosition) -> bool:
        if not self.cuts:
            return False
        signature = self.signature(position)
        return self.hopeless(position[0], signature) or self.lost_as_a_pool(position[0], signature)

    def walk(
        self, root: GeneralPosition, visit: Callable[[list[GeneralStep], GeneralStep, GeneralPosition], bool], children: Children | None = None
    ) -> None:
        """Depth-first over the positions reachable from ``root``, each once and counted against the
        budget: ``visit(line, step, child)`` gets each new position, the step reaching it and the
        line of steps before that step, and says whether to go on from it (it raises ``_Stop`` to
        end the walk). ``children`` orders the moves (``self.children`` by default)."""
        children = children or self.children
        seen = {self.key(root)}
        stack = [iter(children(root))]
        path: list[GeneralStep] = []
        count = self.budget.count
        while stack:
            for step, child in stack[-1]:
                key = self.key(child)
                if key in seen:
                    continue
                seen.add(key)
                count()
                if visit(path, step, child):
                    path.append(step)
                    stack.append(iter(children(child)))
                    break
            else:
                stack.pop()
                if path:
                    path.pop()

    def find_win(self, root: GeneralPosition, draws_first: bool = False) -> list[GeneralStep] | None:
        """A winning line of steps from ``root`` ([] if won), or None once every position was
        searched. Depth-first, each position once; the removals tried before the draw (or, with
        ``draws_first``, after it)."""
        if self.won(root):
            return []
        if self.dead(root):
            return None
        children: Children = self.children
        if draws_first:
            children = lambda position: reversed(list(self.children(position)))  # noqa: E731
        found: list[list[GeneralStep]] = []

        def visit(line: list[GeneralStep], step: GeneralStep, child: GeneralPosition) -> bool:
            if self.won(child):
                found.append([*line, step])
                raise _Stop
            # (a draw or a recycle leaves the pyramid and the pile values as they were)
            return not (step[0] in ("king", "pair") and self.dead(child))

        try:
            self.walk(root, visit, children)
        except _Stop:
            return found[0]
        return None

    def probe_then_search(self, root: GeneralPosition) -> list[GeneralStep] | None:
        """Three cards a draw: a depth-first probe with the draws first, within a quarter of the
        budget, then the whole search with the removals first. Each is exact on its own (a line
        found wins; a search through every position proves the loss); on Tut's Tomb deals the two
        orders find different wins quickly (docs/solver-lab-notes.md)."""
        if self.draw_count > 1:
            counter = self.budget
            total = counter.cap(counter.nodes + counter.total // 4)
            try:
                return self.find_win(root, draws_first=True)
            except Exhausted:
                if counter.timed_out:  # not the probe's share: the deadline
                    raise
            finally:
                counter.restore(total)
        return self.find_win(root)

    def breadth_first_line(self, root: GeneralPosition) -> list[GeneralStep] | None:
        """Breadth-first: a line with the fewest moves (a King on a waste top one move among the
        others; a free pyramid King first, which never lengthens a line), or None. The search
        ``shortest_line`` replaced, kept as its oracle (``SearchOptions(shortest="breadth-first")``)."""
        if self.won(root):
            return []
        parent: dict[GeneralPosition, tuple[GeneralPosition, GeneralStep] | None] = {self.key(root): None}
        frontier = [root]
        while frontier:
            following = []
            for position in frontier:
                for step, child in self.children(position, every_king=True):
                    key = self.key(child)
                    if key in parent:
                        continue
                    parent[key] = (self.key(position), step)
                    self.budget.count()
                    if self.won(child):
                        line: list[GeneralStep] = []
                        up = parent[key]
                        while up is not None:
                            at, step = up
                            line.append(step)
                            up = parent[at]
                        return line[::-1]
                    if step[0] not in ("king", "pair") or not self.dead(child):
                        following.append(child)
            frontier = following
        return None

    def most_removed(self, root: GeneralPosition) -> tuple[int, list[GeneralStep]]:
        """The most pyramid cards removed in all in any reachable position (counting those gone
        already), and a line reaching it. Depth-first through every position, branch and bound:
        a position is not searched below when even the pool game from it (``fewest_left``) leaves
        as many cards as the fewest left so far, and the search ends when the fewest left are as
        few as the pool game leaves from the root (no line of the real game leaves fewer). Without
        the cuts (``cuts=False``) every position is searched: the tests compare the two."""
        fewest: list[int] = [root[0].bit_count()]  # (the fewest left, and the line leaving them)
        best: list[list[GeneralStep]] = [[]]
        pool_left: Callable[[int, int], int] = self.pyramid.fewest_left if self.cuts else lambda pyramid, signature: 0
        floor = pool_left(root[0], self.signature(root))

        def visit(line: list[GeneralStep], step: GeneralStep, child: GeneralPosition) -> bool:
            if pool_left(child[0], self.signature(child)) >= fewest[0]:
                return False
            left = child[0].bit_count()
            if left < fewest[0]:
                fewest[0], best[0] = left, [*line, step]
                if left <= floor:
                    raise _Stop
            return True

        if fewest[0] > floor:
            try:
                self.walk(root, visit)
            except _Stop:
                pass
        return self.total - fewest[0], best[0]

    # -- lines ---------------------------------------------------------------------------------------
    def moves(self, steps: list[GeneralStep]) -> tuple[Move, ...]:
        return tuple(self.deal.move(step) for step in steps)


def models(rules: Rules) -> bool:
    """Whether this search reads ``rules``' shape: any triangle (its tables come from the shape),
    and at most 15 cards of a value (the pile values' counts are packed 4 bits each)."""
    shape = rules.shape
    return shape.copies * len(shape.deck.suits) < 1 << BITS


def search(
    state: GameState, budget: int, *, max_removable: bool, shortest: bool, cuts: bool = True, breadth_first: bool = False, weight: int = 1,
    weighted_for: int = 0, deadline: float | None = None,
) -> Answer:
    """(result, line, minimal, max_removable, nodes) for ``state``, as ``solve`` answers them
    (``deadline`` too); the shortest line A* (``general_shortest``; anytime weighted A* with
    ``weight`` > 1), or with ``breadth_first`` breadth-first."""
    run = GeneralSearch(state, budget, cuts, deadline)
    root = run.encode(state)
    try:
        steps = run.probe_then_search(root)
    except Exhausted:
        return "unknown", None, False, None, budget
    if steps is not None:
        line, minimal = run.moves(steps), False
        if shortest:
            fewest: list[GeneralStep] | None = None
            a_star = GeneralShortest(run)
            try:
                if breadth_first:
                    fewest = run.breadth_first_line(root)
                else:  # (None: no line is shorter than the one found)
                    fewest = a_star.shortest_line(root, bound=len(steps), weight=weight, weighted_for=weighted_for)
                minimal = True
            except Exhausted:
                fewest = a_star.found  # (shorter than the verdict's line, if the search found one)
            if fewest is not None:
                line = run.moves(fewest)
        return "winnable", line, minimal, run.total, min(run.budget.nodes, budget)
    most = None
    if max_removable:
        try:
            most, _ = run.most_removed(root)
        except Exhausted:
            most = None
    return "unwinnable", None, False, most, min(run.budget.nodes, budget)


def hint(state: GameState, budget: int, cuts: bool = True, deadline: float | None = None) -> tuple[Move | None, Answer]:
    """The next move of a winning line, else of a line removing the most pyramid cards, with the
    answer as ``search`` gives it. The line is searched with the removals first and no probe:
    following the hints one by one then makes progress (with the probe's draws first, each new
    search may begin by going round the stock again, and the hints never end a game). Both
    searches stop at ``deadline`` too (a ``time.monotonic()`` instant)."""
    run = GeneralSearch(state, budget, cuts, deadline)
    root = run.encode(state)
    try:
        steps = run.find_win(root)
    except Exhausted:
        return None, ("unknown", None, False, None, budget)
    if steps is not None:
        line = run.moves(steps)
        return (line[0] if line else None), ("winnable", line, False, run.total, min(run.budget.nodes, budget))
    move, most, nodes = best_first_move(state, budget - run.budget.nodes, deadline)
    return move, ("unwinnable", None, False, most, min(run.budget.nodes + nodes, budget))


def best_first_move(state: GameState, budget: int, deadline: float | None = None) -> tuple[Move | None, int | None, int]:
    """For a lost position: the first move of a line removing the most pyramid cards (None when
    none removes any more, or the budget or its deadline ran out), that most, and the positions
    searched."""
    run = GeneralSearch(state, budget, deadline=deadline)
    root = run.encode(state)
    try:
        most, steps = run.most_removed(root)
    except Exhausted:
        return None, None, min(run.budget.nodes, budget)
    line = run.moves(steps)
    return (line[0] if line else None), most, run.budget.nodes
