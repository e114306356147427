"""An exact solver: is a position winnable, by which line, and how many pyramid cards can any line
remove at most. ``docs/solver.md`` describes it.

The position is encoded compactly. The waste and the stock always keep the dealt order of their
cards (less those removed), so they are one sequence ``pile`` (the dealt waste card, then the stock
from its top) with a ``removed`` bit mask and a split point ``split``: the waste is what is left of
``pile[:split]`` (its top the last), the stock what is left of ``pile[split:]``. A position is then
four integers (pyramid mask, removed mask, split, recycles), searched depth-first with a table of
the positions already seen. Removing a free King never hurts, so Kings go without branching; a
pyramid card with no partner left anywhere it could ever meet (a card of the complementary value
that does not cover it) makes the position lost. Searches take a node budget and answer
``unknown`` when it runs out: never a wrong yes or no.
"""

from __future__ import annotations

from dataclasses import dataclass

import secrets

from ._cards import Card
from ._codes import SEED_SPACE, seed_code
from ._errors import PyramideError
from ._rules import Rules
from ._layout import COVERED_BY, SLOTS
from ._moves import Move
from ._state import GameState

WINNABLE, UNWINNABLE, UNKNOWN = "winnable", "unwinnable", "unknown"
DEFAULT_NODE_BUDGET = 2_000_000


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
        self.pile_by_value = {value: [i for i, v in enumerate(self.pile_values) if v == value] for value in range(1, 14)}
        self.budget = budget
        self.nodes = 0
        # for each slot: the pyramid slots and pile positions holding a partner it could ever meet
        self.partner_slots = []
        self.partner_pile = []
        for slot in range(SLOTS):
            value = self.values[slot]
            self.partner_slots.append(
                sum(1 << other for other in range(SLOTS) if value + self.values[other] == 13 and self.may_meet(slot, other))
            )
            self.partner_pile.append(sum(1 << i for i, pile_value in enumerate(self.pile_values) if value + pile_value == 13))

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
        split = pile.index(state.waste[-1]) + 1 if state.waste else 0
        return pyramid, removed, split, state.recycles

    def waste_top(self, removed: int, split: int) -> int:
        i = split - 1
        while i >= 0 and removed >> i & 1:
            i -= 1
        return i

    def stock_top(self, removed: int, split: int) -> int:
        i, n = split, len(self.pile)
        while i < n and removed >> i & 1:
            i += 1
        return i if i < n else -1

    def won(self, pyramid: int, removed: int) -> bool:
        return pyramid == 0 and (not self.strict or removed == (1 << len(self.pile)) - 1)

    def hopeless(self, pyramid: int, removed: int) -> bool:
        """A non-King pyramid card whose every possible partner is gone or covers it."""
        remaining = pyramid
        free_pile = ~removed
        while remaining:
            low = remaining & -remaining
            slot = low.bit_length() - 1
            remaining ^= low
            if self.values[slot] != 13 and not (self.partner_slots[slot] & pyramid or self.partner_pile[slot] & free_pile):
                return True
        return False

    # -- moves -----------------------------------------------------------------------------------
    def pyramid_moves(self, pyramid: int) -> tuple[list[int], list, bool]:
        """The free slots, and the removals within the pyramid as (step, pyramid after); ``forced``
        when a free King is there, the only move then tried."""
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

    def children(self, pyramid: int, removed: int, split: int, recycles: int):
        """(move, next position) for every legal move; a free King, when there is one, alone."""
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
            return
        for step, after in within:
            yield step, (after, removed, split, recycles)
        if top >= 0:
            value = self.pile_values[top]
            for slot in free:
                if values[slot] + value == 13:
                    yield ("pair", (slot,), top), (pyramid & ~(1 << slot), removed | 1 << top, split, recycles)
            if self.drawn_pairs:
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
        each other: then which one matters). Split and recycles stay 0 in these positions."""
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
                    if not self.drawn_pairs:
                        break
        if self.drawn_pairs:
            previous = -1
            for i in range(len(self.pile)):
                if removed >> i & 1:
                    continue
                if previous >= 0 and self.pile_values[previous] + self.pile_values[i] == 13:
                    yield ("pair", (), (i, previous)), (pyramid, removed | 1 << i | 1 << previous, 0, 0)
                previous = i

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
                while needed is not None and self.waste_top(removed, split) != needed:
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
            self.walk(root, visit)
        except _Found as found:
            return found.line
        return None

    def most_removed(self, root) -> tuple[int, list]:
        """The most pyramid cards removed in any reachable position, and a line reaching it."""
        best = [SLOTS - bin(root[0]).count("1"), []]

        def visit(line: list, child) -> bool:
            removed = SLOTS - bin(child[0]).count("1")
            if removed > best[0]:
                best[:] = [removed, list(line)]
                if removed == SLOTS:
                    raise _Found(best[1])
            return True

        try:
            self.walk(root, visit)
        except _Found:
            pass
        return best[0], best[1]


class _Found(Exception):
    def __init__(self, line: list) -> None:
        super().__init__()
        self.line = line


class _Exhausted(Exception):
    pass


def solve(state: GameState, *, budget: int = DEFAULT_NODE_BUDGET, max_removable: bool = True) -> Solution:
    """Is ``state`` winnable under its rules? With a winning line if so; and, if asked, the most
    pyramid cards any line can remove. ``unknown`` when ``budget`` positions were not enough."""
    search = _Search(state, budget)
    actual = search.encode(state, search.pile)
    root = (actual[0], actual[1], 0, 0) if search.pooled else actual
    if state.status == "won":
        return Solution(WINNABLE, (), True, SLOTS, 0)
    try:
        steps = None if search.hopeless(root[0], root[1]) else search.find_win(root)
    except _Exhausted:
        return Solution(UNKNOWN, None, False, None, search.nodes)
    if steps is not None:
        return Solution(WINNABLE, tuple(search.expand(steps, actual)), False, SLOTS, search.nodes)
    most = None
    if max_removable:
        try:
            search.nodes = 0
            most, _ = search.most_removed(root)
        except _Exhausted:
            most = None
    return Solution(UNWINNABLE, None, False, most, search.nodes)


def winnable_deal(rules: Rules, *, first_seed: int | None = None, budget: int = DEFAULT_NODE_BUDGET) -> GameState:
    """A deal of seed code that the solver proves winnable: the seeds from ``first_seed`` (random
    when None) in order. ``budget`` bounds the positions searched over all the seeds tried; past
    it, ``no_winnable_deal`` (never a deal not proved winnable)."""
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
    search = _Search(state, budget)
    actual = search.encode(state, search.pile)
    root = (actual[0], actual[1], 0, 0) if search.pooled else actual
    try:
        most, steps = search.most_removed(root)
    except _Exhausted:
        return None, Solution(UNWINNABLE, None, False, None, solution.nodes + search.nodes)
    done = Solution(UNWINNABLE, None, False, most, solution.nodes + search.nodes)
    line = search.expand(steps, actual)
    return (line[0] if line else None), done

