"""The line writer: the moves of a line found by a search, as the engine plays them.

The searches keep search steps (pairs and Kings by pyramid slot and pile position; pooled positions
leave out the draws and recycles; levels keep only each position's parent). ``expand`` adds the
draws and recycles that bring each pile card a step uses to the top of the waste; the level
methods rebuild the steps from what the levels kept.

Invariant: from the position a line was searched from, the moves written out are legal one after
the other and end where the search's line ends (a won game for a winning line).
"""

from __future__ import annotations

from .._moves import Move
from .levels import _Level
from .model import _DRAW


class LineWriter:
    """Mixed into a search over a ``Model`` and ``LevelSearch``."""

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
        at = self.pile_at
        t = state >> at
        _, within, _ = self.pyramid_moves(state & self.full)
        for step, after in within:
            if after | t << at == child:
                return [step]
        drawn = self.levels[self.drawn_key(level, state)]
        return [_DRAW, *self.exit_line(drawn, 1, child, level.key[2])]

    def exit_line(self, level: _Level, kind: int, exit: int, below: int) -> list:
        """The steps of ``level`` up to its top card leaving at ``exit`` (``below``: the card
        beneath it)."""
        top = level.key[2]
        if kind == 3 and exit | 3 << self.kind_at not in level.exits:  # the stock ran out above this level
            own = 1 << top << self.pile_at if top >= 0 else 0
            for upper, state in level.uppers.items():
                if exit & ~own in self.recycled_exits(upper):
                    return [*self.level_line(level, state), _DRAW, *self.exit_line(upper, 3, exit & ~own, top)]
        state = level.exits[exit | kind << self.kind_at]
        line = self.level_line(level, state)
        if kind == 3:  # the stock ran out here
            return line
        if kind == 2:
            return [*line, ("pair", (), (top, below))]
        if self.pile_values[top] == self.lone:
            return [*line, ("king", None, top)]
        free, _, _ = self.pyramid_moves(state & self.full)
        for slot in free:
            if self.values[slot] + self.pile_values[top] == self.pair_sum and state & ~(1 << slot) == exit:
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

