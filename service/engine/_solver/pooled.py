"""Depth-first searches over positions, each once: the search with the pile as a pool (the verdict
under unlimited recycles, and ``lost_with_unlimited_passes`` for limited ones), the search of every
position as played (``walk``) and the bounded probe run before the search by levels.

Invariant: a position is reported lost only when every move from it was searched (or it is
hopeless), winnable only with a line reaching a won position; the node count never passes the
budget without raising ``Exhausted``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from .bounds import Bounds
from .budget import Budget, Exhausted
from .model import Line, Model, Position, Step

#: ``walk``'s visit: (the line reaching a new position, the position) -> whether to go on from it
Visit = Callable[[Line, Position], bool]


class PooledSearch:
    """The depth-first searches of one deal's ``Model``, cut by its ``Bounds``, counted against
    the ``Budget``; ``pool_lost``/``pool_won`` keep what the pool search proved."""

    def __init__(self, model: Model, bounds: Bounds, budget: Budget, probe_budget: int) -> None:
        self.model = model
        self.bounds = bounds
        self.budget = budget
        self.probe_budget = probe_budget
        #: (pyramid, removed) positions proved lost, or winnable, with the pile as a pool (see
        #: ``lost_with_unlimited_passes``)
        self.pool_lost: set[int] = set()
        self.pool_won: set[int] = set()

    def lost_with_unlimited_passes(self, pyramid: int, removed: int) -> bool:
        """Is the position lost even with unlimited passes? Every line under a recycle limit is a
        line without one, so it is then lost under any limit. Searched depth-first with the pile
        as a pool; the positions proved lost or winnable are kept for the next questions."""
        # (methods called directly: mypyc compiles a call through a local alias as a generic one)
        model, budget = self.model, self.budget
        lost, won, at = self.pool_lost, self.pool_won, model.pile_at
        root = pyramid | removed << at
        if root in lost:
            return True
        if root in won or model.won(pyramid, removed):
            return False
        path, stack = [root], [model.pooled_children(pyramid, removed)]
        while stack:
            for _, (pyramid, removed, _, _) in stack[-1]:
                key = pyramid | removed << at
                if key in lost:
                    continue
                if key in won or model.won(pyramid, removed):
                    won.update(path)
                    return False
                budget.count()
                if self.bounds.hopeless(pyramid, removed):
                    lost.add(key)
                    continue
                path.append(key)
                stack.append(model.pooled_children(pyramid, removed))
                break
            else:  # every move searched (moves remove cards: no position comes back)
                stack.pop()
                lost.add(path.pop())
        return True

    def walk(self, root: Position, visit: Visit) -> None:
        """Depth-first over the positions reachable from ``root``, each once: ``visit(line, child)``
        gets every new position with the line of steps reaching it, and says whether to go on
        from it. Raises Exhausted when the budget runs out."""
        model, budget = self.model, self.budget
        key_of, children = model.key, model.children
        seen = {key_of(root)}
        stack: list[Iterator[tuple[Step, Position]]] = [iter(children(*root))]
        path: Line = []
        while stack:
            for step, child in stack[-1]:
                key = key_of(child)
                if key in seen:
                    continue
                seen.add(key)
                budget.count()
                path.append(step)
                if visit(path, child):
                    stack.append(iter(children(*child)))
                    break
                path.pop()
            else:
                stack.pop()
                if path:
                    path.pop()

    def probe(self, root: Position, visit: Visit) -> bool:
        """Search depth-first for at most ``probe_budget`` positions: True if that was all of them
        (a win raises _Found)."""
        budget = self.budget
        total = budget.cap(budget.nodes + self.probe_budget)
        try:
            self.walk(root, visit)
            return True
        except Exhausted:
            if budget.total == total or budget.timed_out:  # the whole budget's limit, or its deadline
                raise
            return False
        finally:
            budget.restore(total)
