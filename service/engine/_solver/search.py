"""One search of one position: the model of its deal, with the searches and the line writer, and
the state they share (the node count against the budget, the tables of positions kept).

Invariant: ``find_win`` returns a winning line or proves there is none (None), ``most_removed``
the most pyramid cards any line removes; both raise ``_Exhausted`` rather than guess when the
budget runs out.
"""

from __future__ import annotations

import itertools

from .._state import GameState
from .bounds import Bounds
from .breadth_first import BreadthFirst
from .levels import LevelSearch, _Level
from .lines import LineWriter
from .model import Model, _Found
from .options import DEFAULT_OPTIONS, SearchOptions
from .pooled import PooledSearch
from .estimate import Estimate
from .shortest import ShortestSearch
from .shortest_plain import PlainShortest


class Search(Model, Bounds, PooledSearch, LevelSearch, LineWriter, Estimate, ShortestSearch, PlainShortest, BreadthFirst):
    def __init__(self, state: GameState, budget: int, options: SearchOptions = DEFAULT_OPTIONS) -> None:
        Model.__init__(self, state, options)
        self.init_bounds(options.needs)
        self.options = options
        self.budget = budget
        self.nodes = 0
        #: limited passes are searched by levels (see ``level``); False searches them position by position
        self.summaries = options.levels
        self.levels: dict[tuple, _Level] = {}
        self.passes: dict[int, int] = {}  # each pass searched: the fewest recycles used to reach it
        self.recycled_seen: set[int] = set()  # pyramid | waste << pile_at | recycles << waste_end, recycled
        # for ``pass_key`` (limited passes): per 8 pile positions and each subset of them, the
        # values of its cards (4 bits each, the first lowest) and their number
        self.value_chunks = [self.packed_values(base) for base in range(0, len(self.pile), 8)] if self.by_levels else []
        self.pending: list[tuple] = []  # the passes queued, see ``search_passes``
        self.queued = itertools.count()  # (which was queued first: the last tie-break)
        #: (pyramid, removed) positions proved lost, or winnable, with the pile as a pool (see
        #: ``lost_with_unlimited_passes``)
        self.pool_lost: set[int] = set()
        self.pool_won: set[int] = set()
        #: limited passes: a pass is searched only if not lost with unlimited passes
        self.relaxed = options.relaxed
        self.chain = 0
        self.frames: list = []
        self.before = list
        self.prune = True
        self.best: list = [self.slots + 1, None]
        #: the shortest line the shortest-line search had found when the budget ran out (``shortest``)
        self.found: list | None = None

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
            return self.slots, found.line
        left, line = self.best
        if isinstance(line, tuple):  # found by levels: (line before the pass, frames)
            before, frames = line
            line = [*before(), *self.frames_line(frames)]
        return self.slots - left, line

    @property
    def by_levels(self) -> bool:
        return self.summaries and self.limit is not None

