"""The cuts of the general search (``general``): the pyramid's tables, and what proves a position
lost whatever the stock and the waste piles hold.

Invariant: a position is called lost here only if no line of the real game wins it: too few
partners are left for some pyramid card (``hopeless``), or it is lost even with every pile card
left pairable at any time (``lost_as_a_pool``), a game of which every real line is one. Results
are kept per (pyramid, pile values left): the same question is searched once.
"""

from __future__ import annotations

from collections.abc import Iterator

from .._shape import covering_masks
from .._position import Deal
from .._rules import Rules
from .budget import Budget

#: Bits per value in a signature of pile values (two decks hold 8 cards of a value).
BITS = 4


class PyramidCuts:
    """One deal's pyramid (``deal.values`` slot by slot) under ``rules``; each position the pool
    search visits counts against the general search's ``budget``."""

    def __init__(self, deal: Deal, rules: Rules, budget: Budget) -> None:
        self.values, self.pair_sum, self.total = deal.values, deal.pair_sum, rules.slots
        total = self.pair_sum
        self.strict, self.covering, self.budget = rules.strict_win, rules.pair_with_covering, budget
        shape = rules.shape
        self.cover_mask = deal.cover_mask
        #: the free slots and the pairs within a pyramid (``Deal.pyramid_moves``)
        self.free = deal.pyramid_moves
        below = covering_masks(shape.rows)
        #: for each slot, the slots of its partners that it could be free together with
        self.partners = []
        for slot, value in enumerate(self.values):
            mask = 0
            for other, partner in enumerate(self.values):
                if other == slot or value + partner != total:
                    continue
                apart = not (below[slot] >> other & 1 or below[other] >> slot & 1)
                direct = self.covering and (self.cover_mask[slot] >> other & 1 or self.cover_mask[other] >> slot & 1)
                if apart or direct:
                    mask |= 1 << other
            self.partners.append(mask)
        self.needs_cache: dict[int, tuple[tuple[int, int], ...]] = {}
        self.pool_lost: dict[tuple[int, int], bool] = {}
        self.pool_left: dict[tuple[int, int], int] = {}

    def needs(self, pyramid: int) -> tuple[tuple[int, int], ...]:
        """(count, value): at least ``count`` pile cards of ``value`` must be left, or some card of
        this pyramid can never be paired. A card of value v with no partner in the pyramid it could
        meet needs a pile card of value s − v (s the pair sum); and the cards of v beyond the
        pyramid's cards of s − v need one each (an odd number of s/2 needs one)."""
        found = self.needs_cache.get(pyramid)
        if found is None:
            total = self.pair_sum
            held, lonely = [0] * (total + 1), [0] * (total + 1)
            rest = pyramid
            while rest:
                low = rest & -rest
                slot = low.bit_length() - 1
                rest ^= low
                value = self.values[slot]
                held[value] += 1
                if value != total and not self.partners[slot] & pyramid:
                    lonely[value] += 1
            needs = []
            for value in range(1, total):
                partner = total - value
                excess = held[value] % 2 if value == partner else held[value] - held[partner]
                if (count := max(excess, lonely[value])) > 0:
                    needs.append((count, partner))
            found = self.needs_cache[pyramid] = tuple(needs)
        return found

    def hopeless(self, pyramid: int, signature: int) -> bool:
        mask = (1 << BITS) - 1
        for count, value in self.needs(pyramid):
            if signature >> (BITS * value) & mask < count:
                return True
        return False

    def fewest_left(self, pyramid: int, signature: int) -> int:
        """The fewest pyramid cards left at the end of any line of the pool game (every pile card
        left pairable at any time) from here: every line of the real game is one of the pool's,
        so no real line leaves fewer. Kept per (pyramid, pile values left)."""
        found = self.pool_left.get((pyramid, signature))
        if found is None:
            self.budget.count()
            found = pyramid.bit_count()
            for child in self._pool_children(pyramid, signature):
                if found == 0:
                    break
                found = min(found, self.fewest_left(*child))
            self.pool_left[pyramid, signature] = found
        return found

    def lost_as_a_pool(self, pyramid: int, signature: int) -> bool:
        """Lost even if every pile card left could be paired at any time: every line of the real
        game is one of this game (a draw or a recycle changes nothing here; a pair of two pile
        cards is made at the end instead). Under «victoria estricta» the pile cards left at the
        end must pair among themselves (or be Kings)."""
        root = (pyramid, signature)
        found = self.pool_lost.get(root)
        if found is not None:
            return found
        lost = self.pool_lost
        path, stack = [root], [self._pool_children(pyramid, signature)]
        while stack:
            for child in stack[-1]:
                known = lost.get(child)
                if known is True:
                    continue
                if known is False or self._pool_won(*child):
                    for position in path:
                        lost[position] = False
                    return False
                self.budget.count()
                if self.hopeless(*child):
                    lost[child] = True
                    continue
                path.append(child)
                stack.append(self._pool_children(*child))
                break
            else:
                stack.pop()
                lost[path.pop()] = True
        return True

    def _pool_won(self, pyramid: int, signature: int) -> bool:
        if pyramid:
            return False
        if not self.strict:
            return True
        total, mask = self.pair_sum, (1 << BITS) - 1
        counts = [signature >> (BITS * value) & mask for value in range(total + 1)]
        return all(
            counts[value] % 2 == 0 if value == total - value else counts[value] == counts[total - value]
            for value in range(1, total)
        )

    def _pool_children(self, pyramid: int, signature: int) -> Iterator[tuple[int, int]]:
        free, pairs = self.free(pyramid)
        values, total, mask = self.values, self.pair_sum, (1 << BITS) - 1
        for slot in free:
            if values[slot] == total:
                yield pyramid & ~(1 << slot), signature
                return
        for _, _, after in pairs:
            yield after, signature
        for slot in free:
            partner = total - values[slot]
            if signature >> (BITS * partner) & mask:
                yield pyramid & ~(1 << slot), signature - (1 << (BITS * partner))

