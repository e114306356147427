"""The breadth-first search for the shortest line, kept as the oracle of the A* search
(``shortest``: tests and the bench compare them, ``SearchOptions(shortest="breadth-first")``): every position as played (the split point kept;
under unlimited recycles their count does not matter), level by level of moves.

Invariant: the first won position reached is at the fewest moves from the root (every move counts
one: pairs, Kings, draws, recycles), so its line is a shortest one; None only when no position
reachable is won.
"""

from __future__ import annotations

from .model import _Exhausted


class BreadthFirst:
    """Mixed into a search over a ``Model`` with ``Bounds``."""

    def breadth_first_line(self, root) -> list | None:
        """Breadth-first over the positions as played (split point kept; under unlimited recycles
        their count does not matter): a line with the fewest moves to a win, or None if there is
        none. Removing a free pyramid King first never lengthens a line; a King on the waste is
        one move among the others."""
        key = self.line_key

        parent: dict[int, tuple] = {key(root): None}
        frontier = [root]
        while frontier:
            following = []
            for position in frontier:
                for step, child in self.children(*position, every_king=True):
                    if key(child) in parent:
                        continue
                    parent[key(child)] = (key(position), step)
                    self.nodes += 1
                    if self.nodes > self.budget:
                        raise _Exhausted
                    if self.won(child[0], child[1]):
                        line, at = [], key(child)
                        while parent[at] is not None:
                            at, step = parent[at]
                            line.append(step)
                        return line[::-1]
                    if not self.hopeless(child[0], child[1]):
                        following.append(child)
            frontier = following
        return None

