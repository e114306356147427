"""Limited passes, searched by levels, and the queue of passes.

Within a pass the waste is a stack. A *level* is a card on top of the waste (or the empty waste)
entered at a (pyramid, next stock card) pair; it searches what can happen while that card stays on
top and keeps its *exits* (the card leaves alone, with the card beneath it, or the stock runs out).
Levels are kept, so what happens above a card is searched once whatever lies beneath it. Passes are
queued fewest cards first; a pass lost even with unlimited passes is not searched.

Invariant: the exits of a level are exactly the positions where its top card can leave (or go
back to the stock) from its entry, under the pass's recycles; a pass is searched at most once per
game with the most recycles left it was reached with; a win raises ``_Found`` whose line, once
written out (``lines``), the engine replays to a won game.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeAlias

from .bounds import Bounds
from .budget import Budget
from .model import _DRAW, _RECYCLE, _Found, Line, Model, Position, PyramidMoves, ones
from .pooled import PooledSearch

if TYPE_CHECKING:
    from .lines import LineWriter

#: A level's key: (pyramid, next stock card, top card, pairs with the card beneath, pile cards
#: removed when the pass began from the next stock card on, recycles)
LevelKey: TypeAlias = tuple[int, int, int, bool, int, int]


class _Level:
    """What the search by levels keeps of a level: its key, the position each position was first
    reached from (``parent``), its exits, and the position each exit was taken from."""

    __slots__ = ("key", "start", "parent", "alone", "with_below", "recycled", "exits", "uppers", "all_recycled", "kind_at")

    def __init__(self, key: LevelKey, pile_at: int, kind_at: int) -> None:
        self.key = key
        self.kind_at = kind_at  # (the model's: see ``leave``)
        self.start = key[0] | key[1] << pile_at
        self.parent: dict[int, int] = {self.start: self.start}
        self.alone: list[int] = []  # (pyramid, stock position) where the top left alone
        self.with_below: list[int] = []  # ... where it left with the card beneath it
        self.recycled: list[int] = []  # (pyramid, the waste from the top up) when recycled here
        self.uppers: dict[_Level, int] = {}  # levels drawn into where the stock ran out: the state drawn from
        self.all_recycled: dict[int, None] | None = None  # see ``LevelTable.recycled_exits``
        self.exits: dict[int, int] = {}  # exit | kind << kind_at -> the position it was taken from

    def leave(self, kind: int, exit: int, state: int) -> bool:
        """The top card leaves from ``state``, the search going on at ``exit``: kind 1 alone (or
        with a card above it), 2 with the card beneath it, 3 back to the stock. False if that
        exit was known already."""
        kept = exit | kind << self.kind_at
        if kept in self.exits:
            return False
        self.exits[kept] = state
        (self.alone, self.with_below, self.recycled)[kind - 1].append(exit)
        return True


#: How the search by levels got somewhere: a level and the position a card was drawn at (or the
#: last one reached), or a level's exit (level, kind, exit, the card beneath its top)
Frame: TypeAlias = tuple[_Level, int] | tuple[_Level, int, int, int]
#: A pass queued: (pyramid cards, waste cards, recycles, order queued, position, pass key, the line
#: reaching it)
Pending: TypeAlias = tuple[int, int, int, int, Position, int, Callable[[], Line]]



class LevelTable:
    """The levels kept by one search by levels (``levels``, by key), and how they link: the level
    a draw opens (``drawn_key``) and the ways the stock runs out above a level
    (``recycled_exits``). Read by the search and by the line writer."""

    def __init__(self, model: Model) -> None:
        self.levels: dict[LevelKey, _Level] = {}
        self.pile_at, self.full, self.pair_sum = model.pile_at, model.full, model.pair_sum
        self.drawn_pairs, self.pile_values, self.next_left = model.drawn_pairs, model.pile_values, model.next_left

    def drawn_key(self, level: _Level, state: int) -> LevelKey:
        """The key of the level opened by drawing a card at ``state`` of ``level``."""
        _, _, top, _, done, recycles = level.key
        t = state >> self.pile_at
        after = self.next_left(t + 1, done)
        below = self.drawn_pairs and top >= 0 and self.pile_values[top] + self.pile_values[t] == self.pair_sum
        return (state & self.full, after, t, below, done & -(1 << after), recycles)

    def recycled_exits(self, level: _Level) -> dict[int, None]:
        """Every way the stock runs out with the top of ``level`` still there: (pyramid, the waste
        from that top up), here or above it. Worked out when first asked (when a level is entered
        again over other cards, and for lines), as most levels are never asked."""
        found = level.all_recycled
        if found is None:
            top = level.key[2]
            own = 1 << top << self.pile_at if top >= 0 else 0
            found = dict.fromkeys(level.recycled)
            for upper in level.uppers:
                found.update(dict.fromkeys(exit | own for exit in self.recycled_exits(upper)))
            level.all_recycled = found
        return found


class Best:
    """The fewest pyramid cards left in a position reached so far (``left``), and how: the line
    (``line``), or, found by levels, the line before the pass (``before()``) and the frames
    through it (``frames``)."""

    __slots__ = ("left", "line", "before", "frames")

    def __init__(self, left: int, line: Line | None) -> None:
        self.left = left
        self.line = line
        self.before: Callable[[], Line] = list
        self.frames: tuple[Frame, ...] = ()


class LevelSearch:
    """Limited passes of one deal's ``Model`` searched by levels, cut by its ``Bounds``, counted
    against the ``Budget``; the levels kept in a ``LevelTable``, the lines written by the
    ``LineWriter``, a pass lost even with unlimited passes told by the ``PooledSearch``
    (``relaxed``)."""

    # Within a pass the waste is a stack: cards go on its top by drawing and leave only
    # from its top (with «mazo contra descarte», the card just drawn with the card beneath). What
    # can happen while a card is on top does not depend on the cards beneath it (but for whether it
    # pairs with the one just beneath, under «mazo contra descarte»). So the search is split into *levels*: a level is a
    # card on the top of the waste (or the empty waste), entered at (pyramid, stock position); it
    # searches the (pyramid, stock position) pairs reachable while that card stays on top, and
    # returns its *exits*: where the card leaves, alone (``alone``) or with the card beneath it
    # (``with_below``), or goes back to the stock when the stock runs out (``recycled`` here,
    # ``uppers`` above; the next pass is then queued, see ``next_pass``). A card drawn opens the
    # level above; each of its exits where it left alone brings the search back to this level.
    # Levels are kept, so whatever lies beneath a card, what happens above it is searched once:
    # the waste's many possible contents are never enumerated.

    def __init__(
        self, model: Model, bounds: Bounds, budget: Budget, pooled: PooledSearch, table: LevelTable, writer: LineWriter,
        relaxed: bool,
    ) -> None:
        self.budget, self.pooled, self.table, self.writer = budget, pooled, table, writer
        #: a pass is searched only if not lost with unlimited passes
        self.relaxed = relaxed
        # the model's tables, read by the hot loop of ``level``
        self.values, self.pile_values, self.n = model.values, model.pile_values, len(model.pile)
        self.pile_at, self.full, self.pair_sum, self.kind_at = model.pile_at, model.full, model.pair_sum, model.kind_at
        if model.limit is None:
            raise ValueError("passes are searched by levels only under a recycle limit")
        self.limit: int = model.limit
        self.lone, self.strict, self.drawn_pairs = model.lone, model.strict, model.drawn_pairs
        self.slots_of_value, self.pile_of_value = model.slots_of_value, model.pile_of_value
        self.waste_end, self.all_pile, self.next_left = model.waste_end, model.all_pile, model.next_left
        self.moves_cache = model.moves_cache
        self.pyramid_moves: Callable[[int], PyramidMoves] = model.pyramid_moves
        self.needs, self.needs_cache = bounds.needs, bounds.needs_cache
        self.levels = table.levels
        self.drawn_key, self.recycled_exits = table.drawn_key, table.recycled_exits
        self.passes: dict[int, int] = {}  # each pass searched: the fewest recycles used to reach it
        self.recycled_seen: set[int] = set()  # pyramid | waste << pile_at | recycles << waste_end, recycled
        # for ``pass_key``: per 8 pile positions and each subset of them, the values of its cards
        # (4 bits each, the first lowest) and their number
        self.value_chunks = [self.packed_values(base) for base in range(0, len(model.pile), 8)]
        self.pending: list[Pending] = []  # the passes queued, see ``search_passes``
        self.queued = itertools.count()  # (which was queued first: the last tie-break)
        #: False while the most pyramid cards removed are searched: nothing is cut, and ``best``
        #: keeps the fewest cards left
        self.prune = True
        self.best = Best(model.slots + 1, None)
        self.chain = 0  # the waste beneath the top of the level entered (``level``)
        self.frames: list[Frame] = []  # how the pass searched got to the level entered
        self.before: Callable[[], Line] = list  # the line reaching the pass searched

    def reset(self, prune: bool, best: Best) -> None:
        """A new search of the same deal: nothing kept of the levels and passes searched before;
        ``prune`` off to search the most pyramid cards removed (``best`` keeps them)."""
        self.prune, self.best = prune, best
        self.levels.clear()
        self.passes, self.recycled_seen = {}, set()

    def level(self, pyramid: int, t: int, top: int, below: bool, done: int, recycles: int) -> _Level:
        """The level of pile card ``top`` (-1: the waste is empty), entered at (``pyramid``, next
        stock card ``t``); if ``below``, the top is the card just drawn and pairs with the card
        beneath it (under «mazo contra descarte»), as long as no card is drawn onto it.
        ``done``: the pile cards removed when the pass began, after ``recycles`` recycles.
        ``self.chain`` holds the cards beneath ``top``. Raises _Found on a win."""
        done &= -(1 << t)  # what was removed beneath is not known here: it does not matter
        key = (pyramid, t, top, below, done, recycles)
        found = self.levels.get(key)
        if found is not None:
            return found
        values, n, prune = self.values, self.n, self.prune
        at, full, total, kind_alone = self.pile_at, self.full, self.pair_sum, 1 << self.kind_at  # (exits of kind 1)
        last = recycles == self.limit
        value = self.pile_values[top] if top >= 0 else 0
        start, just_drawn = pyramid | t << at, t
        level = self.levels[key] = _Level(key, at, self.kind_at)
        if value == self.lone:  # a King on top goes at once
            level.leave(1, start, start)
            return level
        # for the hopeless test: the cards beneath ``top`` are taken as still there (they may be)
        beneath = (1 << (top + 1)) - 1 if top >= 0 else 0
        # the cards the top could still leave with: pyramid cards, and (with «mazo contra
        # descarte») stock cards drawn onto it
        partner_slots = self.slots_of_value[total - value] if top >= 0 else 0
        partner_pile = self.pile_of_value[total - value] if top >= 0 and self.drawn_pairs else 0
        # no top; or it may leave with the card beneath it, or go back to the stock (a test of
        # its own: with the pyramid empty, no mask of pyramid cards would say so)
        may_leave = top < 0 or below or not last
        own = 1 << top << at if top >= 0 else 0
        chain = self.chain  # the waste beneath the top, in this search
        above = chain | own >> at  # ... and with it
        frames = self.frames
        parent, exits, alone, uppers = level.parent, level.exits, level.alone, level.uppers
        levels, needs, needs_cache, moves_cache = self.levels, self.needs, self.needs_cache, self.moves_cache
        pyramid_moves, drawn_key, strict = self.pyramid_moves, self.drawn_key, self.strict
        counter = self.budget
        budget = counter.limit  # (stale after a search within, lower: ``over`` then moves it on)
        nodes = counter.nodes
        todo = [start]
        while todo:
            state = todo.pop()
            pyramid, t = state & full, state >> at
            nodes += 1
            if nodes > budget:
                budget = counter.over(nodes)  # (raises Exhausted past the budget or its deadline)
            if not (pyramid and prune):
                self.reached(level, state, top < 0 and t >= n)
            if prune:
                if may_leave or partner_slots & pyramid or partner_pile & ~done & -(1 << t):
                    left = ~(done | ((1 << t) - 1) & ~beneath)
                elif strict:  # the top can never leave, and every card must
                    continue
                else:  # the top can never leave: the cards beneath it are out of reach for good
                    left = ~(done | ((1 << t) - 1))
                needed = needs_cache.get(pyramid)
                for count, partners in needs(pyramid) if needed is None else needed:
                    if ones(partners & left) < count:
                        break
                else:
                    count = 0
                if count:  # a pyramid card can never be paired
                    continue
            free, within, forced = moves_cache.get(pyramid) or pyramid_moves(pyramid)
            for _, after in within:
                child = after | t << at
                if child not in parent:
                    parent[child] = state
                    todo.append(child)
            if forced:
                continue
            if top >= 0:
                for slot in free:
                    if values[slot] + value == total:
                        exit = (pyramid & ~(1 << slot)) | t << at
                        if exit | kind_alone not in exits:
                            exits[exit | kind_alone] = state
                            alone.append(exit)
                if below and t == just_drawn:
                    level.leave(2, state, state)
            if t >= n:
                if not last and level.leave(3, pyramid | own, state):  # the waste goes back to the stock
                    counter.nodes = nodes
                    self.next_pass(pyramid, above, recycles, frames, (level, state))
                    nodes = counter.nodes
                continue
            key = drawn_key(level, state)
            drawn = levels.get(key)
            if drawn is None:
                frames.append((level, state))
                counter.nodes, self.chain = nodes, above
                try:
                    drawn = self.level(*key)
                except _Found as win:
                    if not win.complete:
                        win.line[:0] = [*self.writer.level_line(level, state), _DRAW]
                    raise
                nodes, self.chain = counter.nodes, chain
                frames.pop()
            elif drawn.recycled or drawn.uppers:  # searched before over other cards: recycle over these ones
                counter.nodes = nodes
                seen, waste_at = self.recycled_seen, above << at | recycles << self.waste_end
                for exit in self.recycled_exits(drawn):
                    if exit | waste_at not in seen:
                        self.next_pass(exit & full, exit >> at | above, recycles, frames, (level, state), (drawn, 3, exit, top))
                nodes = counter.nodes
            for child in drawn.alone:
                if child not in parent:
                    parent[child] = state
                    todo.append(child)
            # (``level.leave``, written out: this loop is the hot path)
            for exit in drawn.with_below:
                if exit | kind_alone not in exits:
                    exits[exit | kind_alone] = state
                    alone.append(exit)
            if (drawn.recycled or drawn.uppers) and drawn not in uppers:  # the stock runs out above
                uppers[drawn] = state
        counter.nodes = nodes
        return level

    def reached(self, level: _Level, state: int, complete: bool) -> None:
        """A position is reached in ``level``: a win ends the search (``complete``: stock and waste
        are empty); the fewest pyramid cards left so far is remembered, with the frames leading to
        it (what ``Search.most_removed`` reports)."""
        left = ones(state & self.full)
        if left == 0 and (not self.strict or complete or not self.prune):
            raise _Found(self.writer.level_line(level, state))
        best = self.best
        if left < best.left:
            best.left, best.line, best.before, best.frames = left, None, self.before, (*self.frames, (level, state))

    def search_pass(self, position: Position, before: Callable[[], Line]) -> None:
        """Search one pass from a position by levels (``before()``: the line reaching it); a
        recycle queues the next pass. A win raises _Found; with ``prune`` off, ``best`` keeps the
        fewest pyramid cards left."""
        pyramid, removed, split, recycles = position
        waste = [i for i in range(split) if not removed >> i & 1]
        t = self.next_left(split, removed)
        entered: set[tuple[int, int, int]] = set()
        self.frames, self.before = [], before
        writer = self.writer

        def descend(pyramid: int, t: int, depth: int) -> None:
            # the waste's own cards, from its top: each exit of a level uncovers the next one
            if (pyramid, t, depth) in entered:
                return
            entered.add((pyramid, t, depth))
            top = waste[depth - 1] if depth else -1
            below = (  # the waste's top, if it is the card just drawn (see ``Model.encode``)
                self.drawn_pairs and depth == len(waste) > 1 and top == split - 1
                and self.pile_values[waste[depth - 2]] + self.pile_values[top] == self.pair_sum
            )
            self.chain = sum(1 << i for i in waste[: max(depth - 1, 0)])
            level = self.level(pyramid, t, top, below, removed, recycles)
            under = waste[depth - 2] if depth > 1 else -1
            for kind, exits in ((1, level.alone), (2, level.with_below)):
                for exit in exits:
                    self.frames.append((level, kind, exit, under))
                    try:
                        descend(exit & self.full, exit >> self.pile_at, depth - kind)
                    except _Found as win:
                        if not win.complete:
                            win.line[:0] = writer.exit_line(level, kind, exit, under)
                        raise
                    self.frames.pop()

        try:
            descend(pyramid, t, len(waste))
        except _Found as win:
            if not win.complete:
                win.line[:0] = before()
                win.complete = True
            raise

    def next_pass(self, pyramid: int, waste: int, recycles: int, frames: list[Frame], *last: Frame) -> None:
        """The waste goes back to the stock: the next pass is queued (see ``search_passes``),
        unless this position was queued already with as many recycles left (``frames`` then
        ``last``: how the level search got here)."""
        self.recycled_seen.add(pyramid | waste << self.pile_at | recycles << self.waste_end)
        after = (pyramid, self.all_pile & ~waste, 0, recycles + 1)
        key = self.pass_key(pyramid, waste)
        if self.passes.get(key, self.limit + 1) <= recycles + 1:
            return
        self.passes[key] = recycles + 1
        before, kept, writer = self.before, (*frames, *last), self.writer
        cards = ones(pyramid), ones(waste)
        heapq.heappush(self.pending, (*cards, recycles + 1, next(self.queued), after, key,
                                      lambda: [*before(), *writer.frames_line(kept), _RECYCLE]))

    def packed_values(self, base: int) -> list[tuple[int, int]]:
        """For each subset of the 8 pile positions from ``base``: its cards' values, packed."""
        values = self.pile_values[base : base + 8]
        table = [(0, 0)]
        for chunk in range(1, 256):
            low = chunk & -chunk
            packed, count = table[chunk ^ low]  # the cards above the lowest one
            i = low.bit_length() - 1
            table.append((values[i] | packed << 4, count + 1) if i < len(values) else (packed, count))
        return table

    def pass_key(self, pyramid: int, waste: int) -> int:
        """What a pass starting with ``waste`` turned over into the stock is: the same pyramid
        over a stock of the same values in the same order is the same game."""
        key, shift = pyramid, self.pile_at
        for chunks in self.value_chunks:
            packed, count = chunks[waste & 255]
            key |= packed << shift
            shift += 4 * count
            waste >>= 8
        return key

    def search_passes(self, root: Position) -> None:
        """Search the pass from ``root``, then the passes it queued, and so on: the passes with
        the fewest cards left first (a pass queued again with more recycles left is searched
        once, with those), but not those lost even with unlimited passes. A win raises _Found."""
        self.pending = []
        self.search_pass(root, list)
        while self.pending:
            *_, recycles, _, after, key, before = heapq.heappop(self.pending)
            if self.passes[key] < recycles:
                continue
            if self.prune and self.relaxed and self.pooled.lost_with_unlimited_passes(after[0], after[1]):
                continue
            self.search_pass(after, before)
