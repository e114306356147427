"""An exact solver: is a position winnable, by which line, and how many pyramid cards can any line
remove at most. ``docs/solver.md`` describes it.

The position is encoded compactly. The waste and the stock always keep the dealt order of their
cards (less those removed), so they are one sequence ``pile`` (the dealt waste card, then the stock
from its top) with a ``removed`` bit mask and a split point ``split``: the waste is what is left of
``pile[:split]`` (its top the last), the stock what is left of ``pile[split:]``. A position is then
four integers (pyramid mask, removed mask, split, recycles). Removing a free King never hurts, so
Kings go without branching; pyramid cards with too few partners left that they could ever meet
(cards of the complementary value that do not cover them) make the position lost.

Under unlimited recycles the pile is a pool (split and recycles do not matter) and positions are
searched depth-first with a table of those seen. Under limited recycles the waste is a stack, and
the search goes by *levels* (a card on top of the waste, and what can happen above it), kept so
that what happens above a card is searched once whatever lies beneath it; the passes are queued,
fewest cards first, and a pass lost even with unlimited recycles (the pile a pool) is not
searched. Searches take a node budget and answer ``unknown`` when it runs out: never a wrong yes
or no.
"""

from __future__ import annotations

from dataclasses import dataclass

import heapq
import itertools
import secrets

from ._cards import Card
from ._codes import SEED_SPACE, seed_code
from ._errors import PyramideError
from ._rules import Rules
from ._layout import COVERED_BY, SLOTS
from ._moves import Move
from ._play import top_just_drawn
from ._state import GameState

WINNABLE, UNWINNABLE, UNKNOWN = "winnable", "unwinnable", "unknown"
DEFAULT_NODE_BUDGET = 2_000_000
#: positions the depth-first probe searches before the search by levels (limited passes)
PROBE_BUDGET = 3_000


def _below(slot: int) -> int:
    """Every slot that covers ``slot``, directly or through others."""
    mask, todo = 0, list(COVERED_BY[slot])
    while todo:
        other = todo.pop()
        if not mask >> other & 1:
            mask |= 1 << other
            todo.extend(COVERED_BY[other])
    return mask


_COVER_MASK = tuple(sum(1 << cover for cover in COVERED_BY[slot]) for slot in range(SLOTS))
_BELOW_MASK = tuple(_below(slot) for slot in range(SLOTS))


@dataclass(frozen=True, slots=True)
class Solution:
    """``result`` is winnable, unwinnable or unknown (the budget ran out). ``line`` is a winning
    line of moves from the position (``minimal`` says whether it is known to be the shortest).
    ``max_removable`` is the most pyramid cards any line removes in all, counting those already
    gone (None if unknown). ``nodes`` counts the positions searched."""

    result: str
    line: tuple[Move, ...] | None
    minimal: bool
    max_removable: int | None
    nodes: int


class _Search:
    def __init__(self, state: GameState, budget: int) -> None:
        rules = state.rules
        layout = state.layout
        self.rules = rules
        self.strict = rules.strict_win
        self.limit = rules.max_recycles
        self.drawn_pairs = rules.drawn_pairs_with_waste
        self.covering = rules.pair_with_covering
        self.slot_cards: tuple[Card, ...] = layout.pyramid
        self.pile: tuple[Card, ...] = layout.waste + layout.stock
        self.values = tuple(card.value for card in self.slot_cards)
        self.pile_values = tuple(card.value for card in self.pile)
        #: «sin límite de pasadas»: any pile card can be brought to the top of the waste without
        #: changing anything else, so the split point does not matter and the pile is a pool.
        self.pooled = rules.max_recycles is None
        #: in the pool, «mazo contra descarte» pairs only matter when every card must go: else a
        #: pile card left in the pool never blocks anything, and the pairs are not tried
        self.pool_pairs = self.drawn_pairs and self.strict
        self.slots_of_value = [sum(1 << s for s, v in enumerate(self.values) if v == value) for value in range(14)]
        self.pile_of_value = [sum(1 << i for i, v in enumerate(self.pile_values) if v == value) for value in range(14)]
        self.pile_by_value = {value: [i for i, v in enumerate(self.pile_values) if v == value] for value in range(1, 14)}
        self.budget = budget
        self.nodes = 0
        self.moves_cache: dict[int, tuple] = {}
        self.needs_cache: dict[int, tuple[tuple[int, int], ...]] = {}
        #: limited passes are searched by levels (see ``level``); False searches them position by position
        self.summaries = True
        self.levels: dict[tuple, _Level] = {}
        self.passes: dict[int, int] = {}  # each pass searched: the fewest recycles used to reach it
        self.recycled_seen: set[int] = set()  # pyramid | waste << 28 | recycles << 52, recycled
        # for ``pass_key`` (limited passes): per 8 pile positions and each subset of them, the
        # values of its cards (4 bits each, the first lowest) and their number
        self.value_chunks = [] if self.pooled else [self.packed_values(base) for base in range(0, len(self.pile), 8)]
        self.pending: list[tuple] = []  # the passes queued, see ``search_passes``
        self.queued = itertools.count()  # (which was queued first: the last tie-break)
        #: (pyramid, removed) positions proved lost, or winnable, with the pile as a pool (see
        #: ``lost_with_unlimited_passes``)
        self.pool_lost: set[int] = set()
        self.pool_won: set[int] = set()
        #: limited passes: a pass is searched only if not lost with unlimited passes
        self.relaxed = True
        self.chain = 0
        self.all_pile = (1 << len(self.pile)) - 1
        self.frames: list = []
        self.before = list
        self.prune = True
        self.best: list = [SLOTS + 1, None]
        # for each slot: the pyramid slots and pile positions holding a partner it could ever meet
        self.partner_slots = []
        for slot in range(SLOTS):
            value = self.values[slot]
            self.partner_slots.append(
                sum(1 << other for other in range(SLOTS) if value + self.values[other] == 13 and self.may_meet(slot, other))
            )

    def may_meet(self, a: int, b: int) -> bool:
        """Two pyramid cards can both be free at once unless one covers the other (directly or
        not); with «carta y carta que la cubre», a card and its direct coverer may still pair."""
        if not (_BELOW_MASK[a] >> b & 1 or _BELOW_MASK[b] >> a & 1):
            return True
        return self.covering and bool(_COVER_MASK[a] >> b & 1 or _COVER_MASK[b] >> a & 1)

    # -- the position --------------------------------------------------------------------------
    @staticmethod
    def encode(state: GameState, pile: tuple[Card, ...]) -> tuple[int, int, int, int]:
        pyramid = sum(1 << slot for slot, card in enumerate(state.pyramid) if card is not None)
        present = set(state.waste) | set(state.stock)
        removed = sum(1 << i for i, card in enumerate(pile) if card not in present)
        # the split is just past the waste top when it is the card just drawn («mazo contra
        # descarte» then lets it pair with the card beneath), else at the stock's top
        if not state.waste:
            split = 0
        elif top_just_drawn(state) or not state.stock:
            split = pile.index(state.waste[-1]) + 1
        else:
            split = pile.index(state.stock[0])
        return pyramid, removed, split, state.recycles

    def waste_top(self, removed: int, split: int) -> int:
        i = split - 1
        while i >= 0 and removed >> i & 1:
            i -= 1
        return i

    def next_left(self, i: int, removed: int) -> int:
        """The first pile position from ``i`` on whose card is not removed (the pile's length if
        there is none)."""
        n = len(self.pile)
        while i < n and removed >> i & 1:
            i += 1
        return i

    def stock_top(self, removed: int, split: int) -> int:
        i = self.next_left(split, removed)
        return i if i < len(self.pile) else -1

    def won(self, pyramid: int, removed: int) -> bool:
        return pyramid == 0 and (not self.strict or removed == self.all_pile)

    def needs(self, pyramid: int) -> tuple[tuple[int, int], ...]:
        """What the pyramid cards need from the pile: (count, mask) when at least ``count`` pile
        cards of ``mask`` (a value) must still be there. Each card of value v pairs with a card of
        value 13 − v: so with at least as many of those as the cards of v that no pyramid card
        left could ever meet, and as the cards of v the pyramid holds beyond its cards of 13 − v.
        Cached per pyramid."""
        found = self.needs_cache.get(pyramid)
        if found is None:
            held, lonely = [0] * 14, [0] * 14
            remaining = pyramid
            while remaining:
                low = remaining & -remaining
                slot = low.bit_length() - 1
                remaining ^= low
                held[self.values[slot]] += 1
                if not self.partner_slots[slot] & pyramid:
                    lonely[self.values[slot]] += 1
            found = self.needs_cache[pyramid] = tuple(
                (count, self.pile_of_value[13 - value])
                for value in range(1, 13)
                if (count := max(held[value] - held[13 - value], lonely[value])) > 0
            )
        return found

    def hopeless(self, pyramid: int, removed: int) -> bool:
        """Some pyramid card can never be paired: too few partners are left (see ``needs``)."""
        for count, partners in self.needs(pyramid):
            if (partners & ~removed).bit_count() < count:
                return True
        return False

    # -- moves -----------------------------------------------------------------------------------
    def pyramid_moves(self, pyramid: int) -> tuple[list[int], list, bool]:
        """The free slots, and the removals within the pyramid as (step, pyramid after); ``forced``
        when a free King is there, the only move then tried. Cached per pyramid."""
        found = self.moves_cache.get(pyramid)
        if found is None:
            found = self.moves_cache[pyramid] = self._pyramid_moves(pyramid)
        return found

    def _pyramid_moves(self, pyramid: int) -> tuple[list[int], list, bool]:
        values = self.values
        free = [slot for slot in range(SLOTS) if pyramid >> slot & 1 and not pyramid & _COVER_MASK[slot]]
        for slot in free:
            if values[slot] == 13:
                return free, [(("king", slot, None), pyramid & ~(1 << slot))], True
        moves = []
        for i, a in enumerate(free):
            for b in free[i + 1 :]:
                if values[a] + values[b] == 13:
                    moves.append((("pair", (a, b), None), pyramid & ~(1 << a | 1 << b)))
        if self.covering:
            for slot in range(SLOTS):
                covers = pyramid & _COVER_MASK[slot]
                if pyramid >> slot & 1 and covers and covers & (covers - 1) == 0:  # a single card covers it
                    cover = covers.bit_length() - 1
                    if cover in free and values[slot] + values[cover] == 13:
                        moves.append((("pair", (slot, cover), None), pyramid & ~(1 << slot | 1 << cover)))
        return free, moves, False

    def children(self, pyramid: int, removed: int, split: int, recycles: int, every_king: bool = False):
        """(move, next position) for every legal move; a free King, when there is one, alone
        (``every_king``: a King on the waste is one move among the others, as removing it is not
        needed to clear the pyramid and costs a move)."""
        if self.pooled:
            yield from self.pooled_children(pyramid, removed)
            return
        values = self.values
        free, within, forced = self.pyramid_moves(pyramid)
        if forced:
            step, after = within[0]
            yield step, (after, removed, split, recycles)
            return
        top = self.waste_top(removed, split)
        if top >= 0 and self.pile_values[top] == 13:
            yield ("king", None, top), (pyramid, removed | 1 << top, split, recycles)
            if not every_king:
                return
        for step, after in within:
            yield step, (after, removed, split, recycles)
        if top >= 0:  # (a King on top, under ``every_king``, pairs with nothing)
            value = self.pile_values[top]
            for slot in free:
                if values[slot] + value == 13:
                    yield ("pair", (slot,), top), (pyramid & ~(1 << slot), removed | 1 << top, split, recycles)
            if self.drawn_pairs and top == split - 1:  # the card just drawn
                second = self.waste_top(removed, top)
                if second >= 0 and self.pile_values[second] + value == 13:
                    yield ("pair", (), (top, second)), (pyramid, removed | 1 << top | 1 << second, split, recycles)
        nxt = self.stock_top(removed, split)
        if nxt >= 0:
            yield ("draw", None, None), (pyramid, removed, nxt + 1, recycles)
        elif top >= 0 and (self.limit is None or recycles < self.limit):
            yield ("recycle", None, None), (pyramid, removed, 0, recycles + 1)

    def pooled_children(self, pyramid: int, removed: int):
        """The moves with the pile as a pool: a pyramid card pairs with any pile card left (the
        first of its value, the others being alike but for the suit, unless pile cards pair with
        each other: then which one matters, see ``pool_pairs``). Split and recycles stay 0 in these positions."""
        values = self.values
        free, within, forced = self.pyramid_moves(pyramid)
        if forced:
            step, after = within[0]
            yield step, (after, removed, 0, 0)
            return
        for i in self.pile_by_value[13]:
            if not removed >> i & 1:
                yield ("king", None, i), (pyramid, removed | 1 << i, 0, 0)
                return
        for step, after in within:
            yield step, (after, removed, 0, 0)
        for slot in free:
            for i in self.pile_by_value[13 - values[slot]]:
                if not removed >> i & 1:
                    yield ("pair", (slot,), i), (pyramid & ~(1 << slot), removed | 1 << i, 0, 0)
                    if not self.pool_pairs:
                        break
        if self.pool_pairs:
            previous = -1
            for i in range(len(self.pile)):
                if removed >> i & 1:
                    continue
                if previous >= 0 and self.pile_values[previous] + self.pile_values[i] == 13:
                    yield ("pair", (), (i, previous)), (pyramid, removed | 1 << i | 1 << previous, 0, 0)
                previous = i

    def lost_with_unlimited_passes(self, pyramid: int, removed: int) -> bool:
        """Is the position lost even with unlimited passes? Every line under a recycle limit is a
        line without one, so it is then lost under any limit. Searched depth-first with the pile
        as a pool; the positions proved lost or winnable are kept for the next questions."""
        lost, won = self.pool_lost, self.pool_won
        root = pyramid | removed << 28
        if root in lost or root in won or self.won(pyramid, removed):
            return root in lost
        path, stack = [root], [self.pooled_children(pyramid, removed)]
        while stack:
            for _, (pyramid, removed, _, _) in stack[-1]:
                key = pyramid | removed << 28
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

    def expand(self, steps: list, root: tuple[int, int, int, int]) -> list[Move]:
        """The moves of a line of search steps, with the draws and recycles that bring each pile
        card it uses to the top of the waste (pooled positions leave them out)."""
        _, removed, split, recycles = root
        moves: list[Move] = []
        for step in steps:
            kind, _, pile = step
            if kind == "draw":
                split = self.stock_top(removed, split) + 1
            elif kind == "recycle":
                split, recycles = 0, recycles + 1
            else:
                needed = pile[0] if isinstance(pile, tuple) else pile
                drawn_onto = isinstance(pile, tuple)  # the card just drawn, with the one beneath
                while needed is not None and (self.waste_top(removed, split) != needed or drawn_onto and needed != split - 1):
                    nxt = self.stock_top(removed, split)
                    if nxt < 0:
                        moves.append(Move.recycle())
                        split, recycles = 0, recycles + 1
                    else:
                        moves.append(Move.draw())
                        split = nxt + 1
                for i in pile if isinstance(pile, tuple) else () if pile is None else (pile,):
                    removed |= 1 << i
            moves.append(self.move(step))
        return moves

    def move(self, step) -> Move:
        kind, slots, pile = step
        if kind in ("draw", "recycle"):
            return Move(kind)
        if kind == "king":
            return Move.king(self.slot_cards[slots] if slots is not None else self.pile[pile])
        cards = [self.slot_cards[slot] for slot in slots]
        if isinstance(pile, tuple):
            cards += [self.pile[i] for i in pile]
        elif pile is not None:
            cards.append(self.pile[pile])
        return Move.pair(*cards)

    # -- limited passes, level by level ---------------------------------------------------------------
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
        values, n, prune = self.values, len(self.pile), self.prune
        last = recycles == self.limit
        value = self.pile_values[top] if top >= 0 else 0
        start, just_drawn = pyramid | t << 28, t
        level = self.levels[key] = _Level(key)
        if value == 13:  # a King on top goes at once
            level.leave(1, start, start)
            return level
        # for the hopeless test: the cards beneath ``top`` are taken as still there (they may be)
        beneath = (1 << (top + 1)) - 1 if top >= 0 else 0
        # the cards the top could still leave with: pyramid cards, and (with «mazo contra
        # descarte») stock cards drawn onto it
        partner_slots = self.slots_of_value[13 - value] if top >= 0 else 0
        partner_pile = self.pile_of_value[13 - value] if top >= 0 and self.drawn_pairs else 0
        # no top; or it may leave with the card beneath it, or go back to the stock (a test of
        # its own: with the pyramid empty, no mask of pyramid cards would say so)
        may_leave = top < 0 or below or not last
        own = 1 << top << 28 if top >= 0 else 0
        chain = self.chain  # the waste beneath the top, in this search
        above = chain | own >> 28  # ... and with it
        frames = self.frames
        parent, exits, alone, uppers = level.parent, level.exits, level.alone, level.uppers
        levels, needs, needs_cache, moves_cache = self.levels, self.needs, self.needs_cache, self.moves_cache
        budget = self.budget
        nodes = self.nodes
        todo = [start]
        while todo:
            state = todo.pop()
            pyramid, t = state & _PYRAMID, state >> 28
            nodes += 1
            if nodes > budget:
                self.nodes = nodes
                raise _Exhausted
            if not (pyramid and prune):
                self.reached(level, state, top < 0 and t >= n)
            if prune:
                if may_leave or partner_slots & pyramid or partner_pile & ~done & -(1 << t):
                    left = ~(done | ((1 << t) - 1) & ~beneath)
                elif self.strict:  # the top can never leave, and every card must
                    continue
                else:  # the top can never leave: the cards beneath it are out of reach for good
                    left = ~(done | ((1 << t) - 1))
                needed = needs_cache.get(pyramid)
                for count, partners in needs(pyramid) if needed is None else needed:
                    if (partners & left).bit_count() < count:
                        break
                else:
                    count = 0
                if count:  # a pyramid card can never be paired
                    continue
            free, within, forced = moves_cache.get(pyramid) or self.pyramid_moves(pyramid)
            for _, after in within:
                child = after | t << 28
                if child not in parent:
                    parent[child] = state
                    todo.append(child)
            if forced:
                continue
            if top >= 0:
                for slot in free:
                    if values[slot] + value == 13:
                        exit = (pyramid & ~(1 << slot)) | t << 28
                        if exit | _ALONE not in exits:
                            exits[exit | _ALONE] = state
                            alone.append(exit)
                if below and t == just_drawn:
                    level.leave(2, state, state)
            if t >= n:
                if not last and level.leave(3, pyramid | own, state):  # the waste goes back to the stock
                    self.nodes = nodes
                    self.next_pass(pyramid, above, recycles, frames, (level, state))
                    nodes = self.nodes
                continue
            key = self.drawn_key(level, state)
            drawn = levels.get(key)
            if drawn is None:
                frames.append((level, state))
                self.nodes, self.chain = nodes, above
                try:
                    drawn = self.level(*key)
                except _Found as win:
                    if not win.complete:
                        win.line[:0] = [*self.level_line(level, state), _DRAW]
                    raise
                nodes, self.chain = self.nodes, chain
                frames.pop()
            elif drawn.recycled or drawn.uppers:  # searched before over other cards: recycle over these ones
                self.nodes = nodes
                seen, waste_at = self.recycled_seen, above << 28 | recycles << 52
                for exit in self.recycled_exits(drawn):
                    if exit | waste_at not in seen:
                        self.next_pass(exit & _PYRAMID, exit >> 28 | above, recycles, frames, (level, state), (drawn, 3, exit, top))
                nodes = self.nodes
            for child in drawn.alone:
                if child not in parent:
                    parent[child] = state
                    todo.append(child)
            # (``level.leave``, written out: this loop is the hot path)
            for exit in drawn.with_below:
                if exit | _ALONE not in exits:
                    exits[exit | _ALONE] = state
                    alone.append(exit)
            if (drawn.recycled or drawn.uppers) and drawn not in uppers:  # the stock runs out above
                uppers[drawn] = state
        self.nodes = nodes
        return level

    def drawn_key(self, level: _Level, state: int) -> tuple[int, int, int, int, int, int]:
        """The key of the level opened by drawing a card at ``state`` of ``level``."""
        _, _, top, _, done, recycles = level.key
        t = state >> 28
        after = self.next_left(t + 1, done)
        below = self.drawn_pairs and top >= 0 and self.pile_values[top] + self.pile_values[t] == 13
        return (state & _PYRAMID, after, t, below, done & -(1 << after), recycles)

    def recycled_exits(self, level: _Level) -> dict[int, None]:
        """Every way the stock runs out with the top of ``level`` still there: (pyramid, the waste
        from that top up), here or above it. Worked out when first asked (when a level is entered
        again over other cards, and for lines), as most levels are never asked."""
        found = level.all_recycled
        if found is None:
            top = level.key[2]
            own = 1 << top << 28 if top >= 0 else 0
            found = dict.fromkeys(level.recycled)
            for upper in level.uppers:
                found.update(dict.fromkeys(exit | own for exit in self.recycled_exits(upper)))
            level.all_recycled = found
        return found

    def reached(self, level: _Level, state: int, complete: bool) -> None:
        """A position is reached in ``level``: a win ends the search (``complete``: stock and waste
        are empty); the fewest pyramid cards left so far is remembered, with the frames leading to
        it (what ``most_removed`` reports)."""
        left = bin(state & _PYRAMID).count("1")
        if left == 0 and (not self.strict or complete or not self.prune):
            raise _Found(self.level_line(level, state))
        if left < self.best[0]:
            self.best[:] = [left, (self.before, (*self.frames, (level, state)))]

    # Levels keep how each position was first reached (its parent position); the step between the
    # two is found again when a line is written out.
    def level_line(self, level: _Level, state: int) -> list:
        """The search steps from the start of ``level`` to its position ``state``."""
        states = [state]
        while state != level.start:
            state = level.parent[state]
            states.append(state)
        states.reverse()
        line: list = []
        for previous, state in zip(states, states[1:]):
            line.extend(self.step_between(level, previous, state))
        return line

    def step_between(self, level: _Level, state: int, child: int) -> list:
        t = state >> 28
        _, within, _ = self.pyramid_moves(state & _PYRAMID)
        for step, after in within:
            if after | t << 28 == child:
                return [step]
        drawn = self.levels[self.drawn_key(level, state)]
        return [_DRAW, *self.exit_line(drawn, 1, child, level.key[2])]

    def exit_line(self, level: _Level, kind: int, exit: int, below: int) -> list:
        """The steps of ``level`` up to its top card leaving at ``exit`` (``below``: the card
        beneath it)."""
        top = level.key[2]
        if kind == 3 and exit | _RECYCLED not in level.exits:  # the stock ran out above this level
            own = 1 << top << 28 if top >= 0 else 0
            for upper, state in level.uppers.items():
                if exit & ~own in self.recycled_exits(upper):
                    return [*self.level_line(level, state), _DRAW, *self.exit_line(upper, 3, exit & ~own, top)]
        state = level.exits[exit | kind << 60]
        line = self.level_line(level, state)
        if kind == 3:  # the stock ran out here
            return line
        if kind == 2:
            return [*line, ("pair", (), (top, below))]
        if self.pile_values[top] == 13:
            return [*line, ("king", None, top)]
        free, _, _ = self.pyramid_moves(state & _PYRAMID)
        for slot in free:
            if self.values[slot] + self.pile_values[top] == 13 and state & ~(1 << slot) == exit:
                return [*line, ("pair", (slot,), top)]
        drawn = self.levels[self.drawn_key(level, state)]
        return [*line, _DRAW, *self.exit_line(drawn, 2, exit, top)]

    def frames_line(self, frames: tuple) -> list:
        """The steps from the start of a pass search through ``frames``: exits of the waste's own
        cards, then positions of levels where a card was drawn, the last one reached."""
        line: list = []
        for i, frame in enumerate(frames):
            if len(frame) == 4:
                line.extend(self.exit_line(*frame))
            else:
                line.extend(self.level_line(*frame))
                if i < len(frames) - 1:
                    line.append(_DRAW)
        return line

    def search_pass(self, position: tuple[int, int, int, int], before) -> None:
        """Search one pass from a position by levels (``before()``: the line reaching it); a
        recycle queues the next pass. A win raises _Found; with ``prune`` off, ``best`` keeps the
        fewest pyramid cards left."""
        pyramid, removed, split, recycles = position
        waste = [i for i in range(split) if not removed >> i & 1]
        t = self.next_left(split, removed)
        entered: set = set()
        self.frames, self.before = [], before

        def descend(pyramid: int, t: int, depth: int) -> None:
            # the waste's own cards, from its top: each exit of a level uncovers the next one
            if (pyramid, t, depth) in entered:
                return
            entered.add((pyramid, t, depth))
            top = waste[depth - 1] if depth else -1
            below = (  # the waste's top, if it is the card just drawn (see ``encode``)
                self.drawn_pairs and depth == len(waste) > 1 and top == split - 1
                and self.pile_values[waste[depth - 2]] + self.pile_values[top] == 13
            )
            self.chain = sum(1 << i for i in waste[: max(depth - 1, 0)])
            level = self.level(pyramid, t, top, below, removed, recycles)
            under = waste[depth - 2] if depth > 1 else -1
            for kind, exits in ((1, level.alone), (2, level.with_below)):
                for exit in exits:
                    self.frames.append((level, kind, exit, under))
                    try:
                        descend(exit & _PYRAMID, exit >> 28, depth - kind)
                    except _Found as win:
                        if not win.complete:
                            win.line[:0] = self.exit_line(level, kind, exit, under)
                        raise
                    self.frames.pop()

        try:
            descend(pyramid, t, len(waste))
        except _Found as win:
            if not win.complete:
                win.line[:0] = before()
                win.complete = True
            raise

    def next_pass(self, pyramid: int, waste: int, recycles: int, frames: list, *last: tuple) -> None:
        """The waste goes back to the stock: the next pass is queued (see ``search_passes``),
        unless this position was queued already with as many recycles left (``frames`` then
        ``last``: how the level search got here)."""
        self.recycled_seen.add(pyramid | waste << 28 | recycles << 52)
        after = (pyramid, self.all_pile & ~waste, 0, recycles + 1)
        key = self.pass_key(pyramid, waste)
        if self.passes.get(key, self.limit + 1) <= recycles + 1:
            return
        self.passes[key] = recycles + 1
        before, frames = self.before, (*frames, *last)
        cards = bin(pyramid).count("1"), bin(waste).count("1")
        heapq.heappush(self.pending, (*cards, recycles + 1, next(self.queued), after, key,
                                      lambda: [*before(), *self.frames_line(frames), _RECYCLE]))

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
        key, shift = pyramid, 28
        for chunks in self.value_chunks:
            packed, count = chunks[waste & 255]
            key |= packed << shift
            shift += 4 * count
            waste >>= 8
        return key

    def search_passes(self, root: tuple[int, int, int, int]) -> None:
        """Search the pass from ``root``, then the passes it queued, and so on: the passes with
        the fewest cards left first (a pass queued again with more recycles left is searched
        once, with those), but not those lost even with unlimited passes. A win raises _Found."""
        self.pending = []
        self.search_pass(root, list)
        while self.pending:
            *_, recycles, _, after, key, before = heapq.heappop(self.pending)
            if self.passes[key] < recycles:
                continue
            if self.prune and self.relaxed and self.lost_with_unlimited_passes(after[0], after[1]):
                continue
            self.search_pass(after, before)

    # -- searches ------------------------------------------------------------------------------
    def key(self, position: tuple[int, int, int, int]) -> int:
        pyramid, removed, split, recycles = position
        return pyramid | removed << 28 | split << 53 | recycles << 59

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

    def find_win(self, root) -> list | None:
        """A winning line (steps) from ``root``, [] if it is won already, None if none exists."""
        if self.won(root[0], root[1]):
            return []

        def visit(line: list, child) -> bool:
            if self.won(child[0], child[1]):
                raise _Found(list(line))
            return not self.hopeless(child[0], child[1])

        try:
            if self.hopeless(root[0], root[1]):
                return None
            if not self.by_levels:
                self.walk(root, visit)
                return None
            # With recycles left, a short depth-first probe first, pairs before draws: it finds
            # most wins at once, where the search by levels, which goes through each level whole
            # before using its exits, may reach a win in a later pass only after a while.
            if root[3] != self.limit and self.probe(root, visit):
                return None  # the probe searched every position
            if self.relaxed and self.lost_with_unlimited_passes(root[0], root[1]):
                return None
            self.search_passes(root)
        except _Found as found:
            return found.line
        return None

    def shortest_line(self, root) -> list | None:
        """Breadth-first over the positions as played (split point kept; under unlimited recycles
        their count does not matter): a line with the fewest moves to a win, or None if there is
        none. Removing a free pyramid King first never lengthens a line; a King on the waste is
        one move among the others."""
        def key(position):
            pyramid, removed, split, recycles = position
            return self.key((pyramid, removed, split, 0 if self.limit is None else recycles))

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

    def probe(self, root, visit) -> bool:
        """Search depth-first for at most PROBE_BUDGET positions: True if that was all of them
        (a win raises _Found)."""
        budget, self.budget = self.budget, min(self.budget, self.nodes + PROBE_BUDGET)
        try:
            self.walk(root, visit)
            return True
        except _Exhausted:
            if self.budget == budget:
                raise
            return False
        finally:
            self.budget = budget

    def most_removed(self, root) -> tuple[int, list]:
        """The most pyramid cards removed in any reachable position, and a line reaching it."""
        self.prune, self.levels, self.passes, self.recycled_seen = False, {}, {}, set()
        self.best = [bin(root[0]).count("1"), []]

        def visit(line: list, child) -> bool:
            left = bin(child[0]).count("1")
            if left == 0:
                raise _Found(list(line))
            if left < self.best[0]:
                self.best[:] = [left, list(line)]
            return True

        try:
            if self.by_levels:
                self.search_passes(root)
            else:
                self.walk(root, visit)
        except _Found as found:  # every pyramid card removed
            return SLOTS, found.line
        left, line = self.best
        if isinstance(line, tuple):  # found by levels: (line before the pass, frames)
            before, frames = line
            line = [*before(), *self.frames_line(frames)]
        return SLOTS - left, line

    @property
    def by_levels(self) -> bool:
        return self.summaries and self.limit is not None


class _Level:
    """What the search by levels keeps of a level: its key, the position each position was first
    reached from (``parent``), its exits, and the position each exit was taken from."""

    __slots__ = ("key", "start", "parent", "alone", "with_below", "recycled", "exits", "uppers", "all_recycled")

    def __init__(self, key: tuple[int, int, int, int, int, int]) -> None:
        self.key = key
        self.start = key[0] | key[1] << 28
        self.parent: dict[int, int] = {self.start: self.start}
        self.alone: list[int] = []  # (pyramid, stock position) where the top left alone
        self.with_below: list[int] = []  # ... where it left with the card beneath it
        self.recycled: list[int] = []  # (pyramid, the waste from the top up) when recycled here
        self.uppers: dict[_Level, int] = {}  # levels drawn into where the stock ran out: the state drawn from
        self.all_recycled: dict[int, None] | None = None  # see ``_Search.recycled_exits``
        self.exits: dict[int, int] = {}  # exit | kind << 60 -> the position it was taken from

    def leave(self, kind: int, exit: int, state: int) -> bool:
        """The top card leaves from ``state``, the search going on at ``exit``: kind 1 alone (or
        with a card above it), 2 with the card beneath it, 3 back to the stock. False if that
        exit was known already."""
        if exit | kind << 60 in self.exits:
            return False
        self.exits[exit | kind << 60] = state
        (self.alone, self.with_below, self.recycled)[kind - 1].append(exit)
        return True


_PYRAMID = (1 << 28) - 1
_ALONE, _RECYCLED = 1 << 60, 3 << 60  # exits of kinds 1 and 3, as ``_Level.leave`` keeps them
_DRAW = ("draw", None, None)
_RECYCLE = ("recycle", None, None)


class _Found(Exception):
    def __init__(self, line: list) -> None:
        super().__init__()
        self.line = line
        self.complete = False  # the line is written out from the root


class _Exhausted(Exception):
    pass


def _start(state: GameState, budget: int) -> tuple[_Search, tuple[int, int, int, int], tuple[int, int, int, int]]:
    """A search of ``state``: the search, the position as played, and the position it starts from
    (split and recycles 0 when the pile is a pool)."""
    search = _Search(state, budget)
    actual = search.encode(state, search.pile)
    return search, actual, (actual[0], actual[1], 0, 0) if search.pooled else actual


def solver_supports(rules: Rules) -> bool:
    """Whether this search has a model of ``rules``: it turns one card a draw onto one waste (Tut's
    Tomb turns three, Apophis has three waste piles), in the app's 7-row pyramid of one 52-card
    deck (not Pharaoh's 10 rows, not the Spanish deck)."""
    return rules.draw_count == 1 and rules.waste_piles == 1 and rules.rows == 7 and rules.deck == "french"


def check_supported(rules: Rules) -> None:
    """Raise ``solver_unsupported`` for the rules this search has no model of: never a verdict on a
    game it cannot search."""
    if not solver_supports(rules):
        raise PyramideError("solver_unsupported", field="rules", rules=rules.letters)


def solve(state: GameState, *, budget: int = DEFAULT_NODE_BUDGET, max_removable: bool = True, shortest: bool = False) -> Solution:
    """Is ``state`` winnable under its rules? With a winning line if so; and, if asked, the most
    pyramid cards any line can remove. ``unknown`` when ``budget`` positions were not enough.
    With ``shortest``, a winnable position's line is then searched breadth-first for the fewest
    moves; if the budget left is enough, the line is that one (``minimal``)."""
    check_supported(state.rules)
    if state.status == "won":
        return Solution(WINNABLE, (), True, SLOTS, 0)
    search, actual, root = _start(state, budget)
    try:
        steps = search.find_win(root)
    except _Exhausted:
        return Solution(UNKNOWN, None, False, None, budget)
    if steps is not None:
        line, minimal = tuple(search.expand(steps, actual)), False
        if shortest and search.nodes < budget:
            search.pooled = False
            try:
                fewest = search.shortest_line(actual)
            except _Exhausted:
                fewest = None
            if fewest is not None:
                line, minimal = tuple(search.expand(fewest, actual)), True
        return Solution(WINNABLE, line, minimal, SLOTS, min(search.nodes, budget))
    most = None
    if max_removable:
        try:  # (within what is left of the budget)
            most, _ = search.most_removed(root)
        except _Exhausted:
            most = None
    return Solution(UNWINNABLE, None, False, most, min(search.nodes, budget))


def winnable_deal(rules: Rules, *, first_seed: int | None = None, budget: int = DEFAULT_NODE_BUDGET) -> GameState:
    """A deal of seed code that the solver proves winnable: the seeds from ``first_seed`` (random
    when None) in order. ``budget`` bounds the positions searched over all the seeds tried; past
    it, ``no_winnable_deal`` (never a deal not proved winnable)."""
    check_supported(rules)
    seed = secrets.randbelow(SEED_SPACE) if first_seed is None else first_seed
    spent = 0
    while spent < budget:
        game = GameState.new(seed_code(rules, seed % SEED_SPACE))
        solution = solve(game, budget=budget - spent, max_removable=False)
        spent += max(1, solution.nodes)
        if solution.result == WINNABLE:
            return game
        seed += 1
    raise PyramideError("no_winnable_deal", field="winnable", budget=budget)


def hint(state: GameState, *, budget: int = DEFAULT_NODE_BUDGET) -> tuple[Move | None, Solution]:
    """The next move of a winning line; if there is none, the first move of a line removing the most
    pyramid cards; None when no move helps (or the budget ran out)."""
    solution = solve(state, budget=budget, max_removable=False)
    if solution.result == WINNABLE:
        return (solution.line[0] if solution.line else None), solution
    if solution.result == UNKNOWN:
        return None, solution
    search, actual, root = _start(state, budget - solution.nodes)  # (what is left of the budget)
    try:
        most, steps = search.most_removed(root)
    except _Exhausted:
        return None, Solution(UNWINNABLE, None, False, None, budget)
    done = Solution(UNWINNABLE, None, False, most, solution.nodes + search.nodes)
    line = search.expand(steps, actual)
    return (line[0] if line else None), done

