"""The model of a game the solver searches: the tables of a deal, the position's encoding, the moves
from a position (``children``) and when it is won.

The waste and the stock always keep the dealt order of their cards (less those removed), so they
are one sequence ``pile`` (the dealt waste card, then the stock from its top) with a ``removed``
bit mask and a split point ``split``: the waste is what is left of ``pile[:split]`` (its top the
last), the stock what is left of ``pile[split:]``. A position is four integers (pyramid mask,
removed mask, split, recycles).

The pyramid's part of the moves (free cards, pairs within it) is ``_position.Deal.pyramid_moves``,
the engine's and the general search's; the waste's part is written here for this encoding, for
speed, and tests check it against ``Deal.steps`` position by position. The searches over runs of
draws enumerate the same moves a run at a time: tests check ``shortest``'s runs against
``children`` position by position; ``levels`` is checked by its verdicts, against the search of
every position.

Invariant: ``children`` yields exactly the moves the engine allows from the position (but a free
King goes alone, as removing it never hurts, and with the pile as a pool one pile card of each
value is tried), each with the position it leads to; nothing here counts nodes or searches.

The types the searches pass each other are named here: a ``Position`` (those four integers), a
``Step`` (a search step: ``(kind, slots, pile)``, see ``Step``) and a ``Line`` (steps from a
position).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TypeAlias

from .._cards import Card
from .._shape import covering_masks
from .._play import top_just_drawn
from .._position import Deal
from .._state import GameState
from .options import SearchOptions

#: (pyramid mask, removed mask, split, recycles)
Position: TypeAlias = tuple[int, int, int, int]
#: A search step, (kind, slots, pile): ``("draw", None, None)``, ``("recycle", None, None)``, a
#: King ``("king", slot, None)`` or ``("king", None, pile position)``, a pair within the pyramid
#: ``("pair", (slot, slot), None)``, with the waste or stock card ``("pair", (slot,), pile
#: position)``, or of two pile cards ``("pair", (), (pile position, pile position))``.
Step: TypeAlias = tuple[str, int | tuple[int, ...] | None, int | tuple[int, ...] | None]
#: The steps of a line from a position.
Line: TypeAlias = list[Step]
#: What ``pyramid_moves`` gives: the free slots, the removals within the pyramid (step, pyramid
#: after), and whether a free King is there (the only move then tried).
PyramidMoves: TypeAlias = tuple[list[int], Sequence[tuple[Step, int]], bool]

_DRAW: Step = ("draw", None, None)
_RECYCLE: Step = ("recycle", None, None)


def ones(mask: int) -> int:
    """The bits set in ``mask`` (≥ 0): ``int.bit_count``, which mypyc calls as a generic Python
    method (looked up by name at every call), counted here 32 bits at a time in native
    arithmetic. Interpreted, ``ones`` is ``int.bit_count`` itself (below)."""
    found = 0
    while mask > 0:
        part = mask & 0xFFFFFFFF
        part -= part >> 1 & 0x55555555
        part = (part & 0x33333333) + (part >> 2 & 0x33333333)
        part = (part + (part >> 4)) & 0x0F0F0F0F
        found += (part * 0x01010101 & 0xFFFFFFFF) >> 24
        mask >>= 32
    return found


if type(ones).__name__ == "function":  # (interpreted: the built-in is faster there)
    globals()["ones"] = int.bit_count


class _Found(Exception):
    """A win: ``line`` the steps reaching it (from the root once ``complete``)."""

    def __init__(self, line: Line) -> None:
        super().__init__()
        self.line = line
        self.complete = False  # the line is written out from the root


class Model:
    """The tables of a deal under its rules, and the moves between positions."""

    def __init__(self, state: GameState, options: SearchOptions) -> None:
        rules = state.rules
        layout = state.layout
        self.rules = rules
        # the geometry, from the rules' shape: the pyramid's slots, which cover which, the pair sum
        shape = rules.shape
        self.slots = slots = shape.slots
        self.pair_sum = shape.pair_sum
        self.lone = shape.lone_rank  # the King's value, removed alone
        #: the free cards and the pairs within the pyramid (``_position.Deal.pyramid_moves_of``); the
        #: slots covering each slot directly, and (``below_mask``) directly or through others
        self.deal = Deal(rules, layout)
        self.cover_mask = tuple(self.deal.cover_mask)
        self.below_mask = covering_masks(shape.rows)
        #: the pyramid's bits in a position's key, and where the pile's bits begin above them
        self.full = (1 << slots) - 1
        self.pile_at = slots
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
        self.pooled = rules.max_recycles is None and options.pooled
        #: in the pool, «mazo contra descarte» pairs only matter when every card must go: else a
        #: pile card left in the pool never blocks anything, and the pairs are not tried
        self.pool_pairs = self.drawn_pairs and self.strict
        values = range(self.pair_sum + 1)  # (0 for a King's partner)
        self.slots_of_value = [sum(1 << s for s, v in enumerate(self.values) if v == value) for value in values]
        self.pile_of_value = [sum(1 << i for i, v in enumerate(self.pile_values) if v == value) for value in values]
        self.pile_by_value = {value: [i for i, v in enumerate(self.pile_values) if v == value] for value in values[1:]}
        self.all_pile = (1 << len(self.pile)) - 1
        #: a key's fields above the pile's removed mask: the split, then the recycles (``key``)
        self.split_at = slots + len(self.pile) + 1
        self.recycles_at = self.split_at + 6
        #: the search by levels (``levels``): a waste's mask ends at ``waste_end`` (the recycles
        #: above it), an exit's kind is kept above every bit of a position
        self.waste_end = slots + len(self.pile)
        self.kind_at = self.recycles_at + 1
        self.moves_cache: dict[int, PyramidMoves] = {}

    # -- the position --------------------------------------------------------------------------
    @staticmethod
    def encode(state: GameState, pile: tuple[Card, ...]) -> Position:
        pyramid = sum(1 << slot for slot, card in enumerate(state.pyramid) if card is not None)
        present = set(state.waste) | set(state.stock)
        removed = sum(1 << i for i, card in enumerate(pile) if card not in present)
        # the split is just past the waste top when it is the card just drawn («mazo contra
        # descarte» then lets it pair with the card beneath), else at the stock's top, or past
        # the whole pile once the stock is drawn to its end (the cards between the waste top and
        # the split are removed: the top is not at split - 1, so it is not the card just drawn)
        if not state.waste:
            split = 0
        elif top_just_drawn(state):
            split = pile.index(state.waste[-1]) + 1
        elif state.stock:
            split = pile.index(state.stock[0])
        else:
            split = len(pile)
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

    # -- moves -----------------------------------------------------------------------------------
    def pyramid_moves(self, pyramid: int) -> PyramidMoves:
        """The free slots, and the removals within the pyramid as (step, pyramid after); ``forced``
        when a free King is there, the only move then tried. Cached per pyramid."""
        found = self.moves_cache.get(pyramid)
        if found is None:
            found = self.moves_cache[pyramid] = self._pyramid_moves(pyramid)
        return found

    def _pyramid_moves(self, pyramid: int) -> PyramidMoves:
        free, pairs = self.deal.pyramid_moves_of(pyramid)  # (kept in ``moves_cache``, as steps)
        values, lone = self.values, self.lone
        for slot in free:
            if values[slot] == lone:
                return free, [(("king", slot, None), pyramid & ~(1 << slot))], True
        return free, [(("pair", (a, b), None), after) for a, b, after in pairs], False

    def children(self, pyramid: int, removed: int, split: int, recycles: int, every_king: bool = False) -> Iterator[tuple[Step, Position]]:
        """(move, next position) for every legal move; a free King, when there is one, alone
        (``every_king``: a King on the waste is one move among the others, as removing it is not
        needed to clear the pyramid and costs a move). The pyramid's part is ``Deal.pyramid_moves``;
        the waste's is written for this encoding (``_position.Deal.steps`` read through it was half
        as fast again on the verdict's search of every position): tests check it against
        ``Deal.steps`` and the engine's legal moves, position by position."""
        if self.pooled:
            yield from self.pooled_children(pyramid, removed)
            return
        values, total = self.values, self.pair_sum
        free, within, forced = self.pyramid_moves(pyramid)
        if forced:
            step, after = within[0]
            yield step, (after, removed, split, recycles)
            return
        top = self.waste_top(removed, split)
        if top >= 0 and self.pile_values[top] == self.lone:
            yield ("king", None, top), (pyramid, removed | 1 << top, split, recycles)
            if not every_king:
                return
        for step, after in within:
            yield step, (after, removed, split, recycles)
        if top >= 0:  # (a King on top, under ``every_king``, pairs with nothing)
            value = self.pile_values[top]
            for slot in free:
                if values[slot] + value == total:
                    yield ("pair", (slot,), top), (pyramid & ~(1 << slot), removed | 1 << top, split, recycles)
            if self.drawn_pairs and top == split - 1:  # the card just drawn
                second = self.waste_top(removed, top)
                if second >= 0 and self.pile_values[second] + value == total:
                    yield ("pair", (), (top, second)), (pyramid, removed | 1 << top | 1 << second, split, recycles)
        nxt = self.stock_top(removed, split)
        if nxt >= 0:
            yield ("draw", None, None), (pyramid, removed, nxt + 1, recycles)
        elif top >= 0 and (self.limit is None or recycles < self.limit):
            yield ("recycle", None, None), (pyramid, removed, 0, recycles + 1)

    def pooled_children(self, pyramid: int, removed: int) -> Iterator[tuple[Step, Position]]:
        """The moves with the pile as a pool: a pyramid card pairs with any pile card left (the
        first of its value, the others being alike but for the suit, unless pile cards pair with
        each other: then which one matters, see ``pool_pairs``). Split and recycles stay 0 in these positions."""
        values, total = self.values, self.pair_sum
        free, within, forced = self.pyramid_moves(pyramid)
        if forced:
            step, after = within[0]
            yield step, (after, removed, 0, 0)
            return
        for i in self.pile_by_value[self.lone]:
            if not removed >> i & 1:
                yield ("king", None, i), (pyramid, removed | 1 << i, 0, 0)
                return
        for step, after in within:
            yield step, (after, removed, 0, 0)
        for slot in free:
            for i in self.pile_by_value[total - values[slot]]:
                if not removed >> i & 1:
                    yield ("pair", (slot,), i), (pyramid & ~(1 << slot), removed | 1 << i, 0, 0)
                    if not self.pool_pairs:
                        break
        if self.pool_pairs:
            previous = -1
            for i in range(len(self.pile)):
                if removed >> i & 1:
                    continue
                if previous >= 0 and self.pile_values[previous] + self.pile_values[i] == total:
                    yield ("pair", (), (i, previous)), (pyramid, removed | 1 << i | 1 << previous, 0, 0)
                previous = i

    def key(self, position: Position) -> int:
        pyramid, removed, split, recycles = position
        return pyramid | removed << self.pile_at | split << self.split_at | recycles << self.recycles_at

    def line_key(self, position: Position) -> int:
        """``key`` for the searches of a shortest line: under unlimited recycles the count used
        changes nothing ahead, so positions differing only by it are one."""
        pyramid, removed, split, recycles = position
        return pyramid | removed << self.pile_at | split << self.split_at | (0 if self.limit is None else recycles) << self.recycles_at

