"""The shortest line: A* over the positions as played (the split point kept; under unlimited recycles
their count does not matter), every move counting one (pairs, Kings, draws, recycles).

The estimate of the moves still needed (``estimate``) is a lower bound, the sum of two parts that
no move shares:

- *removals*: every pyramid King takes a move of its own; the other pyramid cards go two at a time
  at best, and only in pairs of values v and 13 − v that could ever meet (neither covering the
  other), so the cards beyond those pairs take a move each (with a pile card). Under «victoria
  estricta» every card left goes too: each King a move, the others two at a time at best;
- *draws*: a pile card reaches play only once drawn, so where the pyramid needs ``count`` pile
  cards of a value (``Bounds.needs``) and the waste holds fewer, the stock must be drawn down to
  the nearest partner still needed; under «victoria estricta», down to its last card.

A position the hopeless cut proves lost is not searched. The estimate is admissible but not
consistent (a pair can end a need whose draws counted), so a position is searched again when it is
reached by a shorter line. The first won position taken from the queue is then at the fewest
moves from the root. A line known already (``bound``: its length) prunes every position that could
not beat it: when the queue empties, no shorter line exists.

Invariant: ``shortest_line`` returns a line with the fewest moves to a win; ``None`` only when no
line shorter than ``bound`` exists (or, with no bound, when the position is lost); it raises
``_Exhausted`` rather than answer past the budget.
"""

from __future__ import annotations

import heapq

from .model import _Exhausted


class ShortestSearch:
    """Mixed into a search over a ``Model`` with ``Bounds``."""

    def removal_bound(self, pyramid: int) -> tuple[int, int, int]:
        """For a pyramid: (the fewest moves removing its cards, its Kings, its other cards).
        Cached per pyramid."""
        found = self.removal_cache.get(pyramid)
        if found is None:
            held, lonely = self.value_counts(pyramid)
            pairs = sum(min(held[v] - lonely[v], held[13 - v] - lonely[13 - v]) for v in range(1, 7))
            others = sum(held[1:13])
            found = self.removal_cache[pyramid] = (held[13] + others - pairs, held[13], others)
        return found

    def estimate(self, pyramid: int, removed: int, split: int) -> int:
        """A lower bound on the moves from the position to a win (see the module's docstring)."""
        moves, kings, others = self.removal_bound(pyramid)
        stock = self.all_pile & ~removed >> split << split  # the stock cards left, as pile positions
        if self.strict:
            left = self.all_pile & ~removed
            pile_kings = (left & self.pile_of_value[13]).bit_count()
            cards = others + left.bit_count() - pile_kings
            moves = max(moves, kings + pile_kings + (cards + 1) // 2)
            return moves + stock.bit_count()
        draws = 0
        waste = (1 << split) - 1
        for count, partners in self.needs(pyramid):
            left = partners & ~removed
            short = count - (left & waste).bit_count()
            if short > 0:
                ahead = left & stock
                for _ in range(short - 1):
                    ahead &= ahead - 1
                deepest = ahead & -ahead  # the partner still needed the furthest down the stock
                drawn = (stock & (deepest << 1) - 1).bit_count()
                if drawn > draws:
                    draws = drawn
        return moves + draws

    def shortest_line(self, root, bound: int | None = None) -> list | None:
        """A line with the fewest moves from ``root`` to a win, searched A* (see the module's
        docstring); None if there is none shorter than ``bound``."""
        self.removal_cache: dict[int, tuple[int, int, int]] = {}
        limit, won, hopeless, estimate, children = self.limit, self.won, self.hopeless, self.estimate, self.children

        def key(position):
            pyramid, removed, split, recycles = position
            return pyramid | removed << 28 | split << 53 | (0 if limit is None else recycles) << 59

        if hopeless(root[0], root[1]):
            return None
        ceiling = bound if bound is not None else 1 << 30
        start = key(root)
        best: dict[int, tuple] = {start: (0, None, None)}  # key -> (moves from the root, parent key, step)
        queue = [(estimate(root[0], root[1], root[2]), 0, start, root)]
        nodes, budget = self.nodes, self.budget
        while queue:
            _, depth, at, position = heapq.heappop(queue)
            depth = -depth
            if best[at][0] < depth:
                continue  # reached again by a shorter line since
            pyramid, removed = position[0], position[1]
            if won(pyramid, removed):
                self.nodes = nodes
                line = []
                while best[at][1] is not None:
                    _, at, step = best[at]
                    line.append(step)
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
                    self.nodes = nodes
                    raise _Exhausted
                best[child_key] = (depth, at, step)
                heapq.heappush(queue, (total, -depth, child_key, child))
        self.nodes = nodes
        return None
