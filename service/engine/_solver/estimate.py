"""The shortest-line searches' estimates of the moves still needed to win from a position (every
move counting one: pairs, Kings, draws, recycles).

``estimate`` is the sum of two parts that no move shares:

- *removals* (``pyramid_bound``): every pyramid King takes a move of its own; the other pyramid
  cards go two at a time at best, in pairs of values v and 13 − v that could ever meet (neither
  covering the other), matched card to card (a maximum matching), so the cards left over take a
  move each (with a pile card); and no fewer than clearing the pyramid takes with every pile card
  at hand, its cards coming free in its own order (``clear_moves``). Under «victoria estricta»
  every card left goes too: each King a move, the others two at a time at best, and the stock is
  drawn to its end;
- *draws and recycles*: the pyramid cards left over need pile cards of their partner value; they
  come from the waste or the stock. Within this pass, a waste card comes to the top only once
  every card above it has left, and a card of value v leaves only with a card of 13 − v: a pyramid
  card (or, under «mazo contra descarte», a stock card drawn onto it, or the card just drawn
  with the one beneath), or alone as a King. So the waste is read from its top down (``reach``),
  each card taking a partner from what the pyramid (and the stock) holds: below the first card
  that finds none nothing comes up before a recycle; and a pyramid card covering every pyramid
  card that some card above a needed partner could leave with cannot wait for that partner. If
  the partners that can come up and those in the stock are enough, the stock is drawn down to the
  deepest one still needed; else the stock is drawn to its end, the waste recycled (none left:
  the position is lost) and the new stock drawn down to the partner still needed, with every
  card beneath it, all still there then: the partner never leaves in this pass in a winning line
  (if it did, the partners not reached above it would have left before it, with no pyramid card
  of their partner value: too few would be left), and a waste card that stays keeps every card
  beneath it. When no recycle is forced, the smaller of a line winning in this pass, which digs
  the waste for the partners the stock lacks (``dig_bound``), and a line that recycles
  (``recycle_bound``). Where a line recycles, its next pass draws at least down to a partner of
  the apex (``apex_draws``): the apex (slot 0) is covered by every other pyramid card, so it goes
  last, after the recycle, with a pile card of its partner value drawn again then (unless a King,
  or where a card may pair with the one covering it); the waste's cards from the first that
  finds no partner down stay until the recycle, and the next pass draws them first: down to the
  first of them the apex can go with, or all of them and one more.

``plain_estimate`` is the estimate of the search it replaced (``shortest_plain``), kept as it was:
the removals with the pairs counted value by value (the fewer of v and 13 − v, less the cards no
partner could meet), and only the draws to the deepest partner needed in the stock
(``Bounds.needs``), every waste card counted as at hand.

Invariant: both estimates are lower bounds on the moves of any winning line from the position
(admissible); a position ``estimate`` calls lost (``LOST``) has no winning line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

from .bounds import Bounds
from .model import Model, PyramidMoves, ones

#: The estimate of a position with no winning line (greater than any line's length).
LOST = 1 << 20

#: The fewest moves removing a pyramid's cards, its Kings, its other cards
Removal: TypeAlias = tuple[int, int, int]
#: What ``pyramid_bound`` gives: the ``Removal``, the needs, the cards held per value, the escapes
PyramidBound: TypeAlias = tuple[Removal, tuple[tuple[int, int], ...], list[int], list[int]]


class Estimate:
    """The estimates over one deal's ``Model`` with its ``Bounds``, caching per pyramid: one
    for each shortest-line search."""

    def __init__(self, model: Model, bounds: Bounds) -> None:
        self.removal_cache: dict[int, PyramidBound] = {}
        self.plain_cache: dict[int, Removal] = {}
        self.clear_cache: dict[int, int] = {0: 0}
        # the model's tables and the bounds', read at every position
        self.values, self.pile_values, self.pair_sum, self.lone = model.values, model.pile_values, model.pair_sum, model.lone
        self.slots, self.below_mask, self.all_pile, self.limit = model.slots, model.below_mask, model.all_pile, model.limit
        self.strict, self.drawn_pairs, self.covering = model.strict, model.drawn_pairs, model.covering
        self.slots_of_value, self.pile_of_value = model.slots_of_value, model.pile_of_value
        self.pyramid_moves: Callable[[int], PyramidMoves] = model.pyramid_moves
        self.use_needs, self.partner_slots = bounds.use_needs, bounds.partner_slots
        self.value_counts, self.needs = bounds.value_counts, bounds.needs

    def pyramid_bound(self, pyramid: int) -> PyramidBound:
        """For a pyramid: (the fewest moves removing its cards, its Kings, its other cards); what
        its cards need from the pile, as ``Bounds.needs`` gives it but with the pairs within the
        pyramid matched card to card (the cards of v paired with cards of 13 − v within the
        pyramid are at most a maximum matching of the pairs that could ever meet, and each card
        left over takes a pile card, and a move of its own); how many cards of each value (0–13)
        it holds; and per value v, the pyramid cards that some card of v may be free beside
        (``reach``). Cached per pyramid."""
        found = self.removal_cache.get(pyramid)
        if found is None:
            total = self.pair_sum
            slots: list[list[int]] = [[] for _ in range(total + 1)]
            remaining = pyramid
            while remaining:
                low = remaining & -remaining
                remaining ^= low
                slot = low.bit_length() - 1
                slots[self.values[slot]].append(slot)
            pairs, short = 0, []
            for value in range(1, (total + 1) // 2):  # (each pair of values once: an odd sum)
                matched = self.matching(slots[value], slots[total - value])
                pairs += matched
                for mine, theirs in ((value, total - value), (total - value, value)):
                    if len(slots[mine]) > matched:
                        short.append((len(slots[mine]) - matched, self.pile_of_value[theirs]))
            others = sum(len(slots[value]) for value in range(1, total))
            kings = len(slots[self.lone])
            needs = tuple(short) if self.use_needs else ()
            held = [len(cards) for cards in slots]
            # per value v: the pyramid cards some card of v may be free beside (not covering it)
            escape, below = [pyramid] * (total + 1), self.below_mask
            for value in range(1, total):
                escape[value] = 0
                for slot in slots[value]:
                    escape[value] |= pyramid & ~below[slot]
            moves = max(kings + others - pairs, self.clear_moves(pyramid))
            found = self.removal_cache[pyramid] = ((moves, kings, others), needs, held, escape)
        return found

    def clear_moves(self, pyramid: int) -> int:
        """The fewest moves clearing ``pyramid`` when every pile card is at hand whenever wanted
        (each free card may go with a pile card of its partner value, if the pile held one): the
        pyramid's own order, which cards become free when, is played out exactly, so pairs that
        the matching counts but no order of removals can make are not counted. Cached per
        pyramid."""
        cache = self.clear_cache
        found = cache.get(pyramid)
        if found is not None:
            return found
        free, within, forced = self.pyramid_moves(pyramid)
        if forced:
            found = 1 + self.clear_moves(within[0][1])
        else:
            found = self.slots
            for _, after in within:
                found = min(found, 1 + self.clear_moves(after))
            values, pile_of_value, total = self.values, self.pile_of_value, self.pair_sum
            for slot in free:
                if pile_of_value[total - values[slot]]:
                    found = min(found, 1 + self.clear_moves(pyramid & ~(1 << slot)))
        cache[pyramid] = found
        return found

    def matching(self, mine: list[int], theirs: list[int]) -> int:
        """The most pairs of a card of ``mine`` with one of ``theirs`` that could ever meet, each
        card in one pair at most (augmenting paths: a few cards a side)."""
        partner_slots = self.partner_slots
        owner: dict[int, int] = {}

        def place(slot: int, seen: set[int]) -> bool:
            for other in theirs:
                if partner_slots[slot] >> other & 1 and other not in seen:
                    seen.add(other)
                    if other not in owner or place(owner[other], seen):
                        owner[other] = slot
                        return True
            return False

        return sum(place(slot, set()) for slot in mine)

    def strict_estimate(self, removal: Removal, removed: int, stock: int) -> int:
        """Under «victoria estricta»: every card left goes, and the stock is drawn to its end
        (``removal``: the pyramid's (moves, Kings, other cards))."""
        moves, kings, others = removal
        left = self.all_pile & ~removed
        pile_kings = ones(left & self.pile_of_value[self.lone])
        cards = others + ones(left) - pile_kings
        return max(moves, kings + pile_kings + (cards + 1) // 2) + ones(stock)

    def estimate(self, pyramid: int, removed: int, split: int, recycles: int) -> int:
        """A lower bound on the moves from the position to a win (see the module's docstring);
        ``LOST`` when too few partners are left for a pyramid card, or a needed one cannot come
        up in this pass and no recycle is left."""
        stock = self.all_pile & ~removed >> split << split  # the stock cards left, as pile positions
        if self.strict:
            return self.strict_estimate(self.pyramid_bound(pyramid)[0], removed, stock)
        removal, needs, held, escape = self.pyramid_bound(pyramid)
        moves = removal[0]
        if not needs:
            return moves
        waste = ~removed & (1 << split) - 1
        wanted = 0  # the needed partners in the waste
        for count, partners in needs:
            left = partners & ~removed
            if ones(left) < count:
                return LOST
            wanted |= left & waste
        reached, block = self.reach(pyramid, split, waste, stock, wanted, held, escape) if wanted else (0, 0)
        draws, deepest = 0, 0  # (deepest: the draws of the next pass, when a recycle is needed)
        for count, partners in needs:
            left = partners & ~removed
            short = count - ones(left & reached) if reached else count
            if short <= 0:
                continue
            ahead = left & stock
            beyond = short - ones(ahead)
            if beyond > 0:  # partners that cannot come up in this pass are needed: a recycle first
                later = left & waste & ~reached  # (the partners not reached)
                for _ in range(beyond - 1):
                    later &= later - 1  # (the lowest ones come up first in the next pass)
                lowest = later & -later
                # it stays in this pass, and every card beneath it (see the module's docstring):
                # the next pass draws them all
                deepest = max(deepest, ones(waste & (lowest << 1) - 1))
                continue
            drawn = _draws_to(ahead, short, stock)
            if drawn > draws:
                draws = drawn
        after = self.apex_draws(waste, block)  # (the next pass's draws, in a line that recycles)
        if deepest:
            return self.recycle_bound(moves, stock, recycles, max(deepest, after))
        return min(self.dig_bound(removal, held, needs, removed, split, waste, stock, draws), self.recycle_bound(moves, stock, recycles, after))

    def dig_bound(
        self, removal: Removal, held: list[int], needs: tuple[tuple[int, int], ...], removed: int, split: int, waste: int, stock: int, draws: int
    ) -> int:
        """The moves of a line that wins in this pass (no recycle), ``draws`` the draws counted
        already: where the stock holds too few partners of a value, the waste's nearest its top
        must come up, so every waste card above it (``above``) leaves first: with a pyramid card of
        its partner value (``taken``, at most what the pyramid holds), as a King (a move of its
        own), or else with the card drawn onto it (a move and a draw of its own; with no
        «mazo contra descarte», never: no such line). With p pairs within the pyramid and j
        pyramid cards taken by pile cards (2p + j = its cards but Kings), j ≥ taken + 1 (the partner
        dug for), so its cards take kings + p + j ≥ kings + (others + taken + 1) / 2 moves. When
        the waste's top was just drawn, it may leave with the card beneath, two pile cards in a
        move and no draw: then only a move for every two cards above is counted. (``removal``,
        ``held`` and ``needs``: the pyramid's, from ``pyramid_bound``, the partners left those of
        ``needs`` not ``removed``.)"""
        moves, kings, others = removal
        point = 0
        for count, needed in needs:
            left = needed & ~removed
            dig = count - ones(left & stock)
            if dig <= 0:
                continue
            partners = left & waste
            if ones(partners) < dig:
                continue  # (not this pass: a recycle first, counted apart)
            for _ in range(ones(partners) - dig):
                partners &= partners - 1  # (the dig-th nearest the top is left the lowest)
            lowest = partners & -partners
            if not point or lowest < point:
                point = lowest  # (the deepest card that must come up)
        if not point:
            return moves + draws
        cards = waste & ~((point << 1) - 1)
        above = ones(cards)
        if self.drawn_pairs and waste >> split - 1 & 1:
            return max(moves, kings + (others + above + 2) // 2) + draws
        values, spare, taken, alone, total = self.pile_values, list(held), 0, 0, self.pair_sum
        while cards:
            top = cards.bit_length() - 1
            cards ^= 1 << top
            partner = total - values[top]
            if not partner:
                continue
            if spare[partner] > 0:
                spare[partner] -= 1
                taken += 1
            else:
                alone += 1
        if alone and not self.drawn_pairs:
            return LOST
        kings_above = above - taken - alone
        return max(moves, kings + (others + taken + 2) // 2) + kings_above + alone + max(draws, alone)

    def recycle_bound(self, moves: int, stock: int, recycles: int, after: int) -> int:
        """The moves of a line that recycles: the stock drawn to its end, the recycle, and
        ``after`` draws at least in the next pass (at least one: a shortest line recycles only
        to draw); ``LOST`` with no recycle left."""
        if self.limit is not None and recycles >= self.limit:
            return LOST
        return moves + ones(stock) + 1 + after

    def apex_draws(self, waste: int, block: int) -> int:
        """The fewest draws of the next pass, in a line that recycles: its apex (slot 0, covered
        by every other pyramid card) goes last, so after the recycle, and unless a King, with a
        pile card of its partner value, drawn again then. The next pass draws the pile from its
        bottom, and the waste's cards from ``block`` (the first card that finds no partner,
        reading from the top, as ``reach`` does; 0 if it found none) down stay in this pass: the
        next pass draws them first, down to the first of them the apex can go with, or all of
        them and one more. (Not where a card may pair with the one covering it: the apex could go
        with a pyramid card.)"""
        value = self.values[0]
        if not block or value == self.lone or self.covering:
            return 1
        stays = waste & (block << 1) - 1
        partners = stays & self.pile_of_value[self.pair_sum - value]
        if partners:
            return ones(stays & ((partners & -partners) << 1) - 1)
        return ones(stays) + 1

    def reach(self, pyramid: int, split: int, waste: int, stock: int, wanted: int, held: list[int], escape: list[int]) -> tuple[int, int]:
        """The cards of ``wanted`` in the waste that can come up in this pass and pair with a
        pyramid card of their partner value (``reached``), read from the waste's top down, to the
        lowest card of ``wanted``; and the first card read that finds no partner (``block``, 0 if
        none down to there):

        - each card of value v above takes one of the cards of 13 − v the pyramid holds (under
          «mazo contra descarte», the stock's too; the card just drawn may leave with the one
          beneath it; a King leaves alone): past the first that finds none, nothing comes up;
        - a card of v above a wanted card leaves with a pyramid card P of 13 − v, and P is free
          only once every card covering it has gone: so a pyramid card Q that covers every such
          P cannot wait for the wanted card (it would never be free). A wanted card is reached
          when some pyramid card of its partner value is left by every card above it.

        A card not reached never meets a pyramid card of its partner value in this pass; ``block``
        and every card beneath it stay in the waste until the next recycle. (``held`` and
        ``escape``: the pyramid's, from ``pyramid_bound``.)
        """
        spare = list(held)
        values = self.pile_values
        drawn_pairs, total = self.drawn_pairs, self.pair_sum
        waiting = pyramid  # the pyramid cards that may still wait for the card read
        reached = 0
        beneath = -1  # the card the card just drawn may leave with (no pyramid card needed)
        if drawn_pairs and waste >> split - 1 & 1:  # the card just drawn may leave with the one beneath
            top = split - 1
            if wanted >> top & 1 and pyramid & self.slots_of_value[total - values[top]]:
                reached |= 1 << top
            waste ^= 1 << top
            if waste and values[waste.bit_length() - 1] + values[top] == total:
                beneath = waste.bit_length() - 1
        lowest = wanted & -wanted
        counted = 0  # (values whose stock cards are in ``spare`` already)
        while waste >= lowest:
            top = waste.bit_length() - 1
            bit = 1 << top
            waste ^= bit
            partner = total - values[top]
            if wanted & bit and waiting & self.slots_of_value[partner]:
                reached |= bit
            if not partner or top == beneath:
                continue
            if drawn_pairs and not counted >> partner & 1:
                counted |= 1 << partner
                spare[partner] += ones(self.pile_of_value[partner] & stock)
            if spare[partner] <= 0:
                return reached, bit  # (nothing beneath comes up)
            spare[partner] -= 1
            if not (drawn_pairs and self.pile_of_value[partner] & stock):
                waiting &= escape[partner]
        return reached, 0

    def plain_estimate(self, pyramid: int, removed: int, split: int) -> int:
        """The estimate of ``shortest_plain`` (see the module's docstring)."""
        stock = self.all_pile & ~removed >> split << split
        removal = self.plain_cache.get(pyramid)
        if removal is None:
            held, lonely = self.value_counts(pyramid)
            total, lone = self.pair_sum, self.lone
            pairs = sum(min(held[v] - lonely[v], held[total - v] - lonely[total - v]) for v in range(1, (total + 1) // 2))
            others = sum(held[1:total])
            removal = self.plain_cache[pyramid] = (held[lone] + others - pairs, held[lone], others)
        if self.strict:
            return self.strict_estimate(removal, removed, stock)
        moves = removal[0]
        draws = 0
        waste = (1 << split) - 1
        for count, partners in self.needs(pyramid):
            left = partners & ~removed
            short = count - ones(left & waste)
            if short > 0:
                drawn = _draws_to(left & stock, short, stock)
                if drawn > draws:
                    draws = drawn
        return moves + draws


def _draws_to(ahead: int, short: int, stock: int) -> int:
    """The draws down to the ``short``-th card of ``ahead`` (pile positions in the stock, the
    lowest drawn first): the partner still needed the furthest down the stock."""
    for _ in range(short - 1):
        ahead &= ahead - 1
    last = ahead & -ahead
    return ones(stock & (last << 1) - 1)
