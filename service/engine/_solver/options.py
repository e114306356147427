"""How a search is run: ``SearchOptions``, frozen, passed to ``solve``/``hint``/``winnable_deal``.

Invariant: every combination of options gives the same verdicts, the same most-removable counts and
lines that win; the options only choose how the answer is searched (tests compare the searches
with each other by passing options, never by patching the solver).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """``pooled``: under unlimited recycles the pile is a pool (False: the split point and recycles
    kept, as played). ``levels``: limited passes are searched by levels (False: position by
    position). ``relaxed``: a pass is searched only if it is not lost with unlimited passes.
    ``needs``: positions where a pyramid card has too few partners left are cut (in the general
    search, every cut of a lost position: too few partners, lost as a pool).
    ``probe_budget``: positions the depth-first probe searches before the search by levels.
    ``shortest``: how the shortest line is searched, ``"anytime-a*"`` (anytime weighted A* over
    runs of draws), ``"a*"`` (A* over runs of draws, the search it replaced), ``"a*-plain"``
    (move by move, the search before) or ``"breadth-first"`` (the first, kept as their oracle)."""

    pooled: bool = True
    levels: bool = True
    relaxed: bool = True
    needs: bool = True
    probe_budget: int = 3_000
    shortest: str = "anytime-a*"


DEFAULT_OPTIONS = SearchOptions()
