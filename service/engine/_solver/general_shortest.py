"""The shortest line of the general search (``general``): A* over its positions, every move counting
one (pairs, Kings, draws, recycles), with the line found by the verdict as a bound.

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
  each (``dig_removals``). With a recycle: the stock drawn to its end, the recycle and a draw at
  least (a shortest line recycles only to draw). The estimate takes the smaller.

The parts count moves of their own kind only, and none overestimates, so the sum is a lower
bound on the moves of any winning line (admissible). It is not consistent: a position is searched
again when a shorter line reaches it. Positions are told apart by the search's key (under Apophis's
last pass the piles' order does not matter), and the line is written again from the root through
the keys of its positions, so each step is the one the position as played allows.

Invariant: ``shortest_line`` returns a line with the fewest moves to a win, ``None`` when no line
shorter than ``bound`` exists (with no bound: when the position is lost); it raises ``Exhausted``
rather than answer past the budget.
"""

from __future__ import annotations

import heapq
import itertools
import math


class GeneralShortest:
    """Mixed into ``GeneralSearch``: its positions, children, keys and cuts."""

    def removals(self, pyramid: int) -> tuple[int, int, int, tuple]:
        """(Kings, other cards, the fewest moves removing them, ``needs``) of a pyramid (see the
        module's docstring). Cached per pyramid."""
        cache = self.removals_cache
        found = cache.get(pyramid)
        if found is None:
            kings = sum(1 for slot in range(self.total) if pyramid >> slot & 1 and self.values[slot] == self.pair_sum)
            others = pyramid.bit_count() - kings
            needs = self.pyramid.needs(pyramid)
            taken = sum(count for count, _ in needs)
            found = cache[pyramid] = (kings, others, kings + (others + taken + 1) // 2, needs)
        return found

    def moves_left(self, position: tuple) -> int:
        """A lower bound on the moves from ``position`` to a win (see the module's docstring)."""
        pyramid, stock, piles = position[:3]
        pile_values, total = self.pile_values, self.pair_sum
        kings, others, removals, needs = self.removals(pyramid)
        if self.strict:
            pile_kings = pile_others = 0
            for card in itertools.chain(stock, *piles):
                if pile_values[card] == total:
                    pile_kings += 1
                else:
                    pile_others += 1
            cards = kings + pile_kings + (others + pile_others + 1) // 2
            return max(removals, cards) + -(-len(stock) // self.draw_count)
        draws = 0
        if not needs:
            return removals
        held = [0] * (total + 1)  # the waste piles' cards, by value
        for pile in piles:
            for card in pile:
                held[pile_values[card]] += 1
        short = {value: count - held[value] for count, value in needs if count > held[value]}
        if short:
            for depth, card in enumerate(stock):  # (the top first: the last value done is the deepest)
                value = pile_values[card]
                if value in short:
                    short[value] -= 1
                    if not short[value]:
                        del short[value]
                        if not short:
                            draws = depth // self.draw_count + 1
                            break
            else:  # (fewer pile cards of a value than the pyramid needs: a lost position, which
                # the cuts end before; any estimate is a lower bound there)
                return removals + -(-len(stock) // self.draw_count) + 1
        if self.limit is not None and position[3] >= self.limit:
            return removals + draws + self.dig_removals(kings, others, needs, stock, piles)
        # or a line that recycles: the stock drawn to its end, the recycle, and a draw at least
        # (a shortest line recycles only to draw)
        recycling = -(-len(stock) // self.draw_count) + 2
        if draws >= recycling:
            return removals + recycling
        return removals + min(draws + self.dig_removals(kings, others, needs, stock, piles), recycling)

    def dig_removals(self, kings: int, others: int, needs: tuple, stock: tuple, piles: tuple) -> int:
        """The removals a line winning without a recycle makes beyond ``removals``' count: where
        a value's needed cards are more than the stock and the waste tops hold, one lies under
        other cards, and every card above it leaves first. A card above of a value no pyramid
        card needs (``needs``) leaves with a pyramid card beyond those counted, with another pile
        card, or alone as a King: half a move at least each."""
        pile_values = self.pile_values
        wanted = {value: count for count, value in needs}
        ready = dict.fromkeys(wanted, 0)  # per value: in the stock and on the waste tops
        for card in stock:
            if pile_values[card] in ready:
                ready[pile_values[card]] += 1
        fewest: dict[int, int] = {}  # per value: the fewest cards above one under the top
        for pile in piles:
            if not pile:
                continue
            top = pile_values[pile[-1]]
            if top in ready:
                ready[top] += 1
            above, seen = (0 if top in wanted else 1), set()  # (the cards above one under the top)
            for card in reversed(pile[:-1]):
                value = pile_values[card]
                if value not in wanted:
                    above += 1
                elif value not in seen:
                    seen.add(value)
                    if above < fewest.get(value, above + 1):
                        fewest[value] = above
        extra = max((fewest.get(value, 0) for value, count in wanted.items() if count > ready[value]), default=0)
        taken = sum(wanted.values())
        return kings + (others + taken + extra + 1) // 2 - (kings + (others + taken + 1) // 2)

    def shortest_line(self, root: tuple, bound: int | None = None) -> list | None:
        """A line of steps with the fewest moves from ``root`` to a win, searched A* (see the
        module's docstring); None if there is none shorter than ``bound``."""
        if self.won(root):
            return []
        ceiling = bound if bound is not None else math.inf
        estimate = self.moves_left
        start = self.key(root)
        best: dict[tuple, tuple[int, tuple | None]] = {start: (0, None)}  # key -> (moves, parent key)
        tie = itertools.count()
        queue = [(estimate(root), 0, next(tie), start, root)]
        while queue:
            _, depth, _, at, position = heapq.heappop(queue)
            depth = -depth
            if best[at][0] < depth:
                continue  # reached again by a shorter line since
            if self.won(position):
                return self.line_through(root, at, best)
            moves = depth + 1
            for step, child in self.children(position, every_king=True):
                key = self.key(child)
                known = best.get(key)
                if known is not None and known[0] <= moves:
                    continue
                if step[0] in ("king", "pair") and not self.won(child) and self.dead(child):
                    continue  # (a draw or a recycle leaves the pyramid and the pile values as they were)
                total = moves + estimate(child)
                if total >= ceiling:
                    continue
                self.count()
                best[key] = (moves, at)
                heapq.heappush(queue, (total, -moves, next(tie), key, child))
        return None

    def line_through(self, root: tuple, end: tuple, best: dict) -> list:
        """The steps from ``root`` through the positions whose keys lead to ``end`` (parent by
        parent in ``best``), each step found among the children of the position as played."""
        keys = []
        while end is not None:
            keys.append(end)
            end = best[end][1]
        keys.reverse()
        line, position = [], root
        for key in keys[1:]:
            step, position = next((step, child) for step, child in self.children(position, every_king=True) if self.key(child) == key)
            line.append(step)
        return line
