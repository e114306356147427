"""One search of one position for its verdict: whether it is won, and else the most pyramid cards
any line removes. ``Search`` puts the parts together, each given by ``entry``: the ``Model`` of the
deal, its ``Bounds``, the ``Budget``, the depth-first searches (``PooledSearch``), the search by
levels (``LevelSearch``, under a recycle limit with ``SearchOptions.levels``) and the
``LineWriter`` (for the lines the levels keep).

Invariant: ``find_win`` returns a winning line or proves there is none (None), ``most_removed``
the most pyramid cards any line removes; both raise ``Exhausted`` rather than guess when the
budget runs out.
"""

from __future__ import annotations

from .bounds import Bounds
from .levels import Best, LevelSearch
from .lines import LineWriter
from .model import Line, Model, Position, _Found, ones
from .pooled import PooledSearch


class Search:
    """The verdict of one position: ``levels`` is None where passes are not searched by levels
    (no recycle limit, or ``SearchOptions(levels=False)``)."""

    def __init__(
        self, model: Model, bounds: Bounds, pooled: PooledSearch, levels: LevelSearch | None, writer: LineWriter, relaxed: bool
    ) -> None:
        self.model, self.bounds, self.pooled, self.levels, self.writer = model, bounds, pooled, levels, writer
        #: limited passes: a pass is searched only if not lost with unlimited passes
        self.relaxed = relaxed

    def find_win(self, root: Position) -> Line | None:
        """A winning line (steps) from ``root``, [] if it is won already, None if none exists."""
        won, hopeless = self.model.won, self.bounds.hopeless
        if won(root[0], root[1]):
            return []

        def visit(line: Line, child: Position) -> bool:
            if won(child[0], child[1]):
                raise _Found(list(line))
            return not hopeless(child[0], child[1])

        try:
            if hopeless(root[0], root[1]):
                return None
            levels = self.levels
            if levels is None:
                self.pooled.walk(root, visit)
                return None
            # With recycles left, a short depth-first probe first, pairs before draws: it finds
            # most wins at once, where the search by levels, which goes through each level whole
            # before using its exits, may reach a win in a later pass only after a while.
            if root[3] != self.model.limit and self.pooled.probe(root, visit):
                return None  # the probe searched every position
            if self.relaxed and self.pooled.lost_with_unlimited_passes(root[0], root[1]):
                return None
            levels.search_passes(root)
        except _Found as found:
            return found.line
        return None

    def most_removed(self, root: Position) -> tuple[int, Line]:
        """The most pyramid cards removed in any reachable position, and a line reaching it."""
        slots = self.model.slots
        best = Best(ones(root[0]), [])
        levels = self.levels

        def visit(line: Line, child: Position) -> bool:
            left = ones(child[0])
            if left == 0:
                raise _Found(list(line))
            if left < best.left:
                best.left, best.line = left, list(line)
            return True

        try:
            if levels is not None:
                levels.reset(False, best)
                levels.search_passes(root)
            else:
                self.pooled.walk(root, visit)
        except _Found as found:  # every pyramid card removed
            return slots, found.line
        if best.line is None:  # found by levels: the line before the pass, then its frames
            return slots - best.left, [*best.before(), *self.writer.frames_line(best.frames)]
        return slots - best.left, best.line
