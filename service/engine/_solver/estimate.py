"""The shortest-line searches' estimates of the moves still needed to win from a position (every
move counting one: pairs, Kings, draws, recycles).

``estimate`` is the sum of two parts that no move shares:

- *removals* (``removal_bound``): every pyramid King takes a move of its own; the other pyramid
  cards go two at a time at best, and only in pairs of values v and 13 − v that could ever meet
  (neither covering the other), so the cards beyond those pairs take a move each (with a pile
  card). Under «victoria estricta» every card left goes too: each King a move, the others two at
  a time at best, and the stock is drawn to its end;
- *draws and recycles*: where the pyramid needs ``count`` pile cards of a value (``Bounds.needs``),
  they come from the waste or the stock. Within this pass, a waste card comes to the top only once
  every card above it has left, and a card of value v leaves only with a card of 13 − v: a pyramid
  card (or, under «mazo contra descarte», a stock card drawn onto it, or the card just drawn
  with the one beneath), or alone as a King. So the waste is read from its top down, each card
  taking a partner from what the pyramid (and the stock) holds; below the first card that finds
  none (``locked_below``) nothing comes up before a recycle. If the partners above it and in the
  stock are enough, the stock is drawn down to the deepest one still needed; else the stock is
  drawn to its end, the waste recycled (none left: the position is lost) and the new stock drawn
  down to the locked partner still needed (the cards beneath it cannot have left meanwhile).

``plain_estimate`` is the estimate of the search it replaced (``shortest_plain``): the same
removals, and only the draws to the deepest partner needed in the stock, every waste card
counted as at hand.

Invariant: both estimates are lower bounds on the moves of any winning line from the position
(admissible); a position ``estimate`` calls lost (``LOST``) has no winning line.
"""

from __future__ import annotations

#: The estimate of a position with no winning line (greater than any line's length).
LOST = 1 << 20


class Estimate:
    """Mixed into a search over a ``Model`` with ``Bounds``: caches per pyramid, reset by
    ``init_estimate`` for each search."""

    def init_estimate(self) -> None:
        self.removal_cache: dict[int, tuple[int, int, int]] = {}
        self.counts_cache: dict[int, tuple[list[int], list[int]]] = {}

    def removal_bound(self, pyramid: int) -> tuple[int, int, int]:
        """For a pyramid: (the fewest moves removing its cards, its Kings, its other cards)."""
        found = self.removal_cache.get(pyramid)
        if found is None:
            held, lonely = self.counts(pyramid)
            pairs = sum(min(held[v] - lonely[v], held[13 - v] - lonely[13 - v]) for v in range(1, 7))
            others = sum(held[1:13])
            found = self.removal_cache[pyramid] = (held[13] + others - pairs, held[13], others)
        return found

    def counts(self, pyramid: int) -> tuple[list[int], list[int]]:
        """``Bounds.value_counts``, cached per pyramid."""
        found = self.counts_cache.get(pyramid)
        if found is None:
            found = self.counts_cache[pyramid] = self.value_counts(pyramid)
        return found

    def strict_estimate(self, pyramid: int, removed: int, stock: int) -> int:
        """Under «victoria estricta»: every card left goes, and the stock is drawn to its end."""
        moves, kings, others = self.removal_bound(pyramid)
        left = self.all_pile & ~removed
        pile_kings = (left & self.pile_of_value[13]).bit_count()
        cards = others + left.bit_count() - pile_kings
        return max(moves, kings + pile_kings + (cards + 1) // 2) + stock.bit_count()

    def estimate(self, pyramid: int, removed: int, split: int, recycles: int) -> int:
        """A lower bound on the moves from the position to a win (see the module's docstring);
        ``LOST`` when a needed partner lies beneath a locked card and no recycle is left."""
        stock = self.all_pile & ~removed >> split << split  # the stock cards left, as pile positions
        if self.strict:
            return self.strict_estimate(pyramid, removed, stock)
        moves = self.removal_bound(pyramid)[0]
        needs = self.needs(pyramid)
        if not needs:
            return moves
        waste = ~removed & (1 << split) - 1
        locked = self.locked_below(pyramid, split, waste, stock)
        draws, deepest_locked = 0, -1
        for count, partners in needs:
            left = partners & ~removed
            usable = left & ~locked
            short = count - (usable & waste).bit_count()
            if short <= 0:
                continue
            ahead = usable & stock
            beyond = short - ahead.bit_count()
            if beyond > 0:  # partners beneath the locked card are needed: a recycle first
                beneath = left & locked
                for _ in range(beyond - 1):
                    beneath &= beneath - 1  # (the lowest ones come up first in the next pass)
                deepest_locked = max(deepest_locked, (beneath & -beneath).bit_length() - 1)
                continue
            for _ in range(short - 1):
                ahead &= ahead - 1
            deepest = ahead & -ahead  # the partner still needed the furthest down the stock
            draws = max(draws, (stock & (deepest << 1) - 1).bit_count())
        if deepest_locked >= 0:
            if self.limit is not None and recycles >= self.limit:
                return LOST
            left = self.all_pile & ~removed
            draws = stock.bit_count() + 1 + (left & (2 << deepest_locked) - 1).bit_count()
        return moves + draws

    def locked_below(self, pyramid: int, split: int, waste: int, stock: int) -> int:
        """The waste cards (pile positions) that cannot come to the top of the waste in this pass:
        those beneath the highest card that can find no partner to leave with, reading the waste
        from its top down, each card of value v taking one of the cards of 13 − v the pyramid
        holds (under «mazo contra descarte», the stock too; and the card just drawn may leave
        with the one beneath it). Kings leave alone."""
        if not waste:
            return 0
        spare = list(self.counts(pyramid)[0])
        values = self.pile_values
        if self.drawn_pairs:
            for value in range(1, 13):
                spare[value] += (self.pile_of_value[value] & stock).bit_count()
            if waste >> split - 1 & 1:  # the card just drawn may leave with the one beneath
                spare[13 - values[split - 1]] += 1
                waste ^= 1 << split - 1
        while waste:
            top = waste.bit_length() - 1
            waste ^= 1 << top
            value = values[top]
            if value == 13:
                continue
            if spare[13 - value] <= 0:
                return (1 << top) - 1
            spare[13 - value] -= 1
        return 0

    def plain_estimate(self, pyramid: int, removed: int, split: int) -> int:
        """The estimate of ``shortest_plain`` (see the module's docstring)."""
        stock = self.all_pile & ~removed >> split << split
        if self.strict:
            return self.strict_estimate(pyramid, removed, stock)
        moves = self.removal_bound(pyramid)[0]
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
