"""The A* search over single moves that the search over runs of draws (``shortest``) replaced,
kept as a comparison row of the bench and an oracle of the tests
(``SearchOptions(shortest="a*-plain")``): the positions as played (the split point kept; under
unlimited recycles their count does not matter), every move counting one (pairs, Kings, draws,
recycles), each a step of its own, with the estimate ``Estimate.plain_estimate``.

The estimate is admissible but not consistent (a pair can end a need whose draws counted), so a
position is searched again when it is reached by a shorter line. The first won position taken from
the queue is then at the fewest moves from the root. A line known already (``bound``: its length)
prunes every position that could not beat it: when the queue empties, no shorter line exists.

Invariant: ``plain_shortest_line`` returns a line with the fewest moves to a win; ``None`` only
when no line shorter than ``bound`` exists (or, with no bound, when the position is lost); it
raises ``Exhausted`` rather than answer past the budget.
"""

from __future__ import annotations

import heapq

from .bounds import Bounds
from .budget import Budget
from .estimate import Estimate
from .model import Line, Model, Position, Step


class PlainShortest:
    """The A* search move by move over one deal's ``Model``, cut by its ``Bounds``, with the
    ``Estimate`` (its ``plain_estimate``), counted against the ``Budget``."""

    def __init__(self, model: Model, bounds: Bounds, estimate: Estimate, budget: Budget) -> None:
        self.model, self.bounds, self.estimate, self.budget = model, bounds, estimate, budget

    def plain_shortest_line(self, root: Position, bound: int | None = None) -> Line | None:
        """A line with the fewest moves from ``root`` to a win, searched A* move by move (see the
        module's docstring); None if there is none shorter than ``bound``."""
        model = self.model
        won, hopeless, estimate, children = model.won, self.bounds.hopeless, self.estimate.plain_estimate, model.children
        key = model.line_key

        if hopeless(root[0], root[1]):
            return None
        ceiling = bound if bound is not None else 1 << 30
        start = key(root)
        best: dict[int, tuple[int, int | None, Step | None]] = {start: (0, None, None)}  # key -> (moves from the root, parent key, step)
        queue: list[tuple[int, int, int, Position]] = [(estimate(root[0], root[1], root[2]), 0, start, root)]
        counter = self.budget
        nodes, budget = counter.nodes, counter.limit
        while queue:
            _, depth, at, position = heapq.heappop(queue)
            depth = -depth
            if best[at][0] < depth:
                continue  # reached again by a shorter line since
            pyramid, removed = position[0], position[1]
            if won(pyramid, removed):
                counter.nodes = nodes
                line: Line = []
                _, parent, last = best[at]
                while parent is not None:
                    assert last is not None  # (every position but the root was reached by a step)
                    line.append(last)
                    _, parent, last = best[parent]
                return line[::-1]
            depth += 1
            for step, child in children(*position, every_king=True):
                child_key = key(child)
                known = best.get(child_key)
                if known is not None and known[0] <= depth:
                    continue
                if hopeless(child[0], child[1]):
                    best[child_key] = (-1, None, None)  # (never searched)
                    continue
                total = depth + estimate(child[0], child[1], child[2])
                if total >= ceiling:
                    continue
                nodes += 1
                if nodes > budget:
                    budget = counter.over(nodes)  # (raises Exhausted past the budget or its deadline)
                best[child_key] = (depth, at, step)
                heapq.heappush(queue, (total, -depth, child_key, child))
        counter.nodes = nodes
        return None
