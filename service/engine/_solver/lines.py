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
from .levels import Frame, LevelTable, _Level
from .model import _DRAW, Line, Model, Position, Step


class LineWriter:
    """Writes the lines of searches over one deal's ``Model``, the levels' from what their
    ``LevelTable`` kept."""

    def __init__(self, model: Model, table: LevelTable) -> None:
        self.model = model
        self.table = table

    def expand(self, steps: Line, root: Position) -> list[Move]:
        """The moves of a line of search steps, with the draws and recycles that bring each pile
        card it uses to the top of the waste (pooled positions leave them out)."""
        model = self.model
        _, removed, split, recycles = root
        moves: list[Move] = []
        for step in steps:
            kind, _, pile = step
            if kind == "draw":
                split = model.stock_top(removed, split) + 1
            elif kind == "recycle":
                split, recycles = 0, recycles + 1
            else:
                needed = pile[0] if isinstance(pile, tuple) else pile
                drawn_onto = isinstance(pile, tuple)  # the card just drawn, with the one beneath
                while needed is not None and (model.waste_top(removed, split) != needed or drawn_onto and needed != split - 1):
                    nxt = model.stock_top(removed, split)
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

    def move(self, step: Step) -> Move:
        slot_cards, pile_cards = self.model.slot_cards, self.model.pile
        kind, slots, pile = step
        if kind in ("draw", "recycle"):
            return Move(kind)
        if kind == "king":
            if isinstance(slots, int):
                return Move.king(slot_cards[slots])
            assert isinstance(pile, int)  # (a King is a pyramid card or a pile card)
            return Move.king(pile_cards[pile])
        assert isinstance(slots, tuple)  # (a pair: its pyramid cards, maybe none)
        cards = [slot_cards[slot] for slot in slots]
        if isinstance(pile, tuple):
            cards += [pile_cards[i] for i in pile]
        elif pile is not None:
            cards.append(pile_cards[pile])
        return Move.pair(*cards)

    # -- limited passes, level by level ---------------------------------------------------------------
    # Levels keep how each position was first reached (its parent position); the step between the
    # two is found again when a line is written out.
    def level_line(self, level: _Level, state: int) -> Line:
        """The search steps from the start of ``level`` to its position ``state``."""
        states = [state]
        while state != level.start:
            state = level.parent[state]
            states.append(state)
        states.reverse()
        line: Line = []
        for previous, state in zip(states, states[1:]):
            line.extend(self.step_between(level, previous, state))
        return line

    def step_between(self, level: _Level, state: int, child: int) -> Line:
        model, table = self.model, self.table
        at = model.pile_at
        t = state >> at
        _, within, _ = model.pyramid_moves(state & model.full)
        for step, after in within:
            if after | t << at == child:
                return [step]
        drawn = table.levels[table.drawn_key(level, state)]
        return [_DRAW, *self.exit_line(drawn, 1, child, level.key[2])]

    def exit_line(self, level: _Level, kind: int, exit: int, below: int) -> Line:
        """The steps of ``level`` up to its top card leaving at ``exit`` (``below``: the card
        beneath it)."""
        model, table = self.model, self.table
        top = level.key[2]
        if kind == 3 and exit | 3 << model.kind_at not in level.exits:  # the stock ran out above this level
            own = 1 << top << model.pile_at if top >= 0 else 0
            for upper, state in level.uppers.items():
                if exit & ~own in table.recycled_exits(upper):
                    return [*self.level_line(level, state), _DRAW, *self.exit_line(upper, 3, exit & ~own, top)]
        state = level.exits[exit | kind << model.kind_at]
        line = self.level_line(level, state)
        if kind == 3:  # the stock ran out here
            return line
        if kind == 2:
            return [*line, ("pair", (), (top, below))]
        if model.pile_values[top] == model.lone:
            return [*line, ("king", None, top)]
        free, _, _ = model.pyramid_moves(state & model.full)
        for slot in free:
            if model.values[slot] + model.pile_values[top] == model.pair_sum and state & ~(1 << slot) == exit:
                return [*line, ("pair", (slot,), top)]
        drawn = table.levels[table.drawn_key(level, state)]
        return [*line, _DRAW, *self.exit_line(drawn, 2, exit, top)]

    def frames_line(self, frames: tuple[Frame, ...]) -> Line:
        """The steps from the start of a pass search through ``frames``: exits of the waste's own
        cards, then positions of levels where a card was drawn, the last one reached."""
        line: Line = []
        for i, frame in enumerate(frames):
            if len(frame) == 4:
                line.extend(self.exit_line(*frame))
            else:
                line.extend(self.level_line(*frame))
                if i < len(frames) - 1:
                    line.append(_DRAW)
        return line

