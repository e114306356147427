"""An exact solver: is a position winnable, by which line, and how many pyramid cards can any line
remove at most. ``docs/solver.md`` describes it.

The package, one job a module, each part a small typed class given the parts it needs by its
constructor (``entry.Parts`` wires the fast searches' parts):

- ``entry``: the entry points (``solve``, ``hint``, ``winnable_deal``, ``solver_supports``,
  ``check_supported``) and ``Solution``;
- ``options``: ``SearchOptions``, how a search is run (tests pass them in to compare searches);
- ``model``: the tables of a deal, the position's encoding, the moves, when a position is won;
- ``budget``: the positions searched against the node budget, shared by a question's searches;
- ``bounds``: what the pyramid cards still need (the cut of hopeless positions);
- ``pooled``: the depth-first searches (the pile as a pool, every position as played, the probe);
- ``levels``: limited passes searched by levels, and the queue of passes;
- ``shortest``: the A* search for the shortest line, over runs of draws, and ``estimate``, its
  estimate of the moves left;
- ``shortest_plain`` and ``breadth_first``: the searches it replaced (A* move by move, and
  breadth-first), kept as its comparison rows and oracles;
- ``lines``: the line writer (search steps to the engine's moves);
- ``search``: the verdict of one position (is it won, else the most pyramid cards removed), over
  these parts;
- ``general``: the general search, for the rules the fast searches do not model (Tut's Tomb,
  Apophis, Pharaoh, the Spanish deck), over a plain model of the engine's moves,
  ``general_cuts``, its tables of the pyramid and the cuts of lost positions, and
  ``general_shortest``, its shortest line.
"""

from .entry import (
    DEFAULT_NODE_BUDGET,
    UNKNOWN,
    UNWINNABLE,
    WINNABLE,
    Solution,
    check_supported,
    hint,
    solve,
    solver_supports,
    winnable_deal,
)
from .options import DEFAULT_OPTIONS, SearchOptions
from .search import Search

__all__ = [
    "DEFAULT_NODE_BUDGET",
    "DEFAULT_OPTIONS",
    "UNKNOWN",
    "UNWINNABLE",
    "WINNABLE",
    "Search",
    "SearchOptions",
    "Solution",
    "check_supported",
    "hint",
    "solve",
    "solver_supports",
    "winnable_deal",
]
