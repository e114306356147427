"""The shortest line: anytime weighted A* over the positions as played (the split point kept; under
unlimited recycles their count does not matter), every move counting one (pairs, Kings, draws,
recycles), with the draws gathered into the move they lead to.

Every line is a sequence of *runs*: k ≥ 0 draws, then one move that is not a draw (a line never
ends on a draw). A run costs k + 1, and the search's positions are only those after a run, so the
positions between two draws, most of those a move-by-move search holds, are never stored. Runs
with k ≥ 1 end on a move of the card just drawn (paired with a free pyramid card, with the card
beneath it, or a King), or, with the stock drawn to its end, on a recycle. A pair of two pyramid
cards is only tried with k = 0: it changes nothing a draw depends on, so it can always be made
before the draws it follows. A free pyramid King goes at once, alone (removing it never hurts), and
so does a pair of two free pyramid cards one of which has no other partner left (no pile card of
its partner value, no other pyramid card it could meet): every winning line makes that pair, and
made first it only frees cards sooner.

Positions are keyed by what plays the same (``key``): the suits never matter, so two positions
whose pile cards left show the same values in the same order, in the waste and in the stock, are
one (with the same pyramid and recycles used); a line found is replayed through the keys.

The estimate (``Estimate.estimate``) is admissible but not consistent, so a position is searched
again when a shorter line reaches it. A line known already (``bound``: its length) prunes every
position that could not beat it (moves made + estimate ≥ the bound): when the queue empties, no
shorter line exists. A position the estimate proves lost (``LOST``: the hopeless cut of
``Bounds``, and more) is not searched, nor one lost even with the pile as a pool (unlimited
passes: every line under a recycle limit is one without it), which the verdict's pool search
(``PooledSearch``) proves, its positions counted against the budget and kept for the next
questions, asked with each value's first cards counted removed (``pool_key``: the pool does not
tell two cards of a value apart); where it seldom cuts a child, only a sample of the children is
asked (``POOL_TRIAL``: a child not asked is searched, the proof unchanged). The queue is ordered by the moves made plus the estimate
counted ``weight`` times (ties go to the deepest position): with weight 1 (A*) the first won
position taken from it is at the fewest moves from the root; with a weight w > 1 (anytime
weighted A*, as ``solve`` runs it) lines are found sooner, each one found becomes the bound
(``found``), and the search goes on until the queue empties: the last line found is then the
shortest. If no line is found within ``weighted_for`` positions, the queue is re-ordered as A*'s
(``as_a_star``) and the search goes on as A*. The pruning always uses the estimate as it is, so
the proof is the same as A*'s; the weight only changes which positions come first.

Invariant: ``shortest_line`` returns a line with the fewest moves to a win; ``None`` only when no
line shorter than ``bound`` exists (or, with no bound, when the position is lost); it raises
``Exhausted`` rather than answer past the budget, with ``found`` the shortest line found by
then (None if none beat ``bound``).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from typing import TypeAlias

from .budget import Budget
from .estimate import LOST, Estimate
from .model import _DRAW, _RECYCLE, Line, Model, Position, Step, ones
from .pooled import PooledSearch

#: A queue's entry: (moves + weight × the estimate, -moves, key, position, the estimate)
Entry: TypeAlias = tuple[int, int, int, Position, int]
#: A run (see the module's docstring): (draws, step, position after)
Run: TypeAlias = tuple[int, Step, Position]

#: The pool is asked about every child for its first ``POOL_TRIAL`` questions, and on while it
#: cuts at least one child in ``POOL_RATE`` asked; else about one child in ``POOL_SAMPLE``, which
#: keeps the count of what it cuts going (a child not asked is searched: the proof is the same)
POOL_TRIAL, POOL_RATE, POOL_SAMPLE = 2000, 64, 16


def as_a_star(queue: list[Entry]) -> None:
    """Re-order a weighted A*'s queue as A*'s, by the moves made plus the estimate."""
    queue[:] = [(left - back, back, key, position, left) for _, back, key, position, left in queue]
    heapq.heapify(queue)


class ShortestSearch:
    """The A* search over runs of draws of one deal's ``Model``, with its ``Estimate``, counted
    against the ``Budget``; ``found``: the shortest line found so far."""

    def __init__(self, model: Model, estimate: Estimate, budget: Budget, pooled: PooledSearch | None = None) -> None:
        self.estimate, self.budget = estimate, budget
        self.model = model
        #: the pool's search (``PooledSearch.lost_with_unlimited_passes``), the verdict's, which
        #: proves positions lost (None: not used)
        self.pooled = pooled
        self.pool_pairs = model.pool_pairs
        #: per value of the pile's cards, their pile positions (as a mask)
        self.pile_cards = [cards for cards in model.pile_of_value if cards]
        self.free_cache: dict[int, list[tuple[int, ...]]] = {}
        #: per (removed, split), the pile's part of a position's key (``key``), and per removed
        #: mask the pool's (``pool_key``): kept for one search
        self.pile_keys: dict[int, int] = {}
        self.pool_keys: dict[int, int] = {}
        self.pile_size = len(model.pile)
        #: the shortest line found so far (when the budget ran out: the answer)
        self.found: Line | None = None
        self.values, self.pile_values, self.pair_sum, self.lone = model.values, model.pile_values, model.pair_sum, model.lone
        self.drawn_pairs, self.limit = model.drawn_pairs, model.limit
        self.all_pile, self.pile_at, self.split_at, self.recycles_at = model.all_pile, model.pile_at, model.split_at, model.recycles_at
        #: per pile position, the pile positions holding a card of its value
        self.same_value = [model.pile_of_value[value] for value in self.pile_values]
        self.keep_recycles = model.limit is not None
        self.pile_of_value, self.partner_slots = model.pile_of_value, estimate.partner_slots

    def pool_key(self, removed: int) -> int:
        """The pile cards removed, as the pool sees them (``Model.pooled_children``): with the
        pile as a pool, which card of a value is gone does not matter, only how many of each
        are left (unless pile cards pair with each other there, ``Model.pool_pairs``), so each
        value's first cards are the ones counted removed: positions alike for the pool are one
        in its tables."""
        if self.pool_pairs:
            return removed
        known = self.pool_keys.get(removed)
        if known is not None:
            return known
        found = 0
        for cards in self.pile_cards:
            gone = ones(cards & removed)
            while gone:
                low = cards & -cards
                found |= low
                cards ^= low
                gone -= 1
        self.pool_keys[removed] = found
        return found

    def free_by_value(self, pyramid: int) -> list[tuple[int, ...]]:
        """Per value (0–13), the free pyramid slots holding it. Cached per pyramid."""
        found = self.free_cache.get(pyramid)
        if found is None:
            free, _, _ = self.model.pyramid_moves(pyramid)
            found = [()] * (self.pair_sum + 1)
            for slot in free:
                found[self.values[slot]] += (slot,)
            self.free_cache[pyramid] = found
        return found

    def key(self, position: Position) -> int:
        """The key of the positions equivalent to ``position``: the pyramid, the values of the
        waste (from its bottom) and of the stock (from its top) in their order, whether the waste
        top is the card just drawn, and the recycles used (not under unlimited recycles). The
        suits never matter, so positions whose pile cards left differ only by which of two cards
        of a value is gone, the cards between them gone too, play the same (a line from one is a
        line from the other, move for move). The pile cards left are placed, in their order, each
        at the first position of its value past the one before (the earliest placing of the same
        values), and the waste's end is the position past its last card so placed."""
        pyramid, removed, split, recycles = position
        recycled = recycles << self.recycles_at if self.keep_recycles else 0
        memo = removed | split << self.pile_size
        part = self.pile_keys.get(memo)
        if part is not None:
            return pyramid | part | recycled
        live = self.all_pile & ~removed
        gone = removed & self.all_pile
        floor = (gone & -gone).bit_length() - 1 if gone else len(self.pile_values)
        placed = live & (1 << floor) - 1  # (up to the first card gone, every card is in place)
        end = min(split, floor)
        rest = live >> floor << floor
        same = self.same_value
        while rest:
            low = rest & -rest
            rest ^= low
            can = same[low.bit_length() - 1] >> floor << floor
            at = can & -can
            placed |= at
            floor = at.bit_length()
            if low >> split == 0:  # (a waste card)
                end = floor
        drawn = 1 if split and live >> split - 1 & 1 else 0
        part = self.pile_keys[memo] = (self.all_pile & ~placed) << self.pile_at | (2 * end + drawn) << self.split_at
        return pyramid | part | recycled

    def replay(self, root: Position, keys: list[int]) -> Line:
        """The line from ``root`` through positions of these ``keys`` in turn, each reached by the
        run of fewest moves from the position before (a line through keys the search linked: the
        positions of a key play the same, so each has a run to the next)."""
        line: Line = []
        position = root
        key, runs = self.key, self.runs
        for wanted in keys:
            chosen: Run | None = None
            for run in runs(*position):
                if (chosen is None or run[0] < chosen[0]) and key(run[2]) == wanted:
                    chosen = run
            assert chosen is not None  # (the search reached the key from an equivalent position)
            draws, step, position = chosen
            line.extend([_DRAW] * draws)
            line.append(step)
        return line

    def runs(self, pyramid: int, removed: int, split: int, recycles: int) -> Iterator[Run]:
        """(draws, step, position after): every run from the position (see the module's
        docstring)."""
        _, within, forced = self.model.pyramid_moves(pyramid)
        if forced:
            step, after = within[0]
            yield 0, step, (after, removed, split, recycles)
            return
        pile_of_value, partner_slots, values, total = self.pile_of_value, self.partner_slots, self.values, self.pair_sum
        for step, after in within:  # a pair every winning line makes (a card whose only partner left is the other) goes at once
            gone = pyramid ^ after
            for bit in (gone & -gone, gone & gone - 1):
                slot = bit.bit_length() - 1
                if partner_slots[slot] & pyramid == gone ^ bit and not pile_of_value[total - values[slot]] & ~removed:
                    yield 0, step, (after, removed, split, recycles)
                    return
        for step, after in within:
            yield 0, step, (after, removed, split, recycles)
        partners = self.free_by_value(pyramid)
        values = self.pile_values
        drawn_pairs = self.drawn_pairs
        total, lone = self.pair_sum, self.lone
        top = self.model.waste_top(removed, split)
        if top >= 0:  # no draw: the waste top
            value = values[top]
            if value == lone:
                yield 0, ("king", None, top), (pyramid, removed | 1 << top, split, recycles)
            else:
                for slot in partners[total - value]:
                    yield 0, ("pair", (slot,), top), (pyramid & ~(1 << slot), removed | 1 << top, split, recycles)
                if drawn_pairs and top == split - 1:  # the card just drawn, with the one beneath
                    beneath = self.model.waste_top(removed, top)
                    if beneath >= 0 and values[beneath] + value == total:
                        yield 0, ("pair", (), (top, beneath)), (pyramid, removed | 1 << top | 1 << beneath, split, recycles)
        beneath, i, draws, end = top, split, 0, len(values)
        while i < end:  # k draws: the card drawn last, i, on top of ``beneath``
            if removed >> i & 1:
                i += 1
                continue
            draws += 1
            value, bit, after = values[i], 1 << i, i + 1
            if value == lone:
                yield draws, ("king", None, i), (pyramid, removed | bit, after, recycles)
            else:
                for slot in partners[total - value]:
                    yield draws, ("pair", (slot,), i), (pyramid & ~(1 << slot), removed | bit, after, recycles)
                if drawn_pairs and beneath >= 0 and values[beneath] + value == total:
                    yield draws, ("pair", (), (i, beneath)), (pyramid, removed | bit | 1 << beneath, after, recycles)
            beneath, i = i, after
        if beneath >= 0 and (self.limit is None or recycles < self.limit):
            yield draws, _RECYCLE, (pyramid, removed, 0, recycles + 1)

    def shortest_line(self, root: Position, bound: int | None = None, weight: int = 1, weighted_for: int = 0) -> Line | None:
        """A line with the fewest moves from ``root`` to a win, searched A* over runs of draws (see
        the module's docstring); None if there is none shorter than ``bound``. With ``weight``
        w > 1, anytime weighted A*: the queue is ordered by the moves plus w times the estimate,
        so that lines are found sooner; each line found lowers the bound (``self.found``), and
        the search goes on until no position left could beat it; A* if no line is found within
        ``weighted_for`` positions."""
        self.free_cache, self.pile_keys, self.pool_keys = {}, {}, {}
        self.found = None
        # (the hot loop below calls methods directly: mypyc compiles a direct call to a native
        # method, a call through a local alias as a generic Python call)
        pooled = self.pooled
        if self.model.won(root[0], root[1]):
            return []
        estimated = self.estimate.estimate(root[0], root[1], root[2], root[3])
        if estimated >= LOST:
            return None
        ceiling = bound if bound is not None else LOST
        start = self.key(root)
        # key -> (moves from the root, parent key)
        best: dict[int, tuple[int, int | None]] = {start: (0, None)}
        # (moves + weight × the estimate, -moves, key, position, the estimate)
        queue: list[Entry] = [(estimated, 0, start, root, 0)]
        counter = self.budget
        nodes, budget = counter.nodes, counter.limit
        weighted_until = nodes + weighted_for
        asked, cut, passed = 0, 0, 0  # (the pool's questions, the children it cut, those not asked)
        while queue:
            if weight != 1 and self.found is None and nodes > weighted_until:
                as_a_star(queue)  # (no line found soon: A* from here)
                weight = 1
            _, depth, at, position, left = heapq.heappop(queue)
            depth = -depth
            if best[at][0] < depth or depth + left >= ceiling:
                continue  # reached again by a shorter line since, or a line as short was found
            if self.model.won(position[0], position[1]):
                keys = [at]
                parent = best[at][1]
                while parent is not None:
                    keys.append(parent)
                    parent = best[parent][1]
                keys.pop()  # (the root's)
                self.found = self.replay(root, keys[::-1])
                ceiling = len(self.found)  # (at most ``depth``: a parent may have been reached shorter since)
                if weight == 1:  # (A*: the first line taken from the queue is the shortest)
                    break
                continue
            for draws, step, child in self.runs(position[0], position[1], position[2], position[3]):
                moves = depth + draws + 1
                child_key = self.key(child)
                known = best.get(child_key)
                if known is not None and known[0] <= moves:
                    continue
                left = self.estimate.estimate(child[0], child[1], child[2], child[3])
                if left >= LOST:  # (the hopeless cut, and more)
                    best[child_key] = (-1, None)  # (never searched)
                    continue
                if moves + left >= ceiling:
                    continue
                if pooled is not None:  # (lost even with unlimited passes: lost; its positions counted)
                    if asked >= POOL_TRIAL and cut * POOL_RATE < asked:  # (it seldom cuts here: a sample)
                        passed += 1
                        ask = passed % POOL_SAMPLE == 0
                    else:
                        ask = True
                    if ask:
                        counter.nodes = nodes
                        lost = pooled.lost_with_unlimited_passes(child[0], self.pool_key(child[1]))
                        nodes, budget = counter.nodes, counter.limit
                        asked += 1
                        if lost:
                            cut += 1
                            best[child_key] = (-1, None)  # (never searched)
                            continue
                nodes += 1
                if nodes > budget:
                    budget = counter.over(nodes)  # (raises Exhausted past the budget or its deadline)
                best[child_key] = (moves, at)
                heapq.heappush(queue, (moves + weight * left, -moves, child_key, child, left))
        counter.nodes = nodes
        return self.found
