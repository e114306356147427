"""Depth-first searches over positions, each once: the search with the pile as a pool (the verdict
under unlimited recycles, and ``lost_with_unlimited_passes`` for limited ones), the search of every
position as played (``walk``) and the bounded probe run before the search by levels.

Invariant: a position is reported lost only when every move from it was searched (or it is
hopeless), winnable only with a line reaching a won position; the node count never passes the
budget without raising ``_Exhausted``.
"""

from __future__ import annotations

from .model import _Exhausted


class PooledSearch:
    """Mixed into a search over a ``Model`` with ``Bounds``: uses ``nodes``, ``budget``,
    ``pool_lost``/``pool_won`` and ``options``."""

    def lost_with_unlimited_passes(self, pyramid: int, removed: int) -> bool:
        """Is the position lost even with unlimited passes? Every line under a recycle limit is a
        line without one, so it is then lost under any limit. Searched depth-first with the pile
        as a pool; the positions proved lost or winnable are kept for the next questions."""
        lost, won, at = self.pool_lost, self.pool_won, self.pile_at
        root = pyramid | removed << at
        if root in lost or root in won or self.won(pyramid, removed):
            return root in lost
        path, stack = [root], [self.pooled_children(pyramid, removed)]
        while stack:
            for _, (pyramid, removed, _, _) in stack[-1]:
                key = pyramid | removed << at
                if key in lost:
                    continue
                if key in won or self.won(pyramid, removed):
                    won.update(path)
                    return False
                self.nodes += 1
                if self.nodes > self.budget:
                    raise _Exhausted
                if self.hopeless(pyramid, removed):
                    lost.add(key)
                    continue
                path.append(key)
                stack.append(self.pooled_children(pyramid, removed))
                break
            else:  # every move searched (moves remove cards: no position comes back)
                stack.pop()
                lost.add(path.pop())
        return True

    def walk(self, root, visit) -> None:
        """Depth-first over the positions reachable from ``root``, each once: ``visit(line, child)``
        gets every new position with the line of steps reaching it, and says whether to go on
        from it. Raises _Exhausted when the budget runs out."""
        seen = {self.key(root)}
        stack = [iter(self.children(*root))]
        path: list = []
        while stack:
            for step, child in stack[-1]:
                key = self.key(child)
                if key in seen:
                    continue
                seen.add(key)
                self.nodes += 1
                if self.nodes > self.budget:
                    raise _Exhausted
                path.append(step)
                if visit(path, child):
                    stack.append(iter(self.children(*child)))
                    break
                path.pop()
            else:
                stack.pop()
                if path:
                    path.pop()

    def probe(self, root, visit) -> bool:
        """Search depth-first for at most ``options.probe_budget`` positions: True if that was all of them
        (a win raises _Found)."""
        budget, self.budget = self.budget, min(self.budget, self.nodes + self.options.probe_budget)
        try:
            self.walk(root, visit)
            return True
        except _Exhausted:
            if self.budget == budget:
                raise
            return False
        finally:
            self.budget = budget

