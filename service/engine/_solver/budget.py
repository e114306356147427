"""The node budget every search counts against: ``Budget``, and ``Exhausted``, raised when it runs out.

A budget is a node limit (``total``) and, optionally, a deadline: a ``time.monotonic()`` instant
past which the search stops too (the API's wall-clock bound). The hot loops make one comparison a
position, ``nodes > limit``, where ``limit`` is the next count at which they must stop and ask:
the node limit, or with a deadline the next clock checkpoint (each multiple of ``CHECK_EVERY``
positions, counted from 0 however the count started), whichever is lower. Past it they call
``over(nodes)``, which raises ``Exhausted`` if the deadline is past (reading the clock each time it
is called) or the node limit is, and otherwise returns the next ``limit`` (the count a loop keeps
in a local is written back only when it raises, as at the node limit: a checkpoint changes no
count). Plain ints and floats throughout: compiled (mypyc) as interpreted.

A part of a search gets a smaller share of the budget with ``cap(most)`` (the deadline kept) and
gives it back with ``restore``; ``timed_out`` tells the deadline from the node limit.

Invariant: a search counts each position it visits (``nodes``) and never goes on past ``total``
nor, by more than ``CHECK_EVERY`` positions, past the deadline: it raises ``Exhausted`` instead,
and no verdict is then given (``unknown``), never a guess. The hot loops keep the count in a local
and write it back before raising or returning.

    >>> budget = Budget(5_000, deadline=time.monotonic() + 60)
    >>> budget.limit, budget.total   # (past 1,023: the clock is read at 1,024)
    (1023, 5000)
    >>> budget.over(1_024)   # a checkpoint passed: the next one
    2047
    >>> try:
    ...     budget.over(5_001)
    ... except Exhausted:
    ...     budget.nodes, budget.timed_out   # the node limit, not the deadline
    (5001, False)
    >>> past = Budget(5_000, deadline=time.monotonic() - 1)
    >>> try:
    ...     while True:
    ...         past.count()
    ... except Exhausted:
    ...     (past.nodes, past.timed_out)
    (1024, True)
"""

from __future__ import annotations

import time

#: With a deadline, the clock is read every this many positions (a few milliseconds of search).
CHECK_EVERY = 1024  # (a power of two)


class Exhausted(Exception):
    """The node budget ran out (or its deadline passed: ``Budget.timed_out``)."""


class Budget:
    """``nodes`` counted so far against the node limit ``total`` and the ``deadline`` (a
    ``time.monotonic()`` instant, or None); ``limit`` is the count past which to call ``over``
    (the searches share one per question)."""

    __slots__ = ("nodes", "limit", "total", "deadline", "timed_out")

    def __init__(self, total: int, nodes: int = 0, deadline: float | None = None) -> None:
        self.nodes = nodes
        self.total = total
        self.deadline = deadline
        #: whether the budget ran out at its deadline (not at its node limit)
        self.timed_out = False
        self.limit = self.limit_after(self.nodes)

    def limit_after(self, nodes: int) -> int:
        """The count past which the searches must call ``over``, counted ``nodes`` so far: the
        node limit, or the next clock checkpoint before it (-1 once timed out: at once)."""
        if self.deadline is None:
            return self.total
        if self.timed_out:
            return -1
        return min(self.total, nodes | (CHECK_EVERY - 1))

    def over(self, nodes: int) -> int:
        """Called when the count (``nodes``, a loop's local) is past ``limit``: raises
        ``Exhausted``, the count written back, past the deadline (then ``timed_out``) or the node
        limit; else returns the next ``limit`` (also kept: ``self.limit``)."""
        if self.deadline is not None and (self.timed_out or time.monotonic() > self.deadline):
            self.nodes, self.timed_out, self.limit = nodes, True, -1
            raise Exhausted
        if nodes > self.total:
            self.nodes = nodes
            raise Exhausted
        self.limit = limit = self.limit_after(nodes)
        return limit

    def count(self) -> None:
        """One more position: raises ``Exhausted`` past the limit (or the deadline)."""
        self.nodes += 1
        if self.nodes > self.limit:
            self.over(self.nodes)

    def cap(self, most: int) -> int:
        """Lower the node limit to ``most`` (if lower) for a part of a search, the deadline kept;
        returns the node limit to ``restore`` after it."""
        total = self.total
        if most < total:
            self.total = most
            self.limit = self.limit_after(self.nodes)
        return total

    def restore(self, total: int) -> None:
        """The node limit back to ``total`` (what ``cap`` returned)."""
        self.total = total
        self.limit = self.limit_after(self.nodes)
