"""The breadth-first search for the shortest line, kept as the oracle of the A* search
(``shortest``: tests and the bench compare them, ``SearchOptions(shortest="breadth-first")``): every position as played (the split point kept;
under unlimited recycles their count does not matter), level by level of moves.

Invariant: the first won position reached is at the fewest moves from the root (every move counts
one: pairs, Kings, draws, recycles), so its line is a shortest one; None only when no position
reachable is won.
"""

from __future__ import annotations

from .bounds import Bounds
from .budget import Budget
from .model import Line, Model, Position, Step


class BreadthFirst:
    """The breadth-first search of one deal's ``Model``, cut by its ``Bounds``, counted against
    the ``Budget``."""

    def __init__(self, model: Model, bounds: Bounds, budget: Budget) -> None:
        self.model, self.bounds, self.budget = model, bounds, budget

    def breadth_first_line(self, root: Position) -> Line | None:
        """Breadth-first over the positions as played (split point kept; under unlimited recycles
        their count does not matter): a line with the fewest moves to a win, or None if there is
        none. Removing a free pyramid King first never lengthens a line; a King on the waste is
        one move among the others."""
        model, budget = self.model, self.budget
        key, children, won, hopeless = model.line_key, model.children, model.won, self.bounds.hopeless

        parent: dict[int, tuple[int, Step] | None] = {key(root): None}
        frontier = [root]
        while frontier:
            following = []
            for position in frontier:
                for step, child in children(*position, every_king=True):
                    if key(child) in parent:
                        continue
                    parent[key(child)] = (key(position), step)
                    budget.count()
                    if won(child[0], child[1]):
                        line: Line = []
                        up = parent[key(child)]
                        while up is not None:
                            at, step = up
                            line.append(step)
                            up = parent[at]
                        return line[::-1]
                    if not hopeless(child[0], child[1]):
                        following.append(child)
            frontier = following
        return None

