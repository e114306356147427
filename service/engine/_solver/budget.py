"""The node budget every search counts against: ``Budget``, and ``Exhausted``, raised when it runs out.

A budget may be a ``Deadline`` (``service.api``): an int that also runs out at a time, checked when
compared as ``nodes > limit`` (the count on the left), so the searches always compare that way.

Invariant: a search counts each position it visits (``nodes``) and never goes on past ``limit``:
it raises ``Exhausted`` instead, and no verdict is then given (``unknown``), never a guess. The
hot loops keep the count in a local and write it back before raising or returning.
"""

from __future__ import annotations


class Exhausted(Exception):
    """The node budget ran out."""


class Budget:
    """``nodes`` counted so far against ``limit`` (the searches share one per question)."""

    __slots__ = ("nodes", "limit")

    def __init__(self, limit: int, nodes: int = 0) -> None:
        self.limit = limit
        self.nodes = nodes

    def count(self) -> None:
        """One more position: raises ``Exhausted`` past the limit."""
        self.nodes += 1
        if self.nodes > self.limit:
            raise Exhausted
