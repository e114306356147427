"""The shortest line of the general search (``general``): anytime weighted A* over its positions,
every move counting one (pairs, Kings, draws, recycles), with the line found by the verdict as a
bound.

The estimate (``moves_left``) is the sum of two parts no move shares:

- *removals*: every pyramid King takes a move of its own; the other pyramid cards go two at a time
  at best (a pair within the pyramid), and the cards that must take a pile card (``needs``: those
  with no pyramid partner they could ever meet, and those of a value beyond the pyramid's cards of
  its partner value) take a move each: with p pairs within the pyramid and j cards taken by pile
  cards (2p + j = the cards but Kings, j ≥ the needs), p + j ≥ (cards + needs) / 2. Under
  «victoria estricta» every pile card left goes too: each King a move, the other cards two at a
  time at best;
- *draws*: the pile cards a value needs beyond those of its value in the waste piles come from the
  stock, drawn from its top: the card of that rank in the stock is drawn no sooner than by the
  draw that turns it (a card at depth i, 0 at the top, by draw i // cards a draw + 1; the cards
  above it go first). Under «victoria estricta» the whole stock is drawn;
- *digging, or a recycle*: a line either wins without another recycle or recycles. Without: where
  a value's needed cards are more than the stock and the waste tops hold, one lies under other
  cards, and each card above it of a value no pyramid card needs leaves first, with a pyramid card
  beyond those the removals count, with another pile card or alone (a King): half a move at least
  each (``pile_profile``). With a recycle: the stock drawn to its end, the recycle and a draw at
  least (a shortest line recycles only to draw). The estimate takes the smaller.

The parts count moves of their own kind only, and none overestimates, so the sum is a lower
bound on the moves of any winning line (admissible). It is not consistent: a position is searched
again when a shorter line reaches it. Positions are told apart by the search's key (under Apophis's
last pass the piles' order does not matter), and the line is written again from the root through
the keys of its positions, so each step is the one the position as played allows.

Invariant: ``shortest_line`` returns a line with the fewest moves to a win, ``None`` when no line
shorter than ``bound`` exists (with no bound: when the position is lost); it raises ``Exhausted``
rather than answer past the budget, with ``found`` the shortest line found by then (None if none
beat ``bound``). The weight (anytime weighted A*) changes only the order of the queue, never
the rule of what is pruned.
"""

from __future__ import annotations

import heapq
import itertools
import math
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from .general import GeneralPosition, GeneralSearch, GeneralStep

#: The stock and pile profiles kept (``stock_depths``, ``pile_profile``), each cache emptied when
#: full: Apophis's three piles make nearly every position's piles and stock new (136,896 and
#: 72,879 of 250,000 on ``PYR1-AT2-AAAAAAF``), which kept whole would double the search's memory.
PROFILES_KEPT = 1 << 12


#: What ``removals`` gives of a pyramid
Removals: TypeAlias = tuple[int, int, int, tuple[tuple[int, int], ...], int, int]
#: A queue's entry: (moves + weight × the estimate, -moves, order queued, key, position, the estimate)
Entry: TypeAlias = "tuple[int, int, int, GeneralPosition, GeneralPosition, int]"


def as_a_star(queue: list[Entry]) -> None:
    """Re-order a weighted A*'s queue as A*'s, by the moves made plus the estimate."""
    queue[:] = [(left - back, back, tie, key, position, left) for _, back, tie, key, position, left in queue]
    heapq.heapify(queue)


class GeneralShortest:
    """The shortest-line search over a ``GeneralSearch``: its positions, children, keys, cuts
    and budget; ``found``: the shortest line found so far."""

    def __init__(self, search: GeneralSearch) -> None:
        self.search = search
        self.budget = search.budget
        self.total, self.values, self.pair_sum, self.strict = search.total, search.values, search.pair_sum, search.strict
        self.pile_values, self.draw_count, self.limit, self.pyramid = search.pile_values, search.draw_count, search.limit, search.pyramid
        #: per pyramid: its Kings, other cards, fewest moves removing them, needs, the pile cards
        #: they need in all and the values needed (``removals``)
        self.removals_cache: dict[int, Removals] = {}
        #: the shortest line found so far (when the budget ran out: the answer)
        self.found: list[GeneralStep] | None = None
        self.stock_cache: dict[tuple[int, ...], dict[int, tuple[int, ...]]] = {}
        self.pile_cache: dict[tuple[tuple[tuple[int, ...], ...], int], tuple[tuple[int, ...], tuple[tuple[int, int], ...]]] = {}

    def removals(self, pyramid: int) -> Removals:
        """(Kings, other cards, the fewest moves removing them, ``needs``, the pile cards they need
        in all, the values needed as a bit mask) of a pyramid (see the module's docstring). Cached
        per pyramid."""
        cache = self.removals_cache
        found = cache.get(pyramid)
        if found is None:
            kings = sum(1 for slot in range(self.total) if pyramid >> slot & 1 and self.values[slot] == self.pair_sum)
            others = pyramid.bit_count() - kings
            needs = self.pyramid.needs(pyramid)
            taken = sum(count for count, _ in needs)
            wanted = 0
            for _, value in needs:
                wanted |= 1 << value
            found = cache[pyramid] = (kings, others, kings + (others + taken + 1) // 2, needs, taken, wanted)
        return found

    def moves_left(self, position: GeneralPosition) -> int:
        """A lower bound on the moves from ``position`` to a win (see the module's docstring)."""
        pyramid, stock, piles = position[:3]
        kings, others, removals, needs, taken, wanted = self.removals(pyramid)
        if self.strict:
            pile_values, total = self.pile_values, self.pair_sum
            pile_kings = pile_others = 0
            for card in itertools.chain(stock, *piles):
                if pile_values[card] == total:
                    pile_kings += 1
                else:
                    pile_others += 1
            cards = kings + pile_kings + (others + pile_others + 1) // 2
            return max(removals, cards) + -(-len(stock) // self.draw_count)
        if not needs:
            return removals
        depths = self.stock_depths(stock)
        tops, fewest = self.pile_profile(piles, wanted)
        draws = extra = 0
        for count, value in needs:
            found = depths.get(value, ())
            least, under = fewest[value]
            short = count - tops[value] - under  # (beyond the waste piles' cards of the value)
            if short > 0:
                if len(found) < short:  # (fewer pile cards of a value than the pyramid needs: a
                    # lost position, which the cuts end before; any estimate is a lower bound there)
                    return removals + -(-len(stock) // self.draw_count) + 1
                drawn = found[short - 1] // self.draw_count + 1  # (by the draw that turns it)
                if drawn > draws:
                    draws = drawn
            if count > len(found) + tops[value] and least > extra:  # (the stock and the tops lack one)
                extra = least  # (one lies under the top: the cards above it leave first)
        # a line that wins without a recycle digs (``pile_profile``): the ``extra`` cards above
        # take half a move at least each
        digging = (others + taken + extra + 1) // 2 - (others + taken + 1) // 2
        if self.limit is not None and position[3] >= self.limit:
            return removals + draws + digging
        # or a line that recycles: the stock drawn to its end, the recycle, and a draw at least
        # (a shortest line recycles only to draw)
        recycling = -(-len(stock) // self.draw_count) + 2
        return removals + min(draws + digging, recycling)

    def stock_depths(self, stock: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
        """Per value, the depths (0 at the top) of the stock's cards of that value. Cached per
        stock."""
        found = self.stock_cache.get(stock)
        if found is None:
            grouped: dict[int, list[int]] = {}
            pile_values = self.pile_values
            for depth, card in enumerate(stock):
                grouped.setdefault(pile_values[card], []).append(depth)
            if len(self.stock_cache) >= PROFILES_KEPT:
                self.stock_cache.clear()
            found = self.stock_cache[stock] = {value: tuple(depths) for value, depths in grouped.items()}
        return found

    def pile_profile(self, piles: tuple[tuple[int, ...], ...], wanted: int) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
        """For the waste piles and the values wanted (a bit mask): per value, the piles' tops of
        that value; and per value, (the fewest cards of values not wanted above one of that value
        under a top, how many of that value lie under a top). Cached per (piles, wanted)."""
        key = (piles, wanted)
        found = self.pile_cache.get(key)
        if found is None:
            pile_values = self.pile_values
            tops = [0] * (self.pair_sum + 1)
            fewest = [(0, 0)] * (self.pair_sum + 1)
            for pile in piles:
                if not pile:
                    continue
                top = pile_values[pile[-1]]
                tops[top] += 1
                above, seen = (0 if wanted >> top & 1 else 1), 0  # (the cards above one under the top)
                for card in reversed(pile[:-1]):
                    value = pile_values[card]
                    if not wanted >> value & 1:
                        above += 1
                        continue
                    least, under = fewest[value]
                    if not seen >> value & 1:
                        seen |= 1 << value
                        least = above if not under else min(least, above)
                    fewest[value] = (least, under + 1)
            if len(self.pile_cache) >= PROFILES_KEPT:
                self.pile_cache.clear()
            found = self.pile_cache[key] = (tuple(tops), tuple(fewest))  # (tuples: kept, never changed)
        return found

    def shortest_line(self, root: GeneralPosition, bound: int | None = None, weight: int = 1, weighted_for: int = 0) -> list[GeneralStep] | None:
        """A line of steps with the fewest moves from ``root`` to a win, searched A* (see the
        module's docstring); None if there is none shorter than ``bound``. With ``weight`` w > 1,
        anytime weighted A*, as the fast models' search (``shortest``): the queue ordered by the
        moves plus w times the estimate, each line found the bound (``found``) until no position
        left could beat it; A* if no line is found within ``weighted_for`` positions."""
        search, counter = self.search, self.budget
        self.found = None
        if search.won(root):
            return []
        ceiling = bound if bound is not None else math.inf
        estimate = self.moves_left
        start = search.key(root)
        best: dict[GeneralPosition, tuple[int, GeneralPosition | None]] = {start: (0, None)}  # key -> (moves, parent key)
        tie = itertools.count()
        # (moves + weight × the estimate, -moves, tie, key, position, the estimate)
        queue: list[Entry] = [(estimate(root), 0, next(tie), start, root, 0)]
        weighted_until = counter.nodes + weighted_for
        while queue:
            if weight != 1 and self.found is None and counter.nodes > weighted_until:
                as_a_star(queue)  # (no line found soon: A* from here)
                weight = 1
            _, depth, _, at, position, left = heapq.heappop(queue)
            depth = -depth
            if best[at][0] < depth or depth + left >= ceiling:
                continue  # reached again by a shorter line since, or a line as short was found
            if search.won(position):
                self.found = self.line_through(root, at, best)
                ceiling = len(self.found)  # (at most ``depth``: a parent may have been reached shorter since)
                if weight == 1:  # (A*: the first line taken from the queue is the shortest)
                    break
                continue
            moves = depth + 1
            for step, child in search.children(position, every_king=True):
                key = search.key(child)
                known = best.get(key)
                if known is not None and known[0] <= moves:
                    continue
                if step[0] in ("king", "pair") and not search.won(child) and search.dead(child):
                    continue  # (a draw or a recycle leaves the pyramid and the pile values as they were)
                left = estimate(child)
                if moves + left >= ceiling:
                    continue
                counter.count()
                best[key] = (moves, at)
                heapq.heappush(queue, (moves + weight * left, -moves, next(tie), key, child, left))
        return self.found

    def line_through(
        self, root: GeneralPosition, end: GeneralPosition, best: dict[GeneralPosition, tuple[int, GeneralPosition | None]]
    ) -> list[GeneralStep]:
        """The steps from ``root`` through the positions whose keys lead to ``end`` (parent by
        parent in ``best``), each step found among the children of the position as played."""
        search = self.search
        keys = []
        at: GeneralPosition | None = end
        while at is not None:
            keys.append(at)
            at = best[at][1]
        keys.reverse()
        line: list[GeneralStep] = []
        position = root
        for key in keys[1:]:
            step, position = next((step, child) for step, child in search.children(position, every_king=True) if search.key(child) == key)
            line.append(step)
        return line
