"""004's notice that no win is left: «El juego te notificará si ya no hay posibilidad de ganar el
juego.» (the ``notify_unwinnable`` option).

The outlook is the solver's verdict on the position within a small budget: ``unknown`` when the
budget runs out, never a wrong ``unwinnable``; ``unknown`` too under rules the solver does not
search. A move that leaves a game still in play unwinnable adds the event ``no_win_left``, and the
feedback ``no_win_left`` unless the move has feedback of its own.

The search is the caller's to bound: ``budget`` positions, and ``solver`` (the engine's ``solve``
by default) may be one that runs it elsewhere (the API's solver pool, under a deadline) as long as
it answers as ``solve`` does, ``unknown`` when it cannot search.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ._play import Event, Turn
from ._solver import Solution, solve, solver_supports
from ._state import GameState
from ._status import PLAYING

Solver = Callable[..., Solution]


def outlook(state: GameState, *, budget: int, solver: Solver = solve) -> str | None:
    """004's outlook on ``state``: ``winnable``, ``unwinnable`` or ``unknown`` under rules that
    ``notify_unwinnable``; None under the others (nothing is searched). ``solver`` is called as
    ``solver(state, budget=budget, max_removable=False)``."""
    if not state.rules.notify_unwinnable:
        return None
    if not solver_supports(state.rules):
        return "unknown"
    return solver(state, budget=budget, max_removable=False).result


def foresee(turn: Turn, *, budget: int, solver: Solver = solve) -> Turn:
    """``turn`` with 004's outlook on the position it leaves (``outlook``), and, when that is
    ``unwinnable`` while the game is still in play, the event ``no_win_left`` and, unless the move
    has feedback of its own, the feedback ``no_win_left``. Under rules that do not
    ``notify_unwinnable``, ``turn`` itself."""
    seen = outlook(turn.state, budget=budget, solver=solver)
    if seen is None:
        return turn
    if seen == "unwinnable" and turn.state.status == PLAYING:
        return replace(turn, outlook=seen, events=(*turn.events, Event("no_win_left")), feedback=turn.feedback or "no_win_left")
    return replace(turn, outlook=seen)
